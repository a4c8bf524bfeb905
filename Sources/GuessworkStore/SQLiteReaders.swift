import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import VaporCSQLite

/// SQLite's reads: SQLKit's queries, run on connections of our own, right on the thread that
/// asks, each statement prepared once per connection.
///
/// Why not SQLiteKit's pool, as the writes use: through SQLiteNIO every statement hops from
/// the event loop to a thread-pool thread and back, and a read of the statistics or of a
/// leaderboard (three or four statements) spent most of its time in those hops: they read at
/// 0.10-0.32 of the HTTP ceiling (BENCHMARKS.md, the daily set). A read in WAL mode never
/// waits for the writer, and ours are all by index and bounded, so running one where it is
/// asked costs tens of microseconds and no hop. Writes still go through the pool (or the hot
/// path's writer): a write may wait for SQLite's lock, which must never block an event loop.
///
/// The queries are SQLKit's, the same as on PostgreSQL: this is an ``SQLDatabase`` (the
/// store's `session`), serialized with SQLiteKit's dialect.
final class SQLiteReaders: Sendable {
  private let path: String
  private let idle = NIOLockedValueBox<[ReadConnection]>([])
  private let logger: Logger

  init(path: String, logger: Logger) {
    self.path = path
    self.logger = logger
  }

  /// Runs `body` on a connection of its own for its whole length.
  func withSession<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R)
    async throws -> R
  {
    let connection = try idle.withLockedValue { $0.popLast() } ?? ReadConnection(path: path)
    defer { idle.withLockedValue { $0.append(connection) } }
    return try await body(ReadSession(connection: connection, logger: logger))
  }

  /// How many times the idle connections' statements were prepared again (SQLite does so when
  /// it thinks a new value may change a statement's plan): none, since they keep their plans.
  func reprepares() -> Int {
    idle.withLockedValue { $0.reduce(0) { $0 + $1.reprepares } }
  }

  func close() {
    idle.withLockedValue { connections in
      for connection in connections { connection.close() }
      connections = []
    }
  }
}

/// One session's view of a read connection, as SQLKit sees a database.
private struct ReadSession: SQLDatabase {
  let connection: ReadConnection
  let logger: Logger
  var eventLoop: any EventLoop {
    MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.any()
  }
  var dialect: any SQLDialect { SQLiteDialect() }
  var queryLogLevel: Logger.Level? { nil }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
    -> EventLoopFuture<Void>
  {
    eventLoop.makeCompletedFuture { try run(query, onRow) }
  }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
    async throws
  {
    try run(query, onRow)
  }

  func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R)
    async throws -> R
  {
    try await closure(self)
  }

  private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
    let (sql, binds) = serialize(query)
    try connection.query(sql, binds.map(SQLiteValue.init(bind:)), onRow)
  }
}

/// A read-only `sqlite3` connection and the statements it has prepared. Used by one session
/// at a time (``SQLiteReaders`` lends it), so by one thread at a time.
private final class ReadConnection: @unchecked Sendable {
  private var handle: OpaquePointer?
  /// Prepared statements by their SQL; forgotten all at once past ``statementCapacity``
  /// (only a query with a varying list of values makes new ones).
  private var statements: [String: (statement: OpaquePointer, columns: [String])] = [:]
  static let statementCapacity = 128

  init(path: String) throws {
    handle = try openSQLite(path: path, flags: SQLITE_OPEN_READONLY, busyTimeoutMs: 1000)
  }

  var reprepares: Int {
    statements.values.reduce(0) {
      $0 + Int(sqlite_nio_sqlite3_stmt_status($1.statement, SQLITE_STMTSTATUS_REPREPARE, 0))
    }
  }

  func close() {
    for (statement, _) in statements.values { sqlite_nio_sqlite3_finalize(statement) }
    statements = [:]
    sqlite_nio_sqlite3_close_v2(handle)
    handle = nil
  }

  func query(_ sql: String, _ values: [SQLiteValue], _ onRow: (any SQLRow) -> Void) throws {
    let (statement, columns) = try prepared(sql)
    defer {
      sqlite_nio_sqlite3_reset(statement)
      sqlite_nio_sqlite3_clear_bindings(statement)
    }
    try SQLiteValue.bind(values, to: statement, handle)
    let names = ColumnNames(columns)
    while true {
      let stepped = sqlite_nio_sqlite3_step(statement)
      if stepped == SQLITE_DONE { return }
      guard stepped == SQLITE_ROW else { throw SQLiteFailure(stepped, handle) }
      onRow(
        ReadRow(
          names: names,
          values: (0..<Int32(columns.count)).map { SQLiteValue(column: $0, of: statement) }))
    }
  }

  private func prepared(_ sql: String) throws -> (OpaquePointer, [String]) {
    if let known = statements[sql] { return known }
    if statements.count >= Self.statementCapacity {
      for (statement, _) in statements.values { sqlite_nio_sqlite3_finalize(statement) }
      statements = [:]
    }
    var statement: OpaquePointer?
    let result = sqlite_nio_sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard result == SQLITE_OK, let statement else { throw SQLiteFailure(result, handle) }
    let columns = (0..<sqlite_nio_sqlite3_column_count(statement)).map {
      String(cString: sqlite_nio_sqlite3_column_name(statement, $0))
    }
    statements[sql] = (statement, columns)
    return (statement, columns)
  }
}

/// The column names of one statement's rows, shared by its rows.
private final class ColumnNames: Sendable {
  let names: [String]
  let index: [String: Int]

  init(_ names: [String]) {
    self.names = names
    // The first of two columns with one name, as SQLite reports them.
    index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
  }
}

private struct ReadRow: SQLRow {
  let names: ColumnNames
  let values: [SQLiteValue]

  var allColumns: [String] { names.names }

  func contains(column: String) -> Bool { names.index[column] != nil }

  func decodeNil(column: String) throws -> Bool {
    if case .null = try value(column) { return true }
    return false
  }

  func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
    let value = try value(column)
    guard let readable = D.self as? any SQLiteReadable.Type,
      let decoded = readable.init(sqlite: value) as? D
    else {
      throw DecodingError.typeMismatch(
        D.self,
        .init(codingPath: [], debugDescription: "column \(column) holds \(value), not a \(D.self)"))
    }
    return decoded
  }

  private func value(_ column: String) throws -> SQLiteValue {
    guard let index = names.index[column] else {
      throw DecodingError.keyNotFound(
        SQLiteColumn(stringValue: column), .init(codingPath: [], debugDescription: "no column"))
    }
    return values[index]
  }
}

private struct SQLiteColumn: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// What a column of a read row can be decoded as. `init` is `nil` when the value does not fit.
private protocol SQLiteReadable {
  init?(sqlite value: SQLiteValue)
}

extension String: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    guard case .text(let text) = value else { return nil }
    self = text
  }
}

extension Int: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self.init(integer)
  }
}

extension Int64: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self = integer
  }
}

extension Double: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    switch value {
    case .real(let real): self = real
    case .integer(let integer): self.init(integer)
    default: return nil
    }
  }
}

extension Bool: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    guard case .integer(let integer) = value else { return nil }
    self = integer != 0
  }
}

extension Data: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    switch value {
    case .blob(let bytes): self.init(bytes)
    case .text(let text): self.init(text.utf8)
    default: return nil
    }
  }
}

extension Optional: SQLiteReadable where Wrapped: SQLiteReadable {
  init?(sqlite value: SQLiteValue) {
    if case .null = value {
      self = .none
      return
    }
    guard let wrapped = Wrapped(sqlite: value) else { return nil }
    self = .some(wrapped)
  }
}
