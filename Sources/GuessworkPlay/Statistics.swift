public import GuessworkCore
public import GuessworkStore

/// A player's statistics: per game, how many were played, the best score, the last 20 scores,
/// and the game's own figures, all worked out from the summaries of finished games. The
/// server's `GET /api/me/stats` and the terminal's `guesswork stats` both show these.
public struct Statistics: Encodable, Sendable {
  public struct PerGame: Encodable, Sendable {
    public var game: String
    public var title: String
    public var played: Int
    public var bestScore: Int?
    /// Oldest first.
    public var lastScores: [Int]
    /// The figures only this game has.
    public var figures: Figures
  }

  public var games: [PerGame]

  /// The statistics of `finished` (oldest first), for every game of `engines`.
  public init(games finished: [FinishedGame], engines: GameEngines = GameEngines()) {
    let byKind = Dictionary(grouping: finished, by: \.kind)
    games = engines.all.map { engine in
      let mine = byKind[engine.kind.rawValue] ?? []
      return PerGame(
        game: engine.kind.rawValue, title: engine.title, played: mine.count,
        bestScore: mine.map(\.score).max(), lastScores: mine.suffix(20).map(\.score),
        figures: Figures(engine.figures(mine)))
    }
  }
}
