import SQLKit

extension Migration {
  /// 7: party rooms.
  static let v07 = Migration(
    version: 7, name: "party rooms",
    statements: [
      """
      CREATE TABLE IF NOT EXISTS rooms (
        code TEXT PRIMARY KEY,
        host_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        version BIGINT NOT NULL,
        players BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        closed_at BIGINT
      )
      """,
      "CREATE INDEX IF NOT EXISTS rooms_open ON rooms (updated_at) WHERE closed_at IS NULL",
    ]
  )
}
