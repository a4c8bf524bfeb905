import CGuessworkSQLite
import Foundation
import VaporCSQLite

/// A value bound to, or read from, an SQLite statement on our own connections
/// (``SQLiteWriter``, ``SQLiteReaders``).
enum SQLiteValue: Sendable, CustomStringConvertible {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null

  init(_ text: String?) { self = text.map { .text($0) } ?? .null }
  init(_ integer: Int64?) { self = integer.map { .integer($0) } ?? .null }
  init(_ integer: Int?) { self.init(integer.map(Int64.init)) }

  /// A value SQLKit binds: the types our queries bind (texts, integers, reals, booleans,
  /// bytes, and any of them optional).
  init(bind: any Encodable) throws {
    switch bind {
    case let text as String: self = .text(text)
    case let integer as Int: self = .integer(Int64(integer))
    case let integer as Int64: self = .integer(integer)
    case let integer as Int32: self = .integer(Int64(integer))
    case let real as Double: self = .real(real)
    case let flag as Bool: self = .integer(flag ? 1 : 0)
    case let data as Data: self = .blob(Array(data))
    case let bytes as [UInt8]: self = .blob(bytes)
    case let optional as any OptionalBind:
      guard let wrapped = optional.wrapped as? any Encodable else {
        self = .null
        return
      }
      self = try SQLiteValue(bind: wrapped)
    default:
      throw SQLiteFailure(code: SQLITE_MISMATCH, message: "cannot bind a \(type(of: bind))")
    }
  }

  /// Column `index` of the row `statement` stands on.
  init(column index: Int32, of statement: OpaquePointer) {
    switch sqlite_nio_sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: self = .integer(sqlite_nio_sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: self = .real(sqlite_nio_sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
      guard let bytes = sqlite_nio_sqlite3_column_text(statement, index) else {
        self = .text("")
        return
      }
      self = .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
      guard let bytes = sqlite_nio_sqlite3_column_blob(statement, index) else {
        self = .blob([])
        return
      }
      self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: self = .null
    }
  }

  var description: String {
    switch self {
    case .integer(let integer): "the integer \(integer)"
    case .real(let real): "the number \(real)"
    case .text: "a text"
    case .blob: "bytes"
    case .null: "NULL"
    }
  }

  /// Binds `values` to `statement`'s parameters ?1, ?2, … in order.
  static func bind(_ values: [SQLiteValue], to statement: OpaquePointer, _ handle: OpaquePointer?)
    throws
  {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let bound: Int32
      switch value {
      case .integer(let integer): bound = sqlite_nio_sqlite3_bind_int64(statement, index, integer)
      case .real(let real): bound = sqlite_nio_sqlite3_bind_double(statement, index, real)
      case .null: bound = sqlite_nio_sqlite3_bind_null(statement, index)
      case .text(let text):
        var text = text
        bound = text.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) {
            // A `nil` address would bind NULL, not the empty string.
            guard let address = $0.baseAddress else {
              return sqlite_nio_sqlite3_bind_text64(
                statement, index, "", 0, transient, UInt8(SQLITE_UTF8))
            }
            return sqlite_nio_sqlite3_bind_text64(
              statement, index, address, UInt64($0.count), transient, UInt8(SQLITE_UTF8))
          }
        }
      case .blob(let bytes):
        bound = bytes.withUnsafeBytes {
          sqlite_nio_sqlite3_bind_blob64(
            statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count),
            transient)
        }
      }
      guard bound == SQLITE_OK else { throw SQLiteFailure(bound, handle) }
    }
  }
}

/// An optional seen through `any`: whether it holds a value.
private protocol OptionalBind {
  var wrapped: Any? { get }
}

extension Optional: OptionalBind {
  var wrapped: Any? { self }
}

/// An error SQLite reported, with its code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
  var code: Int32
  var message: String
  var description: String { "SQLite error \(code): \(message)" }
  /// Another connection held the lock asked for (the primary code, whatever the extended one).
  var isBusy: Bool { code & 0xff == SQLITE_BUSY }

  init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  /// The error `code`, with the connection's message.
  init(_ code: Int32, _ handle: OpaquePointer?) {
    self.code = code
    message = sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown"
  }
}

/// Opens the database at `path` on a connection of our own (``SQLiteWriter``,
/// ``SQLiteReaders``), waiting up to `busyTimeoutMs` for a lock held elsewhere.
func openSQLite(
  path: String, flags: Int32, busyTimeoutMs: Int32, vfs: UnsafePointer<CChar>? = nil
) throws -> OpaquePointer {
  var handle: OpaquePointer?
  let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, vfs)
  guard opened == SQLITE_OK, let handle else {
    let failure = SQLiteFailure(opened, handle)
    sqlite_nio_sqlite3_close_v2(handle)
    throw failure
  }
  sqlite_nio_sqlite3_busy_timeout(handle, busyTimeoutMs)
  // Statements keep the plan they were prepared with. Without this, SQLite prepared a
  // finish's question (``SQLStore/recentBests``) again at each call, for its new values: a
  // third of the time a finish spent reading (perf), for the same plan.
  let stable = guesswork_sqlite3_enable_qpsg(handle)
  guard stable == SQLITE_OK else {
    let failure = SQLiteFailure(stable, handle)
    sqlite_nio_sqlite3_close_v2(handle)
    throw failure
  }
  return handle
}

/// SQLite copies a value bound with this destructor before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
