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

/// This instance's connections to rooms, and the rooms' states as last stored.
actor RoomHub {
  enum Outgoing: Sendable {
    case text(String)
    case close(WebSocketErrorCode, String)
  }

  struct Connection: Sendable {
    let viewer: RoomViewer
    /// The player whose browser it is (the shared screen's: the host who opened it).
    let opener: String
    let link: String
    let sender: AsyncStream<Outgoing>.Continuation
    /// When it connected, in the order connections came.
    let serial: Int
    /// The newest version of the room this connection has been sent.
    var version = -1
  }

  private var serials = 0
  private var announcing: Set<String> = []

  /// Whether an announcement of room `code`'s connections is to be made (none is waiting).
  func startAnnouncing(_ code: String) -> Bool { announcing.insert(code).inserted }
  func doneAnnouncing(_ code: String) { announcing.remove(code) }

  private var connections: [String: [UUID: Connection]] = [:]
  private var states: [String: RoomState] = [:]
  private var wakes: [String: Instant] = [:]
  private var busy: Set<String> = []
  private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
  /// For the metrics: the sockets open here, and the rooms they watch.
  private let sockets = CoreMetrics.Gauge(label: "guesswork_room_sockets")
  private let watched = CoreMetrics.Gauge(label: "guesswork_rooms_watched")

  /// Counts the sockets again after one opened or closed.
  private func recount() {
    sockets.record(connections.values.reduce(0) { $0 + $1.count })
    watched.record(connections.count)
  }

  func state(_ code: String) -> RoomState? { states[code] }

  func remember(_ state: RoomState) {
    // Only rooms someone here is connected to stay in memory (their clocks are watched here);
    // the others are read from the store when asked for.
    let code = state.room.code
    guard connections[code] != nil else { return }
    if let known = states[code], known.version > state.version { return }
    states[code] = state
  }

  func forget(_ code: String) { states[code] = nil }

  /// Whether a connection here watches room `code`.
  func isWatched(_ code: String) -> Bool { connections[code] != nil }

  func connected(_ code: String) -> Set<String> {
    Set(
      (connections[code] ?? [:]).values.compactMap {
        if case .player(let id) = $0.viewer { id } else { nil }
      })
  }

  /// A new connection to room `code`, or nil when the room holds `caps.socketsPerRoom`
  /// already. A player's newest connections win: past `caps.socketsPerPlayer`, their oldest
  /// is closed.
  func connect(
    code: String, viewer: RoomViewer, opener: String, link: String,
    sender: AsyncStream<Outgoing>.Continuation, caps: RoomCaps
  ) -> UUID? {
    guard (connections[code]?.count ?? 0) < caps.socketsPerRoom else { return nil }
    if case .player = viewer {
      let own = (connections[code] ?? [:]).filter { $0.value.viewer == viewer }
        .sorted { $0.value.serial < $1.value.serial }
      for (id, oldest) in own.prefix(max(0, own.count - caps.socketsPerPlayer + 1)) {
        oldest.sender.yield(.close(.policyViolation, "replaced by a newer connection"))
        connections[code]?[id] = nil
      }
    }
    let id = UUID()
    serials += 1
    openers[code, default: []].insert(opener)
    connections[code, default: [:]][id] = Connection(
      viewer: viewer, opener: opener, link: link, sender: sender, serial: serials)
    recount()
    return id
  }

  func disconnect(code: String, id: UUID) -> RoomState? {
    connections[code]?[id] = nil
    if connections[code]?.isEmpty == true {
      connections[code] = nil
      states[code] = nil
      hosts[code] = nil
      openers[code] = nil
    }
    recount()
    return states[code]
  }

  /// Who to tell of `state`, the players connected here, and whether the room is told its
  /// host is away. A kicked player's connections are told so and closed here.
  func audience(of state: RoomState) -> (
    connections: [(UUID, Connection)], connected: Set<String>, hostAway: Bool
  ) {
    let code = state.room.code
    var told: [(UUID, Connection)] = []
    for (key, connection) in connections[code] ?? [:] {
      if case .player(let player) = connection.viewer, state.room.member(player)?.kicked == true {
        connection.sender.yield(.text(#"{"type":"kicked"}"#))
        connection.sender.yield(.close(.policyViolation, "kicked"))
        connections[code]?[key] = nil
        recount()
        continue
      }
      told.append((key, connection))
    }
    return (told, connected(code), isHostAway(code))
  }

  /// Sends each connection its view of version `version`, unless it has been sent a newer
  /// one already (views are made side by side, so they may come here out of order). A closed
  /// room's connections are let go once told.
  func deliver(_ views: [(UUID, String)], code: String, version: Int, closing: Bool) {
    for (id, text) in views {
      guard var connection = connections[code]?[id], connection.version <= version else {
        continue
      }
      connection.version = version
      connection.sender.yield(.text(text))
      if closing {
        connection.sender.yield(.close(.normalClosure, "room closed"))
        connections[code]?[id] = nil
      } else {
        connections[code]?[id] = connection
      }
    }
    if closing { recount() }
  }

  /// The rooms (with connections here) whose clocks have run out.
  func due(at now: Instant) -> [String] {
    let due = wakes.filter { connections[$0.key] != nil && $0.value <= now }.map(\.key)
    for code in due { wakes[code] = nil }
    return due
  }

  /// When the views last sent of room `code` change by time alone: a round or turn runs out,
  /// a countdown ends.
  func wake(_ code: String, at instant: Instant?) { wakes[code] = instant }

  // MARK: The host's presence

  /// What this instance has seen of a room's host being away.
  struct HostWatch {
    /// Since when the host has had no connection here.
    var awaySince: Instant?
    /// The room's views say the host is away.
    var told = false
    /// The version whose results (a reveal, a turn's words) wait for the host, and since when.
    var results: (version: Int, since: Instant)?
  }

  private var hosts: [String: HostWatch] = [:]
  /// Who has opened a connection to each room here, while the room has connections.
  private var openers: [String: Set<String>] = [:]

  /// The rooms with connections here, and their states.
  func watchedStates() -> [RoomState] { connections.keys.compactMap { states[$0] } }

  /// What this instance knows of room `code`'s host `host`: what it has seen of them being
  /// away, whether they have a connection here now (as a player, or a shared screen they
  /// opened), and whether they have had one since the room's connections here began (a host
  /// this instance never saw, such as one on another instance, is not taken to be away).
  func host(_ host: String, of code: String) -> (watch: HostWatch, connected: Bool, seen: Bool) {
    let connected = (connections[code] ?? [:]).values.contains { $0.opener == host }
    return (hosts[code] ?? HostWatch(), connected, openers[code]?.contains(host) ?? false)
  }

  func setHostWatch(_ code: String, _ watch: HostWatch) {
    guard connections[code] != nil else { return }
    hosts[code] = watch
  }

  /// Whether the room's views say its host is away.
  func isHostAway(_ code: String) -> Bool { hosts[code]?.told ?? false }

  /// The players connected to room `code` here, longest connected first (by the oldest of
  /// their open connections).
  func connectedLongestFirst(_ code: String) -> [String] {
    var oldest: [String: Int] = [:]
    for connection in (connections[code] ?? [:]).values {
      guard case .player(let id) = connection.viewer else { continue }
      oldest[id] = min(oldest[id] ?? .max, connection.serial)
    }
    return oldest.sorted { $0.value < $1.value }.map(\.key)
  }

  /// Runs `body` when no other change of room `code` is running on this instance.
  func serially<T: Sendable>(_ code: String, _ body: () async throws -> T) async throws -> T {
    while busy.contains(code) {
      await withCheckedContinuation { waiting[code, default: []].append($0) }
    }
    busy.insert(code)
    defer {
      busy.remove(code)
      if var queue = waiting[code], !queue.isEmpty {
        queue.removeFirst().resume()
        waiting[code] = queue.isEmpty ? nil : queue
      }
    }
    return try await body()
  }
}
