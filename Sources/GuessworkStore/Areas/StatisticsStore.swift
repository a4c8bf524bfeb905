/// Statistics: the finished games a player's figures are tallied from.
public protocol StatisticsStore: Sendable {
  /// What the statistics of a player keep of the games up to a mark.
  func statsTally(playerID: String) async throws -> StoredTally?
  /// Everything a player's statistics are made of, read at once: the stored tally, the
  /// finished games after its mark, and the daily streaks.
  /// The best score in each variant (`nil`: none) of `playerID`'s games of `kind` finished
  /// after `mark` and by `finishedBy`, leaving out `gameID`: what a game just finished is
  /// measured against, besides the tally. One row a variant, however many games.
  func recentBests(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) async throws -> [String?: Int]
  func statisticsSources(playerID: String) async throws -> (
    tally: StoredTally?, newer: [FinishedGame], streaks: [String: DailyStreak]
  )
  /// Stores a player's tally, unless the stored one already reaches further (another
  /// instance got there first): a tally only ever moves forward.
  func saveStatsTally(playerID: String, _ tally: StoredTally, at: Int64) async throws
}

public struct FinishedGame: Sendable, Equatable {
  public var gameID: String
  public var kind: String
  public var variant: String?
  public var score: Int
  public var summary: String
  public var finishedAt: Int64

  public init(
    gameID: String, kind: String, variant: String?, score: Int, summary: String,
    finishedAt: Int64
  ) {
    self.gameID = gameID
    self.kind = kind
    self.variant = variant
    self.score = score
    self.summary = summary
    self.finishedAt = finishedAt
  }
}

/// How far a player's statistics tally reaches: the last game it holds, by finish time and id.
public struct TallyMark: Sendable, Equatable, Comparable {
  public var finishedAt: Int64
  public var gameID: String

  public init(finishedAt: Int64, gameID: String) {
    self.finishedAt = finishedAt
    self.gameID = gameID
  }

  public static func < (a: TallyMark, b: TallyMark) -> Bool {
    (a.finishedAt, a.gameID) < (b.finishedAt, b.gameID)
  }
}

/// A player's statistics tally as stored: opaque JSON, and how far it reaches.
public struct StoredTally: Sendable, Equatable {
  public var mark: TallyMark
  public var tallies: String

  public init(mark: TallyMark, tallies: String) {
    self.mark = mark
    self.tallies = tallies
  }
}
