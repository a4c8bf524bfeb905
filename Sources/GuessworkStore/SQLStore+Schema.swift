import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Schema: the migrations, applied in order at start

extension SQLStore {
  /// The schema's versions, in order. A version, once released, never changes: later changes
  /// are new versions. Each statement is idempotent so that two instances starting at once
  /// against one database cannot break it.
  static let migrations: [(version: Int, name: String, statements: [SQLQueryString])] = [
    (
      1, "players, games and actions",
      [
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
    ),
    (
      2, "imported decks and their pictures",
      [
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
    ),
    (
      3, "words, seen words, custom categories and reminders",
      [
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
    ),
    (
      4, "the daily set: counted plays, leaderboards, streaks; statistics tallies",
      [
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
    ),
    (
      5, "a token per device, sign-in codes",
      [
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
    ),
    (
      6, "unfinished games by age",
      [
        // The sweep for rounds whose time ran out asks every second: without this it would
        // read the whole table (a million finished games) each time.
        """
        CREATE INDEX IF NOT EXISTS games_unfinished ON games (created_at)
        WHERE finished_at IS NULL
        """
      ]
    ),
    (
      7, "party rooms",
      [
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
    ),
    (
      8, "a player's games by finish, with what a finish is judged against",
      [
        // A finished game is measured against the player's earlier bests since their tally
        // (``recentBests``): with `games_by_player` each of those games cost a read of its
        // row, state and all, on a page of its own (a tenth of a move's CPU in the move loop,
        // BENCHMARKS.md). This index answers from itself, and serves every query the old one
        // did (it begins with the same columns).
        """
        CREATE INDEX IF NOT EXISTS games_by_player_finished
        ON games (player_id, finished_at, kind, variant, score, id)
        """,
        "DROP INDEX IF EXISTS games_by_player",
      ]
    ),
    (9, "PostgreSQL: a new game's limit counted inside the statement that stores it", []),
    (10, "PostgreSQL: room on each page of games for its rows' next versions", []),
    (11, "PostgreSQL: a batch of new games and moves written by a function planned once", []),
    (12, "SQLite: actions kept in the order of their key, without a row id", []),
    (13, "PostgreSQL: a game's actions deleted with it by a trigger, not checked at each move", []),
  ]

  /// Statements of a migration that run on SQLite only, after its others.
  static let sqliteMigrations: [Int: [SQLQueryString]] = [
    12: [
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
  ]

  /// Statements of a migration that run on PostgreSQL only, after its others: what the hot
  /// path there (``PostgresGames``) needs and SQLite has no need or words for.
  static let postgresMigrations: [Int: [SQLQueryString]] = [
    9: [
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
    ],
    10: [
      // Every move updates its game's row, and PostgreSQL writes each update as a new version
      // of the row. When the new version fits on the row's own page and no indexed column
      // changed (a move that does not finish the game), the update is "HOT": none of the
      // table's three indexes gets a new entry, and the old version is cleared from the page
      // by whoever reads it next. Packed full (the default), a page had no room, and a third
      // of the move loop's updates wrote all three indexes. Filled to half, nine in ten
      // updates are HOT and PostgreSQL's CPU a move falls by 5-10% (BENCHMARKS.md,
      // "2026-11-27"). A game's row grows as it is played, into the room left, so the table
      // was no larger after a benchmark run. Only pages written from now on are filled so;
      // SQLite updates a row in place and has no such setting.
      "ALTER TABLE games SET (fillfactor = 50)"
    ],
    11: [
      // Writes a batch of new games and moves (``WriteBatch``), answering the ids written:
      // the new games stored (`is_new`), the games moved. Sent as a statement of its own, the
      // batch was parsed and planned at every call, a fifth of PostgreSQL's CPU a move; a
      // function's statements are parsed once a connection and, with `force_generic_plan`,
      // planned once. That one plan must suit every size `games` will have, and one made
      // while the table held two games walked every row once it held thousands (the plan
      // test "reads only its own games"). Two things leave the update no way but finding
      // each game by its id: no sequential scans, and the condition on an unfinished game
      // written as `num_nulls` rather than `IS NULL`, which the partial index
      // `games_unfinished` cannot serve (else the plan walks all of it). Each of the two,
      // taken out, fails that test. `guesswork_unfinished_games`, called from here, plans as
      // it did before (the settings of a function reach the functions it calls).
      """
      CREATE OR REPLACE FUNCTION guesswork_write_batch(
        g_id TEXT[], g_player TEXT[], g_kind TEXT[], g_has_variant BOOL[], g_variant TEXT[],
        g_settings TEXT[], g_seed INT8[], g_state TEXT[], g_version INT8[], g_created_at INT8[],
        g_updated_at INT8[], g_finished BOOL[], g_finished_at INT8[], g_score INT8[],
        g_summary TEXT[], g_daily BOOL[], g_daily_day INT8[], g_daily_counted INT8[],
        g_limit INT8[], g_since INT8[], g_earlier INT8[],
        m_id TEXT[], m_expected INT8[], m_state TEXT[], m_version INT8[], m_at INT8[],
        m_finished BOOL[], m_finished_at INT8[], m_score INT8[], m_summary TEXT[], m_acted BOOL[],
        m_action TEXT[])
      RETURNS TABLE (is_new BOOL, written TEXT) LANGUAGE plpgsql VOLATILE
      SET plan_cache_mode = force_generic_plan SET enable_seqscan = off
      AS $$
      BEGIN
        IF cardinality(g_id) > 0 THEN
          RETURN QUERY
          WITH limits AS MATERIALIZED (
            SELECT l.player, l.since, guesswork_unfinished_games(l.player, l.since) AS unfinished
            FROM (SELECT DISTINCT u.player, u.since FROM unnest(g_player, g_since, g_limit)
              AS u(player, since, limit_count) WHERE u.limit_count >= 0 ORDER BY 1, 2) AS l
          ), started AS (
            INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
              created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
            SELECT n.id, n.player, n.kind, CASE WHEN n.has_variant THEN n.variant END, n.settings,
              n.seed, n.state, n.version, n.created_at, n.updated_at,
              CASE WHEN n.finished THEN n.finished_at END, CASE WHEN n.finished THEN n.score END,
              CASE WHEN n.finished THEN n.summary END, CASE WHEN n.daily THEN n.daily_day END,
              CASE WHEN n.daily THEN n.daily_counted END
            FROM unnest(g_id, g_player, g_kind, g_has_variant, g_variant, g_settings, g_seed,
              g_state, g_version, g_created_at, g_updated_at, g_finished, g_finished_at, g_score,
              g_summary, g_daily, g_daily_day, g_daily_counted, g_limit, g_since, g_earlier)
              AS n(id, player, kind, has_variant, variant, settings, seed, state, version,
                created_at, updated_at, finished, finished_at, score, summary, daily, daily_day,
                daily_counted, limit_count, since, earlier)
            LEFT JOIN limits l ON l.player = n.player AND l.since = n.since
            WHERE n.limit_count < 0 OR l.unfinished + n.earlier < n.limit_count
            RETURNING games.id
          )
          SELECT true, s.id FROM started s;
        END IF;
        IF cardinality(m_id) > 0 THEN
          RETURN QUERY
          WITH moved AS (
            UPDATE games g SET state = i.state, version = i.version, updated_at = i.at,
              finished_at = CASE WHEN i.finished THEN i.finished_at END,
              score = CASE WHEN i.finished THEN i.score END,
              summary = CASE WHEN i.finished THEN i.summary END
            FROM unnest(m_id, m_expected, m_state, m_version, m_at, m_finished, m_finished_at,
              m_score, m_summary, m_acted, m_action)
              AS i(id, expected, state, version, at, finished, finished_at, score, summary,
                acted, action)
            WHERE g.id = i.id AND g.version = i.expected
              AND num_nulls(g.finished_at) = 1
            RETURNING g.id, i.version, i.at, i.acted, i.action
          ), acted AS (
            INSERT INTO actions (game_id, version, action, at)
            SELECT m.id, m.version, m.action, m.at FROM moved m WHERE m.acted
          )
          SELECT false, m.id FROM moved m;
        END IF;
      END
      $$
      """,
      "ALTER FUNCTION guesswork_unfinished_games(TEXT, BIGINT) SET plan_cache_mode = auto",
    ],
    13: [
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
    ],
  ]

  /// The PostgreSQL advisory lock held while migrating ("gwmg").
  static let migrationLock: Int64 = 0x6777_6D67

  /// Applies the migrations the database has not recorded yet, each in a transaction, in one
  /// session of `pool` (nothing else uses the store before it opens).
  static func migrate(_ pool: any SessionPool, logger: Logger) async throws {
    try await pool.withSession { db in
      // Instances starting at once against one PostgreSQL take turns (SQLite's own write
      // lock does this for it).
      guard db.dialect.name == "postgresql" else { return try await migrate(db, logger: logger) }
      try await db.raw("SELECT pg_advisory_lock(\(literal: Self.migrationLock))").run()
      do {
        try await migrate(db, logger: logger)
      } catch {
        try? await db.raw("SELECT pg_advisory_unlock(\(literal: Self.migrationLock))").run()
        throw error
      }
      try await db.raw("SELECT pg_advisory_unlock(\(literal: Self.migrationLock))").run()
    }
  }

  static func migrate(_ db: any SQLDatabase, logger: Logger) async throws {
    try await db.raw(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at BIGINT NOT NULL
      )
      """
    ).run()
    let applied = Set(
      try await db.raw("SELECT version FROM schema_migrations").all().map {
        try $0.decode(column: "version", as: Int.self)
      })
    for migration in Self.migrations where !applied.contains(migration.version) {
      try await db.transaction {
        for statement in migration.statements { try await db.raw(statement).run() }
        let ownStatements =
          db.dialect.name == "postgresql"
          ? Self.postgresMigrations[migration.version] : Self.sqliteMigrations[migration.version]
        for statement in ownStatements ?? [] { try await db.raw(statement).run() }
        try await db.raw(
          """
          INSERT INTO schema_migrations (version, name, applied_at)
          VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Self.now()))
          ON CONFLICT (version) DO NOTHING
          """
        ).run()
      }
      logger.info("applied migration \(migration.version): \(migration.name)")
    }
  }
}
