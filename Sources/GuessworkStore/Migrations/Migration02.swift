import SQLKit

extension Migration {
  /// 2: imported decks and their pictures.
  static let v02 = Migration(
    version: 2, name: "imported decks and their pictures",
    statements: [
      """
      CREATE TABLE IF NOT EXISTS decks (
        id TEXT PRIMARY KEY,
        manifest TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      )
      """,
      """
      CREATE TABLE IF NOT EXISTS pictures (
        id TEXT PRIMARY KEY,
        content_type TEXT NOT NULL,
        data \(SQLDataType.blob) NOT NULL
      )
      """,
    ]
  )
}
