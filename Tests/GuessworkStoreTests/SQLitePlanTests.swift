import Foundation
import SQLKit
import Testing

@testable import GuessworkStore

/// How SQLite runs the statements of a move and of a finish. What a statement reads and
/// writes is not a time, so it can be checked here, where times cannot (BENCHMARKS.md has
/// those).
@Suite("SQLite's plans")
struct SQLitePlanTests {
  /// The steps SQLite compiled `sql` to (`EXPLAIN`), by their opcode.
  static func opcodes(_ sql: String, in store: SQLStore) async throws -> [String] {
    try await store.session { db in
      try await db.raw("EXPLAIN \(unsafeRaw: sql)").all().map {
        try $0.decode(column: "opcode", as: String.self)
      }
    }
  }

  @Test("A move that does not finish its game changes no index of the games; a finish does")
  func movesLeaveTheIndexesAlone() async throws {
    try await withStore(.sqlite) { store in
      let move = try await Self.opcodes(SQLiteWriterStatement.moveGame.sql, in: store)
      let finish = try await Self.opcodes(SQLiteWriterStatement.finishGame.sql, in: store)
      // The row itself is written either way.
      #expect(move.contains("Insert") && finish.contains("Insert"))
      #expect(!move.contains("IdxInsert") && !move.contains("IdxDelete"))
      #expect(finish.contains("IdxInsert") && finish.contains("IdxDelete"))
    }
  }

  @Test("A move's action is written into one tree: the actions are kept by their key alone")
  func actionsInOneTree() async throws {
    try await withStore(.sqlite) { store in
      let insert = try await Self.opcodes(SQLiteWriterStatement.insertAction.sql, in: store)
      // With a row id, the row goes into the table (`Insert`) and its key into the index.
      #expect(!insert.contains("Insert"), "\(insert)")
      #expect(insert.count(where: { $0 == "IdxInsert" }) == 1, "\(insert)")
    }
  }

  @Test("A database made before the actions lost their row id keeps every action")
  func actionsCarriedOver() async throws {
    let location = Backend.sqlite.newLocation()
    let store = try await SQLStore.open(location, logger: Backend.logger)
    let player = try await newPlayer(store)
    let game = try await newGame(store, player: player)
    for version in 1...3 {
      let move = Move(
        gameID: game.id, version: version, state: #"{"v":\#(version)}"#,
        at: 2_000 + Int64(version), action: #"{"n":\#(version)}"#, finished: nil)
      #expect(try await store.saveMove(move, expectedVersion: version - 1))
    }
    let actions = try await store.actions(gameID: game.id)
    #expect(actions.count == 3)
    // The table as migration 1 made it, and migration 12 not yet applied.
    try await store.writing { db in
      for statement: SQLQueryString in [
        """
        CREATE TABLE actions_with_rowid (
          game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
          version INTEGER NOT NULL,
          action TEXT NOT NULL,
          at BIGINT NOT NULL,
          PRIMARY KEY (game_id, version)
        )
        """,
        "INSERT INTO actions_with_rowid SELECT * FROM actions",
        "DROP TABLE actions",
        "ALTER TABLE actions_with_rowid RENAME TO actions",
        "DELETE FROM schema_migrations WHERE version = 12",
      ] {
        try await db.raw(statement).run()
      }
    }
    try await store.close()
    let reopened = try await SQLStore.open(location, logger: Backend.logger)
    #expect(try await reopened.appliedMigrations() == Array(1...13))
    #expect(try await reopened.actions(gameID: game.id) == actions)
    let definition = try await reopened.session { db in
      try await db.raw("SELECT sql FROM sqlite_master WHERE name = 'actions'").all().map {
        try $0.decode(column: "sql", as: String.self)
      }
    }
    #expect(definition.count == 1 && definition[0].contains("WITHOUT ROWID"), "\(definition)")
    try await reopened.close()
  }

  @Test(
    "A finish's earlier bests are read from an index alone, with or without a tally's mark",
    arguments: [nil, TallyMark(finishedAt: 5_000, gameID: "g")])
  func recentBestsFromTheIndex(mark: TallyMark?) async throws {
    try await withStore(.sqlite) { store in
      let query = SQLStore.recentBestsQuery(
        playerID: "p", kind: "number", after: mark, finishedBy: 9_000, excluding: "x")
      let plan = try await store.session { db in
        try await db.raw("EXPLAIN QUERY PLAN \(query)").all().map {
          try $0.decode(column: "detail", as: String.self)
        }
      }
      #expect(
        plan.contains { $0.contains("COVERING INDEX games_by_player_finished (player_id=?") },
        "\(plan)")
    }
  }

  @Test("A reader keeps a statement's plan for new values: a finish's question is prepared once")
  func readersKeepTheirPlans() async throws {
    try await withStore(.sqlite) { store in
      let player = try await newPlayer(store)
      let game = try await newGame(store, player: player)
      let finish = Move(
        gameID: game.id, version: 1, state: #"{"v":1}"#, at: 3_000, action: nil,
        finished: .init(at: 3_000, score: 4, summary: "{}"))
      #expect(try await store.saveMove(finish, expectedVersion: 0))
      for (index, mark) in [nil, TallyMark(finishedAt: 1_000, gameID: "a")].enumerated() {
        for finishedBy: Int64 in [2_000, 4_000, 9_000, 1_000_000, 5] {
          let bests = try await store.recentBests(
            playerID: index == 0 ? player.id : "\(player.id)-\(finishedBy)", kind: "number",
            after: mark, finishedBy: finishedBy, excluding: "g\(finishedBy)")
          #expect(bests == (index == 0 && finishedBy >= 3_000 ? [nil: 4] : [:]))
        }
      }
      #expect(store.readerReprepares() == 0)
    }
  }

  @Test("A game's id is a UUID of version 7: its time first, then random bits")
  func gameIDs() throws {
    let at: Int64 = 1_795_000_000_123
    let ids = (0..<1_000).map { _ in GameRecord.newID(at: at) }
    #expect(Set(ids).count == ids.count)
    for id in ids.prefix(20) {
      let uuid = try #require(UUID(uuidString: id)).uuid
      #expect(id == id.lowercased())
      #expect(uuid.6 >> 4 == 7)
      #expect(uuid.8 >> 6 == 0b10)
      let time = [uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5].reduce(Int64(0)) {
        $0 << 8 | Int64($1)
      }
      #expect(time == at)
    }
    // Made later, sorted later, as text too (the indexes compare the text).
    for step: Int64 in [1, 255, 256, 65_536, 86_400_000] {
      #expect(GameRecord.newID(at: at) < GameRecord.newID(at: at + step))
    }
  }
}
