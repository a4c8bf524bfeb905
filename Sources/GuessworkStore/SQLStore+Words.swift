import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Guess or Pass words: stored, refreshed, seen

extension SQLStore {
  @discardableResult
  public func addWords(_ words: [String], category: String, source: String, at: Int64)
    async throws -> Int
  {
    guard !words.isEmpty else { return 0 }
    return try await writing { db in
      try await db.transaction {
        var added = 0
        for word in words {
          let inserted = try await db.raw(
            """
            INSERT INTO words (category, word, source, fetched_at)
            VALUES (\(bind: category), \(bind: word), \(bind: source), \(bind: at))
            ON CONFLICT (category, word) DO NOTHING
            RETURNING word
            """
          ).first()
          if inserted != nil { added += 1 }
        }
        return added
      }
    }
  }

  public func storedWords(category: String) async throws -> [StoredWord] {
    try await session { db in
      try await db.raw(
        """
        SELECT word, source, fetched_at FROM words WHERE category = \(bind: category)
        ORDER BY fetched_at, word
        """
      ).all().map {
        StoredWord(
          word: try $0.decode(column: "word", as: String.self),
          source: try $0.decode(column: "source", as: String.self),
          fetchedAt: try $0.decode(column: "fetched_at", as: Int64.self))
      }
    }
  }

  public func claimRefresh(category: String, lastBefore notAfter: Int64, at: Int64) async throws
    -> Bool
  {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO word_refreshes (category, attempted_at)
        VALUES (\(bind: category), \(bind: at))
        ON CONFLICT (category) DO UPDATE SET attempted_at = excluded.attempted_at
        WHERE word_refreshes.attempted_at <= \(bind: notAfter)
        RETURNING category
        """
      ).first() != nil
    }
  }

  public func lastRefresh(category: String) async throws -> Int64? {
    try await session { db in
      try await db.raw(
        "SELECT attempted_at FROM word_refreshes WHERE category = \(bind: category)"
      ).first()?.decode(column: "attempted_at", as: Int64.self)
    }
  }

  public func markSeen(playerID: String, category: String, words: [String], at: Int64)
    async throws
  {
    guard !words.isEmpty else { return }
    try await writing { db in
      try await db.transaction {
        for word in Set(words) {
          try await db.raw(
            """
            INSERT INTO seen_words (player_id, category, word, seen_at)
            VALUES (\(bind: playerID), \(bind: category), \(bind: word), \(bind: at))
            ON CONFLICT (player_id, category, word) DO UPDATE SET seen_at = excluded.seen_at
            """
          ).run()
        }
      }
    }
  }

  public func seenWords(playerID: String, category: String) async throws -> Set<String> {
    try await session { db in
      Set(
        try await db.raw(
          """
          SELECT word FROM seen_words
          WHERE player_id = \(bind: playerID) AND category = \(bind: category)
          """
        ).all().map { try $0.decode(column: "word", as: String.self) })
    }
  }

  public func clearSeen(playerID: String, category: String) async throws {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM seen_words
        WHERE player_id = \(bind: playerID) AND category = \(bind: category)
        """
      ).run()
    }
  }

  static func encodeWords(_ words: [String]) -> String {
    String(decoding: (try? JSONEncoder().encode(words)) ?? Data("[]".utf8), as: UTF8.self)
  }
}
