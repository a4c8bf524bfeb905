import GuessworkCore

/// A JSON Schema built in order: strings, arrays and objects are all a schema holds here.
public indirect enum JSONValue: Sendable {
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The object's value for `key`.
  public subscript(key: String) -> JSONValue? {
    if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
    return nil
  }
}

/// JSON Schemas read off `Decodable` types by decoding them with a decoder that writes down
/// every key asked for, its type and whether it may be missing. The API document's per-game
/// schemas come from here, so they are made from the same code that reads the JSON.
///
/// What it needs of a type: enums of strings are `CaseIterable` (their values are listed);
/// unions told apart by `"type"` are ``WireUnion``s (one schema per tag).
public enum SchemaReader {
  /// Thrown when a type cannot be read (an enum that is not `CaseIterable`, say).
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
  }

  public static func schema<T: Decodable>(of type: T.Type) throws -> JSONValue {
    try schema(of: type, depth: 0)
  }

  static func schema<T: Decodable>(of type: T.Type, depth: Int) throws -> JSONValue {
    try value(of: type, depth: depth).schema
  }

  /// A value of `type` made of placeholders, and its schema.
  static func value<T: Decodable>(of type: T.Type, depth: Int) throws -> (
    value: T, schema: JSONValue
  ) {
    guard depth < 16 else { throw Failure(description: "\(T.self) nests too deeply") }
    if let primitive = Primitive.of(T.self) { return (Primitive.zero(T.self), primitive.schema) }
    if T.self == [String: Int].self {
      return (
        [String: Int]() as! T,
        .object([("type", .string("object")), ("additionalProperties", Primitive.int.schema)])
      )
    }
    if T.self == Message.self {
      return (Message("") as! T, messageSchema)
    }
    if let union = T.self as? any WireUnion.Type {
      var shapes: [JSONValue] = []
      var first: T?
      for tag in union.wireTags {
        let node = Node()
        let decoded = try T(from: Reader(node: node, tag: tag, depth: depth + 1))
        first = first ?? decoded
        shapes.append(node.schema)
      }
      guard let first else { throw Failure(description: "\(T.self) has no wire tags") }
      return (first, .object([("oneOf", .array(shapes))]))
    }
    if let iterable = T.self as? any CaseIterable.Type {
      let (first, values) = cases(of: iterable)
      if let first = first as? T, !values.isEmpty {
        return (
          first,
          .object([("type", .string("string")), ("enum", .array(values.map { .string($0) }))])
        )
      }
    }
    let node = Node()
    do {
      let decoded = try T(from: Reader(node: node, tag: nil, depth: depth + 1))
      return (decoded, node.schema)
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(
        description:
          "\(T.self) refused placeholder values (\(error)); is one of its enums not CaseIterable?")
    }
  }

  /// A message of the catalogs: its key, and its arguments (numbers or texts) by name.
  static let messageSchema: JSONValue = .object([
    ("type", .string("object")),
    (
      "properties",
      .object([
        ("key", Primitive.string.schema),
        (
          "args",
          .object([
            ("type", .string("object")),
            (
              "additionalProperties",
              .object([
                ("type", .array([.string("integer"), .string("number"), .string("string")]))
              ])
            ),
          ])
        ),
      ])
    ),
    ("required", .array([.string("key")])),
  ])

  private static func cases<C: CaseIterable>(of type: C.Type) -> (Any?, [String]) {
    let all = Array(type.allCases)
    let values = all.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
    return (all.first, values.count == all.count ? values : [])
  }

  enum Primitive {
    case bool, string, int, double

    static func of(_ type: Any.Type) -> Primitive? {
      switch type {
      case is Bool.Type: .bool
      case is String.Type: .string
      case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type,
        is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
        .int
      case is Double.Type, is Float.Type: .double
      default: nil
      }
    }

    var schema: JSONValue {
      switch self {
      case .bool: .object([("type", .string("boolean"))])
      case .string: .object([("type", .string("string"))])
      case .int: .object([("type", .string("integer"))])
      case .double: .object([("type", .string("number"))])
      }
    }

    /// A value of the primitive type `T`.
    static func zero<T>(_: T.Type) -> T {
      let zeros: [Any] = [
        false, "", 0, Int8(0), Int16(0), Int32(0), Int64(0), UInt(0), UInt8(0), UInt16(0),
        UInt32(0), UInt64(0), 0.0, Float(0),
      ]
      return zeros.first { Swift.type(of: $0) == T.self } as! T
    }
  }

  /// What one decoder found: an object's properties, an array's items, or a single value.
  final class Node {
    var properties: [(String, JSONValue)] = []
    var required: [String] = []
    var items: JSONValue?
    var single: JSONValue?
    var isArray = false

    var schema: JSONValue {
      if let single { return single }
      if isArray {
        return .object(
          [("type", .string("array"))] + (items.map { [("items", $0)] } ?? []))
      }
      var schema: [(String, JSONValue)] = [
        ("type", .string("object")), ("properties", .object(properties)),
      ]
      if !required.isEmpty { schema.append(("required", .array(required.map { .string($0) }))) }
      return .object(schema)
    }

    func add(_ key: String, _ schema: JSONValue, required isRequired: Bool) {
      guard !properties.contains(where: { $0.0 == key }) else { return }
      properties.append((key, schema))
      if isRequired { required.append(key) }
    }
  }

  struct Reader: Decoder {
    let node: Node
    /// The `"type"` a union's shape is read with.
    let tag: String?
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      KeyedDecodingContainer(Keyed<Key>(node: node, tag: tag, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
      node.isArray = true
      return Unkeyed(node: node, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      Single(node: node, depth: depth)
    }
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: Node
    let tag: String?
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      if key.stringValue == "type", let tag, T.self == String.self {
        node.add("type", .object([("const", .string(tag))]), required: true)
        return tag as! T
      }
      let (value, schema) = try SchemaReader.value(of: type, depth: depth)
      node.add(key.stringValue, schema, required: true)
      return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      node.add(key.stringValue, try SchemaReader.schema(of: type, depth: depth), required: false)
      return nil
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
      try optional(type, key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
      try optional(type, key)
    }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
      node.add(key.stringValue, try SchemaReader.schema(of: type, depth: depth), required: false)
      return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      let child = Node()
      defer { node.add(key.stringValue, child.schema, required: true) }
      return KeyedDecodingContainer(Keyed<NestedKey>(node: child, tag: nil, depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      let child = Node()
      child.isArray = true
      defer { node.add(key.stringValue, child.schema, required: true) }
      return Unkeyed(node: child, depth: depth + 1)
    }

    func superDecoder() throws -> any Decoder { Reader(node: node, tag: nil, depth: depth) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
      Reader(node: node, tag: nil, depth: depth)
    }
  }

  struct Unkeyed: UnkeyedDecodingContainer {
    let node: Node
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (value, schema) = try SchemaReader.value(of: type, depth: depth)
      node.items = schema
      currentIndex += 1
      return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      currentIndex += 1
      throw Failure(description: "nested containers in arrays are not read")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      currentIndex += 1
      throw Failure(description: "nested containers in arrays are not read")
    }

    mutating func superDecoder() throws -> any Decoder {
      currentIndex += 1
      return Reader(node: node, tag: nil, depth: depth)
    }
  }

  struct Single: SingleValueDecodingContainer {
    let node: Node
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (value, schema) = try SchemaReader.value(of: type, depth: depth)
      node.single = schema
      return value
    }
  }
}
