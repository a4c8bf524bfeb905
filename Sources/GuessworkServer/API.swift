import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The JSON API: players, games and statistics.
struct API: Sendable {
  let store: any GuessworkStore
  let identity: Identity
  let content: ContentLibrary
  /// Guess or Pass words: bundled, plus those from Datamuse and the command line.
  let words: WordBank
  /// The server's clock; every action is applied at the time it arrives.
  let clock: @Sendable () -> Instant

  static let maxBody = 1024 * 1024
  /// Unfinished games a player may have from the last day.
  static let unfinishedGamesLimit = 100

  /// Every game the server plays, built once.
  let engines: GameEngines
  /// The API document for these games, made once.
  let openAPIDocument: Response
  let decks: Decks
  /// The daily puzzles, their leaderboards and streaks.
  let daily: DailySet
  /// Statistics kept as running tallies.
  let book: StatisticsBook
  /// Leaderboards read lately.
  let boards = BoardCache()
  /// The answer to a read of each untimed game in play, encoded, for its version: such a game
  /// reads the same until it moves. Its view does not change with time (a rule each untimed
  /// game keeps, `TimeCompositionTests`), and a move makes a new version, so an answer made
  /// before a move, here or on another instance, is never given. A page reads its game as it
  /// loads and as it comes back to it; building the view and its JSON was a third of a read's
  /// CPU (BENCHMARKS.md).
  let readReplies = LatestVersions<ByteBuffer>(
    capacity: 8192, byteCapacity: 8 << 20,
    weigh: { gameID, body in 64 + gameID.utf8.count + body.readableBytes })
  /// Whether pages are served over HTTPS (behind a proxy): links say so.
  let secureLinks: Bool
  let play: PlayMetrics
  /// How fast clients may make players, start games and move.
  let limiter: RateLimiter
  /// Whether the client's address is the last one in `X-Forwarded-For` (behind a proxy).
  let forwarded: Bool
  /// What clients and rooms may hold.
  let caps: RoomCaps
  /// The sockets open here by client.
  let clientSockets: ClientSockets
  /// Every language's texts (the bundled ones, or those of `GUESSWORK_I18N_DIR`).
  let catalogs: [Language: GuessworkContent.Catalog]

  init(
    store: any GuessworkStore, identity: Identity, content: ContentLibrary, words: WordBank,
    clock: @escaping @Sendable () -> Instant, engines: GameEngines = GameEngines(),
    rateLimits: RateLimits = .off, forwarded: Bool = false, caps: RoomCaps = RoomCaps(),
    catalogs: [Language: GuessworkContent.Catalog] = GuessworkContent.Catalog.bundled
  ) {
    self.catalogs = catalogs
    self.caps = caps
    self.clientSockets = ClientSockets(cap: caps.socketsPerClient)
    self.limiter = RateLimiter(rateLimits)
    self.forwarded = forwarded
    self.daily = DailySet(store: store, engines: engines, library: content)
    self.book = StatisticsBook(store: store, engines: engines)
    self.play = PlayMetrics(engines: engines)
    self.secureLinks = identity.secureCookies
    self.store = store
    self.identity = identity
    self.content = content
    self.words = words
    self.clock = clock
    self.engines = engines
    self.openAPIDocument = Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: try! OpenAPIDocument.data(for: engines))))
    self.decks = Decks(store: store, bundled: content.decks)
  }

  /// The API's routes, a resource at a time (each resource's file adds its own).
  func addRoutes(to router: Router<some RemoteAddressRequestContext>) {
    router.get("/healthz") { _, _ in try await health() }
    router.get("/openapi.json") { _, _ in openAPIDocument }
    router.get("/api/catalog") { request, _ in try await catalog(request) }
    addDeckRoutes(to: router)
    addPlayerRoutes(to: router)
    addGameRoutes(to: router)
    addDailyRoutes(to: router)
    addCustomCategoryRoutes(to: router)
    addReminderRoutes(to: router)
  }

  // MARK: Health and catalogue

  private func health() async throws -> Response {
    do {
      try await store.ping()
      return json(["status": "ok"])
    } catch {
      throw APIError(.serviceUnavailable, "database-unavailable", "error.databaseUnavailable")
    }
  }

  struct Catalog: Encodable {
    struct CategoryEntry: Encodable {
      var id: String
      var title: String
      var words: Int
      /// Set on the asking player's own categories.
      var custom: Bool?
    }
    var games: [CatalogEntry]
    var categories: [CategoryEntry]
    var decks: [Decks.Entry]
  }

  /// The games, the categories (the built-in ones, then the asking player's own) and decks.
  private func catalog(_ request: Request) async throws -> Response {
    let language = request.language
    let words = catalog(language)
    var categories: [Catalog.CategoryEntry] = []
    for category in content.categories {
      categories.append(
        .init(
          id: category.id, title: words("category.\(category.id)"),
          words: await self.words.words(category: category.id, language: language).count))
    }
    if let player = try await identity.player(of: request) {
      categories += try await store.customCategories(playerID: player.id).map {
        .init(id: $0.id, title: $0.name, words: $0.words.count, custom: true)
      }
    }
    return json(
      Catalog(
        games: engines.all.map { $0.entry.rendered(words) },
        categories: categories,
        decks: try await decks.all().map { Decks.Entry($0.localized(language)) }))
  }

  /// The texts of `language`.
  func catalog(_ language: Language) -> GuessworkContent.Catalog {
    catalogs[language] ?? GuessworkContent.Catalog.of(language)
  }

  // MARK: Players

  /// A JSON request body, at most `limit` bytes (empty when none was sent). A body of any
  /// other type is refused (415), so that a cross-site form (which can send `text/plain` but
  /// never `application/json` without the browser asking first) cannot act as the player.
  func body(of request: Request, limit: Int = maxBody) async throws -> Data {
    // Its values as a list, not through the joining subscript: a request sends one, and
    // joining one value was 0.4 µs of every move (perf, BENCHMARKS.md "2026-11-29 (second)").
    let types = request.headers[values: .contentType]
    let isJSON =
      types.isEmpty
      ? nil : Self.namesJSON(types.count == 1 ? types[0] : types.joined(separator: ", "))
    if isJSON == false { throw APIError.notJSON }
    let body = try await anyBody(of: request, limit: limit)
    if isJSON == nil, !body.isEmpty { throw APIError.notJSON }
    return body
  }

  /// A request body that says nothing: none, or a JSON object (whose members are ignored). A
  /// route that takes no input refuses anything else (`[null, null]`, `null`, a number) with a
  /// 400 rather than quietly taking it.
  func emptyBody(of request: Request) async throws {
    let body = try await body(of: request, limit: 1024)
    guard !body.isEmpty else { return }
    guard (try? JSONSerialization.jsonObject(with: body)) is [String: Any] else {
      throw APIError(.badRequest, "bad-request", "error.body.notObject")
    }
  }

  /// Whether a `Content-Type` value is JSON's media type: `application/json` in any case,
  /// with spaces and tabs around it and any parameters after it. Read as bytes: every move
  /// asks, and trimming and lowering it as a `String` was 0.6% of a move's CPU (perf; 0.3% now).
  static func namesJSON(_ value: String) -> Bool {
    let json = "application/json".utf8
    let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var type = value.utf8.prefix { $0 != UInt8(ascii: ";") }
    while let first = type.first, blank(first) { type.removeFirst() }
    while let last = type.last, blank(last) { type.removeLast() }
    let lowered = type.lazy.map {
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0
    }
    return lowered.elementsEqual(json)
  }

  /// A request body of any type (an avatar is judged by its bytes), at most `limit` bytes.
  func anyBody(of request: Request, limit: Int) async throws -> Data {
    do {
      return Data(buffer: try await request.body.collect(upTo: limit))
    } catch let error as any HTTPResponseError {
      throw error
    } catch {
      // The client stopped before sending the body it announced.
      throw APIError(.badRequest, "incomplete-body", "error.incompleteBody")
    }
  }
}
