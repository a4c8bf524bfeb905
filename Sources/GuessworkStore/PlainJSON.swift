public import Foundation

/// Decodes small, plain JSON documents (an action a player sends) without Foundation's
/// `JSONDecoder`, which costs about 5 µs for a 60-byte body: about 5% of a move's server CPU
/// (BENCHMARKS.md).
///
/// It reads only a plain subset of JSON: objects, strings with no escapes and only ASCII,
/// whole numbers of at most 18 digits, `true`, `false` and `null`, with no key twice in an
/// object. On anything else (an array, a fraction, an escape, a duplicate key, a value the
/// type refuses) it gives up and answers nil, and the caller decodes with `JSONDecoder`, which
/// then also says exactly what is wrong. So a body this reads decodes to what `JSONDecoder`
/// makes of it, and every error is `JSONDecoder`'s own (a differential test holds it to both).
public enum PlainJSON {
  /// `T` from `bytes`, or nil when they are not plain JSON or `T` does not decode from them.
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: Data) -> T? {
    let value: Value? = bytes.withUnsafeBytes { raw in
      var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
      guard let value = reader.value(depth: 0) else { return nil }
      reader.skipSpace()
      return reader.position == reader.bytes.count ? value : nil
    }
    guard let value else { return nil }
    return try? T(from: ValueDecoder(value: value, codingPath: []))
  }

  /// A parsed plain JSON value.
  enum Value {
    case object([(key: String, value: Value)])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null

    func text() throws -> String {
      guard case .string(let text) = self else { throw NotPlain() }
      return text
    }

    func flag() throws -> Bool {
      guard case .bool(let flag) = self else { throw NotPlain() }
      return flag
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
      guard case .integer(let number) = self, let exact = I(exactly: number) else {
        throw NotPlain()
      }
      return exact
    }

    /// Exactly as the digits say: whole numbers up to 2^53 are exact in a `Double`.
    func double() throws -> Double {
      guard case .integer(let number) = self, number.magnitude <= 1 << 53 else {
        throw NotPlain()
      }
      return Double(number)
    }
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
      if position < bytes.count,
        [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position])
      {
        return nil
      }
      return .integer(negative ? -magnitude : magnitude)
    }
  }

  /// Thrown whenever a type asks for something the value is not; the caller then decodes
  /// with `JSONDecoder`, so no one sees it.
  struct NotPlain: Error {}

  struct ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      guard case .object(let members) = value else { throw NotPlain() }
      return KeyedDecodingContainer(Keyed(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotPlain() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      Single(value: value, codingPath: codingPath)
    }
  }

  /// `T` from `value`: the scalars read here, anything else by decoding itself.
  static func decode<T: Decodable>(_ type: T.Type, from value: Value, at path: [any CodingKey])
    throws -> T
  {
    switch type {
    case is String.Type: return try value.text() as! T
    case is Bool.Type: return try value.flag() as! T
    case is Int.Type: return try value.integer(Int.self) as! T
    case is Int64.Type: return try value.integer(Int64.self) as! T
    case is Double.Type: return try value.double() as! T
    // Types Foundation's decoder treats specially (Data as Base64, a URL as a string...),
    // and the other numbers: left to it.
    case is Data.Type, is URL.Type, is Date.Type, is Decimal.Type, is any BinaryInteger.Type,
      is any FloatingPoint.Type:
      throw NotPlain()
    default:
      return try T(from: ValueDecoder(value: value, codingPath: path))
    }
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: Value)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    func member(_ key: Key) throws -> Value {
      guard let found = members.first(where: { $0.key == key.stringValue }) else {
        throw NotPlain()
      }
      return found.value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      if case .null = try member(key) { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try PlainJSON.decode(type, from: try member(key), at: codingPath + [key])
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).text() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).flag() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try member(key).double()
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw NotPlain() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      try member(key).integer(type)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw NotPlain() }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw NotPlain() }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw NotPlain() }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try member(key).integer(type)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw NotPlain() }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw NotPlain() }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw NotPlain() }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw NotPlain() }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw NotPlain() }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      try ValueDecoder(value: try member(key), codingPath: codingPath + [key]).container(
        keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw NotPlain()
    }

    func superDecoder() throws -> any Decoder { throw NotPlain() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw NotPlain() }
  }

  struct Single: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
      if case .null = value { return true }
      return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try PlainJSON.decode(type, from: value, at: codingPath)
    }

    func decode(_ type: String.Type) throws -> String { try value.text() }
    func decode(_ type: Bool.Type) throws -> Bool { try value.flag() }
    func decode(_ type: Double.Type) throws -> Double { try value.double() }
    func decode(_ type: Float.Type) throws -> Float { throw NotPlain() }
    func decode(_ type: Int.Type) throws -> Int { try value.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw NotPlain() }
    func decode(_ type: Int16.Type) throws -> Int16 { throw NotPlain() }
    func decode(_ type: Int32.Type) throws -> Int32 { throw NotPlain() }
    func decode(_ type: Int64.Type) throws -> Int64 { try value.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { throw NotPlain() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw NotPlain() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw NotPlain() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw NotPlain() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw NotPlain() }
  }
}
