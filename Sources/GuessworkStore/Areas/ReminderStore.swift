/// Game-night reminders.
public protocol ReminderStore: Sendable {
  /// Stores a reminder unless its player has `limit` already (`false`), as categories are.
  func insertReminder(_ reminder: ReminderRecord, limit: Int) async throws -> Bool
  /// A player's reminders, soonest first.
  func reminders(playerID: String) async throws -> [ReminderRecord]
  func reminder(id: String) async throws -> ReminderRecord?
  /// `false` when the player has no such reminder.
  func deleteReminder(id: String, playerID: String) async throws -> Bool
}

/// A game-night reminder: the start as an instant (milliseconds since 1970, UTC) and the UTC
/// offset it was given in, so it can be shown as the player entered it.
public struct ReminderRecord: Sendable, Equatable {
  public var id: String
  public var playerID: String
  public var title: String
  public var startsAt: Int64
  /// Minutes east of UTC.
  public var utcOffsetMinutes: Int
  public var place: String
  public var latitude: Double?
  public var longitude: Double?
  public var createdAt: Int64

  public init(
    id: String, playerID: String, title: String, startsAt: Int64, utcOffsetMinutes: Int,
    place: String, latitude: Double? = nil, longitude: Double? = nil, createdAt: Int64
  ) {
    self.id = id
    self.playerID = playerID
    self.title = title
    self.startsAt = startsAt
    self.utcOffsetMinutes = utcOffsetMinutes
    self.place = place
    self.latitude = latitude
    self.longitude = longitude
    self.createdAt = createdAt
  }
}
