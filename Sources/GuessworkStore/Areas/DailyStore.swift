/// The daily set: the day's games, boards and streaks.
public protocol DailyStore: Sendable {
  /// The secret called `name`: the first value ever proposed for it, on every instance.
  func secret(named name: String, proposed: String) async throws -> String
  /// Inserts a counted daily game together with its claim on (player, game, day), in one
  /// transaction. Throws ``StoreError/duplicate(_:)`` and inserts nothing when the player
  /// already has that day's game: the database's unique key decides, even between instances.
  func insertDailyGame(_ game: GameRecord, day: Int) async throws
  /// A player's counted daily games of one day, or of one game kind (newest first).
  func dailyPlays(playerID: String, day: Int) async throws -> [DailyPlay]
  func dailyPlays(playerID: String, kind: String) async throws -> [DailyPlay]
  /// Counted daily games that are finished but whose result is not recorded yet (the server
  /// stopped between the two): ``recordDaily(gameID:score:at:periods:sets:)`` catches up.
  func unrecordedDailies(playerID: String) async throws -> [DailyPlay]
  /// Records the result of a counted daily game once, in one transaction: in its leaderboards
  /// (`periods`: the day's board takes the score, the week's adds it, all time keeps the
  /// best) and its streaks (of its kind, and of the set when the player has now finished
  /// `sets` dailies that day). `false` when it was recorded before or is not a counted daily.
  @discardableResult
  func recordDaily(gameID: String, score: Int, at: Int64, periods: DailyPeriods, sets: Int)
    async throws -> Bool
  /// The top `limit` of a leaderboard, with how many players it holds and where `playerID`
  /// stands in it.
  func leaderboard(kind: String, period: String, playerID: String?, limit: Int) async throws
    -> Leaderboard
  /// A player's score on a leaderboard, if they are on it.
  func boardScore(kind: String, period: String, playerID: String) async throws -> Int?
  /// A player's daily streaks by game kind (`"*"`: the whole set).
  func dailyStreaks(playerID: String) async throws -> [String: DailyStreak]
  /// Whether a player appears on any leaderboard (and so shows others a name and avatar).
  func isOnLeaderboard(playerID: String) async throws -> Bool
}

/// A daily game played by a player: counted (one per player, game and day) or from the
/// archive (any number, never counted).
public struct DailyTag: Sendable, Equatable {
  /// Days since 1970-01-01, UTC.
  public var day: Int
  public var counted: Bool

  public init(day: Int, counted: Bool) {
    self.day = day
    self.counted = counted
  }
}

/// A counted daily game, and its result once recorded.
public struct DailyPlay: Sendable, Equatable {
  public var kind: String
  public var day: Int
  public var gameID: String
  /// The recorded result; `nil` while the game goes on (or before it is recorded).
  public var score: Int?
  public var finishedAt: Int64?

  public init(kind: String, day: Int, gameID: String, score: Int? = nil, finishedAt: Int64? = nil) {
    self.kind = kind
    self.day = day
    self.gameID = gameID
    self.score = score
    self.finishedAt = finishedAt
  }
}

/// The leaderboards a daily result counts in, by their keys.
public struct DailyPeriods: Sendable, Equatable {
  public var day: String
  public var week: String
  public var allTime: String

  public init(day: String, week: String, allTime: String) {
    self.day = day
    self.week = week
    self.allTime = allTime
  }
}

/// A leaderboard: its top entries (ties share a rank: 1, 1, 3), its size, and the asking
/// player's place.
public struct Leaderboard: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var rank: Int
    public var playerID: String
    public var name: String
    public var hasAvatar: Bool
    public var score: Int
  }

  public struct Standing: Sendable, Equatable {
    public var rank: Int
    public var score: Int
  }

  public var entries: [Entry]
  /// How many players hold each score.
  public var scores: [Int: Int]
  public var mine: Standing?

  public var players: Int { scores.values.reduce(0, +) }

  /// Where a player with `score` stands: 1 + the players with a higher score (a sum over the
  /// board's few distinct scores, however many players it holds).
  public func standing(of score: Int) -> Standing {
    Standing(rank: 1 + scores.filter { $0.key > score }.values.reduce(0, +), score: score)
  }
}

/// A run of consecutive days with a finished daily game (of one game, or the whole set).
public struct DailyStreak: Sendable, Equatable {
  /// The key of the whole set's streak: days on which every daily was finished.
  public static let wholeSet = "*"

  public var current: Int
  public var best: Int
  /// The last day counted in `current`.
  public var lastDay: Int
  /// Days counted in all.
  public var played: Int

  public init(current: Int, best: Int, lastDay: Int, played: Int) {
    self.current = current
    self.best = best
    self.lastDay = lastDay
    self.played = played
  }

  /// The streak after a result on `day` (each day is added once).
  public func adding(day: Int) -> DailyStreak {
    // A day before the last (recorded late) counts, but does not change the run.
    guard day > lastDay else {
      return DailyStreak(current: current, best: best, lastDay: lastDay, played: played + 1)
    }
    let current = day == lastDay + 1 ? self.current + 1 : 1
    return DailyStreak(
      current: current, best: max(best, current), lastDay: day, played: played + 1)
  }

  /// The current streak as seen on `today`: broken once a whole day has passed without.
  public func current(on today: Int) -> Int { lastDay >= today - 1 ? current : 0 }
}
