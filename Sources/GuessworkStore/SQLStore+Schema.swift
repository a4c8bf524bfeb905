import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Schema: the migrations, applied in order at start

extension SQLStore {
  /// The PostgreSQL advisory lock held while migrating ("gwmg").
  static let migrationLock: Int64 = 0x6777_6D67

  /// Applies the migrations the database has not recorded yet, each in a transaction, in one
  /// session of `pool` (nothing else uses the store before it opens).
  static func migrate(_ pool: any SessionPool, logger: Logger) async throws {
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

  static func migrate(_ db: any SQLDatabase, logger: Logger) async throws {
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
    for migration in Migration.all where !applied.contains(migration.version) {
      try await db.transaction {
        for statement in migration.statements { try await db.raw(statement).run() }
        let own = db.dialect.name == "postgresql" ? migration.postgres : migration.sqlite
        for statement in own { try await db.raw(statement).run() }
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
}
