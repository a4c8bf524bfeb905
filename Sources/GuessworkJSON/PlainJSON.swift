public import Foundation

/// Decodes small, plain JSON documents (an action a player sends) without Foundation's
/// `JSONDecoder`, which costs about 3.8 µs for a move's 60-byte body, against 1.4 here
/// (BENCHMARKS.md, "Engines").
///
/// It reads only a plain subset of JSON: objects, strings with no escapes and only ASCII,
/// whole numbers of at most 18 digits, `true`, `false` and `null`, with no key twice in an
/// object. On anything else it gives up and the caller decodes with `JSONDecoder`: a document
/// outside that subset (an array, a fraction, an escape, a duplicate key), a type `JSONDecoder`
/// treats specially (`Data`, `URL`, `Date`, `Decimal`), a number it cannot be sure to convert
/// as `JSONDecoder` would, or any error at all, so every error a client sees is
/// `JSONDecoder`'s own. Giving up is remembered even when a type's own decoder catches the
/// error and tries something else (`try?`), so a value is never read differently.
/// A differential test holds it to reading what `JSONDecoder` reads, to the same value.
public enum PlainJSON {
  /// `T` from `bytes`, or nil when they are not plain JSON or `T` does not decode from them.
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: Data) -> T? {
    Document(bytes).decode(type)
  }

  /// `T` from `bytes`: read here when they are plain, else by `JSONDecoder`, whose error
  /// is thrown when they do not make a `T`.
  public static func read<T: Decodable>(_ type: T.Type, from bytes: Data) throws -> T {
    try Document(bytes).read(type)
  }

  /// A document parsed once and then decoded as more than one type: a play socket's message
  /// is read for the game it names, then by that game's engine for its action.
  public struct Document: Sendable {
    /// The document as it came, for `JSONDecoder` when it is not plain.
    public let bytes: Data
    /// The parsed value, when the whole document is plain JSON.
    let value: Value?

    public init(_ bytes: Data) {
      self.bytes = bytes
      value = bytes.withUnsafeBytes { raw in
        var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == reader.bytes.count ? value : nil
      }
    }

    /// `T`, or nil when the document is not plain JSON or `T` does not decode from it.
    public func decode<T: Decodable>(_ type: T.Type) -> T? {
      guard let value else { return nil }
      let attempt = Attempt()
      let decoded = try? T(from: ValueDecoder(value: value, codingPath: [], attempt: attempt))
      return attempt.gaveUp ? nil : decoded
    }

    /// `T`: read here when the document is plain, else by `JSONDecoder`, whose error is
    /// thrown when it does not make a `T`.
    public func read<T: Decodable>(_ type: T.Type) throws -> T {
      if let plain = decode(type) { return plain }
      return try JSONDecoder().decode(type, from: bytes)
    }

    // The members of a plain document's object, read without a Codable container for the
    // object: for the two members of a move's body, that container (its box, its key type's
    // metadata) cost nearly as much as reading the members (engine benchmarks).

    /// The value of member `key`, when the document is a plain object that has it.
    func member(_ key: String) -> Value? {
      guard case .object(let members)? = value else { return nil }
      return members.first { $0.key == key }?.value
    }

    /// The whole number in member `key`, when the document is a plain object that has one.
    public func integer(_ key: String) -> Int? {
      guard case .integer(let number)? = member(key) else { return nil }
      return number
    }

    /// `T` from member `key`, or nil when the document is not a plain object with that
    /// member, or `T` does not decode from it.
    public func decode<T: Decodable>(_ type: T.Type, at key: String) -> T? {
      guard let found = member(key) else { return nil }
      let attempt = Attempt()
      let decoded = try? attempt.decode(type, from: found, at: [])
      return attempt.gaveUp ? nil : decoded
    }

    /// The names in the object in member `key`, when the document is a plain object with an
    /// object there.
    public func memberNames(of key: String) -> [String]? {
      guard case .object(let members)? = member(key) else { return nil }
      return members.map(\.key)
    }
  }

  /// A parsed plain JSON value.
  enum Value: Sendable {
    case object([(key: String, value: Value)])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
  }

  /// Reads a value from bytes, nil as soon as something is not plain JSON.
  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Deep enough for any action (an object in an object); deeper is not plain.
    static let maximumDepth = 8
    /// Keys in one object; more is not plain.
    static let maximumKeys = 32

    mutating func skipSpace() {
      while position < bytes.count {
        switch bytes[position] {
        case 0x20, 0x09, 0x0A, 0x0D: position += 1
        default: return
        }
      }
    }

    mutating func value(depth: Int) -> Value? {
      skipSpace()
      guard position < bytes.count else { return nil }
      switch bytes[position] {
      case UInt8(ascii: "{"): return depth < Self.maximumDepth ? object(depth: depth) : nil
      case UInt8(ascii: "\""): return string().map(Value.string)
      case UInt8(ascii: "t"): return word("true", .bool(true))
      case UInt8(ascii: "f"): return word("false", .bool(false))
      case UInt8(ascii: "n"): return word("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
      default: return nil
      }
    }

    mutating func object(depth: Int) -> Value? {
      position += 1
      var members: [(key: String, value: Value)] = []
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""),
          let key = string(), !members.contains(where: { $0.key == key }),
          members.count < Self.maximumKeys
        else { return nil }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
        position += 1
        guard let value = value(depth: depth + 1) else { return nil }
        members.append((key, value))
        skipSpace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: ","): position += 1
        case UInt8(ascii: "}"):
          position += 1
          return .object(members)
        default: return nil
        }
      }
    }

    /// A string of printable ASCII with no escape.
    mutating func string() -> String? {
      let start = position + 1
      var end = start
      while end < bytes.count {
        let byte = bytes[end]
        if byte == UInt8(ascii: "\"") { break }
        guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
        end += 1
      }
      guard end < bytes.count else { return nil }
      position = end + 1
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    mutating func word(_ text: StaticString, _ value: Value) -> Value? {
      let count = text.utf8CodeUnitCount
      guard position + count <= bytes.count else { return nil }
      for index in 0..<count where bytes[position + index] != text.utf8Start[index] {
        return nil
      }
      position += count
      return value
    }

    /// `-?(0|[1-9][0-9]*)` with at most 18 digits, so it fits in an `Int`; nil if a fraction
    /// or an exponent follows.
    mutating func integer() -> Value? {
      let negative = bytes[position] == UInt8(ascii: "-")
      if negative { position += 1 }
      let start = position
      var magnitude = 0
      while position < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
      {
        guard position - start < 18 else { return nil }
        magnitude = magnitude * 10 + Int(bytes[position] - UInt8(ascii: "0"))
        position += 1
      }
      let digits = position - start
      guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else {
        return nil
      }
      if position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: break
        }
      }
      return .integer(negative ? -magnitude : magnitude)
    }
  }

  /// One decoding, and whether it gave up on something only `JSONDecoder` can tell.
  final class Attempt {
    var gaveUp = false

    /// Gives up: this decoding's result, whatever it is, will not be used.
    func giveUp() -> any Error {
      gaveUp = true
      return GaveUp()
    }

    func text(_ value: Value) throws -> String {
      guard case .string(let text) = value else { throw Mismatch() }
      return text
    }

    func flag(_ value: Value) throws -> Bool {
      guard case .bool(let flag) = value else { throw Mismatch() }
      return flag
    }

    /// A whole number as `I`; one out of its range is an error for `JSONDecoder` too.
    func integer<I: FixedWidthInteger>(_ value: Value, as type: I.Type) throws -> I {
      guard case .integer(let number) = value else { throw Mismatch() }
      guard let exact = I(exactly: number) else { throw Mismatch() }
      return exact
    }

    /// A whole number, exact in `F` (up to 2^53 in a `Double`, 2^24 in a `Float`); a larger
    /// one is rounded, and left to `JSONDecoder` to round.
    func floatingPoint<F: BinaryFloatingPoint>(_ value: Value, as type: F.Type) throws -> F {
      guard case .integer(let number) = value else { throw Mismatch() }
      guard number.magnitude <= 1 << (F.significandBitCount + 1) else { throw giveUp() }
      return F(number)
    }

    /// `T` from `value`: the common scalars read here, the types `JSONDecoder` treats
    /// specially left to it, anything else by decoding itself.
    func decode<T: Decodable>(_ type: T.Type, from value: Value, at path: [any CodingKey])
      throws -> T
    {
      // The types JSONDecoder reads its own way are left to it, whatever the value; told
      // apart by identity, as is an object below, because asking the runtime whether `T`
      // conforms to a protocol, as the cases of the switch do, cost a move about a
      // microsecond (perf).
      if T.self == Data.self || T.self == URL.self || T.self == Date.self
        || T.self == Decimal.self
      {
        throw giveUp()
      }
      // An object (an action, say) is no scalar: it decodes itself (a scalar asked of an
      // object fails in its own decoding, as in the cases below).
      if case .object = value {
        return try T(from: ValueDecoder(value: value, codingPath: path, attempt: self))
      }
      switch type {
      case is String.Type: return try text(value) as! T
      case is Bool.Type: return try flag(value) as! T
      case let whole as any FixedWidthInteger.Type: return try integer(value, as: whole) as! T
      case is Double.Type: return try floatingPoint(value, as: Double.self) as! T
      case is Float.Type: return try floatingPoint(value, as: Float.self) as! T
      case is any BinaryInteger.Type, is any FloatingPoint.Type:
        // A number of another kind.
        throw giveUp()
      default:
        return try T(from: ValueDecoder(value: value, codingPath: path, attempt: self))
      }
    }
  }

  /// What a value is not, where `JSONDecoder` would fail too (a string asked for a number).
  struct Mismatch: Error {}
  /// What only `JSONDecoder` can tell.
  struct GaveUp: Error {}

  struct ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    let attempt: Attempt
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      guard case .object(let members) = value else { throw Mismatch() }
      return KeyedDecodingContainer(
        Keyed(members: members, codingPath: codingPath, attempt: attempt))
    }

    /// Plain JSON has no arrays, so there is none to give.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Mismatch() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      Single(value: value, codingPath: codingPath, attempt: attempt)
    }
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: Value)]
    let codingPath: [any CodingKey]
    let attempt: Attempt

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    func member(_ key: Key) throws -> Value {
      guard let found = members.first(where: { $0.key == key.stringValue }) else {
        throw Mismatch()
      }
      return found.value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      if case .null = try member(key) { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try attempt.decode(type, from: try member(key), at: codingPath + [key])
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try attempt.text(member(key))
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try attempt.flag(member(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try attempt.floatingPoint(member(key), as: type)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try attempt.floatingPoint(member(key), as: type)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
      try attempt.integer(member(key), as: type)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
      try attempt.integer(member(key), as: type)
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      try ValueDecoder(value: try member(key), codingPath: codingPath + [key], attempt: attempt)
        .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw Mismatch()
    }

    func superDecoder() throws -> any Decoder { throw attempt.giveUp() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw attempt.giveUp() }
  }

  struct Single: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]
    let attempt: Attempt

    func decodeNil() -> Bool {
      if case .null = value { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try attempt.decode(type, from: value, at: codingPath)
    }

    func decode(_ type: String.Type) throws -> String { try attempt.text(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try attempt.flag(value) }
    func decode(_ type: Double.Type) throws -> Double {
      try attempt.floatingPoint(value, as: type)
    }
    func decode(_ type: Float.Type) throws -> Float { try attempt.floatingPoint(value, as: type) }
    func decode(_ type: Int.Type) throws -> Int { try attempt.integer(value, as: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try attempt.integer(value, as: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try attempt.integer(value, as: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try attempt.integer(value, as: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try attempt.integer(value, as: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try attempt.integer(value, as: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try attempt.integer(value, as: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try attempt.integer(value, as: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try attempt.integer(value, as: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try attempt.integer(value, as: type) }
  }
}
