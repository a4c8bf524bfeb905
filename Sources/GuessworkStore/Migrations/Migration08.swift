import SQLKit

extension Migration {
  /// 8: a player's games by finish, with what a finish is judged against.
  static let v08 = Migration(
    version: 8, name: "a player's games by finish, with what a finish is judged against",
    statements: [
      // A finished game is measured against the player's earlier bests since their tally
      // (``recentBests``): with `games_by_player` each of those games cost a read of its
      // row, state and all, on a page of its own (a tenth of a move's CPU in the move loop,
      // BENCHMARKS.md). This index answers from itself, and serves every query the old one
      // did (it begins with the same columns).
      """
      CREATE INDEX IF NOT EXISTS games_by_player_finished
      ON games (player_id, finished_at, kind, variant, score, id)
      """,
      "DROP INDEX IF EXISTS games_by_player",
    ]
  )
}
