import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Imported Picture Quiz decks and their pictures

extension SQLStore {
  public func replaceDeck(id: String, manifest: String, pictures: [StoredPicture], at: Int64)
    async throws
  {
    try await writing { db in
      try await db.transaction {
        try await db.raw(
          """
          INSERT INTO decks (id, manifest, updated_at)
          VALUES (\(bind: id), \(bind: manifest), \(bind: at))
          ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest,
            updated_at = excluded.updated_at
          """
        ).run()
        for picture in pictures {
          try await db.raw(
            """
            INSERT INTO pictures (id, content_type, data)
            VALUES (\(bind: picture.id), \(bind: picture.contentType), \(bind: picture.data))
            ON CONFLICT (id) DO NOTHING
            """
          ).run()
        }
      }
    }
  }

  public func importedDecks() async throws -> [String: String] {
    try await session { db in
      var decks: [String: String] = [:]
      for row in try await db.raw("SELECT id, manifest FROM decks").all() {
        decks[try row.decode(column: "id", as: String.self)] = try row.decode(
          column: "manifest", as: String.self)
      }
      return decks
    }
  }

  public func picture(id: String) async throws -> StoredPicture? {
    try await session { db in
      try await db.raw("SELECT content_type, data FROM pictures WHERE id = \(bind: id)").first()
        .map {
          StoredPicture(
            id: id, contentType: try $0.decode(column: "content_type", as: String.self),
            data: try $0.decode(column: "data", as: Data.self))
        }
    }
  }
}
