import SQLKit

extension Migration {
  /// 1: players, games and actions.
  static let v01 = Migration(
    version: 1, name: "players, games and actions",
    statements: [
      """
      CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        preferences TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS avatars (
        player_id TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        content_type TEXT NOT NULL,
        data \(SQLDataType.blob) NOT NULL,
        updated_at BIGINT NOT NULL
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        variant TEXT,
        settings TEXT NOT NULL,
        seed BIGINT NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        finished_at BIGINT,
        score INTEGER,
        summary TEXT
      )
      """,
      "CREATE INDEX IF NOT EXISTS games_by_player ON games (player_id, finished_at)",
      """
      CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        action TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, version)
      )
      """,
    ]
  )
}
