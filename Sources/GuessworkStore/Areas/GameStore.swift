import Foundation

/// Games: a game is one row of encoded state and its actions, written at each move under its version.
public protocol GameStore: Sendable {
  /// Stores a new game. Within a `limit`, only while its player has fewer unfinished games
  /// than it allows, counted in the transaction that inserts it, so that of two new games at
  /// once only one can take the last place: `false`, and nothing stored, when they have that
  /// many.
  func insertGame(_ game: GameRecord, within limit: UnfinishedLimit?) async throws -> Bool
  func game(id: String) async throws -> GameRecord?
  /// The game `id` to start a move from: as ``game(id:)``, except that with several
  /// instances on one database it may be the version this instance last wrote, behind the
  /// stored one. A move made from it is then refused by ``saveMove(_:expectedVersion:)``, so
  /// it never overwrites a newer version; a caller that sees a version other than it expects
  /// asks ``game(id:)`` before answering.
  func gameToMove(id: String) async throws -> GameRecord?
  /// The live games kept in memory, for the metrics.
  func liveGamesCached() -> CacheSize
  /// Stores a game's new state and, when there is one, the action that led to it, in one
  /// transaction, provided the stored version is still `expectedVersion`. Returns `false` and
  /// changes nothing when it is not (someone else moved first).
  func saveMove(_ move: Move, expectedVersion: Int) async throws -> Bool
  /// The accepted actions of a game, oldest first.
  func actions(gameID: String) async throws -> [ActionRecord]
  /// A player's finished games, oldest first (by finish time, then id); only those after
  /// `mark` when there is one.
  func finishedGames(playerID: String, after mark: TallyMark?) async throws -> [FinishedGame]
}

/// A game as stored: its kind and settings, the seed, the encoded state and its version.
public struct GameRecord: Sendable, Equatable {
  /// A new game's id: a UUID of version 7 (RFC 9562), whose first 48 bits are the time it was
  /// made (milliseconds since 1970) and 74 of the rest random. Games made later sort later, so
  /// the games being played, and the actions they add (keyed by game), sit together at the end
  /// of the indexes: a batch of moves writes a few index pages, not one page a game at random.
  public static func newID(at milliseconds: Int64) -> String {
    var random = SystemRandomNumberGenerator()
    let time = UInt64(clamping: milliseconds) & 0xFFFF_FFFF_FFFF
    let (a, b) = (random.next() as UInt64, random.next() as UInt64)
    func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 {
      UInt8(truncatingIfNeeded: value >> shift)
    }
    let uuid = UUID(
      uuid: (
        byte(time, 40), byte(time, 32), byte(time, 24), byte(time, 16), byte(time, 8),
        byte(time, 0),
        0x70 | byte(a, 0) & 0x0F, byte(a, 8),  // version 7, then 12 random bits
        0x80 | byte(b, 0) & 0x3F, byte(b, 8), byte(b, 16), byte(b, 24), byte(b, 32),  // variant
        byte(b, 40), byte(b, 48), byte(b, 56)
      ))
    return uuid.uuidString.lowercased()
  }

  public var id: String
  public var playerID: String
  public var kind: String
  /// What the game was played on, where that matters for statistics: a Guess or Pass
  /// category, a Picture Quiz deck.
  public var variant: String?
  public var settings: String
  public var seed: UInt64
  public var state: String
  public var version: Int
  public var createdAt: Int64
  public var updatedAt: Int64
  public var finished: Finished?
  /// Set on a daily puzzle's game.
  public var daily: DailyTag?

  /// What a finished game records for the statistics.
  public struct Finished: Sendable, Equatable {
    public var at: Int64
    public var score: Int
    public var summary: String

    public init(at: Int64, score: Int, summary: String) {
      self.at = at
      self.score = score
      self.summary = summary
    }
  }

  public init(
    id: String, playerID: String, kind: String, variant: String? = nil, settings: String,
    seed: UInt64, state: String, version: Int = 0, createdAt: Int64, updatedAt: Int64? = nil,
    finished: Finished? = nil, daily: DailyTag? = nil
  ) {
    self.id = id
    self.playerID = playerID
    self.kind = kind
    self.variant = variant
    self.settings = settings
    self.seed = seed
    self.state = state
    self.version = version
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.finished = finished
    self.daily = daily
  }
}

/// An accepted action, as applied: the version it produced, the action as JSON, and when.
public struct ActionRecord: Sendable, Equatable {
  public var gameID: String
  public var version: Int
  public var action: String
  public var at: Int64

  public init(gameID: String, version: Int, action: String, at: Int64) {
    self.gameID = gameID
    self.version = version
    self.action = action
    self.at = at
  }
}

/// One step of a game: the state after it, and the action that caused it (none when only
/// time passed, as when a timed round runs out).
public struct Move: Sendable, Equatable {
  public var gameID: String
  public var version: Int
  public var state: String
  public var at: Int64
  public var action: String?
  public var finished: GameRecord.Finished?

  public init(
    gameID: String, version: Int, state: String, at: Int64, action: String?,
    finished: GameRecord.Finished? = nil
  ) {
    self.gameID = gameID
    self.version = version
    self.state = state
    self.at = at
    self.action = action
    self.finished = finished
  }
}

extension GuessworkStore {
  /// Stores a new game, whatever its player has unfinished.
  public func insertGame(_ game: GameRecord) async throws {
    _ = try await insertGame(game, within: nil)
  }
}

/// How many unfinished games a player may have: at most `count` of those created since
/// `since` (older ones are left, and do not count).
public struct UnfinishedLimit: Sendable, Equatable {
  public var count: Int
  public var since: Int64

  public init(count: Int, since: Int64) {
    self.count = count
    self.since = since
  }
}
