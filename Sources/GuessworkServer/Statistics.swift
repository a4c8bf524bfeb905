import Foundation
import GuessworkCore
import GuessworkStore

/// `GET /api/me/stats`: per game, how many were played, the best score, the last 20 scores,
/// and the game's own figures.
struct Statistics: Encodable {
  struct PerGame: Encodable {
    var game: String
    var title: String
    var played: Int
    var bestScore: Int?
    /// Oldest first.
    var lastScores: [Int]
  }

  var games: [PerGame]

  init(games finished: [FinishedGame]) {
    games = GameKind.allCases.map { kind in
      let mine = finished.filter { $0.kind == kind.rawValue }
      return PerGame(
        game: kind.rawValue, title: kind.title, played: mine.count,
        bestScore: mine.map(\.score).max(), lastScores: mine.suffix(20).map(\.score))
    }
  }
}
