import Foundation
import GuessworkContent
import GuessworkCore
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

  /// Every game the server plays, built once.
  let drivers: [GameKind: any GameDriver]
  let decks: Decks

  init(
    store: any GuessworkStore, identity: Identity, content: ContentLibrary, words: WordBank,
    clock: @escaping @Sendable () -> Instant
  ) {
    self.store = store
    self.identity = identity
    self.content = content
    self.words = words
    self.clock = clock
    self.drivers = GameDrivers.all(content: content)
    self.decks = Decks(store: store, bundled: content.decks)
  }

  func register(on router: Router<some RequestContext>) {
    router.get("/healthz") { _, _ in try await health() }
    router.get("/openapi.json") { _, _ in try openAPIDocument() }
    router.get("/api/catalog") { request, _ in try await catalog(request) }
    router.get("/api/decks") { _, _ in json(try await decks.all().map(Decks.Entry.init)) }
    router.get("/api/decks/{id}") { _, context in
      guard let deck = try await decks.deck(try context.parameters.require("id")) else {
        throw APIError.notFound("Deck")
      }
      return json(Decks.Detail(deck: .init(deck), names: deck.items.map(\.name)))
    }
    router.get("/api/pictures/{id}") { request, context in
      try await decks.picture(try context.parameters.require("id"), request: request)
    }
    router.post("/api/players") { request, _ in try await createPlayer(request) }
    router.get("/api/players/claim") { request, _ in try await claim(request) }
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
      let player = try await identity.requirePlayer(of: request)
      return json(Statistics(games: try await store.finishedGames(playerID: player.id)))
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
    registerCustomCategories(on: router)
    registerReminders(on: router)
  }

  // MARK: Health and catalogue

  private func health() async throws -> Response {
    do {
      try await store.ping()
      return json(["status": "ok"])
    } catch {
      throw APIError(.serviceUnavailable, "database-unavailable", "The database does not answer.")
    }
  }

  private func openAPIDocument() throws -> Response {
    let url = Bundle.module.url(forResource: "openapi", withExtension: "json")!
    return Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: try Data(contentsOf: url))))
  }

  struct Catalog: Encodable {
    struct GameEntry: Encodable {
      var id: String
      var title: String
    }
    struct CategoryEntry: Encodable {
      var id: String
      var title: String
      var words: Int
      /// Set on the asking player's own categories.
      var custom: Bool?
    }
    var games: [GameEntry]
    var categories: [CategoryEntry]
    var decks: [Decks.Entry]
  }

  /// The games, the categories (the built-in ones, then the asking player's own) and decks.
  private func catalog(_ request: Request) async throws -> Response {
    var categories: [Catalog.CategoryEntry] = []
    for category in content.categories {
      categories.append(
        .init(
          id: category.id, title: category.title,
          words: await words.words(category: category.id).count))
    }
    if let player = try await identity.player(of: request) {
      categories += try await store.customCategories(playerID: player.id).map {
        .init(id: $0.id, title: $0.name, words: $0.words.count, custom: true)
      }
    }
    return json(
      Catalog(
        games: GameKind.allCases.map { .init(id: $0.rawValue, title: $0.title) },
        categories: categories,
        decks: try await decks.all().map(Decks.Entry.init)))
  }

  // MARK: Players

  func body(of request: Request, limit: Int = maxBody) async throws -> Data {
    do {
      return Data(buffer: try await request.body.collect(upTo: limit))
    } catch let error as any HTTPResponseError {
      throw error
    } catch {
      // The client stopped before sending the body it announced.
      throw APIError(
        .badRequest, "incomplete-body", "The request body ended before its Content-Length.")
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
    let token = Identity.newToken()
    let record = PlayerRecord(
      id: UUID().uuidString.lowercased(), name: name,
      preferences: try CompactJSON.string(Preferences()),
      createdAt: clock().milliseconds)
    try await store.insertPlayer(record, tokenHash: Identity.hash(token))
    var response = json(PlayerView(record), status: .created)
    response.setCookie(identity.cookie(for: token))
    return response
  }

  /// Signs this browser in as the player whose token the link carries (the terminal's local
  /// player: `guesswork stats --browser-link`), then shows that player's statistics page.
  private func claim(_ request: Request) async throws -> Response {
    guard let token = request.uri.queryParameters.get("token"), token.count == 43,
      try await store.player(tokenHash: Identity.hash(token)) != nil
    else { throw APIError.notFound("Player") }
    var response = Response(status: .seeOther, headers: [.location: "/stats.html"])
    response.setCookie(identity.cookie(for: token))
    return response
  }

  private struct PlayerChanges: Decodable {
    var name: String?
    var preferences: Preferences?
  }

  private func updateMe(_ request: Request) async throws -> Response {
    var player = try await identity.requirePlayer(of: request)
    let changes = try JSONDecoder().decode(PlayerChanges.self, from: try await body(of: request))
    if let name = changes.name { player.name = try PlayerRules.validName(name) }
    if let preferences = changes.preferences {
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
      data = try await body(of: request, limit: PlayerRules.maxAvatarBytes)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw APIError(
        .contentTooLarge, "too-large", "An avatar may be at most 256 KB; scale it down first.")
    }
    guard let type = PlayerRules.imageType(of: data) else {
      throw APIError(
        .unsupportedMediaType, "unsupported-media-type",
        "An avatar must be a PNG, JPEG, WebP or GIF picture.")
    }
    try await store.setAvatar(
      playerID: player.id, Avatar(contentType: type, data: data), at: clock().milliseconds)
    player.hasAvatar = true
    return json(PlayerView(player))
  }

  private func avatar(_ request: Request, id: String) async throws -> Response {
    let player = try await identity.requirePlayer(of: request)
    guard player.id == id, let avatar = try await store.avatar(playerID: id) else {
      throw APIError.notFound("Avatar")
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
    var view: any Encodable & Sendable
    var events: [any Encodable & Sendable]?
    /// The end-of-game figures (the Number halving analysis, the Color Match report...),
    /// once the game is over.
    var summary: (any Encodable & Sendable)?

    enum CodingKeys: String, CodingKey {
      case id, game, version, isOver, score, variant, view, events, summary
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
    }
  }

  private struct NewGame: Decodable {
    var game: String
    var category: String?
    var deck: String?
  }

  private func createGame(_ request: Request) async throws -> Response {
    let player = try await identity.requirePlayer(of: request)
    let body = try await body(of: request)
    let input = try JSONDecoder().decode(NewGame.self, from: body)
    guard let kind = GameKind(rawValue: input.game), let driver = drivers[kind] else {
      throw APIError(
        .badRequest, "unknown-game",
        "game must be one of \(GameKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    let now = clock()
    var random = SystemRandomNumberGenerator()
    let seed = random.next()
    var options = GameOptions(category: input.category)
    if kind == .pictureQuiz { options.deck = try await pictureDeck(input.deck) }
    if kind == .guessOrPass {
      options.words = try await roundWords(player: player, category: input.category).0
    }
    let (outcome, variant) = try driver.start(body: body, options: options, seed: seed, now: now)
    let record = GameRecord(
      id: UUID().uuidString.lowercased(), playerID: player.id, kind: kind.rawValue,
      variant: variant, settings: outcome.settings, seed: seed, state: outcome.state, version: 0,
      createdAt: now.milliseconds)
    try await store.insertGame(record)
    return json(reply(record, outcome, version: 0, events: nil), status: .created)
  }

  /// The deck a Picture Quiz asks for (the first playable one when it names none).
  private func pictureDeck(_ id: String?) async throws -> Deck {
    let all = try await decks.all()
    guard let id else {
      guard let first = all.first(where: \.isPlayable) else { throw APIError.notFound("Deck") }
      return first
    }
    guard let deck = all.first(where: { $0.id == id }) else {
      throw APIError(
        .badRequest, "unknown-deck",
        "deck must be one of \(all.map(\.id).joined(separator: ", ")).")
    }
    guard deck.isPlayable else { throw APIError.deckNeedsPhotos(deck) }
    return deck
  }

  /// The game `id` of the requesting player; anyone else's game does not exist for them.
  private func ownGame(_ request: Request, id: String) async throws -> (
    GameRecord, any GameDriver
  ) {
    let playerID = try await identity.requirePlayerID(of: request)
    guard let record = try await store.game(id: id), record.playerID == playerID,
      let kind = GameKind(rawValue: record.kind), let driver = drivers[kind]
    else {
      throw APIError.notFound("Game")
    }
    return (record, driver)
  }

  private func readGame(_ request: Request, id: String) async throws -> Response {
    let (record, driver) = try await ownGame(request, id: id)
    let now = clock()
    if record.finished == nil, let ticked = try driver.tick(record, now: now) {
      // Time ran out while nobody was looking: record the end, then show it. A tick that
      // does not end the game needs no storing: it follows from the stored state and time.
      let version =
        ticked.isOver ? try await saveTimeout(record, ticked, now: now) : record.version
      return json(reply(record, ticked, version: version, events: nil))
    }
    return json(
      reply(
        record, try driver.view(record, now: now), version: record.version, events: nil
      ))
  }

  /// Bullseye's target as a picture: the player must see the colour, but its values never
  /// travel in a view, so a client cannot simply copy them into its guess.
  private func targetSwatch(_ request: Request, id: String) async throws -> Response {
    let (record, _) = try await ownGame(request, id: id)
    guard record.kind == GameKind.bullseye.rawValue else {
      throw APIError.notFound("A target colour for this game")
    }
    let game = try JSONDecoder().decode(BullseyeGame.self, from: Data(record.state.utf8))
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" preserveAspectRatio="none">\
      <rect width="1" height="1" fill="\(game.target.hex)"/></svg>
      """
    return Response(
      status: .ok,
      headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: svg)))
  }

  private func act(_ request: Request, id: String) async throws -> Response {
    let (record, driver) = try await ownGame(request, id: id)
    let body = try await body(of: request)
    let asked = try driver.read(body: body)
    let now = clock()
    if record.finished != nil { throw APIError.gameOver }
    if let ticked = try driver.tick(record, now: now), ticked.isOver {
      _ = try await saveTimeout(record, ticked, now: now)
      throw APIError(.conflict, "game-over", "Time is up: the game is over.")
    }
    guard asked.version == record.version else { throw APIError.stale(record.version) }
    let (outcome, action) = try driver.apply(asked, to: record, now: now)
    let version = record.version + 1
    let saved = try await store.saveMove(
      Move(
        gameID: record.id, version: version, state: outcome.state, at: now.milliseconds,
        action: action, finished: finished(outcome, now: now)),
      expectedVersion: record.version)
    guard saved else {
      throw APIError.stale(try await store.game(id: record.id)?.version ?? record.version)
    }
    await recordSeenWords(record, outcome, now: now)
    return json(reply(record, outcome, version: version, events: outcome.events))
  }

  /// Stores a game that time has ended, unless someone else already stored a newer version.
  private func saveTimeout(_ record: GameRecord, _ outcome: Outcome, now: Instant) async throws
    -> Int
  {
    let version = record.version + 1
    let saved = try await store.saveMove(
      Move(
        gameID: record.id, version: version, state: outcome.state, at: now.milliseconds,
        action: nil, finished: finished(outcome, now: now)),
      expectedVersion: record.version)
    if saved { await recordSeenWords(record, outcome, now: now) }
    return saved ? version : (try await store.game(id: record.id)?.version ?? version)
  }

  private func finished(_ outcome: Outcome, now: Instant) -> GameRecord.Finished? {
    guard outcome.isOver, let summary = outcome.summary else { return nil }
    return GameRecord.Finished(at: now.milliseconds, score: outcome.score, summary: summary)
  }

  private func reply(
    _ record: GameRecord, _ outcome: Outcome, version: Int, events: [any Encodable & Sendable]?
  ) -> GameReply {
    GameReply(
      id: record.id, game: record.kind, version: version, isOver: outcome.isOver,
      score: outcome.score, variant: record.variant, view: outcome.view, events: events,
      summary: outcome.isOver ? outcome.summaryValue : nil)
  }
}

extension APIError {
  static func stale(_ current: Int) -> APIError {
    APIError(
      .conflict, "stale-version",
      "The game has moved on (it is at version \(current)); reload it and try again.")
  }
}
