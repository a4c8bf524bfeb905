import ExampleGames
import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkServer
import GuessworkStore
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Testing

/// A game added the way the issue promises (its engine, one line in a list) is offered,
/// documented, played, counted and played in the terminal's session with nothing else written:
/// `CoinFlipGame` exists only in these tests.
@Suite("A sixth game, registered like the five")
struct GameShapeTests {
  static let games: [any Game.Type] = Games.all + [CoinFlipGame.self]

  @Test(
    "The server offers it, documents it, plays it to the end and counts it",
    arguments: Database.available)
  func playedThroughTheServer(database: Database) async throws {
    try await withServer(database, games: Self.games) { client, _ in
      let ana = try await Player.join(client)

      // The catalog offers it with its settings as data.
      let catalog = try ana.decode(try await ana.send(.get, "/api/catalog"), as: JSON.self)
      let entry = try #require(catalog["games"]?.array.first { $0["id"]?.string == "coin-flip" })
      // A game the catalogs do not know shows its keys.
      #expect(entry["title"]?.string == "coin-flip.title")
      let flips = try #require(entry["settings"]?.array.first)
      #expect(flips["name"]?.string == "flips" && flips["max"]?.int == 5)
      #expect(entry["figures"]?.array.first?["id"]?.string == "rightCalls")

      // The API document has its schemas, read off its types.
      let document = try ana.decode(try await ana.send(.get, "/openapi.json"), as: JSON.self)
      let schemas = try #require(document["components"]?["schemas"])
      for part in ["Settings", "Action", "Event", "View", "Summary", "Figures"] {
        #expect(schemas["CoinFlip" + part] != nil, "CoinFlip\(part)")
      }
      #expect(schemas["GameKind"]?["enum"]?.array.contains(.string("coin-flip")) == true)
      let viewSchema = try #require(schemas["CoinFlipView"])

      // Its setting is checked by the range it declares.
      let refused = try await ana.send(
        .post, "/api/games", json: #"{"game":"coin-flip","settings":{"flips":9}}"#)
      #expect(refused.status == .badRequest)
      #expect(String(buffer: refused.body).contains("flips must be a whole number from 1 to 5"))

      // Played to the end; every view has the documented keys and no others.
      var game = try await ana.start("coin-flip", settings: #"{"flips":2}"#)
      try Self.expect(game.view, matches: viewSchema)
      let unknown = try await ana.refused(game, #"{"type":"spin"}"#, status: .badRequest)
      #expect(unknown.error.message.contains("expected call"))
      try await ana.act(&game, #"{"type":"call","side":"heads"}"#)
      #expect(game.events?.first?["type"]?.string == "flipped")
      try await ana.act(&game, #"{"type":"call","side":"tails"}"#)
      try Self.expect(game.view, matches: viewSchema)
      #expect(game.isOver && game.version == 2)
      #expect(game.summary?["flips"]?.int == 2)
      let over = try await ana.refused(game, #"{"type":"call","side":"heads"}"#, status: .conflict)
      #expect(over.error.code == "game-over")

      // The statistics count it with its own figure.
      let stats = try ana.decode(try await ana.send(.get, "/api/me/stats"), as: JSON.self)
      let mine = try #require(stats["games"]?.array.first { $0["game"]?.string == "coin-flip" })
      #expect(mine["played"]?.int == 1)
      #expect(mine["figures"]?["rightCalls"]?.int == game.score)
    }
  }

  /// `value` has every key `schema` requires and none it does not list.
  static func expect(_ value: JSON, matches schema: JSON) throws {
    guard case .object(let object) = value, case .object(let properties)? = schema["properties"]
    else {
      Issue.record("not an object: \(value)")
      return
    }
    for key in object.keys { #expect(properties[key] != nil, "undocumented key \(key)") }
    for required in schema["required"]?.array.compactMap(\.string) ?? [] {
      #expect(object[required] != nil, "missing \(required)")
    }
  }

  @Test("The terminal's session plays it with the same step and stores it like the server")
  func playedInALocalSession() async throws {
    var settings = CoinFlipGame.Settings()
    settings.flips = 3
    let session = try LocalSession<CoinFlipGame>(
      settings: settings, content: .none, seed: 42, at: .zero)
    for _ in 0..<3 { #expect(session.apply(.call(.heads), at: .zero) != nil) }
    #expect(session.isOver)
    #expect(session.apply(.call(.tails), at: .zero) == nil)
    #expect(session.notice == Refusal.gameOver.reason)
    #expect(session.moves.map(\.version) == [1, 2, 3])
    #expect(session.moves.last?.finished?.score == session.game.score)
    #expect(session.moves.first?.action == #"{"type":"call","side":"heads"}"#)

    // The same seed replays the same game through the server's engine.
    let engine = Engine<CoinFlipGame>()
    var replay = try engine.start(settings, content: .none, seed: 42, at: .zero)
    for _ in 0..<3 { _ = try engine.apply(.call(.heads), to: &replay, afterTick: [], at: .zero) }
    #expect(replay == session.game)

    // Recorded in a store, the shared statistics count it.
    var logger = Logger(label: "shape-tests")
    logger.logLevel = .warning
    let store = try await SQLStore.open(Database.sqlite.location(), logger: logger)
    let player = PlayerRecord(id: "p", name: "Tess", preferences: "{}", createdAt: 0)
    try await store.insertPlayer(player, tokenHash: PlayerIdentity.hash(PlayerIdentity.newToken()))
    try await session.record(in: store, playerID: player.id)
    let statistics = Statistics(
      games: try await store.finishedGames(playerID: player.id, after: nil),
      engines: GameEngines(Self.games))
    try await store.close()
    let coin = try #require(statistics.games.first { $0.game == "coin-flip" })
    #expect(coin.played == 1 && coin.bestScore == session.game.score)
    #expect(coin.figures.list.first?.value == .count(session.game.score))
  }

  @Test("The terminal's settings are read by the fields, with the API's messages")
  func settingsTypedAsText() throws {
    let engine = GameEngines(Self.games)["coin-flip"]!
    let body = try engine.settingsBody([("flips", "4")])
    #expect(String(decoding: body, as: UTF8.self) == #"{"settings":{"flips":4}}"#)
    #expect(
      throws: SettingError(
        setting: "flips", allowed: Message("allowed.integer", ["low": 1, "high": 5]))
    ) {
      try engine.settingsBody([("flips", "9")])
    }
    #expect(throws: SettingError.self) { try engine.settingsBody([("sides", "3")]) }
  }
}
