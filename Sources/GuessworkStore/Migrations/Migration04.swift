import SQLKit

extension Migration {
  /// 4: the daily set: counted plays, leaderboards, streaks; statistics tallies.
  static let v04 = Migration(
    version: 4, name: "the daily set: counted plays, leaderboards, streaks; statistics tallies",
    statements: [
      // Migrations run one at a time in a transaction (see `migrate`), so these need no
      // IF NOT EXISTS, which SQLite does not have for columns.
      "ALTER TABLE games ADD COLUMN daily_day INTEGER",
      "ALTER TABLE games ADD COLUMN daily_counted INTEGER",
      """
      CREATE TABLE IF NOT EXISTS secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )
      """,
      // One counted attempt per player, game and day: the primary key decides.
      """
      CREATE TABLE IF NOT EXISTS daily_plays (
        kind TEXT NOT NULL,
        day INTEGER NOT NULL,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        game_id TEXT NOT NULL UNIQUE REFERENCES games(id) ON DELETE CASCADE,
        started_at BIGINT NOT NULL,
        finished_at BIGINT,
        score INTEGER,
        PRIMARY KEY (kind, day, player_id)
      )
      """,
      "CREATE INDEX IF NOT EXISTS daily_plays_by_player ON daily_plays (player_id, day)",
      // A player's score on each board (a day, a week, all time) ...
      """
      CREATE TABLE IF NOT EXISTS daily_boards (
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        score INTEGER NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (kind, period, player_id)
      )
      """,
      """
      CREATE INDEX IF NOT EXISTS daily_boards_by_score
      ON daily_boards (kind, period, score DESC, updated_at, player_id)
      """,
      // ... and how many players have each score on each board, so that a rank is a sum
      // over the few distinct scores, not a count over every player.
      """
      CREATE TABLE IF NOT EXISTS daily_board_scores (
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        score INTEGER NOT NULL,
        players INTEGER NOT NULL,
        PRIMARY KEY (kind, period, score)
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS daily_streaks (
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        current INTEGER NOT NULL,
        best INTEGER NOT NULL,
        last_day INTEGER NOT NULL,
        played INTEGER NOT NULL,
        PRIMARY KEY (player_id, kind)
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS player_tallies (
        player_id TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        through_at BIGINT NOT NULL,
        through_id TEXT NOT NULL,
        tallies TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      )
      """,
    ]
  )
}
