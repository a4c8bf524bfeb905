import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

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
actor WriterQueue {
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
protocol SessionPool: Sendable {
  func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R)
    async throws -> R
  func shutdown() async throws
}

struct Pool<Source: ConnectionPoolSource & SendableMetatype>: SessionPool,
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
struct SQLiteSource: ConnectionPoolSource {
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
