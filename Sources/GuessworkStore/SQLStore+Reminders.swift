import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Game-night reminders

extension SQLStore {
  static func reminder(from row: any SQLRow) throws -> ReminderRecord {
    ReminderRecord(
      id: try row.decode(column: "id", as: String.self),
      playerID: try row.decode(column: "player_id", as: String.self),
      title: try row.decode(column: "title", as: String.self),
      startsAt: try row.decode(column: "starts_at", as: Int64.self),
      utcOffsetMinutes: try row.decode(column: "utc_offset_minutes", as: Int.self),
      place: try row.decode(column: "place", as: String.self),
      latitude: try row.decode(column: "latitude", as: Double?.self),
      longitude: try row.decode(column: "longitude", as: Double?.self),
      createdAt: try row.decode(column: "created_at", as: Int64.self))
  }

  public func insertReminder(_ reminder: ReminderRecord, limit: Int) async throws -> Bool {
    try await writing { db in
      try await Self.withinQuota(db, table: "reminders", playerID: reminder.playerID, limit: limit)
      {
        try await db.raw(
          """
          INSERT INTO reminders (id, player_id, title, starts_at, utc_offset_minutes, place,
            latitude, longitude, created_at)
          VALUES (\(bind: reminder.id), \(bind: reminder.playerID), \(bind: reminder.title),
            \(bind: reminder.startsAt), \(bind: reminder.utcOffsetMinutes), \(bind: reminder.place),
            \(bind: reminder.latitude), \(bind: reminder.longitude), \(bind: reminder.createdAt))
          """
        ).run()
      }
    }
  }

  public func reminders(playerID: String) async throws -> [ReminderRecord] {
    try await session { db in
      try await db.raw(
        """
        SELECT * FROM reminders WHERE player_id = \(bind: playerID) ORDER BY starts_at, id
        """
      ).all().map(Self.reminder(from:))
    }
  }

  public func reminder(id: String) async throws -> ReminderRecord? {
    try await session { db in
      try await db.raw("SELECT * FROM reminders WHERE id = \(bind: id)").first().map(
        Self.reminder(from:))
    }
  }

  public func deleteReminder(id: String, playerID: String) async throws -> Bool {
    try await writing { db in
      try await db.raw(
        """
        DELETE FROM reminders WHERE id = \(bind: id) AND player_id = \(bind: playerID)
        RETURNING id
        """
      ).first() != nil
    }
  }
}
