import SQLKit

extension Migration {
  /// 9: PostgreSQL: a new game's limit counted inside the statement that stores it.
  static let v09 = Migration(
    version: 9, name: "PostgreSQL: a new game's limit counted inside the statement that stores it",
    statements: [],
    postgres: [
      // Locks the player's row, then counts their unfinished games created after `since`
      // (``WriteBatch`` calls it for each player starting games in a batch). Volatile, so
      // its count is a query of its own, with a new snapshot taken after the lock: a game
      // another batch committed while this one waited for the lock is counted.
      """
      CREATE OR REPLACE FUNCTION guesswork_unfinished_games(player TEXT, since BIGINT)
      RETURNS BIGINT LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        unfinished BIGINT;
      BEGIN
        PERFORM 1 FROM players WHERE id = $1 FOR NO KEY UPDATE;
        SELECT COUNT(*) INTO unfinished FROM games
        WHERE player_id = $1 AND finished_at IS NULL AND created_at > $2;
        RETURN unfinished;
      END
      $$
      """
    ]
  )
}
