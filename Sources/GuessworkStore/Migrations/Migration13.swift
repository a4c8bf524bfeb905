import SQLKit

extension Migration {
  /// 13: PostgreSQL: a game's actions deleted with it by a trigger, not checked at each move.
  static let v13 = Migration(
    version: 13,
    name: "PostgreSQL: a game's actions deleted with it by a trigger, not checked at each move",
    statements: [],
    postgres: [
      // The foreign key from `actions` to `games` checked every action written: a lookup of
      // its game that also locks the game's row, one more write to its page, in a trigger run
      // after each statement. That was 9% of PostgreSQL's CPU in the move loop (BENCHMARKS.md,
      // "2026-11-27 (afternoon)"), and the check can never fail there: the only statement
      // writing actions (`guesswork_write_batch`) writes one only for a game it has just
      // updated, in the same statement. What the key also did, deleting a game's actions
      // with the game (and so with its player), this trigger does, once a statement.
      "ALTER TABLE actions DROP CONSTRAINT IF EXISTS actions_game_id_fkey",
      """
      CREATE OR REPLACE FUNCTION guesswork_delete_actions() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM actions a USING deleted_games d WHERE a.game_id = d.id;
        RETURN NULL;
      END
      $$
      """,
      // (Dropped and made again rather than `CREATE OR REPLACE TRIGGER`, which needs
      // PostgreSQL 14; a migration is one transaction, so nothing sees `games` without it.)
      "DROP TRIGGER IF EXISTS games_delete_actions ON games",
      """
      CREATE TRIGGER games_delete_actions AFTER DELETE ON games
      REFERENCING OLD TABLE AS deleted_games
      FOR EACH STATEMENT EXECUTE FUNCTION guesswork_delete_actions()
      """,
    ]
  )
}
