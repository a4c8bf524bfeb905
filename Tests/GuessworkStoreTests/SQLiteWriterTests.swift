import Foundation
import NIOCore
import NIOPosix
import SQLKit
import Testing

@testable import GuessworkStore

/// The SQLite writer's batches, run on its connection directly: which jobs share a
/// transaction is otherwise up to timing.
@Suite("SQLite's writer")
struct SQLiteWriterTests {
  struct NotSQLite: Error {}

  /// A new SQLite database: where it is, and a store open on it.
  static func newDatabase() async throws -> (StoreLocation, path: String, SQLStore) {
    let location = Backend.sqlite.newLocation()
    guard case .sqlite(let path) = location else { throw NotSQLite() }
    return (location, path, try await SQLStore.open(location, logger: Backend.logger))
  }

  /// A move of `game` from `version - 1` to `version`, with an action.
  static func move(_ game: GameRecord, to version: Int) -> WriteJob {
    .saveMove(
      Move(
        gameID: game.id, version: version, state: "state \(version)", at: Int64(version),
        action: "action \(version)"),
      expectedVersion: version - 1)
  }

  @Test(
    "A batch with a failing job: that job is undone whole and fails, the others are answered and committed as if alone"
  )
  func aFailingJobFailsAlone() async throws {
    let (location, path, store) = try await Self.newDatabase()
    let player = try await newPlayer(store)
    let (first, second, third) = (
      try await newGame(store, player: player), try await newGame(store, player: player),
      try await newGame(store, player: player)
    )
    // The third game's next action is already in the log: its move changes the game's row,
    // then fails on the action's key, and must leave the row as it was.
    try await store.writing { db in
      try await db.raw(
        "INSERT INTO actions (game_id, version, action, at) VALUES (\(bind: third.id), 1, 'x', 1)"
      ).run()
    }
    let orphan = GameRecord(
      id: UUID().uuidString, playerID: UUID().uuidString, kind: "number", settings: "{}", seed: 1,
      state: "{}", createdAt: 1)
    let connection = try SQLiteWriterConnection(path: path)
    let results = connection.commit([
      Self.move(first, to: 1),
      .insertGame(orphan, within: nil),  // no such player: refused by the foreign key
      Self.move(first, to: 1),  // stale: the first job moved it to 1
      Self.move(third, to: 1),
      Self.move(second, to: 1),
      Self.move(first, to: 2),
    ])
    connection.close()
    #expect(results.count == 6)
    #expect(try results[0].get() == true)
    #expect(throws: (any Error).self) { try results[1].get() }
    #expect(try results[2].get() == false)
    #expect(throws: (any Error).self) { try results[3].get() }
    #expect(try results[4].get() == true)
    #expect(try results[5].get() == true)
    try await store.close()

    let reader = try await SQLStore.open(location, logger: Backend.logger)
    #expect(try await reader.game(id: orphan.id) == nil)
    #expect(try await reader.game(id: first.id)?.version == 2)
    #expect(try await reader.actions(gameID: first.id).map(\.action) == ["action 1", "action 2"])
    #expect(try await reader.game(id: second.id)?.state == "state 1")
    let untouched = try #require(try await reader.game(id: third.id))
    #expect(untouched.version == 0 && untouched.state == third.state)
    #expect(try await reader.actions(gameID: third.id).map(\.action) == ["x"])
    try await reader.close()
  }

  @Test("A batch whose jobs all succeed commits them all, in order")
  func aBatchCommitsInOrder() async throws {
    let (_, path, store) = try await Self.newDatabase()
    let player = try await newPlayer(store)
    let game = try await newGame(store, player: player)
    let connection = try SQLiteWriterConnection(path: path)
    let results = connection.commit((1...5).map { Self.move(game, to: $0) })
    connection.close()
    #expect(try results.map { try $0.get() } == Array(repeating: true, count: 5))
    #expect(try await store.actions(gameID: game.id).count == 5)
    try await store.close()
  }

  @Test(
    "The log as the files hold it after commits, with no connection closed, brings back every committed move"
  )
  func theLogOnDiskIsWholeAfterItsCommits() async throws {
    let (_, path, store) = try await Self.newDatabase()
    let player = try await newPlayer(store)
    var games: [GameRecord] = []
    for _ in 0..<8 { games.append(try await newGame(store, player: player)) }
    try await store.close()
    let connection = try SQLiteWriterConnection(path: path)
    #expect(connection.holdsFrameHeader == false, "the writer's log uses the frames' VFS")
    for version in 1...6 {
      let results = connection.commit(games.map { Self.move($0, to: version) })
      #expect(try results.map { try $0.get() } == Array(repeating: true, count: games.count))
      #expect(connection.holdsFrameHeader == false)
    }
    // What a process killed now would leave: the database and its log, not the shared
    // memory, so that opening the copy recovers the log from its frames' headers alone.
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("guesswork-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    let copied = copy.appendingPathComponent("test.sqlite").path
    try FileManager.default.copyItem(atPath: path, toPath: copied)
    try FileManager.default.copyItem(atPath: path + "-wal", toPath: copied + "-wal")
    connection.close()
    let recovered = try await SQLStore.open(.sqlite(path: copied), logger: Backend.logger)
    for game in games {
      #expect(try await recovered.game(id: game.id)?.version == 6)
      #expect(try await recovered.actions(gameID: game.id).count == 6)
    }
    try await recovered.close()
  }

  @Test(
    "A move asked for on an event loop while a pool transaction holds SQLite's write lock is handed to the writer's thread and committed once the lock is let go"
  )
  func aHeldLockSendsTheBatchToTheThread() async throws {
    let (_, _, store) = try await Self.newDatabase()
    let player = try await newPlayer(store)
    for (round, loop) in MultiThreadedEventLoopGroup.singleton.makeIterator().enumerated() {
      let game = try await newGame(store, player: player)
      let category = "held \(round)"
      let (began, hasBegun) = AsyncStream<Void>.makeStream()
      // As a new player's or a room's transaction: the lock is taken, held a while, let go.
      let holder = Task {
        try await store.writing { db in
          try await db.transaction {
            try await db.raw(
              "INSERT INTO word_refreshes (category, attempted_at) VALUES (\(bind: category), 1)"
            ).run()
            hasBegun.yield()
            try await Task.sleep(for: .milliseconds(100))
            try await db.raw(
              "UPDATE word_refreshes SET attempted_at = 2 WHERE category = \(bind: category)"
            ).run()
          }
        }
      }
      for await _ in began { break }
      let moved = try await withTaskExecutorPreference(OnEventLoop(loop)) {
        try await store.saveMove(
          Move(gameID: game.id, version: 1, state: "moved", at: 2, action: "a"),
          expectedVersion: 0)
      }
      try await holder.value
      #expect(moved)
      #expect(try await store.game(id: game.id)?.state == "moved")
      let held = try await store.session { db in
        try await db.raw(
          "SELECT attempted_at FROM word_refreshes WHERE category = \(bind: category)"
        ).all().map { try $0.decode(column: "attempted_at", as: Int.self) }
      }
      #expect(held == [2])
    }
    try await store.close()
  }

  @Test(
    "Moves asked for at once on every event loop are committed and answered each as if alone: every game at its last version, every stale move refused"
  )
  func movesOnTheLoops() async throws {
    let (_, _, store) = try await Self.newDatabase()
    let player = try await newPlayer(store)
    let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
    var games: [GameRecord] = []
    for _ in 0..<24 { games.append(try await newGame(store, player: player)) }
    // Each game is moved to 1...8 from one loop, and each of those moves is sent twice: the
    // second of each pair finds its game moved already.
    let answers = try await withThrowingTaskGroup(of: [Bool].self) { group in
      for (index, game) in games.enumerated() {
        group.addTask(executorPreference: OnEventLoop(loops[index % loops.count])) {
          var answers: [Bool] = []
          for version in 1...8 {
            for _ in 0..<2 {
              let move = Move(
                gameID: game.id, version: version, state: "state \(version)",
                at: Int64(version), action: "action \(version)")
              answers.append(try await store.saveMove(move, expectedVersion: version - 1))
            }
          }
          return answers
        }
      }
      return try await group.reduce(into: [[Bool]]()) { $0.append($1) }
    }
    #expect(answers.count == games.count)
    for answer in answers {
      #expect(answer == (1...8).flatMap { _ in [true, false] })
    }
    for game in games {
      #expect(try await store.game(id: game.id)?.version == 8)
      #expect(
        try await store.actions(gameID: game.id).map(\.action) == (1...8).map { "action \($0)" })
    }
    try await store.close()
  }
}

/// Runs a task's jobs on one event loop, as the server runs its requests' tasks (its
/// `EventLoopTaskExecutor`): the store then sees its calls come from that loop.
final class OnEventLoop: TaskExecutor {
  let loop: any EventLoop

  init(_ loop: any EventLoop) {
    self.loop = loop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
