import CGuessworkSQLite
import CoreMetrics
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import VaporCSQLite

/// The hot path of SQLite: every new game and every move, written through one connection of
/// its own with its prepared statements, which commits the writes waiting at that moment in one
/// transaction (each in a savepoint, so one failing write fails alone).
///
/// Why not SQLKit, as everywhere else: through SQLiteNIO every statement of a move is a round
/// trip from an event loop to a thread-pool thread and back, and under load the event loops
/// are busy answering HTTP, so a move waited for eight such hops while holding SQLite's only
/// write lock (about 1 ms: the move loop reached 3% of the HTTP ceiling). Here a whole batch
/// runs in one call. BENCHMARKS.md has the figures. The statements are the same as the SQLKit
/// ones PostgreSQL runs, and the store contract tests run both.
///
/// Where a batch runs: one drainer at a time (``WriteQueue``). A write asked for on an event
/// loop, finding no batch under way, has its batch committed on that loop, as a task queued
/// behind the loop's other work of the moment (the requests it is reading bring their writes to
/// the same batch): no other thread is woken, and the askers on that loop are answered in
/// place. That commit only tries SQLite's write lock. The pool's connections (new players,
/// rooms, the daily set) hold the lock across hops to an event loop, and a commit waiting for it
/// on that loop would wait for itself; so when the lock is held, and for the checkpoints, which
/// wait for the disk, the batch goes to the writer's own thread, which waits. Writes asked for
/// anywhere else go to that thread too. (Committing each write at once where it was asked, the
/// try before, made batches of one and cost more: BENCHMARKS.md, 2026-11-28.)
///
/// Live games created here are also kept in memory (``cachedGame(id:)``), updated in the same
/// order as the commits, so reading a game needs no query. Every write is still committed
/// before it is answered.
final class SQLiteWriter: Sendable {
  private struct Pending: Sendable {
    let job: WriteJob
    let asker: Asker<Bool>
  }

  /// At most this many live games are kept in memory, the ones in play (``RecentlyUsed``);
  /// one forgotten is read from the database when asked for.
  static let cacheCapacity = 20_000
  /// And at most this many bytes of them (``GameRecord/approximateBytes``).
  static let cacheBytes = 64 << 20

  /// One batch at a time: SQLite has one writer.
  private let queue = NIOLockedValueBox(WriteQueue<Pending>(drainers: 1))
  private let games = NIOLockedValueBox(RecentlyUsed<String, GameRecord>.liveGames())
  /// The thread for batches that wait: for SQLite's write lock, for a checkpoint.
  private let thread = NIOThreadPool(numberOfThreads: 1)
  private let batchSizes = WriteJob.batchSizes(database: "sqlite")
  /// Touched only by the queue's one drainer, on an event loop or on `thread`.
  private let connection: SQLiteWriterConnection

  init(path: String) throws {
    connection = try SQLiteWriterConnection(path: path)
    thread.start()
  }

  /// Commits `job`, answering after the commit: `false` when a move found its game at another
  /// version (or finished), and nothing was written.
  func perform(_ job: WriteJob) async throws -> Bool {
    try await withCheckedThrowingContinuation { done in
      let start = queue.withLockedValue { $0.add(Pending(job: job, asker: Asker(done))) }
      guard start else { return }
      if let loop = MultiThreadedEventLoopGroup.currentEventLoop {
        loop.execute { self.drain(on: loop) }
      } else {
        thread.submit { _ in self.drain() }
      }
    }
  }

  /// Commits the writes waiting now, on `loop`, if SQLite's write lock is free; then goes on
  /// there while more come, hands over to `thread` when a checkpoint is due, or stops.
  private func drain(on loop: any EventLoop) {
    let batch = queue.withLockedValue { $0.take() }
    if batch.isEmpty { return }
    guard let results = connection.commitIfUnlocked(batch.map(\.job)) else {
      thread.submit { _ in self.drain(first: batch) }
      return
    }
    answer(batch, results)
    if connection.checkpointIsDue {
      thread.submit { _ in self.drain() }
    } else if !queue.withLockedValue({ $0.releaseIfIdle() }) {
      loop.execute { self.drain(on: loop) }
    }
  }

  /// Commits batches until nobody is waiting, `first` (already taken) first, copying the log
  /// back into the database whenever it is due. Runs on `thread`.
  private func drain(first: [Pending] = []) {
    var batch = first
    while true {
      connection.checkpointIfDue()
      if batch.isEmpty { batch = queue.withLockedValue { $0.take() } }
      if batch.isEmpty { return }
      answer(batch, connection.commit(batch.map(\.job)))
      batch = []
    }
  }

  /// Brings the live games up to date with a committed batch, then answers its askers.
  private func answer(_ batch: [Pending], _ results: [Result<Bool, any Error>]) {
    batchSizes.record(batch.count)
    games.withLockedValue { $0.remember(zip(batch.lazy.map(\.job), results)) }
    Asker.answer(zip(batch.lazy.map(\.asker), results))
  }

  /// The live game `id` as last committed, when this process created it.
  func cachedGame(id: String) -> GameRecord? {
    games.withLockedValue { $0[id] }
  }

  func cached() -> CacheSize {
    games.withLockedValue { $0.size }
  }

  /// Waits for the batch under way, if any, then closes the connection: writes asked for
  /// afterwards fail.
  func close() async throws {
    while !queue.withLockedValue({ $0.claimIfIdle() }) {
      try await Task.sleep(for: .milliseconds(1))
    }
    try await thread.shutdownGracefully()
    connection.close()
    _ = queue.withLockedValue { $0.releaseIfIdle() }
  }
}

/// One `sqlite3` connection and its prepared statements. Not thread-safe: only the writer's
/// one drainer at a time touches it (on an event loop or the writer's thread, handed from one
/// to the other under the queue's lock).
final class SQLiteWriterConnection: @unchecked Sendable {
  private var handle: OpaquePointer?
  /// Prepared statements, in the order of ``SQLiteWriterStatement/allCases`` (an array, not a
  /// dictionary: a batch steps about six a move).
  private var statements: [OpaquePointer] = []
  /// Pages in the write-ahead log after the last commit, as SQLite reports them.
  private var walPages = 0
  /// The log is copied back into the database once it holds this many pages (SQLite's own
  /// default for its automatic checkpoints). Ten times as many made a move's CPU 1-2% less
  /// but the moves that wait for a checkpoint wait longer: the move loop's p99 went from 15-17
  /// to 32-34 ms (BENCHMARKS.md, 2026-11-28).
  static let checkpointPages = 1000
  /// How long a commit that may wait does wait for another connection's write lock.
  static let busyTimeoutMs: Int32 = 5000

  init(path: String) throws {
    // As for the pool's connections: wait for other writers rather than fail, commit in WAL
    // with `synchronous = NORMAL`, enforce foreign keys.
    //
    // Its log is written through a VFS that writes each frame in one call instead of two
    // (walframes.c): the frames' headers, held back until their pages, are written out after
    // each commit if any is still held.
    handle = try openSQLite(
      path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
      busyTimeoutMs: Self.busyTimeoutMs,
      vfs: guesswork_sqlite3_wal_frames_vfs())
    // SQLite would copy the log back into the database inside the commit that fills it, and
    // that checkpoint waits for the disk twice (up to 80 ms measured here) before the commit
    // returns and anyone in the batch is answered. Hooking the log replaces that automatic
    // checkpoint: the writer runs it itself, after answering (``checkpointIfDue()``).
    sqlite_nio_sqlite3_wal_hook(
      handle,
      { context, _, _, pages in
        guard let context else { return SQLITE_OK }
        let connection = Unmanaged<SQLiteWriterConnection>.fromOpaque(context)
        connection.takeUnretainedValue().walPages = Int(pages)
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
    do {
      for pragma in ["PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"] {
        let result = sqlite_nio_sqlite3_exec(handle, pragma, nil, nil, nil)
        guard result == SQLITE_OK else { throw SQLiteFailure(result, handle) }
      }
      for statement in SQLiteWriterStatement.allCases {
        var prepared: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(
          handle, statement.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard result == SQLITE_OK, let prepared else { throw SQLiteFailure(result, handle) }
        statements.append(prepared)
      }
    } catch {
      close()
      throw error
    }
  }

  func close() {
    for statement in statements { sqlite_nio_sqlite3_finalize(statement) }
    statements = []
    sqlite_nio_sqlite3_close_v2(handle)
    handle = nil
  }

  /// Whether the log has grown past ``checkpointPages``.
  var checkpointIsDue: Bool { walPages >= Self.checkpointPages }

  /// Copies the log back into the database when it has grown past ``checkpointPages``,
  /// without waiting for readers (a passive checkpoint; what it leaves is copied next time).
  func checkpointIfDue() {
    guard checkpointIsDue else { return }
    walPages = 0
    sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
  }

  /// Runs `jobs` in one transaction: a job that fails is undone alone, and when the commit
  /// itself fails, every job fails with it.
  ///
  /// A job fails only on an error from SQLite (a refused move is not one), which is rare, so
  /// the batch first runs without a savepoint for each job (two statements a job fewer). When
  /// a job does fail, the whole transaction is rolled back and run again with a savepoint
  /// around each job: the jobs before it find the database as they did the first time, so
  /// each job is answered as if it had been run in its savepoint from the start.
  func commit(_ jobs: [WriteJob]) -> [Result<Bool, any Error>] {
    // Waiting for the lock, every outcome has results.
    attempt(jobs, waitingForLock: true) ?? []
  }

  /// ``commit(_:)``, unless another connection holds SQLite's write lock: then `nil`, and
  /// nothing was run. Never waits for the lock.
  func commitIfUnlocked(_ jobs: [WriteJob]) -> [Result<Bool, any Error>]? {
    attempt(jobs, waitingForLock: false)
  }

  private enum Outcome {
    case done([Result<Bool, any Error>])
    /// A job failed outside a savepoint: the transaction was rolled back.
    case jobFailed
    /// Another connection holds the write lock, and the caller would not wait for it.
    case busy
  }

  /// The jobs' results; `nil` only when the lock was busy and not waited for.
  private func attempt(_ jobs: [WriteJob], waitingForLock: Bool) -> [Result<Bool, any Error>]? {
    for inSavepoints in [false, true] {
      switch transaction(jobs, inSavepoints: inSavepoints, waitingForLock: waitingForLock) {
      case .done(let results): return results
      case .busy: return nil
      case .jobFailed: continue
      }
    }
    // In savepoints a failing job fails alone: the second try always ends above.
    return []
  }

  /// One transaction of `jobs`.
  private func transaction(
    _ jobs: [WriteJob], inSavepoints: Bool, waitingForLock: Bool
  ) -> Outcome {
    do {
      try begin(waitingForLock: waitingForLock)
    } catch let failure as SQLiteFailure where !waitingForLock && failure.isBusy {
      return .busy
    } catch {
      return .done(jobs.map { _ in .failure(error) })
    }
    var results: [Result<Bool, any Error>] = []
    results.reserveCapacity(jobs.count)
    for job in jobs {
      guard inSavepoints else {
        do {
          results.append(.success(try perform(job)))
        } catch {
          try? run(.rollback)
          return .jobFailed
        }
        continue
      }
      do {
        try run(.savepoint)
        let written = try perform(job)
        try run(.release)
        results.append(.success(written))
      } catch {
        try? run(.rollbackToSavepoint)
        try? run(.release)
        results.append(.failure(error))
      }
    }
    do {
      try run(.commit)
    } catch {
      try? run(.rollback)
      return .done(jobs.map { _ in .failure(error) })
    }
    // A committed frame is whole in the log before anyone is answered. Should that last write
    // fail (the disk's error), the transaction is in the database but not known to be whole
    // in its log: its jobs are answered as failed, and the writer forgets their games.
    let flushed = guesswork_sqlite3_wal_flush(handle)
    guard flushed == SQLITE_OK else {
      let error = SQLiteFailure(flushed, handle)
      return .done(jobs.map { _ in .failure(error) })
    }
    return .done(results)
  }

  /// `BEGIN IMMEDIATE`: takes SQLite's write lock, waiting up to the busy timeout for another
  /// connection to let it go, or not at all.
  private func begin(waitingForLock: Bool) throws {
    guard !waitingForLock, let handle else { return try run(.begin) }
    sqlite_nio_sqlite3_busy_timeout(handle, 0)
    defer { sqlite_nio_sqlite3_busy_timeout(handle, Self.busyTimeoutMs) }
    try run(.begin)
  }

  /// Whether the log's VFS holds a frame header not yet written (`nil`: the log does not use
  /// that VFS). For tests.
  var holdsFrameHeader: Bool? {
    switch guesswork_sqlite3_wal_frames_held(handle) {
    case 1: true
    case 0: false
    default: nil
    }
  }

  private func perform(_ job: WriteJob) throws -> Bool {
    switch job {
    case .insertGame(let game, let limit):
      // Counted in this transaction, and this thread is SQLite's only writer: no other new
      // game can come between the count and the insert.
      if let limit,
        try count(.countUnfinished, [.text(game.playerID), .integer(limit.since)]) >= limit.count
      {
        return false
      }
      try run(
        .insertGame,
        [
          .text(game.id), .text(game.playerID), .text(game.kind), SQLiteValue(game.variant),
          .text(game.settings), .integer(Int64(bitPattern: game.seed)), .text(game.state),
          SQLiteValue(game.version), .integer(game.createdAt), .integer(game.updatedAt),
          SQLiteValue(game.finished?.at), SQLiteValue(game.finished?.score),
          SQLiteValue(game.finished?.summary),
          SQLiteValue(game.daily?.day), SQLiteValue(game.daily.map { $0.counted ? 1 : 0 }),
        ])
      return true
    case .saveMove(let move, let expectedVersion):
      if let finished = move.finished {
        try run(
          .finishGame,
          [
            .text(move.state), SQLiteValue(move.version), .integer(move.at),
            .integer(finished.at), .integer(Int64(finished.score)), .text(finished.summary),
            .text(move.gameID), SQLiteValue(expectedVersion),
          ])
      } else {
        try run(
          .moveGame,
          [
            .text(move.state), SQLiteValue(move.version), .integer(move.at), .text(move.gameID),
            SQLiteValue(expectedVersion),
          ])
      }
      guard sqlite_nio_sqlite3_changes(handle) == 1 else { return false }
      if let action = move.action {
        try run(
          .insertAction,
          [.text(move.gameID), SQLiteValue(move.version), .text(action), .integer(move.at)])
      }
      return true
    }
  }

  /// Binds `values`, steps the statement to its end, and leaves it ready for the next time.
  private func run(_ statement: SQLiteWriterStatement, _ values: [SQLiteValue] = []) throws {
    _ = try step(statement, values) { _ in () }
  }

  /// The integer in the first column of the first row of `statement` (a count).
  private func count(_ statement: SQLiteWriterStatement, _ values: [SQLiteValue]) throws -> Int {
    try step(statement, values) { Int(sqlite_nio_sqlite3_column_int64($0, 0)) } ?? 0
  }

  /// Binds `values` and steps the statement once; `row` reads the first row, if there is one.
  /// Leaves the statement ready for the next time.
  private func step<R>(
    _ statement: SQLiteWriterStatement, _ values: [SQLiteValue], row: (OpaquePointer) -> R?
  ) throws -> R? {
    guard statements.indices.contains(statement.rawValue) else {
      throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed")
    }
    let prepared = statements[statement.rawValue]
    defer {
      sqlite_nio_sqlite3_reset(prepared)
      sqlite_nio_sqlite3_clear_bindings(prepared)
    }
    try SQLiteValue.bind(values, to: prepared, handle)
    switch sqlite_nio_sqlite3_step(prepared) {
    case SQLITE_ROW: return row(prepared)
    case SQLITE_DONE: return nil
    case let failed: throw SQLiteFailure(failed, handle)
    }
  }

}

/// The writer's statements, prepared once by its connection.
enum SQLiteWriterStatement: Int, CaseIterable {
  case begin, commit, rollback, savepoint, release, rollbackToSavepoint
  case insertGame, countUnfinished, moveGame, finishGame, insertAction

  var sql: String {
    switch self {
    case .begin: "BEGIN IMMEDIATE"
    case .commit: "COMMIT"
    case .rollback: "ROLLBACK"
    case .savepoint: "SAVEPOINT job"
    case .release: "RELEASE job"
    case .rollbackToSavepoint: "ROLLBACK TO job"
    case .insertGame:
      """
      INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
        created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
      """
    case .countUnfinished:
      """
      SELECT COUNT(*) FROM games
      WHERE player_id = ?1 AND finished_at IS NULL AND created_at > ?2
      """
    // A move that does not finish the game leaves the finish's columns alone (they stay
    // empty): SQLite rewrites every index holding a column an UPDATE sets, whatever its
    // value, and the player's games are indexed by their finish.
    case .moveGame:
      """
      UPDATE games SET state = ?1, version = ?2, updated_at = ?3
      WHERE id = ?4 AND version = ?5 AND finished_at IS NULL
      """
    case .finishGame:
      """
      UPDATE games SET state = ?1, version = ?2, updated_at = ?3, finished_at = ?4,
        score = ?5, summary = ?6
      WHERE id = ?7 AND version = ?8 AND finished_at IS NULL
      """
    case .insertAction:
      "INSERT INTO actions (game_id, version, action, at) VALUES (?1, ?2, ?3, ?4)"
    }
  }
}
