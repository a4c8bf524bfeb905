import Foundation
import GuessworkContent
public import GuessworkCore
import GuessworkPlay
public import GuessworkStore
import HTTPTypes
public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
public import Logging
import NIOCore
import NIOFoundationCompat
import NIOSSL
import ServiceLifecycle

/// Builds the whole server from its configuration: the one function `guesswork serve` and the
/// tests both call. The store is opened (and migrated) before this returns, so the server
/// never listens on an outdated schema.
public func buildApplication(
  _ configuration: ServerConfiguration, games: [any Game.Type] = Games.all
) async throws -> some ApplicationProtocol {
  var logger = Logger(label: "guesswork")
  logger.logLevel = configuration.logLevel
  // Metrics are set up before the store, whose writers make theirs when it opens.
  if configuration.metricsPort != nil { _ = MetricsEndpoint.registry }
  let location = try StoreLocation.from(
    databaseURL: configuration.databaseURL, sqlitePath: configuration.sqlitePath)
  let store = try await SQLStore.open(location, logger: logger, holdConnections: true)
  logger.info("storage: \(location)")
  return try buildApplication(configuration, store: store, logger: logger, games: games)
}

/// Builds the server on an open store (tests can share one), with a clock tests can drive.
public func buildApplication(
  _ configuration: ServerConfiguration, store: any GuessworkStore, logger: Logger,
  clock: @escaping @Sendable () -> Instant = systemClock, games: [any Game.Type] = Games.all
) throws -> some ApplicationProtocol {
  let router = Router(context: GuessworkContext.self)
  let catalogs =
    try configuration.catalogDirectory.map { try Catalog.loadAll(from: URL(fileURLWithPath: $0)) }
    ?? Catalog.bundled
  if configuration.metricsPort != nil {
    _ = MetricsEndpoint.registry  // set up before anything makes a metric
  }
  // Before every route: the router applies a middleware to the routes added after it.
  let routeMiddleware = RouteMiddleware<GuessworkContext>(
    metrics: configuration.metricsPort != nil ? RequestMetricsMiddleware() : nil,
    edge: EdgeMiddleware(httpsOnly: configuration.sendsHSTS, catalogs: catalogs))
  router.add(middleware: routeMiddleware)
  let words = WordBank(
    store: store, datamuse: configuration.datamuse, logger: logger,
    now: { clock().milliseconds })
  let api = API(
    store: store,
    identity: Identity(
      store: store, secureCookies: configuration.behindHTTPS || configuration.tls != nil),
    content: .bundled,
    words: words,
    clock: clock,
    engines: GameEngines(games),
    rateLimits: configuration.rateLimits,
    forwarded: configuration.behindHTTPS, caps: configuration.roomCaps, catalogs: catalogs)
  // The framework's ceiling, for the benchmarks: answers without touching anything.
  router.get("/ping") { _, _ in "pong" }
  api.addRoutes(to: router)
  let rooms = Rooms(api: api, logger: logger, games: games)
  rooms.addRoutes(to: router)
  // Sockets upgrade on a router of their own: only their path is tried for an upgrade.
  let sockets = Router(context: GuessworkContext.self)
  // A refused upgrade is an error like any other: its status and a body that says why.
  sockets.add(
    middleware: EdgeMiddleware(httpsOnly: configuration.sendsHSTS, catalogs: catalogs))
  rooms.registerSocket(on: sockets)
  PlaySocket(api: api, logger: logger).register(sockets: sockets, http: router)
  if let files = configuration.localCA {
    let der = ByteBuffer(bytes: try LocalCertificate.caDER(files))
    router.get(RouterPath(LocalCertificate.caPath)) { _, _ in
      Response(
        status: .ok,
        headers: [
          .contentType: "application/x-x509-ca-cert",
          .contentDisposition: "attachment; filename=\"guesswork-ca.crt\"",
        ],
        body: ResponseBody(byteBuffer: der))
    }
  }
  var served: [String: Data] = [:]
  for (language, catalog) in catalogs {
    served["i18n/\(language.rawValue).json"] = try catalog.json(areas: Catalog.browserAreas)
  }
  let site = try StaticSite(
    directory: configuration.publicDirectory
      ?? Bundle.module.url(forResource: "Public", withExtension: nil)!.path,
    generated: served, games: games.map { $0.kind.rawValue })
  router.add(middleware: StaticSiteMiddleware(site: site))
  // Last, once every route is known.
  router.add(
    middleware: AllowedMethodsMiddleware(routes: router.routes, site: site, catalogs: catalogs))
  let onListening = configuration.onListening
  // A game's read and its actions go to the API without the router's trie, inside the same
  // middleware as the router's routes.
  let responder = GameRoutesResponder(
    api: api, middleware: routeMiddleware, router: router.buildResponder())
  var app = Application(
    responder: responder,
    server: try serverBuilder(
      configuration.tls, requestDeadline: .seconds(Int64(configuration.requestDeadlineSeconds)),
      firstRequestDeadline: .seconds(Int64(configuration.firstRequestSeconds)),
      sockets: sockets, logger: logger),
    configuration: .init(
      address: .hostname(configuration.host, port: configuration.port), serverName: "Guesswork"),
    onServerRunning: { channel in
      await onListening?(channel.localAddress?.port ?? configuration.port)
    },
    logger: logger)
  app.addServices(
    StoreService(store: store), WordRefreshService(bank: words), RoomClockService(rooms: rooms))
  if let changes = store.roomChanges() {
    app.addServices(RoomListenService(rooms: rooms, changes: changes))
  }
  if let every = configuration.expirySweep {
    app.addServices(ExpiryService(api: api, logger: logger, every: every))
  }
  if let port = configuration.metricsPort {
    let engines = api.engines
    let book = api.book
    let readReplies = api.readReplies
    app.addServices(
      MetricsEndpoint.application(
        host: configuration.metricsHost, port: port, logger: logger,
        caches: {
          [
            ("live_games", store.liveGamesCached()), ("statistics_answers", book.answersCached),
            ("known_tallies", book.talliesCached), ("recent_bests", book.bestsCached),
            ("read_replies", readReplies.size),
          ]
            + engines.all.map { ("decoded_states_\($0.kind.rawValue)", $0.decodedCached) }
        }, onListening: configuration.onMetricsListening))
  }
  return app
}

/// HTTP/1.1 (with WebSocket upgrades for the routes of `sockets`), over TLS when given a
/// certificate. A client that stops sending mid-request (or never sends its body), or takes
/// longer than `requestDeadline` to send one, is let go; so is a connection whose first request
/// head has not arrived within `firstRequestDeadline`, and a malformed first head gets a 400
/// (``FirstRequestGuard``).
func serverBuilder(
  _ tls: ServerConfiguration.TLSFiles?, requestDeadline: TimeAmount,
  firstRequestDeadline: TimeAmount, sockets: Router<GuessworkContext>, logger: Logger
) throws -> HTTPServerBuilder {
  let webSockets = sockets.buildResponder()
  let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
    http1: .init(
      additionalChannelHandlers: [
        RequestDeadlineHandler(deadline: requestDeadline, logger: logger)
      ],
      idleTimeout: .seconds(30)),
    ws: .init(maxFrameSize: Rooms.maxMessage, autoPing: .enabled(timePeriod: .seconds(30))))
  let http = HTTPServerBuilder { responder in
    GuardedUpgradeChannel(
      upgrade: HTTP1WebSocketUpgradeChannel(
        responder: responder, webSocketResponder: webSockets, configuration: configuration),
      deadline: firstRequestDeadline, logger: logger)
  }
  guard let tls else { return http }
  let tlsConfiguration = TLSConfiguration.makeServerConfiguration(
    certificateChain: try NIOSSLCertificate.fromPEMFile(tls.certificateChain).map {
      .certificate($0)
    },
    privateKey: .privateKey(try NIOSSLPrivateKey(file: tls.privateKey, format: .pem)))
  return try .tls(http, tlsConfiguration: tlsConfiguration)
}

/// The wall clock, in milliseconds: the time every action is applied at.
@Sendable public func systemClock() -> Instant {
  Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
}

/// Closes the store when the application stops.
struct StoreService: Service {
  let store: any GuessworkStore

  func run() async throws {
    try? await gracefulShutdown()
    try await store.close()
  }
}
