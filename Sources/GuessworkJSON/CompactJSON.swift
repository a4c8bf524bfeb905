import Foundation

/// Encodes `Encodable` values as compact JSON, written straight into bytes as the value
/// encodes itself.
///
/// Foundation's `JSONEncoder` first builds a tree of boxed values and then serialises it:
/// on a move it was the largest part of the server's time (BENCHMARKS.md). This encoder
/// writes each key and value as it comes, so keys appear in the order a type encodes them
/// (declaration order for synthesised `Codable`), not sorted; the output is otherwise what
/// `JSONEncoder` writes with `.withoutEscapingSlashes`: the same escapes, whole numbers
/// without a fraction, `Data` as Base64, a `URL` as its string, and an error for a
/// non-finite number.
///
/// A value typed as writing itself (`JSONTextWritable`: every value a game hands the server,
/// the server's replies) takes the overloads that call its writer directly; any other value is
/// asked at run time whether it writes itself, which costs a look-up in the runtime's table of
/// conformances.
public enum CompactJSON {
  /// The JSON of `value`, as UTF-8 bytes.
  public static func encode(_ value: some Encodable) throws -> [UInt8] {
    try written { try $0.writeJSON(value: value) }.bytes
  }

  public static func encode(_ value: some JSONTextWritable) throws -> [UInt8] {
    try written { try $0.writeJSON(value: value) }.bytes
  }

  /// The JSON of `value`, as text.
  public static func string(_ value: some Encodable) throws -> String {
    try written { try $0.writeJSON(value: value) }.string
  }

  public static func string(_ value: some JSONTextWritable) throws -> String {
    try written { try $0.writeJSON(value: value) }.string
  }

  /// The text `write` writes, one value, every container it opened closed (2 KB made room for
  /// at once: a Number game's state or reply is over 1 KB after a few guesses).
  private static func written(_ write: (Writer) throws -> Void) throws -> JSONText {
    let writer = Writer(reserving: 2048)
    try write(writer)
    writer.close(above: -1)
    return writer
  }
}

/// The output of one encoding (the text, ``JSONText``), and the containers open in it.
///
/// Containers are only ever used in order (a value finishes before its parent writes the next
/// key), so one stack of open containers is enough: whenever a container writes, any deeper
/// container still open belongs to a value that has finished, and is closed first.
///
/// One encoding runs on one thread, so its properties skip the runtime's exclusivity checks
/// (they were a few percent of a move).
private final class Writer: JSONText {
  /// Open containers, outermost first.
  @exclusivity(unchecked) private var frames: [Frame] = []
  /// A key or an array position has been written and waits for its value.
  @exclusivity(unchecked) private var awaitingValue = false

  private struct Frame {
    var isObject: Bool
    var isEmpty = true
  }

  override init(reserving capacity: Int) {
    super.init(reserving: capacity)
    frames.reserveCapacity(8)
  }

  /// A value that does not write itself, in the place of one value: at the top, or where a
  /// value that writes itself asks for one it holds. (Inside Codable's containers a value goes
  /// through `encodeValue`, which does not ask whether it writes itself, so that the types that
  /// do not pay nothing for the question.)
  override func writeJSON<T: Encodable>(codable value: T) throws {
    awaitingValue = true
    try encodeValue(value)
  }

  /// The container at `depth` of a value: opened now if the value has just begun, or found
  /// again when the value asks a second time.
  func open(isObject: Bool, at depth: Int) -> Int {
    if awaitingValue, frames.count == depth {
      append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
      frames.append(Frame(isObject: isObject))
      awaitingValue = false
      return depth
    }
    close(above: depth)
    precondition(
      frames.count == depth + 1 && frames[depth].isObject == isObject,
      "A value asked for two different kinds of container.")
    return depth
  }

  // MARK: Writing, for the containers

  /// Closes every container deeper than `frame`; a value that wrote nothing becomes `{}`,
  /// as in `JSONEncoder`.
  func close(above frame: Int) {
    if awaitingValue {
      writeJSON(raw: "{}")
      awaitingValue = false
    }
    while frames.count > frame + 1 {
      let closing = frames.removeLast()
      append(closing.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
  }

  /// Starts the next element of the container at `frame`: its key, if it has one.
  func beginElement(in frame: Int, key: String?) {
    close(above: frame)
    if frames[frame].isEmpty {
      frames[frame].isEmpty = false
    } else {
      append(UInt8(ascii: ","))
    }
    if let key {
      writeJSON(string: key)
      append(UInt8(ascii: ":"))
    }
    awaitingValue = true
  }

  // Each writes one value in the place waiting for it.

  /// A value has been written in the place waiting for it, by itself (`JSONTextWritable`).
  func wrote() {
    awaitingValue = false
  }

  func writeRaw(_ text: StaticString) {
    writeJSON(raw: text)
    awaitingValue = false
  }

  func writeBool(_ value: Bool) {
    writeJSON(bool: value)
    awaitingValue = false
  }

  func writeInteger<T: BinaryInteger>(_ value: T) {
    writeJSON(integer: value)
    awaitingValue = false
  }

  func writeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T)
    throws
  {
    try writeJSON(number: value)
    awaitingValue = false
  }

  func writeString(_ string: String) {
    writeJSON(string: string)
    awaitingValue = false
  }

  /// Writes a value of any type into the place waiting for it.
  func encodeValue<T: Encodable>(_ value: T) throws {
    // The types JSONEncoder treats specially, and the common ones, without going through
    // their own `encode(to:)`.
    if T.self == String.self {
      writeString(value as! String)
    } else if T.self == Int.self {
      writeInteger(value as! Int)
    } else if T.self == Bool.self {
      writeBool(value as! Bool)
    } else if T.self == Double.self {
      try writeFloatingPoint(value as! Double)
    } else if T.self == Data.self {
      writeString((value as! Data).base64EncodedString())
    } else if T.self == URL.self {
      writeString((value as! URL).absoluteString)
    } else {
      let depth = frames.count
      try value.encode(to: Slot(writer: self, depth: depth))
      close(above: depth - 1)
    }
  }
}

/// The encoder a value encodes itself to: the place of one value, `depth` containers deep.
private struct Slot: JSONTextEncoder {
  let writer: Writer
  let depth: Int

  func writeJSON(value: some JSONTextWritable) throws {
    try value.writeJSON(to: writer)
    writer.wrote()
  }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      KeyedContainer<Key>(writer: writer, frame: writer.open(isObject: true, at: depth)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(writer: writer, frame: writer.open(isObject: false, at: depth))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(writer: writer)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let writer: Writer
  let frame: Int

  var codingPath: [any CodingKey] { [] }

  private func begin(_ key: Key) {
    writer.beginElement(in: frame, key: key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws {
    begin(key)
    writer.writeRaw("null")
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    begin(key)
    writer.writeBool(value)
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    begin(key)
    writer.writeString(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    begin(key)
    try writer.writeFloatingPoint(value)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    begin(key)
    try writer.writeFloatingPoint(value)
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int8, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int16, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int32, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    begin(key)
    writer.writeInteger(value)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    begin(key)
    try writer.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    begin(key)
    return Slot(writer: writer, depth: frame + 1).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    begin(key)
    return Slot(writer: writer, depth: frame + 1).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    writer.beginElement(in: frame, key: "super")
    return Slot(writer: writer, depth: frame + 1)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    begin(key)
    return Slot(writer: writer, depth: frame + 1)
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let writer: Writer
  let frame: Int
  private(set) var count = 0

  init(writer: Writer, frame: Int) {
    self.writer = writer
    self.frame = frame
  }

  var codingPath: [any CodingKey] { [] }

  private mutating func begin() {
    writer.beginElement(in: frame, key: nil)
    count += 1
  }

  mutating func encodeNil() throws {
    begin()
    writer.writeRaw("null")
  }

  mutating func encode(_ value: Bool) throws {
    begin()
    writer.writeBool(value)
  }

  mutating func encode(_ value: String) throws {
    begin()
    writer.writeString(value)
  }

  mutating func encode(_ value: Double) throws {
    begin()
    try writer.writeFloatingPoint(value)
  }

  mutating func encode(_ value: Float) throws {
    begin()
    try writer.writeFloatingPoint(value)
  }

  mutating func encode(_ value: Int) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int8) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int16) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int32) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: Int64) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt8) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt16) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt32) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode(_ value: UInt64) throws {
    begin()
    writer.writeInteger(value)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    begin()
    try writer.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    begin()
    return Slot(writer: writer, depth: frame + 1).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    begin()
    return Slot(writer: writer, depth: frame + 1).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    begin()
    return Slot(writer: writer, depth: frame + 1)
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let writer: Writer

  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { writer.writeRaw("null") }
  mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
  mutating func encode(_ value: String) throws { writer.writeString(value) }
  mutating func encode(_ value: Double) throws {
    try writer.writeFloatingPoint(value)
  }
  mutating func encode(_ value: Float) throws {
    try writer.writeFloatingPoint(value)
  }
  mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
  mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
  mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
  mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
  mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
  mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
  mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
  mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
  mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
  mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
  mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value) }
}
