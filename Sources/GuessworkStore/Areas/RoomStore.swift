/// Party rooms: a room is one row, its whole state, rewritten at each accepted change under
/// its version (so two instances racing on one room cannot both win).
public protocol RoomStore: Sendable {
  /// `false` when the code is taken by a room that is still open.
  func insertRoom(_ room: RoomRecord) async throws -> Bool
  func room(code: String) async throws -> RoomRecord?
  /// Stores `room` as its new version if the stored one is still `expectedVersion`.
  func saveRoom(_ room: RoomRecord, expectedVersion: Int) async throws -> Bool
  /// The rooms not closed, most recently active first.
  func openRooms(limit: Int) async throws -> [RoomRecord]
  /// Open rooms last changed at or before `before`, the longest idle first: the idle sweep
  /// reaches the oldest however many rooms are open.
  func idleRooms(before: Int64, limit: Int) async throws -> [RoomRecord]
  /// Deletes the rooms closed before `closedBefore`.
  func purgeRooms(closedBefore: Int64) async throws
  /// How many rooms `hostID` has open.
  func openRoomCount(hostID: String) async throws -> Int
  /// Rooms changed by any instance, as `<code> <version>`, for a store that several instances
  /// share (PostgreSQL's LISTEN/NOTIFY); nil when only one instance can use the store.
  func roomChanges() -> AsyncStream<String>?
}

/// A party room as stored.
public struct RoomRecord: Sendable, Equatable {
  public var code: String
  public var hostID: String
  /// The room's state (JSON, GuessworkPlay's `RoomState`).
  public var state: String
  public var version: Int
  public var players: Int
  public var isOpen: Bool
  public var createdAt: Int64
  public var updatedAt: Int64

  public init(
    code: String, hostID: String, state: String, version: Int, players: Int, isOpen: Bool,
    createdAt: Int64, updatedAt: Int64
  ) {
    self.code = code
    self.hostID = hostID
    self.state = state
    self.version = version
    self.players = players
    self.isOpen = isOpen
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}
