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
  // MARK: Changing a room

  /// The room as last stored (from this instance's memory when it has it).
  func load(_ code: String) async throws -> RoomState {
    if let state = await hub.state(code) { return state }
    guard let record = try await store.room(code: code) else { throw APIError.notFound("room") }
    let state = try RoomState(encoded: record.state, version: record.version, kinds: kinds)
    await hub.remember(state)
    return state
  }

  /// Applies `change` to the room, one change at a time on this instance, and stores the
  /// result under the next version; when another instance changed the room first, reads it
  /// again and applies the change to that. Then tells every connection.
  @discardableResult
  func change(
    _ code: String, _ change: @Sendable (inout RoomState, Instant) throws -> RoomOutcome
  ) async throws -> RoomState {
    try await hub.serially(code) {
      for _ in 0..<5 {
        let stored = try await load(code)
        var state = stored
        let now = now()
        // Time first: a round that ran out is closed before the action is judged.
        _ = state.tick(at: now)
        let outcome: RoomOutcome
        do {
          outcome = try change(&state, now)
        } catch {
          // A tick alone is still worth keeping.
          if state.version != stored.version,
            try await store.saveRoom(record(state, at: now), expectedVersion: stored.version)
          {
            await published(state)
          }
          throw apiError(error)
        }
        guard state.version != stored.version else { return state }
        if try await store.saveRoom(record(state, at: now), expectedVersion: stored.version) {
          try await recordFinished(outcome, at: now)
          await published(state)
          return state
        }
        await hub.forget(code)
      }
      throw APIError(.conflict, "room-busy", "error.roomBusy")
    }
  }

  /// Counts a finished game's players' games in their statistics.
  func recordFinished(_ outcome: RoomOutcome, at now: Instant) async throws {
    guard let kind = outcome.kind else { return }
    for game in outcome.finished {
      try await store.insertGame(
        GameRecord(
          id: GameRecord.newID(at: now.milliseconds), playerID: game.playerID,
          kind: kind.rawValue,
          variant: outcome.variant, settings: game.settings, seed: 0, state: game.state,
          version: 0, createdAt: now.milliseconds,
          finished: .init(at: now.milliseconds, score: game.score, summary: game.summary)))
    }
  }

  func record(_ state: RoomState, at now: Instant) throws -> RoomRecord {
    RoomRecord(
      code: state.room.code, hostID: state.room.firstHost, state: try state.encoded(),
      version: state.version, players: state.room.present.count,
      isOpen: state.room.phase != .closed, createdAt: state.room.createdAt.milliseconds,
      updatedAt: now.milliseconds)
  }

  func published(_ state: RoomState) async {
    await hub.remember(state)
    await publish(state)
  }

  /// Tells every connection to the room here its own view. The views are made and encoded
  /// outside the hub, so that rooms are told side by side.
  func publish(_ state: RoomState, only: UUID? = nil) async {
    let (everyone, connected, hostAway) = await hub.audience(of: state)
    let audience = only.map { only in everyone.filter { $0.0 == only } } ?? everyone
    let now = now()
    @Sendable func views(_ part: ArraySlice<(UUID, RoomHub.Connection)>) -> [(UUID, String)] {
      part.map { id, connection in
        let view = state.view(
          for: connection.viewer, at: now, connected: connected, link: connection.link,
          hostAway: hostAway)
        return (id, Self.encode(view))
      }
    }
    // A task stays on the event loop it started on (NIO's loops run Swift's tasks here), so a
    // big room's views are shared with another loop: half made there, half here.
    var made: [(UUID, String)]
    if audience.count >= 8, let other = Self.otherLoop() {
      let half = audience.count / 2
      let there = other.submit { views(audience[half...]) }
      made = views(audience[..<half])
      made += (try? await there.get()) ?? views(audience[half...])
    } else {
      made = views(audience[...])
    }
    let views = made
    await hub.deliver(
      views, code: state.room.code, version: state.version, closing: state.room.phase == .closed)
    await hub.wake(state.room.code, at: state.nextChange(after: now))
  }

  /// An event loop of the server's group other than the one running this code, if any.
  static func otherLoop() -> (any EventLoop)? {
    MultiThreadedEventLoopGroup.singleton.makeIterator().first { !$0.inEventLoop }
  }

  func apiError(_ error: any Error) -> any Error {
    switch error {
    case let refusal as RoomRefusal: return APIError.roomRefused(refusal)
    case let stale as RoomStale:
      return APIError(
        .conflict, "stale-version", "error.staleVersion", ["current": .text("\(stale.current)")])
    case is RoomUnknownGame:
      return APIError(
        .badRequest, "unknown-game", "error.unknownGame",
        ["list": .text(kinds.all.map(\.kind.rawValue).joined(separator: ", "))])
    case let error as RoomPlayError:
      switch error {
      case .invalidSetting(let setting), .unplayable(let setting):
        return APIError.invalidSetting(setting)
      }
    default: return error
    }
  }
}
