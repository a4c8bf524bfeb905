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

  func register(on router: Router<some RemoteAddressRequestContext>) {
    router.get("/healthz") { _, _ in try await health() }
    router.get("/openapi.json") { _, _ in openAPIDocument }
    router.get("/api/catalog") { request, _ in try await catalog(request) }
    router.get("/api/decks") { request, _ in
      json(try await decks.all().map { Decks.Entry($0.localized(request.language)) })
    }
    router.get("/api/decks/{id}") { request, context in
      guard let found = try await decks.deck(try context.parameters.require("id")) else {
        throw APIError.notFound("deck")
      }
      let deck = found.localized(request.language)
      return json(Decks.Detail(deck: .init(deck), names: deck.items.map(\.name)))
    }
    router.get("/api/pictures/{id}") { request, context in
      try await decks.picture(try context.parameters.require("id"), request: request)
    }
    router.post("/api/players") { request, context in
      try limiter.admit(.players, key: client(request, address: context.remoteAddress))
      return try await createPlayer(request)
    }
    registerSignIn(on: router)
    router.get("/api/session") { request, _ in
      json(Session(player: try await identity.player(of: request).map(PlayerView.init)))
    }
    router.get("/api/me") { request, _ in
      json(PlayerView(try await identity.requirePlayer(of: request)))
    }
    router.patch("/api/me") { request, _ in try await updateMe(request) }
    router.put("/api/me/avatar") { request, _ in try await putAvatar(request) }
    router.get("/api/players/{id}/avatar") { request, context in
      try await avatar(request, id: context.parameters.require("id"))
    }
    router.get("/api/me/stats") { request, _ in
      let playerID = try await identity.requirePlayerID(of: request)
      // A round whose time ran out counts, even before the background sweep reaches it.
      try await finishExpiredGames(playerID: playerID)
      return json(
        encoded: try await book.statisticsJSON(
          playerID: playerID, now: clock().milliseconds,
          catalog: catalog(request.language)))
    }
    router.post("/api/games") { request, _ in try await createGame(request) }
    router.get("/api/games/{id}") { request, context in
      try await readGame(request, id: context.parameters.require("id"))
    }
    router.get("/api/games/{id}/target.svg") { request, context in
      try await targetSwatch(request, id: context.parameters.require("id"))
    }
    router.post("/api/games/{id}/actions") { request, context in
      try await act(request, id: context.parameters.require("id"))
    }
    registerDaily(on: router)
    registerCustomCategories(on: router)
    registerReminders(on: router)
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
    catalogs[language] ?? catalog(language)
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

  /// Who this browser is, if anyone yet: a first visit gets `{"player": null}`, not an error.
  struct Session: Encodable {
    var player: PlayerView?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(player, forKey: .player)
    }

    enum CodingKeys: String, CodingKey { case player }
  }

  private struct NewPlayer: Decodable {
    var name: String
  }

  private func createPlayer(_ request: Request) async throws -> Response {
    let input = try JSONDecoder().decode(NewPlayer.self, from: try await body(of: request))
    let name = try PlayerRules.validName(input.name)
    let token = PlayerIdentity.newToken()
    let record = PlayerRecord(
      id: UUID().uuidString.lowercased(), name: name,
      preferences: try CompactJSON.string(Preferences()),
      createdAt: clock().milliseconds)
    try await store.insertPlayer(record, tokenHash: PlayerIdentity.hash(token))
    var response = json(PlayerView(record), status: .created)
    response.setCookie(identity.cookie(for: token))
    return response
  }

  private struct PlayerChanges: Decodable {
    var name: String?
    var preferences: PreferenceChanges?
  }

  /// The preferences a `PATCH` names; the others keep their values.
  private struct PreferenceChanges: Decodable {
    var inputMode: Preferences.InputMode?
    var sound: Bool?
    var theme: Preferences.Theme?
    var language: Preferences.LanguageChoice?
  }

  private func updateMe(_ request: Request) async throws -> Response {
    var player = try await identity.requirePlayer(of: request)
    let changes = try JSONDecoder().decode(PlayerChanges.self, from: try await body(of: request))
    if let name = changes.name { player.name = try PlayerRules.validName(name) }
    if let changed = changes.preferences {
      var preferences = PlayerView(player).preferences
      if let inputMode = changed.inputMode { preferences.inputMode = inputMode }
      if let sound = changed.sound { preferences.sound = sound }
      if let theme = changed.theme { preferences.theme = theme }
      if let language = changed.language { preferences.language = language }
      player.preferences = try CompactJSON.string(preferences)
    }
    try await store.updatePlayer(
      id: player.id, name: player.name, preferences: player.preferences,
      at: clock().milliseconds)
    return json(PlayerView(player))
  }

  private func putAvatar(_ request: Request) async throws -> Response {
    var player = try await identity.requirePlayer(of: request)
    let data: Data
    do {
      data = try await anyBody(of: request, limit: PlayerRules.maxAvatarBytes)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw APIError(.contentTooLarge, "too-large", "error.avatarTooLarge")
    }
    guard let type = PlayerRules.imageType(of: data) else {
      throw APIError(.unsupportedMediaType, "unsupported-media-type", "error.avatarType")
    }
    try await store.setAvatar(
      playerID: player.id, Avatar(contentType: type, data: data), at: clock().milliseconds)
    player.hasAvatar = true
    return json(PlayerView(player))
  }

  /// A player's own avatar, or the avatar of a player on a leaderboard (whose name and
  /// picture the leaderboards show everyone); anyone else's does not exist for the asker.
  private func avatar(_ request: Request, id: String) async throws -> Response {
    let playerID = try await identity.requirePlayerID(of: request)
    let shown = playerID == id ? true : try await store.isOnLeaderboard(playerID: id)
    guard shown else { throw APIError.notFound("avatar") }
    return try await avatarPicture(of: id)
  }

  /// Player `id`'s picture, to someone allowed to see it.
  func avatarPicture(of id: String) async throws -> Response {
    guard let avatar = try await store.avatar(playerID: id) else {
      throw APIError.notFound("avatar")
    }
    return Response(
      status: .ok,
      headers: [.contentType: avatar.contentType, .cacheControl: "private, no-cache"],
      body: .init(byteBuffer: ByteBuffer(bytes: avatar.data)))
  }

  // MARK: Games

  /// What every game route answers.
  struct GameReply: Encodable {
    var id: String
    var game: String
    var version: Int
    var isOver: Bool
    var score: Int
    /// What the game is played on: a Guess or Pass category, a Picture Quiz deck.
    var variant: String?
    var view: any JSONTextWritable & Sendable
    var events: [any JSONTextWritable & Sendable]?
    /// The end-of-game figures (the Number halving analysis, the Color Match report...),
    /// once the game is over.
    var summary: (any JSONTextWritable & Sendable)?
    /// Set once the game is over when its score beats every earlier finished game of this
    /// player in the same game and variant.
    var newBest: Bool?
    /// Set once the game is over when its score beats every earlier finished game of this
    /// player in the same game, whatever the variant.
    var newBestOverall: Bool?
    /// Set on a daily puzzle's game.
    var daily: DailyReply?

    enum CodingKeys: String, CodingKey {
      case id, game, version, isOver, score, variant, view, events, summary, newBest,
        newBestOverall, daily
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(game, forKey: .game)
      try container.encode(version, forKey: .version)
      try container.encode(isOver, forKey: .isOver)
      try container.encode(score, forKey: .score)
      try container.encodeIfPresent(variant, forKey: .variant)
      try view.encode(to: container.superEncoder(forKey: .view))
      if let summary { try summary.encode(to: container.superEncoder(forKey: .summary)) }
      if let events {
        var list = container.nestedUnkeyedContainer(forKey: .events)
        for event in events { try event.encode(to: list.superEncoder()) }
      }
      try container.encodeIfPresent(newBest, forKey: .newBest)
      try container.encodeIfPresent(newBestOverall, forKey: .newBestOverall)
      try container.encodeIfPresent(daily, forKey: .daily)
    }
  }

  private struct NewGame: Decodable {
    var game: String
    var category: String?
    var deck: String?
  }

  /// Who is asking, for per-client limits: the connection's address, or behind a proxy the
  /// address it names last in `X-Forwarded-For`.
  func client(_ request: Request, address: SocketAddress?) -> String {
    if forwarded, let hops = request.headers[.init("X-Forwarded-For")!],
      let last = hops.split(separator: ",").last
    {
      return last.trimmingCharacters(in: .whitespaces)
    }
    return address?.ipAddress ?? "unknown"
  }

  func createGame(_ request: Request) async throws -> Response {
    let playerID = try await identity.requirePlayerID(of: request)
    try limiter.admit(.games, key: playerID)
    // Parsed once, for the game asked for here and for its settings by the game's engine.
    let body = PlainJSON.Document(try await body(of: request))
    let input = try body.read(NewGame.self)
    guard let engine = engines[input.game] else {
      throw APIError(
        .badRequest, "unknown-game", "error.unknownGame",
        ["list": .text(engines.ids.joined(separator: ", "))])
    }
    let now = clock()
    var random = SystemRandomNumberGenerator()
    let seed = random.next()
    let content = try await supply(
      engine.contentNeed, playerID: playerID, category: input.category, deck: input.deck,
      language: request.language)
    let id = GameRecord.newID(at: now.milliseconds)
    let (step, settings) = try played {
      try engine.start(settingsIn: body, content: content, seed: seed, at: now, gameID: id)
    }
    let record = GameRecord(
      id: id, playerID: playerID,
      kind: engine.kind.rawValue,
      variant: content.variant, settings: settings, seed: seed, state: step.state, version: 0,
      createdAt: now.milliseconds)
    // Each live game is kept in memory while it is played: a player may have a bounded
    // number at once (those left for a day do not count), counted as the game is stored.
    let day: Int64 = 24 * 3600 * 1000
    let limit = UnfinishedLimit(count: Self.unfinishedGamesLimit, since: now.milliseconds - day)
    guard try await store.insertGame(record, within: limit) else {
      var error = APIError(
        .tooManyRequests, "too-many-unfinished-games", "error.tooManyUnfinishedGames",
        ["unfinishedGamesLimit": .text("\(Self.unfinishedGamesLimit)")])
      error.retryAfter = 60
      throw error
    }
    play.started(record.kind)
    return json(
      try await reply(record, step, version: 0, events: nil, request: request), status: .created)
  }

  /// Runs `body`, telling a client in HTTP terms what the rules refused.
  private func played<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as PlayError {
      switch error {
      case .gameOver: throw APIError.gameOver
      case .refused(let refusal): throw APIError.refused(refusal)
      case .invalidSetting(let setting): throw APIError.invalidSetting(setting)
      }
    }
  }

  /// The game `id` of the requesting player; anyone else's game does not exist for them.
  /// `toMove`: the game to start a move from (``GuessworkStore/gameToMove(id:)``). `known`:
  /// the player, when already found (the play socket's, found as it opened).
  private func ownGame(
    _ request: Request, id: String, toMove: Bool = false, playerID known: String? = nil
  ) async throws -> (GameRecord, any GameEngine) {
    let playerID: String
    if let known {
      playerID = known
    } else {
      playerID = try await identity.requirePlayerID(of: request)
    }
    let found = try await toMove ? store.gameToMove(id: id) : store.game(id: id)
    guard let record = found, record.playerID == playerID,
      let engine = engines[record.kind]
    else {
      throw APIError.notFound("game")
    }
    return (record, engine)
  }

  func readGame(_ request: Request, id: String) async throws -> Response {
    let (record, engine) = try await ownGame(request, id: id)
    if let body = readReplies[record.id, record.version] {
      return json(body: body)
    }
    let now = clock()
    let advanced = try engine.advance(
      record.state, gameID: record.id, version: record.version, at: now)
    let step = try engine.step(advanced, at: now)
    // Time ran out while nobody was looking: record the end, then show it. A tick that does
    // not end the game needs no storing: it follows from the stored state and time.
    let version =
      record.finished == nil && advanced.changed && advanced.isOver
      ? try await saveTimeout(record, step, now: now) : record.version
    let body = try CompactJSON.text(
      try await reply(record, step, version: version, events: nil, request: request)
    ).buffer
    // What else a read's answer holds follows from the version, but for a daily's (the
    // request's language) and a finished game's (its place among the player's bests).
    if !engine.isTimed, record.daily == nil, !step.isOver {
      readReplies[record.id, version] = body
    }
    return json(body: body)
  }

  /// A colour the player must see but may not read (Bullseye's target) as a picture: its
  /// values never travel in a view, so a client cannot simply copy them into its guess.
  private func targetSwatch(_ request: Request, id: String) async throws -> Response {
    let (record, engine) = try await ownGame(request, id: id)
    guard let colour = try engine.swatch(record.state) else {
      throw APIError.notFound("swatch")
    }
    return Self.swatch(colour)
  }

  /// A colour a player must see but no view carries, as a picture of it (never cached).
  static func swatch(_ colour: String) -> Response {
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" preserveAspectRatio="none">\
      <rect width="1" height="1" fill="\(colour)"/></svg>
      """
    return Response(
      status: .ok,
      headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: svg)))
  }

  func act(_ request: Request, id: String) async throws -> Response {
    json(try await move(request, id: id) { PlainJSON.Document(try await body(of: request)) })
  }

  /// Applies the action `body()` gives (`{"version": N, "action": {...}}`) to the game `id` of
  /// `request`'s player, and stores it before it answers: for `POST .../actions` and for each
  /// message of the play socket (``PlaySocket``), whose `request` is the one that opened it and
  /// whose player (`playerID`) was found when it opened, and which counted the message against
  /// the rate limit already (`counted`).
  func move(
    _ request: Request, playerID: String? = nil, id: String, counted: Bool = false,
    body: () async throws -> PlainJSON.Document
  ) async throws -> GameReply {
    var (record, engine) = try await ownGame(request, id: id, toMove: true, playerID: playerID)
    if !counted { try limiter.admit(.moves, key: record.playerID) }
    let body = try await body()
    let asked = try engine.read(body: body)
    // Another instance may have moved the game since this one last wrote it.
    if asked.version != record.version, let stored = try await store.game(id: id) {
      record = stored
    }
    let now = clock()
    if record.finished != nil { throw APIError.gameOver }
    let advanced = try engine.advance(
      record.state, gameID: record.id, version: record.version, at: now)
    if advanced.changed, advanced.isOver {
      _ = try await saveTimeout(record, try engine.step(advanced, at: now), now: now)
      throw APIError(.conflict, "game-over", "error.timeUp")
    }
    guard asked.version == record.version else { throw APIError.stale(record.version) }
    let step = try played {
      try engine.apply(asked, to: advanced, gameID: record.id, version: record.version, at: now)
    }
    // An action that changes nothing (Backspace on an empty pad) is answered, not stored: a
    // thousand of them would otherwise be a thousand rows.
    if !advanced.changed, step.events.isEmpty, step.state == record.state {
      return try await reply(record, step, version: record.version, events: [], request: request)
    }
    let version = record.version + 1
    let saved = try await store.saveMove(
      step.move(gameID: record.id, version: version, at: now), expectedVersion: record.version)
    guard saved else {
      throw APIError.stale(try await store.game(id: record.id)?.version ?? record.version)
    }
    play.moved(record.kind)
    await handBack(record, step, now: now)
    return try await reply(record, step, version: version, events: step.events, request: request)
  }

  /// Stores a game that time has ended, unless someone else already stored a newer version.
  func saveTimeout(_ record: GameRecord, _ step: Step, now: Instant) async throws -> Int {
    let version = record.version + 1
    let saved = try await store.saveMove(
      step.move(gameID: record.id, version: version, at: now), expectedVersion: record.version)
    if saved { await handBack(record, step, now: now) }
    return saved ? version : (try await store.game(id: record.id)?.version ?? version)
  }

  /// What a finished game hands back: the words a round showed are marked as seen by its
  /// player in its category (not for a daily puzzle, whose words are everyone's); a counted
  /// daily's result goes into its leaderboards and streaks.
  private func handBack(_ record: GameRecord, _ step: Step, now: Instant) async {
    guard step.isOver else { return }
    play.finished(record.kind)
    // The move is stored whatever happens here; a result not recorded now is recorded when
    // the player next asks for the daily set (`DailySet.catchUp`).
    if record.daily?.counted == true {
      try? await daily.record(record, score: step.score, at: now)
      boards.drop(kind: record.kind)
    }
    guard record.daily == nil, let category = record.variant, !step.handback.seenWords.isEmpty
    else { return }
    try? await store.markSeen(
      playerID: record.playerID, category: category, words: step.handback.seenWords,
      at: now.milliseconds)
  }

  func reply(
    _ record: GameRecord, _ step: Step, version: Int, events: [any JSONTextWritable & Sendable]?,
    request: Request
  ) async throws -> GameReply {
    let now = clock().milliseconds
    let best =
      step.isOver
      ? try await book.newBest(record, score: step.score, finishedAt: record.finished?.at ?? now)
      : nil
    return GameReply(
      id: record.id, game: record.kind, version: version, isOver: step.isOver,
      score: step.score, variant: record.variant, view: step.view, events: events,
      summary: step.summary,
      newBest: best?.inVariant == true ? true : nil,
      newBestOverall: best?.overall == true ? true : nil,
      daily: record.daily.map { dailyReply($0, record: record, step: step, request: request) })
  }
}

extension APIError {
  static func stale(_ current: Int) -> APIError {
    APIError(.conflict, "stale-version", "error.staleVersion", ["current": .text("\(current)")])
  }

  static let gameOver = APIError(.conflict, "game-over", "error.gameOver")
}

/// The reply to every move and read, written as ``API/GameReply/encode(to:)`` encodes it: the
/// game's own view, summary and events each as they write themselves.
extension API.GameReply: JSONTextWritable {
  func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"id":"#)
    text.writeJSON(string: id)
    text.writeJSON(raw: #","game":"#)
    text.writeJSON(string: game)
    text.writeJSON(raw: #","version":"#)
    text.writeJSON(integer: version)
    text.writeJSON(raw: #","isOver":"#)
    text.writeJSON(bool: isOver)
    text.writeJSON(raw: #","score":"#)
    text.writeJSON(integer: score)
    if let variant {
      text.writeJSON(raw: #","variant":"#)
      text.writeJSON(string: variant)
    }
    text.writeJSON(raw: #","view":"#)
    try view.writeJSON(to: text)
    if let summary {
      text.writeJSON(raw: #","summary":"#)
      try summary.writeJSON(to: text)
    }
    if let events {
      text.writeJSON(raw: #","events":["#)
      for index in events.indices {
        if index != 0 { text.writeJSON(raw: ",") }
        try events[index].writeJSON(to: text)
      }
      text.writeJSON(raw: "]")
    }
    if let newBest {
      text.writeJSON(raw: #","newBest":"#)
      text.writeJSON(bool: newBest)
    }
    if let newBestOverall {
      text.writeJSON(raw: #","newBestOverall":"#)
      text.writeJSON(bool: newBestOverall)
    }
    if let daily {
      text.writeJSON(raw: #","daily":"#)
      try daily.writeJSON(to: text)
    }
    text.writeJSON(raw: "}")
  }
}
