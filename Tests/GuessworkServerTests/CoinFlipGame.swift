import GuessworkCore

/// A sixth game that exists only in the tests: call heads or tails, `flips` times. It is
/// registered the way the five are (one line in a list of games), to show that the server, the
/// API document, the statistics and the terminal's session need nothing written for it. (Its
/// action, event, view and summary say they are `JSONTextWritable`, as every game's must: the
/// server writes them through `Codable`, as they do not write themselves.)
struct CoinFlipGame: Game {
  static let kind: GameKind = "coin-flip"
  static let emoji = "🪙"

  enum Side: String, Codable, Sendable, CaseIterable {
    case heads, tails
  }

  struct Settings: GameSettings {
    var flips = 3

    static let fields: [SettingField<Self>] = [
      .integer("flips", \.flips, in: 1...5)
    ]

    init() {}

    init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
    }
  }

  enum Action: WireUnion, Equatable, JSONTextWritable {
    case call(Side)

    static let wireTags = ["call"]
    static let wireName = "coin flip action"

    private enum CodingKeys: String, CodingKey { case type, side }

    init(from decoder: any Decoder) throws {
      let type = try Self.wireTag(from: decoder)
      guard type == "call" else { throw Self.unreadTag(type) }
      self = .call(try decoder.container(keyedBy: CodingKeys.self).decode(Side.self, forKey: .side))
    }

    func encode(to encoder: any Encoder) throws {
      guard case .call(let side) = self else { return }
      try Self.encodeWireTag("call", to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(side, forKey: .side)
    }
  }

  enum Event: WireUnion, Equatable, JSONTextWritable {
    case flipped(side: Side, right: Bool)

    static let wireTags = ["flipped"]
    static let wireName = "coin flip event"

    private enum CodingKeys: String, CodingKey { case type, side, right }

    init(from decoder: any Decoder) throws {
      let type = try Self.wireTag(from: decoder)
      guard type == "flipped" else { throw Self.unreadTag(type) }
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self = .flipped(
        side: try container.decode(Side.self, forKey: .side),
        right: try container.decode(Bool.self, forKey: .right))
    }

    func encode(to encoder: any Encoder) throws {
      guard case .flipped(let side, let right) = self else { return }
      try Self.encodeWireTag("flipped", to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(side, forKey: .side)
      try container.encode(right, forKey: .right)
    }
  }

  struct View: Codable, Sendable, Equatable, JSONTextWritable {
    var flip: Int
    var flips: Int
    var score: Int
    var isOver: Bool
    var lastSide: Side?
  }

  struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    var score: Int
    var flips: Int
  }

  let settings: Settings
  var random: SeededRandom
  var calls: [Bool] = []

  init(settings: Settings, content: Void, seed: UInt64, at now: Instant) throws(SettingError) {
    try settings.validate()
    self.settings = settings
    random = SeededRandom(seed: seed)
  }

  mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    guard !isOver else { throw Refusal.gameOver }
    guard case .call(let called) = action else { return [] }
    let side: Side = random.chance(0.5) ? .heads : .tails
    calls.append(side == called)
    return [.flipped(side: side, right: side == called)]
  }

  func view(at now: Instant) -> View {
    View(flip: calls.count, flips: settings.flips, score: score, isOver: isOver, lastSide: nil)
  }

  var isOver: Bool { calls.count >= settings.flips }
  var score: Int { calls.filter { $0 }.count }
  var summary: Summary { Summary(score: score, flips: calls.count) }

  struct Tally: GameTally {
    var rightCalls = 0
  }

  static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {
    tally.rightCalls += game.summary.score
  }

  static func figures(_ tally: Tally) -> [Figure] {
    [Figure("rightCalls", .count(tally.rightCalls))]
  }
}
