public import GuessworkCore
public import GuessworkJSON

/// A sixth game that ships in no product: call heads or tails, `flips` times. The tests
/// register it the way the five are (one line in a list of games) to show that the server,
/// the API document, the statistics, rooms and the terminal's session need nothing written for
/// it; `guesswork-examples` serves it for the end-to-end tests. Its folder is the shape of a
/// game: its rules here, its room conformance beside them. (Its action, event, view and
/// summary say they are `JSONTextWritable`, as every game's must: the server writes them
/// through `Codable`, as they do not write themselves.)
public struct CoinFlipGame: Game {
  public static let kind: GameKind = "coin-flip"
  public static let emoji = "🪙"

  public enum Side: String, Codable, Sendable, CaseIterable {
    case heads, tails
  }

  public struct Settings: GameSettings {
    public var flips = 3

    public static let fields: [SettingField<Self>] = [
      .integer("flips", \.flips, in: 1...5)
    ]

    public init() {}

    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
    }
  }

  @WireUnion("coin flip action")
  public enum Action: Sendable, Equatable {
    case call(_ side: Side)
  }

  @WireUnion("coin flip event")
  public enum Event: Sendable, Equatable {
    case flipped(side: Side, right: Bool)
  }

  public struct View: Codable, Sendable, Equatable, JSONTextWritable {
    public var flip: Int
    public var flips: Int
    public var score: Int
    public var isOver: Bool
    /// The side the last flip showed (nil before the first).
    public var lastSide: Side?
  }

  public struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    public var score: Int
    public var flips: Int
  }

  public let settings: Settings
  var random: SeededRandom
  /// Each flip's side, and whether the call was right (a call missed in a room is wrong).
  public internal(set) var sides: [Side] = []
  public internal(set) var calls: [Bool] = []
  /// In a room: the round open now (from 0); nil alone.
  var roomRound: Int?

  public init(settings: Settings, content: Void, seed: UInt64, at now: Instant)
    throws(SettingError)
  {
    try settings.validate()
    self.settings = settings
    random = SeededRandom(seed: seed)
  }

  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    guard !isOver else { throw Refusal.gameOver }
    guard case .call(let called) = action else { return [] }
    let side = flip()
    calls.append(side == called)
    return [.flipped(side: side, right: side == called)]
  }

  /// The next flip: the same for everyone dealt from one seed.
  mutating func flip() -> Side {
    let side: Side = random.chance(0.5) ? .heads : .tails
    sides.append(side)
    return side
  }

  public func view(at now: Instant) -> View {
    View(
      flip: calls.count, flips: settings.flips, score: score, isOver: isOver, lastSide: sides.last)
  }

  public var isOver: Bool { calls.count >= settings.flips }
  public var score: Int { calls.filter { $0 }.count }
  public var summary: Summary { Summary(score: score, flips: calls.count) }

  public struct Tally: GameTally {
    public var rightCalls = 0
    public init() {}
  }

  public static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {
    tally.rightCalls += game.summary.score
  }

  public static func figures(_ tally: Tally) -> [Figure] {
    [Figure("rightCalls", .count(tally.rightCalls))]
  }
}
