import Foundation
public import GuessworkCore

/// An action in a room, as a client sends it: `{"version": 12, "action": {"type": "start"}}`
/// (docs/rooms.md lists them).
public enum RoomAction: Sendable, Equatable {
  /// An action of the player's own game, in round `round` (simultaneous rounds).
  case play(round: Int?)
  case leave
  case choose(Room.Choice)
  case start
  case next
  case kick(String)
  case readmit(String)
  case lobby
  case close
  /// The first host, back, takes the host's role again from the player standing in.
  case reclaim
  /// The host locks the room (nobody new joins), or opens it again.
  case lock(Bool)
  /// The host hides the join code on the shared screen, or shows it again.
  case hideCode(Bool)

  /// The actions only the host may take; they must name the room's current version.
  public var isHosts: Bool {
    switch self {
    case .play, .leave, .reclaim: false
    default: true
    }
  }
}

extension RoomAction: WireUnion {
  public static let wireTags = [
    "play", "leave", "choose", "start", "next", "kick", "readmit", "lobby", "close", "reclaim",
    "lock", "hideCode",
  ]
  public static let wireName = "room action"

  enum CodingKeys: String, CodingKey {
    case type, round, action, game, settings, deck, category, teams, wordsOn, player, locked,
      hidden
  }

  public init(from decoder: any Decoder) throws {
    let tag = try Self.wireTag(from: decoder)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch tag {
    case "play": self = .play(round: try container.decodeIfPresent(Int.self, forKey: .round))
    case "leave": self = .leave
    case "choose":
      let settings = try container.decodeIfPresent(JSONObject.self, forKey: .settings)
      let wordsOn = try container.decodeIfPresent(WordsOn.self, forKey: .wordsOn) ?? .screen
      self = .choose(
        Room.Choice(
          kind: GameKind(rawValue: try container.decode(String.self, forKey: .game)),
          settings: settings?.text ?? "{}",
          variant: try container.decodeIfPresent(String.self, forKey: .deck)
            ?? container.decodeIfPresent(String.self, forKey: .category),
          teams: try container.decodeIfPresent(Int.self, forKey: .teams) ?? 2,
          wordsOnScreen: wordsOn == .screen))
    case "start": self = .start
    case "next": self = .next
    case "kick": self = .kick(try container.decode(String.self, forKey: .player))
    case "readmit": self = .readmit(try container.decode(String.self, forKey: .player))
    case "lobby": self = .lobby
    case "close": self = .close
    case "reclaim": self = .reclaim
    case "lock": self = .lock(try container.decode(Bool.self, forKey: .locked))
    case "hideCode": self = .hideCode(try container.decode(Bool.self, forKey: .hidden))
    default: throw Self.unreadTag(tag)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .play(let round):
      try container.encode("play", forKey: .type)
      try container.encodeIfPresent(round, forKey: .round)
    case .leave: try container.encode("leave", forKey: .type)
    case .choose(let choice):
      try container.encode("choose", forKey: .type)
      try container.encode(choice.kind.rawValue, forKey: .game)
      try container.encode(JSONObject(text: choice.settings), forKey: .settings)
      try container.encodeIfPresent(choice.variant, forKey: .deck)
      try container.encode(choice.teams, forKey: .teams)
      try container.encode(choice.wordsOnScreen ? WordsOn.screen : .phones, forKey: .wordsOn)
    case .start: try container.encode("start", forKey: .type)
    case .next: try container.encode("next", forKey: .type)
    case .kick(let player):
      try container.encode("kick", forKey: .type)
      try container.encode(player, forKey: .player)
    case .readmit(let player):
      try container.encode("readmit", forKey: .type)
      try container.encode(player, forKey: .player)
    case .lobby: try container.encode("lobby", forKey: .type)
    case .close: try container.encode("close", forKey: .type)
    case .reclaim: try container.encode("reclaim", forKey: .type)
    case .lock(let locked):
      try container.encode("lock", forKey: .type)
      try container.encode(locked, forKey: .locked)
    case .hideCode(let hidden):
      try container.encode("hideCode", forKey: .type)
      try container.encode(hidden, forKey: .hidden)
    }
  }

  /// Where Guess or Pass shows the word.
  public enum WordsOn: String, Codable, Sendable, CaseIterable {
    case screen, phones
  }
}

/// A JSON object kept as its text (a game's settings, read by the game once it is chosen).
struct JSONObject: Codable, Sendable {
  var text: String

  init(text: String) { self.text = text }

  init(from decoder: any Decoder) throws {
    let value = try JSONAny(from: decoder)
    guard case .object = value else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "settings must be an object"))
    }
    text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
  }

  func encode(to encoder: any Encoder) throws {
    try JSONDecoder().decode(JSONAny.self, from: Data(text.utf8)).encode(to: encoder)
  }
}

/// Any JSON value, read and written back as it came.
indirect enum JSONAny: Codable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONAny])
  case object([String: JSONAny])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONAny].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONAny].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      if value == value.rounded(), abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

/// A request to act in a room: the version the client saw and the action.
public struct RoomRequest: Decodable, Sendable {
  public var version: Int?
  public var action: RoomAction
}
