import SQLKit

/// A version of the schema: statements both databases run, then those of one database only
/// (SQLite's or PostgreSQL's). A version, once released, never changes: later changes are new
/// versions, one file each. Each statement is idempotent, so that two instances starting at
/// once against one database cannot break it.
struct Migration: Sendable {
  let version: Int
  let name: String
  let statements: [SQLQueryString]
  var sqlite: [SQLQueryString] = []
  var postgres: [SQLQueryString] = []

  /// Every version, in order.
  static let all: [Migration] = [
    v01, v02, v03, v04, v05, v06, v07, v08, v09, v10, v11, v12, v13,
  ]
}
