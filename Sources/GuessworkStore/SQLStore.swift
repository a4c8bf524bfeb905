import AsyncKit
import Foundation
public import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// ``GuessworkStore`` over SQLKit: one schema and one set of queries for SQLite and PostgreSQL.
///
/// Every method borrows one connection for all of its statements, so that a transaction stays
/// on one session. SQLite runs in WAL mode with a busy timeout and foreign keys on.
public final class SQLStore: GuessworkStore {
  private let pool: any SessionPool
  /// SQLite writes take turns here. SQLite allows one writer at a time, and a writer kept
  /// waiting inside SQLite blocks one of the few threads that run every connection's
  /// statements, so the writer holding the lock may find no thread to commit on. Waiting
  /// here instead costs no thread. (PostgreSQL needs none of this: `nil`.)
  private let writers: WriterQueue?
  /// New games, moves and reads of a game go their own way on each database (see
  /// ``SQLiteWriter`` and ``PostgresGames``).
  let games: HotPath

  enum HotPath: Sendable {
    case sqlite(SQLiteWriter)
    case postgres(PostgresGames)
  }

  /// SQLite's reads (see ``SQLiteReaders``); `nil` on PostgreSQL.
  private let readers: SQLiteReaders?

  private init(pool: any SessionPool, games: HotPath, readers: SQLiteReaders? = nil) {
    self.pool = pool
    self.readers = readers
    self.games = games
    if case .sqlite = games { writers = WriterQueue() } else { writers = nil }
  }

  /// Runs a session that only reads.
  func session<R: Sendable>(
    _ body: @escaping @Sendable (any SQLDatabase) async throws -> R
  ) async throws -> R {
    if let readers { return try await readers.withSession(body) }
    return try await pool.withSession(body)
  }

  /// Runs a session that writes, after the writes before it on SQLite.
  func writing<R: Sendable>(
    _ body: @escaping @Sendable (any SQLDatabase) async throws -> R
  ) async throws -> R {
    guard let writers else { return try await pool.withSession(body) }
    await writers.acquire()
    do {
      let result = try await pool.withSession(body)
      await writers.release()
      return result
    } catch {
      await writers.release()
      throw error
    }
  }

  /// Opens the database at `location` (creating an SQLite file and its folder when missing)
  /// and brings its schema up to date before returning.
  /// `maxConnections`: sessions at once. SQLite's default is higher than PostgreSQL's: its
  /// readers never wait for each other (WAL), and a session spends most of its time passing
  /// between threads, so more of them at once read faster (BENCHMARKS.md, the daily set).
  /// `holdConnections`: on PostgreSQL, the hot path's connections are all opened at once and
  /// kept (a server: see ``PostgresGames``), not opened as asked for.
  public static func open(
    _ location: StoreLocation, logger: Logger, maxConnections: Int? = nil,
    holdConnections: Bool = false
  ) async throws -> SQLStore {
    let group = MultiThreadedEventLoopGroup.singleton
    let pool: any SessionPool
    switch location {
    case .sqlite(let path):
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      pool = Pool(
        pool: EventLoopGroupConnectionPool(
          source: SQLiteSource(path: path), maxConnectionsPerEventLoop: maxConnections ?? 16,
          pruneInterval: nil, logger: logger, on: group.next()),
        makeDatabase: { $0.sql(queryLogLevel: .trace) })
    case .postgres(let url):
      var configuration = try SQLPostgresConfiguration(url: url)
      configuration.coreConfiguration.options.connectTimeout = .seconds(5)
      pool = Pool(
        pool: EventLoopGroupConnectionPool(
          source: PostgresConnectionSource(sqlConfiguration: configuration),
          maxConnectionsPerEventLoop: maxConnections ?? 4, pruneInterval: nil, logger: logger,
          // A pool on every event loop: a session then runs on the loop that asked, and two
          // loops' sessions do not queue for one loop's connections.
          on: group),
        makeDatabase: { $0.sql(queryLogLevel: .trace) })
    }
    do {
      try await migrate(pool, logger: logger)
      // The hot paths prepare their statements, so they open once the tables exist.
      switch location {
      case .sqlite(let path):
        return SQLStore(
          pool: pool, games: .sqlite(try SQLiteWriter(path: path)),
          readers: SQLiteReaders(path: path, logger: logger))
      case .postgres(let url):
        return SQLStore(
          pool: pool,
          games: .postgres(
            try PostgresGames(url: url, logger: logger, holdConnections: holdConnections)))
      }
    } catch {
      try? await pool.shutdown()
      throw error
    }
  }

  /// SQLite: how many times the readers' statements were prepared again (for tests).
  func readerReprepares() -> Int? { readers?.reprepares() }

  public func close() async throws {
    readers?.close()
    switch games {
    case .sqlite(let writer): try await writer.close()
    case .postgres(let games): await games.close()
    }
    try await pool.shutdown()
  }

  // MARK: Schema

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
  private static func migrate(_ pool: any SessionPool, logger: Logger) async throws {
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

  private static func migrate(_ db: any SQLDatabase, logger: Logger) async throws {
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

  /// The versions recorded as applied, for tests and `guesswork` admin commands.
  public func appliedMigrations() async throws -> [Int] {
    try await session { db in
      try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all().map {
        try $0.decode(column: "version", as: Int.self)
      }
    }
  }

  static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  // MARK: GuessworkStore

  public func ping() async throws {
    try await session { db in _ = try await db.raw("SELECT 1 AS one").all() }
  }

  public func insertPlayer(_ player: PlayerRecord, tokenHash: String) async throws {
    try await writing { db in
      try await db.transaction {
        try await db.raw(
          """
          INSERT INTO players (id, token_hash, name, preferences, created_at, updated_at)
          VALUES (\(bind: player.id), \(bind: tokenHash), \(bind: player.name),
                  \(bind: player.preferences), \(bind: player.createdAt), \(bind: player.createdAt))
          """
        ).run()
        try await Self.insertToken(db, tokenHash, playerID: player.id, at: player.createdAt)
      }
    }
  }

  private static func insertToken(
    _ db: any SQLDatabase, _ tokenHash: String, playerID: String, at now: Int64
  ) async throws {
    try await db.raw(
      """
      INSERT INTO player_tokens (token_hash, player_id, created_at)
      VALUES (\(bind: tokenHash), \(bind: playerID), \(bind: now))
      """
    ).run()
  }

  public func addToken(playerID: String, tokenHash: String, at now: Int64) async throws {
    try await writing { db in try await Self.insertToken(db, tokenHash, playerID: playerID, at: now)
    }
  }

  public func removeToken(_ tokenHash: String) async throws {
    try await writing { db in
      try await db.raw("DELETE FROM player_tokens WHERE token_hash = \(bind: tokenHash)").run()
    }
  }

  public func replaceToken(_ old: String, with new: String, at now: Int64) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        UPDATE player_tokens SET token_hash = \(bind: new), created_at = \(bind: now)
        WHERE token_hash = \(bind: old)
        RETURNING player_id
        """
      ).first() != nil
    }
  }

  public func unfinishedGameIDs(kinds: [String], since: Int64, playerID: String?, limit: Int)
    async throws -> [String]
  {
    guard !kinds.isEmpty else { return [] }
    return try await session { db in
      let player: SQLQueryString = playerID.map { "AND player_id = \(bind: $0)" } ?? ""
      return try await db.raw(
        """
        SELECT id FROM games
        WHERE finished_at IS NULL AND created_at > \(bind: since)
          AND kind IN (\(binds: kinds)) \(player)
        ORDER BY created_at LIMIT \(literal: limit)
        """
      ).all().map { try $0.decode(column: "id", as: String.self) }
    }
  }

  public func insertLinkCode(hash: String, playerID: String, expiresAt: Int64) async throws {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO link_codes (code_hash, player_id, expires_at)
        VALUES (\(bind: hash), \(bind: playerID), \(bind: expiresAt))
        """
      ).run()
    }
  }

  public func linkCodePlayer(hash: String, at now: Int64) async throws -> String? {
    try await session { db in
      try await db.raw(
        """
        SELECT player_id FROM link_codes
        WHERE code_hash = \(bind: hash) AND used_at IS NULL AND expires_at > \(bind: now)
        """
      ).first()?.decode(column: "player_id", as: String.self)
    }
  }

  public func useLinkCode(hash: String, at now: Int64) async throws -> String? {
    try await writing { db in
      // One statement: of two uses at once, only one finds the code unused.
      try await db.raw(
        """
        UPDATE link_codes SET used_at = \(bind: now)
        WHERE code_hash = \(bind: hash) AND used_at IS NULL AND expires_at > \(bind: now)
        RETURNING player_id
        """
      ).first()?.decode(column: "player_id", as: String.self)
    }
  }

  public func deleteExpiredLinkCodes(at now: Int64) async throws {
    try await writing { db in
      try await db.raw("DELETE FROM link_codes WHERE expires_at <= \(bind: now)").run()
    }
  }

  private static let playerColumns: SQLQueryString = """
    p.id, p.name, p.preferences, p.created_at,
    (SELECT COUNT(*) FROM avatars a WHERE a.player_id = p.id) AS avatars
    """

  public func player(tokenHash: String) async throws -> PlayerRecord? {
    try await session { db in
      try await db.raw(
        """
        SELECT \(Self.playerColumns) FROM player_tokens t JOIN players p ON p.id = t.player_id
        WHERE t.token_hash = \(bind: tokenHash)
        """
      ).first().map(Self.player(from:))
    }
  }

  public func player(id: String) async throws -> PlayerRecord? {
    try await session { db in
      try await db.raw("SELECT \(Self.playerColumns) FROM players p WHERE p.id = \(bind: id)")
        .first().map(Self.player(from:))
    }
  }

  private static func player(from row: any SQLRow) throws -> PlayerRecord {
    PlayerRecord(
      id: try row.decode(column: "id", as: String.self),
      name: try row.decode(column: "name", as: String.self),
      preferences: try row.decode(column: "preferences", as: String.self),
      createdAt: try row.decode(column: "created_at", as: Int64.self),
      hasAvatar: try row.decode(column: "avatars", as: Int64.self) > 0)
  }

  @discardableResult
  public func updatePlayer(id: String, name: String, preferences: String, at: Int64) async throws
    -> Bool
  {
    try await writing { db in
      try await db.raw(
        """
        UPDATE players SET name = \(bind: name), preferences = \(bind: preferences),
          updated_at = \(bind: at)
        WHERE id = \(bind: id) RETURNING id
        """
      ).first() != nil
    }
  }

  public func setAvatar(playerID: String, _ avatar: Avatar, at: Int64) async throws {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO avatars (player_id, content_type, data, updated_at)
        VALUES (\(bind: playerID), \(bind: avatar.contentType), \(bind: avatar.data), \(bind: at))
        ON CONFLICT (player_id) DO UPDATE SET content_type = excluded.content_type,
          data = excluded.data, updated_at = excluded.updated_at
        """
      ).run()
    }
  }

  public func avatar(playerID: String) async throws -> Avatar? {
    try await session { db in
      try await db.raw(
        "SELECT content_type, data FROM avatars WHERE player_id = \(bind: playerID)"
      ).first().map {
        Avatar(
          contentType: try $0.decode(column: "content_type", as: String.self),
          data: try $0.decode(column: "data", as: Data.self))
      }
    }
  }

  public func insertGame(_ game: GameRecord, within limit: UnfinishedLimit?) async throws -> Bool {
    try await perform(.insertGame(game, within: limit))
  }

  public func liveGamesCached() -> CacheSize {
    switch games {
    case .sqlite(let writer): writer.cached()
    case .postgres(let games): games.cached()
    }
  }

  public func gameToMove(id: String) async throws -> GameRecord? {
    if case .postgres(let games) = games { return try await games.gameToMove(id: id) }
    return try await game(id: id)
  }

  public func roomChanges() -> AsyncStream<String>? {
    guard case .postgres(let games) = games else { return nil }
    return games.notifications(channel: Self.roomsChannel)
  }

  public func saveMove(_ move: Move, expectedVersion: Int) async throws -> Bool {
    try await perform(.saveMove(move, expectedVersion: expectedVersion))
  }

  private func perform(_ job: WriteJob) async throws -> Bool {
    switch games {
    case .sqlite(let writer): try await writer.perform(job)
    case .postgres(let games): try await games.perform(job)
    }
  }

  static func insert(_ game: GameRecord, into db: any SQLDatabase) async throws {
    try await db.raw(
      """
      INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
        created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
      VALUES (\(bind: game.id), \(bind: game.playerID), \(bind: game.kind),
        \(bind: game.variant), \(bind: game.settings), \(bind: Int64(bitPattern: game.seed)),
        \(bind: game.state), \(bind: game.version), \(bind: game.createdAt),
        \(bind: game.updatedAt), \(bind: game.finished?.at), \(bind: game.finished?.score),
        \(bind: game.finished?.summary), \(bind: game.daily?.day),
        \(bind: game.daily.map { $0.counted ? 1 : 0 }))
      """
    ).run()
  }

  public func game(id: String) async throws -> GameRecord? {
    switch games {
    case .sqlite(let writer): if let live = writer.cachedGame(id: id) { return live }
    case .postgres(let games): return try await games.game(id: id)
    }
    return try await session { db in
      try await db.raw("SELECT * FROM games WHERE id = \(bind: id)").first().map { row in
        let finishedAt = try row.decode(column: "finished_at", as: Int64?.self)
        let dailyDay = try row.decode(column: "daily_day", as: Int?.self)
        let counted = try row.decode(column: "daily_counted", as: Int?.self) == 1
        return GameRecord(
          id: try row.decode(column: "id", as: String.self),
          playerID: try row.decode(column: "player_id", as: String.self),
          kind: try row.decode(column: "kind", as: String.self),
          variant: try row.decode(column: "variant", as: String?.self),
          settings: try row.decode(column: "settings", as: String.self),
          seed: UInt64(bitPattern: try row.decode(column: "seed", as: Int64.self)),
          state: try row.decode(column: "state", as: String.self),
          version: try row.decode(column: "version", as: Int.self),
          createdAt: try row.decode(column: "created_at", as: Int64.self),
          updatedAt: try row.decode(column: "updated_at", as: Int64.self),
          finished: try finishedAt.map {
            GameRecord.Finished(
              at: $0, score: try row.decode(column: "score", as: Int.self),
              summary: try row.decode(column: "summary", as: String.self))
          },
          daily: dailyDay.map { DailyTag(day: $0, counted: counted) })
      }
    }
  }

  public func replaceDeck(id: String, manifest: String, pictures: [StoredPicture], at: Int64)
    async throws
  {
    try await writing { db in
      try await db.transaction {
        try await db.raw(
          """
          INSERT INTO decks (id, manifest, updated_at)
          VALUES (\(bind: id), \(bind: manifest), \(bind: at))
          ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest,
            updated_at = excluded.updated_at
          """
        ).run()
        for picture in pictures {
          try await db.raw(
            """
            INSERT INTO pictures (id, content_type, data)
            VALUES (\(bind: picture.id), \(bind: picture.contentType), \(bind: picture.data))
            ON CONFLICT (id) DO NOTHING
            """
          ).run()
        }
      }
    }
  }

  public func importedDecks() async throws -> [String: String] {
    try await session { db in
      var decks: [String: String] = [:]
      for row in try await db.raw("SELECT id, manifest FROM decks").all() {
        decks[try row.decode(column: "id", as: String.self)] = try row.decode(
          column: "manifest", as: String.self)
      }
      return decks
    }
  }

  public func picture(id: String) async throws -> StoredPicture? {
    try await session { db in
      try await db.raw("SELECT content_type, data FROM pictures WHERE id = \(bind: id)").first()
        .map {
          StoredPicture(
            id: id, contentType: try $0.decode(column: "content_type", as: String.self),
            data: try $0.decode(column: "data", as: Data.self))
        }
    }
  }

  public func actions(gameID: String) async throws -> [ActionRecord] {
    try await session { db in
      try await db.raw(
        "SELECT * FROM actions WHERE game_id = \(bind: gameID) ORDER BY version"
      ).all().map {
        ActionRecord(
          gameID: try $0.decode(column: "game_id", as: String.self),
          version: try $0.decode(column: "version", as: Int.self),
          action: try $0.decode(column: "action", as: String.self),
          at: try $0.decode(column: "at", as: Int64.self))
      }
    }
  }

  public func finishedGames(playerID: String, after mark: TallyMark?) async throws
    -> [FinishedGame]
  {
    try await session { db in
      try await Self.finishedGames(playerID: playerID, after: mark, db)
    }
  }

  /// The condition that keeps only the games finished after `mark` (all when there is none).
  private static func finished(after mark: TallyMark?) -> SQLQueryString {
    guard let mark else { return "" }
    return """
      AND finished_at >= \(bind: mark.finishedAt)
      AND (finished_at > \(bind: mark.finishedAt) OR id > \(bind: mark.gameID))
      """
  }

  static func finishedGames(playerID: String, after mark: TallyMark?, _ db: any SQLDatabase)
    async throws -> [FinishedGame]
  {
    let after = finished(after: mark)
    // SQLite sorts here, not in the query: with `ORDER BY`, it prepares the statement again
    // each time a new player id is bound (it weighs the plan against the value), which was a
    // tenth of a statistics read. Its ids compare byte by byte, as Swift compares these ASCII
    // ids; PostgreSQL keeps `ORDER BY`, as its collation decides `id >` above.
    let sortsHere = db.dialect.name == "sqlite"
    let games = try await db.raw(
      """
      SELECT id, kind, variant, score, summary, finished_at FROM games
      WHERE player_id = \(bind: playerID) AND finished_at IS NOT NULL \(after)
      \(unsafeRaw: sortsHere ? "" : "ORDER BY finished_at, id")
      """
    ).all().map {
      FinishedGame(
        gameID: try $0.decode(column: "id", as: String.self),
        kind: try $0.decode(column: "kind", as: String.self),
        variant: try $0.decode(column: "variant", as: String?.self),
        score: try $0.decode(column: "score", as: Int.self),
        summary: try $0.decode(column: "summary", as: String.self),
        finishedAt: try $0.decode(column: "finished_at", as: Int64.self))
    }
    return sortsHere
      ? games.sorted { ($0.finishedAt, $0.gameID) < ($1.finishedAt, $1.gameID) } : games
  }

  /// What ``recentBests(playerID:kind:after:finishedBy:excluding:)`` asks SQLite (answered
  /// from the index `games_by_player_finished` alone).
  static func recentBestsQuery(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) -> SQLQueryString {
    """
    SELECT variant, MAX(score) AS best FROM games
    WHERE player_id = \(bind: playerID) AND finished_at IS NOT NULL \(finished(after: mark))
      AND finished_at <= \(bind: finishedBy) AND kind = \(bind: kind) AND id <> \(bind: gameID)
    GROUP BY variant
    """
  }

  public func recentBests(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) async throws -> [String?: Int] {
    if case .postgres(let games) = games {
      return try await games.recentBests(
        playerID: playerID, kind: kind, after: mark, finishedBy: finishedBy, excluding: gameID)
    }
    let query = Self.recentBestsQuery(
      playerID: playerID, kind: kind, after: mark, finishedBy: finishedBy, excluding: gameID)
    return try await session { db in
      var bests: [String?: Int] = [:]
      for row in try await db.raw(query).all() {
        bests[try row.decode(column: "variant", as: String?.self)] = try row.decode(
          column: "best", as: Int.self)
      }
      return bests
    }
  }

}

// MARK: Words, custom categories and reminders

extension SQLStore {
  @discardableResult
  public func addWords(_ words: [String], category: String, source: String, at: Int64)
    async throws -> Int
  {
    guard !words.isEmpty else { return 0 }
    return try await writing { db in
      try await db.transaction {
        var added = 0
        for word in words {
          let inserted = try await db.raw(
            """
            INSERT INTO words (category, word, source, fetched_at)
            VALUES (\(bind: category), \(bind: word), \(bind: source), \(bind: at))
            ON CONFLICT (category, word) DO NOTHING
            RETURNING word
            """
          ).first()
          if inserted != nil { added += 1 }
        }
        return added
      }
    }
  }

  public func storedWords(category: String) async throws -> [StoredWord] {
    try await session { db in
      try await db.raw(
        """
        SELECT word, source, fetched_at FROM words WHERE category = \(bind: category)
        ORDER BY fetched_at, word
        """
      ).all().map {
        StoredWord(
          word: try $0.decode(column: "word", as: String.self),
          source: try $0.decode(column: "source", as: String.self),
          fetchedAt: try $0.decode(column: "fetched_at", as: Int64.self))
      }
    }
  }

  public func claimRefresh(category: String, lastBefore notAfter: Int64, at: Int64) async throws
    -> Bool
  {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO word_refreshes (category, attempted_at)
        VALUES (\(bind: category), \(bind: at))
        ON CONFLICT (category) DO UPDATE SET attempted_at = excluded.attempted_at
        WHERE word_refreshes.attempted_at <= \(bind: notAfter)
        RETURNING category
        """
      ).first() != nil
    }
  }

  public func lastRefresh(category: String) async throws -> Int64? {
    try await session { db in
      try await db.raw(
        "SELECT attempted_at FROM word_refreshes WHERE category = \(bind: category)"
      ).first()?.decode(column: "attempted_at", as: Int64.self)
    }
  }

  public func markSeen(playerID: String, category: String, words: [String], at: Int64)
    async throws
  {
    guard !words.isEmpty else { return }
    try await writing { db in
      try await db.transaction {
        for word in Set(words) {
          try await db.raw(
            """
            INSERT INTO seen_words (player_id, category, word, seen_at)
            VALUES (\(bind: playerID), \(bind: category), \(bind: word), \(bind: at))
            ON CONFLICT (player_id, category, word) DO UPDATE SET seen_at = excluded.seen_at
            """
          ).run()
        }
      }
    }
  }

  public func seenWords(playerID: String, category: String) async throws -> Set<String> {
    try await session { db in
      Set(
        try await db.raw(
          """
          SELECT word FROM seen_words
          WHERE player_id = \(bind: playerID) AND category = \(bind: category)
          """
        ).all().map { try $0.decode(column: "word", as: String.self) })
    }
  }

  public func clearSeen(playerID: String, category: String) async throws {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM seen_words
        WHERE player_id = \(bind: playerID) AND category = \(bind: category)
        """
      ).run()
    }
  }

  private static func encodeWords(_ words: [String]) -> String {
    String(decoding: (try? JSONEncoder().encode(words)) ?? Data("[]".utf8), as: UTF8.self)
  }

  private static func customCategory(from row: any SQLRow) throws -> CustomCategoryRecord {
    CustomCategoryRecord(
      id: try row.decode(column: "id", as: String.self),
      playerID: try row.decode(column: "player_id", as: String.self),
      name: try row.decode(column: "name", as: String.self),
      words: try JSONDecoder().decode(
        [String].self, from: Data(try row.decode(column: "words", as: String.self).utf8)),
      createdAt: try row.decode(column: "created_at", as: Int64.self),
      updatedAt: try row.decode(column: "updated_at", as: Int64.self))
  }

  public func insertCustomCategory(_ category: CustomCategoryRecord, limit: Int) async throws
    -> Bool
  {
    try await writing { db in
      try await Self.withinQuota(
        db, table: "custom_categories", playerID: category.playerID, limit: limit
      ) {
        try await db.raw(
          """
          INSERT INTO custom_categories (id, player_id, name, words, created_at, updated_at)
          VALUES (\(bind: category.id), \(bind: category.playerID), \(bind: category.name),
            \(bind: Self.encodeWords(category.words)), \(bind: category.createdAt),
            \(bind: category.updatedAt))
          """
        ).run()
      }
    }
  }

  /// Runs `insert` in a transaction when the player has fewer than `limit` rows in `table`.
  /// The player's row is locked first (an update that changes nothing), so that of several
  /// inserts at once on PostgreSQL each counts after the one before has committed; SQLite
  /// writes one at a time anyway.
  private static func withinQuota(
    _ db: any SQLDatabase, table: String, playerID: String, limit: Int,
    insert: () async throws -> Void
  ) async throws -> Bool {
    try await db.transaction {
      try await db.raw("UPDATE players SET updated_at = updated_at WHERE id = \(bind: playerID)")
        .run()
      let count =
        try await db.raw(
          "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE player_id = \(bind: playerID)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
      guard count < limit else { return false }
      try await insert()
      return true
    }
  }

  public func updateCustomCategory(_ category: CustomCategoryRecord) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        UPDATE custom_categories SET name = \(bind: category.name),
          words = \(bind: Self.encodeWords(category.words)),
          updated_at = \(bind: category.updatedAt)
        WHERE id = \(bind: category.id) AND player_id = \(bind: category.playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }

  public func deleteCustomCategory(id: String, playerID: String) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM custom_categories WHERE id = \(bind: id) AND player_id = \(bind: playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }

  public func customCategories(playerID: String) async throws -> [CustomCategoryRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM custom_categories WHERE player_id = \(bind: playerID)
        ORDER BY created_at, id
        """
      ).all().map(Self.customCategory(from:))
    }
  }

  public func customCategory(id: String) async throws -> CustomCategoryRecord? {
    try await session { db in
      try await db.raw("SELECT * FROM custom_categories WHERE id = \(bind: id)").first().map(
        Self.customCategory(from:))
    }
  }

  private static func reminder(from row: any SQLRow) throws -> ReminderRecord {
    ReminderRecord(
      id: try row.decode(column: "id", as: String.self),
      playerID: try row.decode(column: "player_id", as: String.self),
      title: try row.decode(column: "title", as: String.self),
      startsAt: try row.decode(column: "starts_at", as: Int64.self),
      utcOffsetMinutes: try row.decode(column: "utc_offset_minutes", as: Int.self),
      place: try row.decode(column: "place", as: String.self),
      latitude: try row.decode(column: "latitude", as: Double?.self),
      longitude: try row.decode(column: "longitude", as: Double?.self),
      createdAt: try row.decode(column: "created_at", as: Int64.self))
  }

  public func insertReminder(_ reminder: ReminderRecord, limit: Int) async throws -> Bool {
    try await writing { db in
      try await Self.withinQuota(db, table: "reminders", playerID: reminder.playerID, limit: limit)
      {
        try await db.raw(
          """
          INSERT INTO reminders (id, player_id, title, starts_at, utc_offset_minutes, place,
            latitude, longitude, created_at)
          VALUES (\(bind: reminder.id), \(bind: reminder.playerID), \(bind: reminder.title),
            \(bind: reminder.startsAt), \(bind: reminder.utcOffsetMinutes), \(bind: reminder.place),
            \(bind: reminder.latitude), \(bind: reminder.longitude), \(bind: reminder.createdAt))
          """
        ).run()
      }
    }
  }

  public func reminders(playerID: String) async throws -> [ReminderRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM reminders WHERE player_id = \(bind: playerID) ORDER BY starts_at, id
        """
      ).all().map(Self.reminder(from:))
    }
  }

  public func reminder(id: String) async throws -> ReminderRecord? {
    try await session { db in
      try await db.raw("SELECT * FROM reminders WHERE id = \(bind: id)").first().map(
        Self.reminder(from:))
    }
  }

  public func deleteReminder(id: String, playerID: String) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM reminders WHERE id = \(bind: id) AND player_id = \(bind: playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }
}

extension SQLDatabase {
  /// Runs `body` between BEGIN and COMMIT on this session, rolling back when it throws.
  /// Only call it on a database from `withSession`, so every statement uses one connection.
  ///
  /// On SQLite the transaction takes the write lock at once (`BEGIN IMMEDIATE`): a deferred
  /// one that reads first cannot wait for another writer and fails with "database is locked".
  func transaction<R: Sendable>(_ body: () async throws -> R) async throws -> R {
    try await raw(dialect.name == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN").run()
    do {
      let result = try await body()
      try await raw("COMMIT").run()
      return result
    } catch {
      try? await raw("ROLLBACK").run()
      throw error
    }
  }
}

// MARK: Connection pools

/// A first-come, first-served turn for writers.
private actor WriterQueue {
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    guard busy else {
      busy = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      busy = false
    } else {
      waiting.removeFirst().resume()
    }
  }
}

/// A pool that lends one database session at a time.
private protocol SessionPool: Sendable {
  func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R)
    async throws -> R
  func shutdown() async throws
}

private struct Pool<Source: ConnectionPoolSource & SendableMetatype>: SessionPool,
  @unchecked Sendable
where Source.Connection: Sendable {
  let pool: EventLoopGroupConnectionPool<Source>
  let makeDatabase: @Sendable (Source.Connection) -> any SQLDatabase

  func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R)
    async throws -> R
  {
    try await pool.withConnection { connection in
      connection.eventLoop.makeFutureWithTask { try await body(makeDatabase(connection)) }
    }.get()
  }

  func shutdown() async throws {
    try await pool.shutdownAsync()
  }
}

/// SQLite connections set up for a server: WAL (readers never wait for the writer), a busy
/// timeout (writers wait for each other instead of failing), foreign keys enforced, and
/// `synchronous = NORMAL`, which in WAL mode loses nothing on a process crash (only a power
/// loss can lose the last commits).
private struct SQLiteSource: ConnectionPoolSource {
  let path: String

  func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<
    SQLiteConnection
  > {
    SQLiteConnection.open(
      storage: .file(path: path), threadPool: .singleton, logger: logger, on: eventLoop
    ).flatMap { connection in
      let pragmas = [
        "PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
        "PRAGMA foreign_keys = ON",
      ]
      return pragmas.reduce(eventLoop.makeSucceededVoidFuture()) { done, pragma in
        done.flatMap { connection.query(pragma).map { _ in } }
      }.map { connection }
    }
  }
}
