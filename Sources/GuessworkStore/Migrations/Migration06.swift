import SQLKit

extension Migration {
  /// 6: unfinished games by age.
  static let v06 = Migration(
    version: 6, name: "unfinished games by age",
    statements: [
      // The sweep for rounds whose time ran out asks every second: without this it would
      // read the whole table (a million finished games) each time.
      """
      CREATE INDEX IF NOT EXISTS games_unfinished ON games (created_at)
      WHERE finished_at IS NULL
      """
    ]
  )
}
