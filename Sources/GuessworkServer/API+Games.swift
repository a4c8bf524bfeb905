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

// MARK: Games: starting one, reading it, acting on it

extension API {
  func addGameRoutes(to router: Router<some RemoteAddressRequestContext>) {
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
  }

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
  func played<T>(_ body: () throws -> T) throws -> T {
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
  func ownGame(
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
    let body = ByteBuffer(
      bytes: try CompactJSON.encode(
        try await reply(record, step, version: version, events: nil, request: request)))
    // What else a read's answer holds follows from the version, but for a daily's (the
    // request's language) and a finished game's (its place among the player's bests).
    if !engine.isTimed, record.daily == nil, !step.isOver {
      readReplies[record.id, version] = body
    }
    return json(body: body)
  }

  /// A colour the player must see but may not read (Bullseye's target) as a picture: its
  /// values never travel in a view, so a client cannot simply copy them into its guess.
  func targetSwatch(_ request: Request, id: String) async throws -> Response {
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
  func handBack(_ record: GameRecord, _ step: Step, now: Instant) async {
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
