/// JSON text being written: its bytes, and how each kind of value is written into them (the
/// escapes and number forms `JSONEncoder` uses with `.withoutEscapingSlashes`).
///
/// A value that writes its own text (``JSONTextWritable``) is given this class itself, not an
/// encoder it would be generic over: the games' writers are compiled against these methods,
/// each a direct call, where through a protocol every piece of text was a call through a
/// witness table and every array a generic one (writing a move's reply went from 5.4% to 4.0%
/// of the server's CPU in the socket move loop's profile: BENCHMARKS.md, "2026-11-28 (day)").
///
/// A value that does not write itself is written through `Codable` by the encoder that owns
/// the text (the server's `CompactJSON`, a subclass); this class alone refuses such a value.
open class JSONText {
  // The text so far, as UTF-8, in memory of its own: a piece of text is copied in after one
  // comparison, where an array's `append(contentsOf:)` checked that it held its storage alone
  // and went through a generic copy, a tenth of writing a game's view (engine benchmarks). One
  // writing runs on one thread, so accesses skip the runtime's exclusivity checks (they were a
  // few percent of a move).
  @exclusivity(unchecked) @usableFromInline final var start: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) @usableFromInline final var count = 0
  @exclusivity(unchecked) @usableFromInline final var capacity: Int

  /// `capacity`: the bytes to make room for at once.
  public init(reserving capacity: Int = 1024) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit {
    start.deallocate()
  }

  /// The text so far.
  public final var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

  /// The text so far, as a string.
  public final var string: String {
    String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }

  /// Appends one byte.
  @inlinable public final func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: count + 1) }
    start[count] = byte
    count += 1
  }

  /// Appends bytes.
  @inlinable public final func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
    (start + count).initialize(from: base, count: bytes.count)
    count += bytes.count
  }

  /// Moves the text to memory that holds at least `needed` bytes (twice as much as before).
  @usableFromInline final func grow(toHold needed: Int) {
    let larger = max(capacity * 2, needed)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: start, count: count)
    start.deallocate()
    start = moved
    capacity = larger
  }

  /// JSON written as it is (a value may write several pieces, which must make one value).
  @inlinable public final func writeJSON(raw text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inlinable public final func writeJSON(bool: Bool) {
    writeJSON(raw: bool ? "true" : "false")
  }

  /// A whole number, in decimal.
  @inlinable public final func writeJSON<T: BinaryInteger>(integer value: T) {
    guard let magnitude = UInt64(exactly: value.magnitude) else {
      var text = String(value)
      text.withUTF8 { append($0) }
      return
    }
    if value < 0 { append(UInt8(ascii: "-")) }
    if magnitude < 10 {
      append(UInt8(ascii: "0") + UInt8(magnitude))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var rest = magnitude
      var start = 20
      while rest > 0 {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      append(UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// A finite number: a whole one without a fraction, as `JSONEncoder` writes it; a
  /// non-finite one is an error.
  @inlinable public final func writeJSON<T: BinaryFloatingPoint & LosslessStringConvertible>(
    number value: T
  ) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: [], debugDescription: "\(value) is not a number JSON can hold."))
    }
    if value.rounded() == value, abs(value) < 1e15 {
      writeJSON(integer: Int64(value))
    } else {
      var text = value.description
      text.withUTF8 { append($0) }
    }
  }

  /// A JSON string: quoted, with `"`, `\` and the control characters escaped.
  @inlinable public final func writeJSON(string: String) {
    append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0D: append(UInt8(ascii: "r"))
        default:
          let hex: StaticString = "0123456789abcdef"
          writeJSON(raw: "u00")
          append(hex.utf8Start[Int(byte >> 4)])
          append(hex.utf8Start[Int(byte & 0xF)])
        }
      }
      append(UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    append(UInt8(ascii: "\""))
  }

  /// The numbers as a JSON array.
  public final func writeJSON(integers: [Int]) {
    writeJSON(raw: "[")
    for index in integers.indices {
      if index != integers.startIndex { writeJSON(raw: ",") }
      writeJSON(integer: integers[index])
    }
    writeJSON(raw: "]")
  }

  /// The values as a JSON array, each written as it writes itself.
  public final func writeJSON(array: [some JSONTextWritable]) throws {
    writeJSON(raw: "[")
    for index in array.indices {
      if index != array.startIndex { writeJSON(raw: ",") }
      try array[index].writeJSON(to: self)
    }
    writeJSON(raw: "]")
  }

  /// A value that writes itself, in the place of one value: a direct call.
  public final func writeJSON(value: some JSONTextWritable) throws {
    try value.writeJSON(to: self)
  }

  /// Any value, in the place of one value: as it writes itself if it does (the runtime is
  /// asked, which costs a look-up: values typed as writable take the overload above), else
  /// through ``writeJSON(codable:)``.
  public final func writeJSON<T: Encodable>(value: T) throws {
    if let writable = value as? any JSONTextWritable {
      try writable.writeJSON(to: self)
    } else {
      try writeJSON(codable: value)
    }
  }

  // A member of a value whose writer is generated (`@WireUnion`): the generated code names
  // no type, so the compiler picks the most fitting of these for each member.

  @inlinable public final func writeJSON(field: Int) throws { writeJSON(integer: field) }
  @inlinable public final func writeJSON(field: Bool) throws { writeJSON(bool: field) }
  @inlinable public final func writeJSON(field: String) throws { writeJSON(string: field) }
  @inlinable public final func writeJSON(field: Double) throws { try writeJSON(number: field) }
  public final func writeJSON(field: some JSONTextWritable) throws { try field.writeJSON(to: self) }
  /// An enum of strings, as its synthesized `Codable` writes it: its raw value.
  public final func writeJSON<T: RawRepresentable & Encodable>(field: T) throws
  where T.RawValue == String {
    writeJSON(string: field.rawValue)
  }
  /// Any other value, as `writeJSON(value:)` writes it (asking the runtime).
  public final func writeJSON<T: Encodable>(field: T) throws { try writeJSON(value: field) }

  /// A value that does not write its own text, in the place of one value: written through
  /// `Codable` by the encoder that owns this text (`CompactJSON` overrides this); this class
  /// alone refuses it.
  open func writeJSON<T: Encodable>(codable value: T) throws {
    throw EncodingError.invalidValue(
      value,
      .init(codingPath: [], debugDescription: "\(T.self) does not write its own JSON text."))
  }
}

/// An encoder that writes JSON text and takes a value's text as it is: a type encoded often
/// (``Message``) writes itself there without Codable's containers, which cost an allocation
/// and a type lookup each. The server's encoder (`CompactJSON`) is one; any other encoder
/// gets the same JSON through `Codable`.
public protocol JSONTextEncoder: Encoder {
  /// Writes `value` as it writes itself, in place of the value this encoder was given.
  func writeJSON(value: some JSONTextWritable) throws
}

/// A value that writes its own JSON text (``JSONText``): the JSON its `encode(to:)` makes,
/// the same keys with the same values, without Codable's containers. For the values a server
/// encodes at every move and every read (a game's state and view, the reply around them),
/// where those containers were most of the encoding's time (BENCHMARKS.md).
/// `CompactJSONTests` holds every game's text to Foundation's encoding of the same value.
///
/// A type may conform without writing itself: it is then written through `Codable` by the
/// encoder that owns the text (``JSONText/writeJSON(codable:)``). Every value a game hands the
/// server (the game, its actions, events, view and summary: ``Game``) is writable, so that the
/// server writes each without asking the runtime whether it writes itself.
public protocol JSONTextWritable: Encodable {
  func writeJSON(to text: JSONText) throws
}

extension JSONTextWritable {
  /// Through `Codable`, by the encoder that owns the text.
  public func writeJSON(to text: JSONText) throws {
    try text.writeJSON(codable: self)
  }
}
