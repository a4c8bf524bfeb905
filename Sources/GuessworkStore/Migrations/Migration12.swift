import SQLKit

extension Migration {
  /// 12: SQLite: actions kept in the order of their key, without a row id.
  static let v12 = Migration(
    version: 12, name: "SQLite: actions kept in the order of their key, without a row id",
    statements: [],
    sqlite: [
      // A table with a row id is two B-trees here: the rows, in row id order, and the index
      // of the primary key. Without a row id the rows live in the key's own tree, so storing a
      // move changes one page fewer: most commits hold a single move, and wrote three pages
      // (the game's, the actions', the index's) where they now write two (BENCHMARKS.md,
      // 2026-11-27). The copy is made again from whatever `actions` holds when it runs, so it
      // is right even after another process made it first.
      """
      CREATE TABLE IF NOT EXISTS actions_by_key (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        action TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (game_id, version)
      ) WITHOUT ROWID
      """,
      "INSERT OR IGNORE INTO actions_by_key SELECT game_id, version, action, at FROM actions",
      "DROP TABLE actions",
      "ALTER TABLE actions_by_key RENAME TO actions",
    ]
  )
}
