import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: A player's own categories

extension SQLStore {
  static func customCategory(from row: any SQLRow) throws -> CustomCategoryRecord {
    CustomCategoryRecord(
      id: try row.decode(column: "id", as: String.self),
      playerID: try row.decode(column: "player_id", as: String.self),
      name: try row.decode(column: "name", as: String.self),
      words: try JSONDecoder().decode(
        [String].self, from: Data(try row.decode(column: "words", as: String.self).utf8)),
      createdAt: try row.decode(column: "created_at", as: Int64.self),
      updatedAt: try row.decode(column: "updated_at", as: Int64.self))
  }

  public func insertCustomCategory(_ category: CustomCategoryRecord, limit: Int) async throws
    -> Bool
  {
    try await writing { db in
      try await Self.withinQuota(
        db, table: "custom_categories", playerID: category.playerID, limit: limit
      ) {
        try await db.raw(
          """
          INSERT INTO custom_categories (id, player_id, name, words, created_at, updated_at)
          VALUES (\(bind: category.id), \(bind: category.playerID), \(bind: category.name),
            \(bind: Self.encodeWords(category.words)), \(bind: category.createdAt),
            \(bind: category.updatedAt))
          """
        ).run()
      }
    }
  }

  /// Runs `insert` in a transaction when the player has fewer than `limit` rows in `table`.
  /// The player's row is locked first (an update that changes nothing), so that of several
  /// inserts at once on PostgreSQL each counts after the one before has committed; SQLite
  /// writes one at a time anyway.
  static func withinQuota(
    _ db: any SQLDatabase, table: String, playerID: String, limit: Int,
    insert: () async throws -> Void
  ) async throws -> Bool {
    try await db.transaction {
      try await db.raw("UPDATE players SET updated_at = updated_at WHERE id = \(bind: playerID)")
        .run()
      let count =
        try await db.raw(
          "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE player_id = \(bind: playerID)"
        ).first()?.decode(column: "n", as: Int.self) ?? 0
      guard count < limit else { return false }
      try await insert()
      return true
    }
  }

  public func updateCustomCategory(_ category: CustomCategoryRecord) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        UPDATE custom_categories SET name = \(bind: category.name),
          words = \(bind: Self.encodeWords(category.words)),
          updated_at = \(bind: category.updatedAt)
        WHERE id = \(bind: category.id) AND player_id = \(bind: category.playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }

  public func deleteCustomCategory(id: String, playerID: String) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM custom_categories WHERE id = \(bind: id) AND player_id = \(bind: playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }

  public func customCategories(playerID: String) async throws -> [CustomCategoryRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM custom_categories WHERE player_id = \(bind: playerID)
        ORDER BY created_at, id
        """
      ).all().map(Self.customCategory(from:))
    }
  }

  public func customCategory(id: String) async throws -> CustomCategoryRecord? {
    try await session { db in
      try await db.raw("SELECT * FROM custom_categories WHERE id = \(bind: id)").first().map(
        Self.customCategory(from:))
    }
  }
}
