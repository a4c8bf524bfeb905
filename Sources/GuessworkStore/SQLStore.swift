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
  let pool: any SessionPool
  /// SQLite writes take turns here. SQLite allows one writer at a time, and a writer kept
  /// waiting inside SQLite blocks one of the few threads that run every connection's
  /// statements, so the writer holding the lock may find no thread to commit on. Waiting
  /// here instead costs no thread. (PostgreSQL needs none of this: `nil`.)
  let writers: WriterQueue?
  /// New games, moves and reads of a game go their own way on each database (see
  /// ``SQLiteWriter`` and ``PostgresGames``).
  let games: HotPath

  enum HotPath: Sendable {
    case sqlite(SQLiteWriter)
    case postgres(PostgresGames)
  }

  /// SQLite's reads (see ``SQLiteReaders``); `nil` on PostgreSQL.
  let readers: SQLiteReaders?

  init(pool: any SessionPool, games: HotPath, readers: SQLiteReaders? = nil) {
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

  /// The versions recorded as applied, for tests and `guesswork` admin commands.
  public func appliedMigrations() async throws -> [Int] {
    try await session { db in
      try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all().map {
        try $0.decode(column: "version", as: Int.self)
      }
    }
  }

  static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  public func ping() async throws {
    try await session { db in _ = try await db.raw("SELECT 1 AS one").all() }
  }
}
