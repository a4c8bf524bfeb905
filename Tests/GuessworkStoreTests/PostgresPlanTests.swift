import Foundation
import Logging
import PostgresNIO
import Testing

@testable import GuessworkStore

/// How PostgreSQL runs the move path's statements. What a statement reads is not a time, so
/// it can be checked here, where times cannot (BENCHMARKS.md has those).
@Suite("PostgreSQL's plans", .enabled(if: Backend.postgresURL != nil))
struct PostgresPlanTests {
  static let logger = Logger(label: "plan-tests")

  @Test(
    "A batch of moves reads only its own games, also when the table has grown since the batch was first written"
  )
  func movesReadOnlyTheirGames() async throws {
    try await withPostgresGames { games in
      let (moved, read) = try await games.client.withConnection {
        try await Self.batchAfterGrowth(on: $0)
      }
      #expect(moved == [0, 1])
      // Each of the two games, found by its key; not every unfinished game.
      #expect(read == 2)
    }
  }

  @Test(
    "A move that does not finish its game updates its row without touching the indexes (HOT): games are written with room for their next version"
  )
  func movesAreHeapOnlyUpdates() async throws {
    try await withPostgresGames { games in
      let (updated, hot) = try await games.client.withConnection {
        try await Self.movesOfFreshGames(on: $0)
      }
      #expect(updated == 40)
      #expect(hot == updated)
    }
  }

  @Test(
    "Writing a move's action runs no check of its game: `actions` has no trigger (not even a foreign key's), and `games` one of its own, for deletes"
  )
  func actionsAreNotCheckedRowByRow() async throws {
    try await withPostgresGames { games in
      let triggers = try await games.client.withConnection { connection in
        var found: [String: [String]] = [:]
        // tgtype: 1 a row trigger, 4 insert, 8 delete, 16 update (PostgreSQL's pg_trigger.h).
        for try await (table, type) in try await connection.query(
          """
          SELECT c.relname::text, t.tgtype::int4 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.oid = 'public.actions'::regclass
            OR (c.oid = 'public.games'::regclass AND NOT t.tgisinternal)
          """, logger: Self.logger
        ).decode((String, Int32).self) {
          let kind = type & 1 == 1 ? "row" : "statement"
          let events = [(4, "insert"), (8, "delete"), (16, "update")]
            .filter { type & Int32($0.0) != 0 }.map(\.1).joined(separator: "+")
          found[table, default: []].append("\(kind) \(events)")
        }
        return found
      }
      #expect(triggers["actions"] == nil)
      #expect(triggers["games"] == ["statement delete"])
    }
  }

  /// On `connection`, in a transaction rolled back after, over private copies of `games`
  /// (with the real one's fill factor) and `actions` (temporary tables, so that no other test
  /// writes on the same pages): 40 new games of one player, each with a state of a kilobyte,
  /// then a batch of one move each, which grows the state. Answers how many rows of `games`
  /// the batch updated, and how many of those updates were HOT (heap-only: no index got an
  /// entry). Packed pages have no room for a row's new version.
  static func movesOfFreshGames(on connection: PostgresConnection) async throws -> (
    updated: Int, hot: Int
  ) {
    func run(_ sql: String) async throws {
      for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
      }
    }
    func counts() async throws -> (updated: Int, hot: Int) {
      let rows = try await connection.query(
        """
        SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_all_tables
        WHERE relid = 'pg_temp.games'::regclass
        """, logger: logger)
      var found = (updated: 0, hot: 0)
      for try await (updated, hot) in rows.decode((Int64, Int64).self) {
        found = (Int(updated), Int(hot))
      }
      return found
    }
    var fillfactor = 100
    for try await setting in try await connection.query(
      """
      SELECT option_value::int4 FROM pg_class, pg_options_to_table(reloptions)
      WHERE oid = 'public.games'::regclass AND option_name = 'fillfactor'
      """, logger: logger
    ).decode(Int32.self) {
      fillfactor = Int(setting)
    }
    try await run("BEGIN")
    do {
      try await run(
        "CREATE TEMP TABLE games (LIKE public.games INCLUDING ALL) WITH (fillfactor = \(fillfactor))"
      )
      try await run("CREATE TEMP TABLE actions (LIKE public.actions INCLUDING ALL)")
      try await run(
        """
        INSERT INTO games (id, player_id, kind, settings, seed, state, version, created_at,
          updated_at)
        SELECT 'hot' || n, 'p', 'number', '{}', 0, repeat('x', 1000), 1, n, n
        FROM generate_series(1, 40) AS n
        """)
      let before = try await counts()
      let moved = try await WriteBatch(
        (1...40).map {
          .saveMove(
            Move(
              gameID: "hot\($0)", version: 2, state: String(repeating: "y", count: 1100), at: 9,
              action: "{}"), expectedVersion: 1)
        }
      ).run(on: connection, logger: logger)
      #expect(moved.count == 40)
      let after = try await counts()
      try await run("ROLLBACK")
      return (after.updated - before.updated, after.hot - before.hot)
    } catch {
      try? await run("ROLLBACK")
      throw error
    }
  }

  /// On `connection`, over private copies of `games` and `actions` (temporary tables, which
  /// hide the real ones in this session and which autovacuum never analyzes): six batches
  /// written while the table holds two games, then one of two moves once it holds 5,000
  /// unfinished games. Answers what that batch moved and how many rows of `games` it read.
  static func batchAfterGrowth(on connection: PostgresConnection) async throws -> (
    moved: [Int], read: Int
  ) {
    func run(_ sql: String) async throws {
      for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
      }
    }
    func unfinished(_ prefix: String, _ count: Int) async throws {
      try await run(
        """
        INSERT INTO games (id, player_id, kind, settings, seed, state, version, created_at,
          updated_at)
        SELECT '\(prefix)' || n, 'p' || (n % 50), 'number', '{}', 0, repeat('x', 900), 1, n, n
        FROM generate_series(1, \(count)) AS n
        """)
    }
    func batch(_ ids: [String]) -> [WriteJob] {
      ids.map {
        .saveMove(
          Move(gameID: $0, version: 2, state: "{}", at: 9, action: "{}"), expectedVersion: 1)
      }
    }
    for table in ["games", "actions"] {
      try await run("CREATE TEMP TABLE \(table) (LIKE \(table) INCLUDING ALL)")
    }
    do {
      try await unfinished("young", 2)
      for _ in 1...6 {
        _ = try await WriteBatch(batch(["none"])).run(on: connection, logger: logger)
      }
      try await unfinished("grown", 5_000)
      // The counts of this session's reads not yet reported, before and after the batch
      // (reported at most once a second, and never inside a transaction).
      func rowsRead() async throws -> Int {
        let rows = try await connection.query(
          """
          SELECT seq_tup_read + COALESCE(idx_tup_fetch, 0) FROM pg_stat_xact_all_tables
          WHERE relid = 'pg_temp.games'::regclass
          """, logger: logger)
        var read = 0
        for try await count in rows.decode(Int64.self) { read = Int(count) }
        return read
      }
      try await run("BEGIN")
      let before = try await rowsRead()
      let moved = try await WriteBatch(
        batch(["grown1", "grown2"])
      ).run(on: connection, logger: logger)
      let read = try await rowsRead() - before
      try await run("ROLLBACK")
      try await run("DROP TABLE pg_temp.actions, pg_temp.games")
      return (moved, read)
    } catch {
      try? await run("ROLLBACK")
      try? await run("DROP TABLE pg_temp.actions, pg_temp.games")
      throw error
    }
  }
}

/// Runs `body` with the hot path of a store opened on PostgreSQL, closing the store after.
private func withPostgresGames(_ body: (PostgresGames) async throws -> Void) async throws {
  let store = try await Backend.postgres.open()
  do {
    guard case .postgres(let games) = store.games else {
      Issue.record("the store is not on PostgreSQL")
      return try await store.close()
    }
    try await body(games)
  } catch {
    try await store.close()
    throw error
  }
  try await store.close()
}
