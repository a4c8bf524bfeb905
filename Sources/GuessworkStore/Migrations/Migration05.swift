import SQLKit

extension Migration {
  /// 5: a token per device, sign-in codes.
  static let v05 = Migration(
    version: 5, name: "a token per device, sign-in codes",
    statements: [
      // players.token_hash stays as the token the player was made with; which tokens sign
      // in is this table's, one row a device.
      """
      CREATE TABLE IF NOT EXISTS player_tokens (
        token_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL
      )
      """,
      "CREATE INDEX IF NOT EXISTS player_tokens_player ON player_tokens (player_id)",
      """
      INSERT INTO player_tokens (token_hash, player_id, created_at)
      SELECT token_hash, id, created_at FROM players
      """,
      """
      CREATE TABLE IF NOT EXISTS link_codes (
        code_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        expires_at BIGINT NOT NULL,
        used_at BIGINT
      )
      """,
    ]
  )
}
