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

/// Party rooms (docs/rooms.md): the HTTP routes, the sockets that push each connection its own
/// view, and the clock that closes rounds nobody finishes. A room is stored whole at each
/// accepted change, under its version, before anyone is told of it.
final class Rooms: Sendable {
  let api: API
  let hub: RoomHub
  let logger: Logger
  /// A room nobody has touched for this long closes.
  static let idleMs: Int64 = 3 * 3600 * 1000
  /// The most a socket may send in one message, and in a second.
  static let maxMessage = 4096
  static let messagesPerSecond = 20

  /// The games a room can play (of the server's list).
  let kinds: RoomKinds

  init(api: API, logger: Logger, games: [any Game.Type]) {
    self.api = api
    self.hub = RoomHub()
    self.logger = logger
    self.kinds = RoomKinds(games)
  }

  var store: any GuessworkStore { api.store }
  func now() -> Instant { api.clock() }

  func register(on router: Router<GuessworkContext>) {
    router.post("/api/rooms") { request, context in
      try await self.create(request, context: context)
    }
    router.get("/api/rooms/{code}") { request, context in
      try self.api.limiter.admit(
        .rooms, key: self.api.client(request, address: context.remoteAddress))
      return try await self.summary(try Self.code(context))
    }
    router.post("/api/rooms/{code}/join") { request, context in
      try self.api.limiter.admit(
        .rooms, key: self.api.client(request, address: context.remoteAddress))
      return try await self.join(request, context: context)
    }
    router.post("/api/rooms/{code}/actions") { request, context in
      try await self.act(request, context: context)
    }
    router.get("/api/rooms/{code}/qr.svg") { request, context in
      let code = try Self.code(context)
      guard try await self.store.room(code: code) != nil else {
        throw APIError.notFound("room")
      }
      let link = self.link(code: code, request: request)
      return Response(
        status: .ok,
        headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=3600"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: try QRCode(link).svg())))
    }
    // A room mate's picture: to the room's players and host, of its players and host (a
    // player's picture is otherwise theirs alone, unless they are on a leaderboard).
    router.get("/api/rooms/{code}/players/{id}/avatar") { request, context in
      let playerID = try await self.api.identity.requirePlayerID(of: request)
      let state = try await self.load(try Self.code(context))
      let id = try context.parameters.require("id")
      func inRoom(_ player: String) -> Bool {
        state.room.isHost(player) || state.room.member(player)?.isPresent == true
      }
      guard inRoom(playerID) else { throw APIError.roomRefused(RoomRefusal(.notMember)) }
      guard inRoom(id) || state.room.member(id) != nil else { throw APIError.notFound("avatar") }
      return try await self.api.avatarPicture(of: id)
    }
    // Bullseye's target for the round, to the room's players and its host only.
    router.get("/api/rooms/{code}/target.svg") { request, context in
      let playerID = try await self.api.identity.requirePlayerID(of: request)
      let state = try await self.load(try Self.code(context))
      guard state.room.isHost(playerID) || state.room.member(playerID)?.isPresent == true else {
        throw APIError.roomRefused(RoomRefusal(.notMember))
      }
      guard let colour = state.match?.swatch else { throw APIError.notFound("swatch") }
      return API.swatch(colour)
    }
    // A plain GET of the socket's path (no upgrade asked for).
    router.get("/api/rooms/{code}/socket") { _, _ -> Response in
      throw APIError.websocketExpected
    }
  }

  /// The socket route, on the router that handles upgrades. Who may connect is checked once
  /// the socket is open: a browser cannot read why an upgrade was refused, so a refusal is an
  /// error message (`{"type":"error","code":"kicked",...}`) and a close (1008).
  func registerSocket(on router: Router<GuessworkContext>) {
    router.ws(
      "/api/rooms/{code}/socket",
      shouldUpgrade: { request, _ in
        try self.api.checkSocketOrigin(request)
        return .upgrade([:])
      }
    ) { inbound, outbound, context in
      let request = context.request
      let language = request.language
      let client = self.api.client(request, address: context.requestContext.remoteAddress)
      var counted = false
      defer { if counted { self.api.clientSockets.closed(client) } }
      do {
        // A client past its cap of sockets is told so in the socket, which a page can read.
        try self.api.clientSockets.open(client)
        counted = true
        let code = try Self.code(context.requestContext)
        let viewer = try await self.viewer(request, code: code)
        try await self.serve(
          code: code, viewer: viewer, link: self.link(code: code, request: request),
          key: Identity.token(of: request), inbound: inbound, outbound: outbound)
      } catch let error as APIError {
        let refusal = SocketError(
          code: error.code, message: error.message(in: self.api.catalog(language)))
        try? await outbound.write(.text(Self.encode(refusal)))
        try? await outbound.close(.policyViolation, reason: error.code)
      }
    }
  }

  static func code(_ context: GuessworkContext) throws -> String {
    let typed = try context.parameters.require("code")
    guard let code = Room.normalizedCode(typed) else { throw APIError.notFound("room") }
    return code
  }

  func link(code: String, request: Request) -> String {
    api.link(to: "/room.html?code=\(code)", request: request) ?? "/room.html?code=\(code)"
  }

  // MARK: Routes

  struct Created: Encodable {
    var code: String
    var link: String
    var room: RoomView
  }

  /// `POST /api/rooms`: `{}` or `{"limit": 12}`.
  struct NewRoom: Decodable {
    var limit: Int?
  }

  private func create(_ request: Request, context: GuessworkContext) async throws -> Response {
    let playerID = try await api.identity.requirePlayerID(of: request)
    try api.limiter.admit(.games, key: playerID)
    let body = try await api.body(of: request, limit: 1024)
    let input = body.isEmpty ? NewRoom() : try JSONDecoder().decode(NewRoom.self, from: body)
    let limit = input.limit ?? Room.defaultLimit
    guard Room.limits.contains(limit) else {
      throw APIError(
        .badRequest, "bad-limit", "error.roomLimit",
        ["low": .int(Room.limits.lowerBound), "high": .int(Room.limits.upperBound)])
    }
    let cap = api.caps.roomsPerHost
    guard try await store.openRoomCount(hostID: playerID) < cap else {
      var error = APIError(
        .tooManyRequests, "too-many-rooms", "error.tooManyRooms", ["count": .int(cap)])
      error.retryAfter = 60
      throw error
    }
    let now = now()
    var random = SystemRandomNumberGenerator()
    for length in [4, 4, 4, 5, 5, 6, 6] {
      var seeded = SeededRandom(seed: random.next())
      let code = Room.makeCode(length: length, using: &seeded)
      let state = RoomState(
        room: Room(code: code, host: playerID, limit: limit, at: now), kinds: kinds)
      if try await store.insertRoom(record(state, at: now)) {
        let view = await view(of: state, for: .player(playerID), request: request)
        return json(Created(code: code, link: view.link, room: view), status: .created)
      }
    }
    throw APIError(.serviceUnavailable, "no-room-code", "error.noRoomCode")
  }

  struct Summary: Encodable {
    var code: String
    var open: Bool
    var players: Int
    var limit: Int
    var host: String
    /// The room's version: what a host's next action names.
    var version: Int
  }

  private func summary(_ code: String) async throws -> Response {
    let state = try await load(code)
    let host = try await store.player(id: state.room.host)?.name ?? ""
    return json(
      Summary(
        code: code, open: state.room.phase != .closed, players: state.room.present.count,
        limit: state.room.limit, host: host, version: state.version))
  }

  private func join(_ request: Request, context: GuessworkContext) async throws -> Response {
    let playerID = try await api.identity.requirePlayerID(of: request)
    let code = try Self.code(context)
    // The body says nothing, but it must be JSON if there is one: a cross-site form (text/plain)
    // must not join a player to a room.
    try await api.emptyBody(of: request)
    guard let player = try await store.player(id: playerID) else { throw APIError.noPlayer }
    let state = try await change(code) { state, now in
      if try state.room.join(playerID, name: player.name, hasAvatar: player.hasAvatar, at: now) {
        state.version += 1
      }
      return RoomOutcome()
    }
    return json(await view(of: state, for: .player(playerID), request: request))
  }

  private func act(_ request: Request, context: GuessworkContext) async throws -> Response {
    let playerID = try await api.identity.requirePlayerID(of: request)
    let code = try Self.code(context)
    try api.limiter.admit(.moves, key: playerID)
    let body = try await api.body(of: request, limit: 16 * 1024)
    let input = try JSONDecoder().decode(RoomRequest.self, from: body)
    var random = SystemRandomNumberGenerator()
    let seed = random.next()
    let content = input.action == .start ? try await startContent(code, playerID, request) : nil
    // A choice is checked as a start would check it, so that a name no game can play (a deck
    // that is not there, another player's category, 15,000 characters) never reaches the
    // phones: its content must be found for the host.
    if case .choose(let choice) = input.action, let kind = kinds.kind(choice.kind),
      try await load(code).room.isHost(playerID)
    {
      _ = try await choiceContent(choice, kind: kind, for: playerID, request: request)
    }
    let state = try await change(code) { state, now in
      try state.apply(
        input.action, by: playerID, version: input.version, body: body, content: content,
        seed: seed, at: now)
    }
    return json(await view(of: state, for: .player(playerID), request: request))
  }

  /// The content of the game a host starts, found for the host, in the host's language.
  private func startContent(_ code: String, _ playerID: String, _ request: Request) async throws
    -> SuppliedContent?
  {
    let state = try await load(code)
    guard let choice = state.room.choice, let kind = kinds.kind(choice.kind),
      state.room.isHost(playerID)
    else { return nil }
    return try await choiceContent(choice, kind: kind, for: playerID, request: request)
  }

  /// The content `choice` plays, found for the host `playerID` in their language.
  private func choiceContent(
    _ choice: Room.Choice, kind: any RoomKind, for playerID: String, request: Request
  ) async throws -> SuppliedContent {
    let isDeck = kind.contentNeed == .deck
    return try await api.supply(
      kind.contentNeed, playerID: playerID,
      category: isDeck ? nil : choice.variant ?? (kind.contentNeed == .words ? "animals" : nil),
      deck: isDeck ? choice.variant : nil, language: request.language)
  }

  private func view(of state: RoomState, for viewer: RoomViewer, request: Request) async
    -> RoomView
  {
    var view = state.view(
      for: viewer, at: now(), connected: await hub.connected(state.room.code),
      link: link(code: state.room.code, request: request))
    // The host need not have joined: their name is their profile's.
    if let you = view.you, you.name.isEmpty {
      view.you?.name = (try? await store.player(id: you.id)?.name) ?? ""
    }
    return view
  }

  /// Who a socket is for: a player of the room (or one who may join it), or the host's screen.
  private func viewer(_ request: Request, code: String) async throws -> RoomViewer {
    let playerID = try await api.identity.requirePlayerID(of: request)
    let state = try await load(code)
    let asked = request.uri.queryParameters.get("as") ?? "player"
    switch asked {
    case "screen":
      guard state.room.isHost(playerID) else { throw APIError.roomRefused(RoomRefusal(.notHost)) }
      return .screen
    case "player":
      guard let member = state.room.member(playerID),
        member.isPresent || state.room.isHost(playerID)
      else {
        if state.room.member(playerID)?.kicked == true {
          throw APIError.roomRefused(RoomRefusal(.kicked))
        }
        throw APIError.roomRefused(RoomRefusal(.notMember))
      }
      return .player(playerID)
    default:
      throw APIError(
        .badRequest, "bad-viewer", "error.badViewer", ["value": .text(String(asked.prefix(20)))])
    }
  }

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
  private func recordFinished(_ outcome: RoomOutcome, at now: Instant) async throws {
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

  private func record(_ state: RoomState, at now: Instant) throws -> RoomRecord {
    RoomRecord(
      code: state.room.code, hostID: state.room.host, state: try state.encoded(),
      version: state.version, players: state.room.present.count,
      isOpen: state.room.phase != .closed, createdAt: state.room.createdAt.milliseconds,
      updatedAt: now.milliseconds)
  }

  private func published(_ state: RoomState) async {
    await hub.remember(state)
    await publish(state)
  }

  /// Tells every connection to the room here its own view. The views are made and encoded
  /// outside the hub, so that rooms are told side by side.
  func publish(_ state: RoomState, only: UUID? = nil) async {
    let (everyone, connected) = await hub.audience(of: state)
    let audience = only.map { only in everyone.filter { $0.0 == only } } ?? everyone
    let now = now()
    @Sendable func views(_ part: ArraySlice<(UUID, RoomHub.Connection)>) -> [(UUID, String)] {
      part.map { id, connection in
        let view = state.view(
          for: connection.viewer, at: now, connected: connected, link: connection.link)
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

  // MARK: Sockets

  struct Pong: Encodable { var type = "pong" }
  struct SocketError: Encodable {
    var type = "error"
    var code: String
    var message: String
  }

  private func serve(
    code: String, viewer: RoomViewer, link: String, key: String?,
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
  ) async throws {
    let (messages, sender) = AsyncStream<RoomHub.Outgoing>.makeStream(
      bufferingPolicy: .bufferingNewest(16))
    // A revoked key (sign-out, a new key) ends its sockets: no view is sent after it.
    let signedOut = RoomHub.Outgoing.close(.policyViolation, "signed out")
    let socket = api.identity.sockets.add(token: key) { sender.yield(signedOut) }
    defer { api.identity.sockets.remove(socket) }
    guard
      let id = await hub.connect(
        code: code, viewer: viewer, link: link, sender: sender, caps: api.caps)
    else {
      throw APIError(
        .serviceUnavailable, "room-sockets-full", "error.roomSocketsFull",
        ["count": .int(api.caps.socketsPerRoom)])
    }
    defer {
      // The others see this player's connection go.
      Task {
        if await self.hub.disconnect(code: code, id: id) != nil { await self.announce(code) }
      }
    }
    // The view at once: a client that reconnects continues where it was. The others see it
    // connected a moment later, once for a burst of sockets opening.
    if let state = try? await load(code) {
      await publish(state, only: id)
      await announce(code)
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await message in messages {
          if socket?.isRevoked == true {
            try? await outbound.close(.policyViolation, reason: "signed out")
            return
          }
          switch message {
          case .text(let text):
            try? await outbound.write(.text(text))
          case .close(let code, let reason):
            try? await outbound.close(code, reason: reason)
            return
          }
        }
      }
      group.addTask {
        var window = ContinuousClock.now
        var count = 0
        do {
          for try await message in inbound.messages(maxSize: Self.maxMessage) {
            let now = ContinuousClock.now
            if now - window > .seconds(1) {
              window = now
              count = 0
            }
            count += 1
            guard count <= Self.messagesPerSecond else {
              try? await outbound.close(.policyViolation, reason: "too many messages")
              return
            }
            if case .text(let text) = message, text.contains("\"ping\"") {
              sender.yield(.text(Self.encode(Pong())))
            } else {
              sender.yield(
                .text(
                  Self.encode(
                    SocketError(
                      code: "bad-message",
                      message:
                        "A room's socket takes only {\"type\":\"ping\"}; actions go to POST /api/rooms/\(code)/actions."
                    ))))
            }
          }
        } catch {
          // Too large (the reader refuses past maxSize), or the connection went away.
          try? await outbound.close(.messageTooLarge, reason: "message too large")
          return
        }
        sender.finish()
      }
      await group.next()
      group.cancelAll()
    }
  }

  static func encode(_ value: some Encodable) -> String {
    (try? CompactJSON.string(value)) ?? "{}"
  }
}

extension APIError {
  static func roomRefused(_ refusal: RoomRefusal) -> APIError {
    // The game's own rules refused: as in a game played alone (422, the rule's code).
    if let rule = refusal.refusal { return .refused(rule) }
    let status: HTTPResponse.Status =
      switch refusal.code {
      case .closed: .gone
      case .full, .wrongPhase, .noGame, .tooFewPlayers, .roundClosed, .answered, .notKicked,
        .alreadyRemoved, .hostStays, .refused:
        .conflict
      case .noSuchPlayer: .notFound
      case .kicked, .notHost, .notMember, .notPlaying, .notYourTurn: .forbidden
      case .badChoice: .badRequest
      }
    return APIError(status, refusal.code.rawValue, refusal.reason)
  }
}

/// This instance's connections to rooms, and the rooms' states as last stored.
actor RoomHub {
  enum Outgoing: Sendable {
    case text(String)
    case close(WebSocketErrorCode, String)
  }

  struct Connection: Sendable {
    let viewer: RoomViewer
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
    code: String, viewer: RoomViewer, link: String,
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
    connections[code, default: [:]][id] = Connection(
      viewer: viewer, link: link, sender: sender, serial: serials)
    recount()
    return id
  }

  func disconnect(code: String, id: UUID) -> RoomState? {
    connections[code]?[id] = nil
    if connections[code]?.isEmpty == true {
      connections[code] = nil
      states[code] = nil
    }
    recount()
    return states[code]
  }

  /// Who to tell of `state`, and the players connected here. A kicked player's connections
  /// are told so and closed here.
  func audience(of state: RoomState) -> (connections: [(UUID, Connection)], connected: Set<String>)
  {
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
    return (told, connected(code))
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

/// Closes rooms' rounds when their time runs out, and rooms left idle.
struct RoomClockService: Service {
  let rooms: Rooms

  func run() async throws {
    var ticks = 0
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
      try? await Task.sleep(for: .milliseconds(200))
      await rooms.tickDue()
      ticks += 1
      // Five ticks a second.
      if ticks % (5 * rooms.api.caps.sweepSeconds) == 0 { await rooms.sweep() }
    }
  }
}
