import SQLKit

extension Migration {
  /// 3: words, seen words, custom categories and reminders.
  static let v03 = Migration(
    version: 3, name: "words, seen words, custom categories and reminders",
    statements: [
      """
      CREATE TABLE IF NOT EXISTS words (
        category TEXT NOT NULL,
        word TEXT NOT NULL,
        source TEXT NOT NULL,
        fetched_at BIGINT NOT NULL,
        PRIMARY KEY (category, word)
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS word_refreshes (
        category TEXT PRIMARY KEY,
        attempted_at BIGINT NOT NULL
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS seen_words (
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        category TEXT NOT NULL,
        word TEXT NOT NULL,
        seen_at BIGINT NOT NULL,
        PRIMARY KEY (player_id, category, word)
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS custom_categories (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        words TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )
      """,
      "CREATE INDEX IF NOT EXISTS custom_categories_by_player ON custom_categories (player_id)",
      """
      CREATE TABLE IF NOT EXISTS reminders (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        starts_at BIGINT NOT NULL,
        utc_offset_minutes INTEGER NOT NULL,
        place TEXT NOT NULL,
        latitude DOUBLE PRECISION,
        longitude DOUBLE PRECISION,
        created_at BIGINT NOT NULL
      )
      """,
      "CREATE INDEX IF NOT EXISTS reminders_by_player ON reminders (player_id, starts_at)",
    ]
  )
}
