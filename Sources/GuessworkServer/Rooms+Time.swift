import CoreMetrics
import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket
import ServiceLifecycle
import Synchronization

extension Rooms {
  // MARK: Time

  /// Closes the rounds and turns whose time ran out, in the rooms this instance serves.
  func tickDue() async {
    for code in await hub.due(at: now()) {
      do {
        let before = await hub.state(code)?.version
        let state = try await change(code) { _, _ in RoomOutcome() }
        // Time alone changed what is seen (a countdown ended): the views, again.
        if state.version == before { await publish(state) }
      } catch {
        logger.warning("room \(code): \(error)")
      }
    }
  }

  /// Closes the rooms idle too long.
  /// Closes the rooms idle too long (the longest idle first, however many rooms are open),
  /// deletes the rooms closed over a day ago and the sign-in codes that have expired.
  func sweep() async {
    let now = now()
    try? await store.purgeRooms(closedBefore: now.milliseconds - api.caps.closedRoomKeptMs)
    try? await store.deleteExpiredLinkCodes(at: now.milliseconds)
    guard
      let idle = try? await store.idleRooms(
        before: now.milliseconds - Self.idleMs, limit: 1000)
    else { return }
    for record in idle {
      _ = try? await change(record.code) { state, now in
        guard state.room.isIdle(at: now, idleMs: Self.idleMs) else { return RoomOutcome() }
        state.room.close(at: now)
        state.version += 1
        return RoomOutcome()
      }
    }
  }

  /// Tells a room's connections who is connected, a quarter of a second after a socket opened
  /// or closed, once for all that did meanwhile: a crowd of sockets opening costs a few views
  /// for everyone, not one each.
  func announce(_ code: String) async {
    guard await hub.startAnnouncing(code) else { return }
    Task {
      try? await Task.sleep(for: .milliseconds(250))
      await hub.doneAnnouncing(code)
      try? await hub.serially(code) {
        if let state = try? await self.load(code) { await self.publish(state) }
      }
    }
  }
}

/// Hears of rooms changed by other instances (PostgreSQL's NOTIFY) and tells this instance's
/// connections to them.
struct RoomListenService: Service {
  let rooms: Rooms
  let changes: AsyncStream<String>

  func run() async throws {
    // The stream ends only when the store closes, which comes after this service stops:
    // cancelled at shutdown, the loop ends at once.
    await cancelWhenGracefulShutdown {
      for await change in changes {
        let parts = change.split(separator: " ")
        guard parts.count == 2, let version = Int(parts[1]) else { continue }
        await rooms.changed(code: String(parts[0]), version: version)
      }
    }
  }
}

extension Rooms {
  /// Room `code` is now at `version` in the database: when this instance has connections to
  /// it and an older state, it reads the room again and tells them.
  func changed(code: String, version: Int) async {
    guard await hub.isWatched(code) else { return }
    // After any change of this room running here: a change made here is known by then, and
    // its own notification is not told twice.
    try? await hub.serially(code) {
      guard (await hub.state(code)?.version ?? -1) < version else { return }
      await hub.forget(code)
      guard let state = try? await load(code) else { return }
      await publish(state)
    }
  }
}

/// Closes rooms' rounds when their time runs out, and rooms left idle; looks after rooms whose
/// host is away.
struct RoomClockService: Service {
  let rooms: Rooms

  func run() async throws {
    var ticks = 0
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
      try? await Task.sleep(for: .milliseconds(200))
      await rooms.tickDue()
      ticks += 1
      // Five ticks a second: hosts are looked after once a second.
      if ticks % 5 == 0 { await rooms.tendHosts() }
      if ticks % (5 * rooms.api.caps.sweepSeconds) == 0 { await rooms.sweep() }
    }
  }
}
