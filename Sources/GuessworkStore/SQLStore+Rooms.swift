import Foundation
import SQLKit

// MARK: Party rooms

extension SQLStore {
  public func insertRoom(_ room: RoomRecord) async throws -> Bool {
    try await writing { db in
      // A closed room's code may be given again.
      try await db.raw(
        "DELETE FROM rooms WHERE code = \(bind: room.code) AND closed_at IS NOT NULL"
      ).run()
      return try await db.raw(
        """
        INSERT INTO rooms (code, host_id, state, version, players, created_at, updated_at,
          closed_at)
        VALUES (\(bind: room.code), \(bind: room.hostID), \(bind: room.state),
          \(bind: room.version), \(bind: room.players), \(bind: room.createdAt),
          \(bind: room.updatedAt), \(bind: room.isOpen ? nil : room.updatedAt))
        ON CONFLICT (code) DO NOTHING
        RETURNING code
        """
      ).first() != nil
    }
  }

  /// The channel on which PostgreSQL tells every instance that a room changed: the payload
  /// is `<code> <version>`.
  static let roomsChannel = "guesswork_rooms"

  /// Tells the other instances (PostgreSQL) that `room` is now at its version.
  private static func announce(_ room: RoomRecord, _ db: any SQLDatabase) async throws {
    guard db.dialect.name == "postgresql" else { return }
    try await db.raw(
      "SELECT pg_notify(\(bind: roomsChannel), \(bind: "\(room.code) \(room.version)"))"
    ).run()
  }

  public func room(code: String) async throws -> RoomRecord? {
    try await session { db in
      try await db.raw("SELECT * FROM rooms WHERE code = \(bind: code)").first().map(
        Self.room(from:))
    }
  }

  public func saveRoom(_ room: RoomRecord, expectedVersion: Int) async throws -> Bool {
    try await writing { db in
      let saved =
        try await db.raw(
          """
            UPDATE rooms SET state = \(bind: room.state), version = \(bind: room.version),
            players = \(bind: room.players), updated_at = \(bind: room.updatedAt),
            closed_at = \(bind: room.isOpen ? nil : room.updatedAt)
          WHERE code = \(bind: room.code) AND version = \(bind: expectedVersion)
          RETURNING code
          """
        ).first() != nil
      if saved { try await Self.announce(room, db) }
      return saved
    }
  }

  public func openRooms(limit: Int) async throws -> [RoomRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM rooms WHERE closed_at IS NULL ORDER BY updated_at DESC, code
        LIMIT \(bind: limit)
        """
      ).all().map(Self.room(from:))
    }
  }

  public func idleRooms(before: Int64, limit: Int) async throws -> [RoomRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM rooms WHERE closed_at IS NULL AND updated_at <= \(bind: before)
        ORDER BY updated_at, code LIMIT \(bind: limit)
        """
      ).all().map(Self.room(from:))
    }
  }

  public func purgeRooms(closedBefore: Int64) async throws {
    try await writing { db in
      try await db.raw(
        "DELETE FROM rooms WHERE closed_at IS NOT NULL AND closed_at < \(bind: closedBefore)"
      ).run()
    }
  }

  public func openRoomCount(hostID: String) async throws -> Int {
    try await session { db in
      try await db.raw(
        "SELECT COUNT(*) AS n FROM rooms WHERE host_id = \(bind: hostID) AND closed_at IS NULL"
      ).first()?.decode(column: "n", as: Int.self) ?? 0
    }
  }

  private static func room(from row: any SQLRow) throws -> RoomRecord {
    RoomRecord(
      code: try row.decode(column: "code", as: String.self),
      hostID: try row.decode(column: "host_id", as: String.self),
      state: try row.decode(column: "state", as: String.self),
      version: try row.decode(column: "version", as: Int.self),
      players: try row.decode(column: "players", as: Int.self),
      isOpen: try row.decode(column: "closed_at", as: Int64?.self) == nil,
      createdAt: try row.decode(column: "created_at", as: Int64.self),
      updatedAt: try row.decode(column: "updated_at", as: Int64.self))
  }
}
