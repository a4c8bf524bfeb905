import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Players, their tokens, link codes and avatars

extension SQLStore {
  public func insertPlayer(_ player: PlayerRecord, tokenHash: String) async throws {
    try await writing { db in
      try await db.transaction {
        try await db.raw(
          """
          INSERT INTO players (id, token_hash, name, preferences, created_at, updated_at)
          VALUES (\(bind: player.id), \(bind: tokenHash), \(bind: player.name),
                  \(bind: player.preferences), \(bind: player.createdAt), \(bind: player.createdAt))
          """
        ).run()
        try await Self.insertToken(db, tokenHash, playerID: player.id, at: player.createdAt)
      }
    }
  }

  static func insertToken(
    _ db: any SQLDatabase, _ tokenHash: String, playerID: String, at now: Int64
  ) async throws {
    try await db.raw(
      """
      INSERT INTO player_tokens (token_hash, player_id, created_at)
      VALUES (\(bind: tokenHash), \(bind: playerID), \(bind: now))
      """
    ).run()
  }

  public func addToken(playerID: String, tokenHash: String, at now: Int64) async throws {
    try await writing { db in try await Self.insertToken(db, tokenHash, playerID: playerID, at: now)
    }
  }

  public func removeToken(_ tokenHash: String) async throws {
    try await writing { db in
      try await db.raw("DELETE FROM player_tokens WHERE token_hash = \(bind: tokenHash)").run()
    }
  }

  public func replaceToken(_ old: String, with new: String, at now: Int64) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        UPDATE player_tokens SET token_hash = \(bind: new), created_at = \(bind: now)
        WHERE token_hash = \(bind: old)
        RETURNING player_id
        """
      ).first() != nil
    }
  }

  public func insertLinkCode(hash: String, playerID: String, expiresAt: Int64) async throws {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO link_codes (code_hash, player_id, expires_at)
        VALUES (\(bind: hash), \(bind: playerID), \(bind: expiresAt))
        """
      ).run()
    }
  }

  public func linkCodePlayer(hash: String, at now: Int64) async throws -> String? {
    try await session { db in
      try await db.raw(
        """
        SELECT player_id FROM link_codes
        WHERE code_hash = \(bind: hash) AND used_at IS NULL AND expires_at > \(bind: now)
        """
      ).first()?.decode(column: "player_id", as: String.self)
    }
  }

  public func useLinkCode(hash: String, at now: Int64) async throws -> String? {
    try await writing { db in
      // One statement: of two uses at once, only one finds the code unused.
      try await db.raw(
        """
        UPDATE link_codes SET used_at = \(bind: now)
        WHERE code_hash = \(bind: hash) AND used_at IS NULL AND expires_at > \(bind: now)
        RETURNING player_id
        """
      ).first()?.decode(column: "player_id", as: String.self)
    }
  }

  public func deleteExpiredLinkCodes(at now: Int64) async throws {
    try await writing { db in
      try await db.raw("DELETE FROM link_codes WHERE expires_at <= \(bind: now)").run()
    }
  }

  static let playerColumns: SQLQueryString = """
    p.id, p.name, p.preferences, p.created_at,
    (SELECT COUNT(*) FROM avatars a WHERE a.player_id = p.id) AS avatars
    """

  public func player(tokenHash: String) async throws -> PlayerRecord? {
    try await session { db in
      try await db.raw(
        """
        SELECT \(Self.playerColumns) FROM player_tokens t JOIN players p ON p.id = t.player_id
        WHERE t.token_hash = \(bind: tokenHash)
        """
      ).first().map(Self.player(from:))
    }
  }

  public func player(id: String) async throws -> PlayerRecord? {
    try await session { db in
      try await db.raw("SELECT \(Self.playerColumns) FROM players p WHERE p.id = \(bind: id)")
        .first().map(Self.player(from:))
    }
  }

  static func player(from row: any SQLRow) throws -> PlayerRecord {
    PlayerRecord(
      id: try row.decode(column: "id", as: String.self),
      name: try row.decode(column: "name", as: String.self),
      preferences: try row.decode(column: "preferences", as: String.self),
      createdAt: try row.decode(column: "created_at", as: Int64.self),
      hasAvatar: try row.decode(column: "avatars", as: Int64.self) > 0)
  }

  @discardableResult
  public func updatePlayer(id: String, name: String, preferences: String, at: Int64) async throws
    -> Bool
  {
    try await writing { db in
      try await db.raw(
        """
        UPDATE players SET name = \(bind: name), preferences = \(bind: preferences),
          updated_at = \(bind: at)
        WHERE id = \(bind: id) RETURNING id
        """
      ).first() != nil
    }
  }

  public func setAvatar(playerID: String, _ avatar: Avatar, at: Int64) async throws {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO avatars (player_id, content_type, data, updated_at)
        VALUES (\(bind: playerID), \(bind: avatar.contentType), \(bind: avatar.data), \(bind: at))
        ON CONFLICT (player_id) DO UPDATE SET content_type = excluded.content_type,
          data = excluded.data, updated_at = excluded.updated_at
        """
      ).run()
    }
  }

  public func avatar(playerID: String) async throws -> Avatar? {
    try await session { db in
      try await db.raw(
        "SELECT content_type, data FROM avatars WHERE player_id = \(bind: playerID)"
      ).first().map {
        Avatar(
          contentType: try $0.decode(column: "content_type", as: String.self),
          data: try $0.decode(column: "data", as: Data.self))
      }
    }
  }
}
