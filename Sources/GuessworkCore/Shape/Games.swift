import GuessworkJSON

/// The games Guesswork plays, in the order menus show them. The server, the terminal, the
/// statistics, the catalog and the API document iterate this list; adding a game is one line
/// here (and its page module and terminal screen).
public enum Games {
  public static var all: [any Game.Type] {
    [
      NumberGame.self, ColorMatchGame.self, BullseyeGame.self, GuessOrPassGame.self,
      PictureQuizGame.self,
    ]
  }
}

/// A value that travels as one of several shapes told apart by its `"type"` (an action or an
/// event): `{"type": "guessed", "number": 42, ...}`. The tags are data, so decoding errors name
/// them and the API document lists one schema per tag.
public protocol WireUnion: Codable, Sendable {
  /// Every `"type"` this value can have, as it is spelled on the wire.
  static var wireTags: [String] { get }
  /// What a person calls it in an error ("Color Match action").
  static var wireName: String { get }
}

/// Makes an enum a ``WireUnion`` from its cases alone: `Codable` as a flat object whose
/// `"type"` is the case's name and whose members are its values, named by their labels (or by
/// their inner names: `case guess(_ number: Int)`); an optional value is left out when `nil`.
/// The same JSON is written straight to text (`JSONTextWritable`), and the tags are listed.
///
/// ```swift
/// @WireUnion("Number event type")
/// public enum Event: Sendable, Equatable {
///   case won(secret: Int, score: Int)   // {"type":"won","secret":42,"score":70}
///   case lost(secret: Int)              // {"type":"lost","secret":42}
/// }
/// ```
///
/// `name` is what a person calls the value in an error ("Number event type").
@attached(
  extension, conformances: WireUnion, JSONTextWritable,
  names: named(wireTags), named(wireName), named(CodingKeys), named(init(from:)),
  named(encode(to:)), named(writeJSON(to:)))
public macro WireUnion(_ name: String) =
  #externalMacro(module: "GuessworkMacros", type: "WireUnionMacro")

/// The `"type"` key of a ``WireUnion``.
public struct WireTagKey: CodingKey, Sendable {
  public var stringValue: String { "type" }
  public var intValue: Int? { nil }
  public init() {}
  public init?(stringValue: String) { if stringValue != "type" { return nil } }
  public init?(intValue: Int) { nil }
}

extension WireUnion {
  /// Reads the `"type"` of a value being decoded; an unknown one is an error that lists the
  /// known ones.
  public static func wireTag(from decoder: any Decoder) throws -> String {
    let container = try decoder.container(keyedBy: WireTagKey.self)
    let tag = try container.decode(String.self, forKey: WireTagKey())
    guard wireTags.contains(tag) else {
      let list =
        wireTags.count > 1
        ? wireTags.dropLast().joined(separator: ", ") + " or " + wireTags.last!
        : wireTags.joined()
      throw DecodingError.dataCorruptedError(
        forKey: WireTagKey(), in: container,
        debugDescription: "Unknown \(wireName) \"\(tag)\": expected \(list).")
    }
    return tag
  }
}

extension KeyedDecodingContainer {
  /// The value for `key`, of the type the caller wants: what `@WireUnion`'s decoder reads each
  /// member of a case with, naming no type.
  public func wireValue<T: Decodable>(_ key: Key) throws -> T {
    try decode(T.self, forKey: key)
  }

  /// The value for `key`, or nil when it is missing or null.
  public func wireValueIfPresent<T: Decodable>(_ key: Key) throws -> T? {
    try decodeIfPresent(T.self, forKey: key)
  }
}

extension WireUnion {
  /// The error for a tag listed in ``wireTags`` that the decoder does not read: a mistake in
  /// the type, caught by the API document's tests, which decode every tag.
  public static func unreadTag(_ tag: String) -> any Error {
    DecodingError.dataCorrupted(
      .init(codingPath: [], debugDescription: "\(wireName) \"\(tag)\" is listed but not read."))
  }
}
