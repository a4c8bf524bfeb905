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

  func addRoutes(to router: Router<GuessworkContext>) {
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
        let (viewer, opener) = try await self.viewer(request, code: code)
        try await self.serve(
          code: code, viewer: viewer, opener: opener,
          link: self.link(code: code, request: request),
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
    /// How long the host may be away before the role passes on, in seconds.
    var handoverSeconds: Int?
  }

  func create(_ request: Request, context: GuessworkContext) async throws -> Response {
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
    let handover = input.handoverSeconds ?? Room.defaultHandoverSeconds
    guard Room.handoverSecondsRange.contains(handover) else {
      throw APIError(
        .badRequest, "bad-handover", "error.roomHandover",
        [
          "low": .int(Room.handoverSecondsRange.lowerBound),
          "high": .int(Room.handoverSecondsRange.upperBound),
        ])
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
        room: Room(
          code: code, host: playerID, limit: limit, handoverSeconds: handover, at: now),
        kinds: kinds)
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

  func summary(_ code: String) async throws -> Response {
    let state = try await load(code)
    let host = try await store.player(id: state.room.host)?.name ?? ""
    return json(
      Summary(
        code: code, open: state.room.phase != .closed, players: state.room.present.count,
        limit: state.room.limit, host: host, version: state.version))
  }

  func join(_ request: Request, context: GuessworkContext) async throws -> Response {
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

  func act(_ request: Request, context: GuessworkContext) async throws -> Response {
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
  func startContent(_ code: String, _ playerID: String, _ request: Request) async throws
    -> SuppliedContent?
  {
    let state = try await load(code)
    guard let choice = state.room.choice, let kind = kinds.kind(choice.kind),
      state.room.isHost(playerID)
    else { return nil }
    return try await choiceContent(choice, kind: kind, for: playerID, request: request)
  }

  /// The content `choice` plays, found for the host `playerID` in their language.
  func choiceContent(
    _ choice: Room.Choice, kind: any RoomKind, for playerID: String, request: Request
  ) async throws -> SuppliedContent {
    let isDeck = kind.contentNeed == .deck
    return try await api.supply(
      kind.contentNeed, playerID: playerID,
      category: isDeck ? nil : choice.variant ?? (kind.contentNeed == .words ? "animals" : nil),
      deck: isDeck ? choice.variant : nil, language: request.language)
  }

  func view(of state: RoomState, for viewer: RoomViewer, request: Request) async
    -> RoomView
  {
    let code = state.room.code
    var view = state.view(
      for: viewer, at: now(), connected: await hub.connected(code),
      link: link(code: code, request: request), hostAway: await hub.isHostAway(code))
    // The host need not have joined: their name is their profile's.
    if let you = view.you, you.name.isEmpty {
      view.you?.name = (try? await store.player(id: you.id)?.name) ?? ""
    }
    return view
  }

  /// Who a socket is for: a player of the room (or its host, playing or not), or the host's
  /// screen; and who opened it.
  func viewer(_ request: Request, code: String) async throws -> (RoomViewer, opener: String) {
    let playerID = try await api.identity.requirePlayerID(of: request)
    let state = try await load(code)
    let asked = request.uri.queryParameters.get("as") ?? "player"
    switch asked {
    case "screen":
      // The first host too, while someone stands in (their screen is the room's TV).
      guard state.room.isHost(playerID) || state.room.firstHost == playerID else {
        throw APIError.roomRefused(RoomRefusal(.notHost))
      }
      return (.screen, playerID)
    case "player":
      // The host (and a first host someone stands in for) need not play to run the room.
      let member = state.room.member(playerID)
      if member?.kicked == true { throw APIError.roomRefused(RoomRefusal(.kicked)) }
      guard
        member?.isPresent == true || state.room.isHost(playerID)
          || state.room.firstHost == playerID
      else { throw APIError.roomRefused(RoomRefusal(.notMember)) }
      return (.player(playerID), playerID)
    default:
      throw APIError(
        .badRequest, "bad-viewer", "error.badViewer", ["value": .text(String(asked.prefix(20)))])
    }
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
      case .kicked, .locked, .notHost, .notFirstHost, .notMember, .notPlaying, .notYourTurn:
        .forbidden
      case .badChoice: .badRequest
      }
    return APIError(status, refusal.code.rawValue, refusal.reason)
  }
}
