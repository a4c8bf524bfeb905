import Foundation
import GuessworkContent
import GuessworkCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import Testing

@testable import GuessworkServer

/// The server speaks the request's language (`Accept-Language`): its errors, the games'
/// titles and settings, the categories, and the content of a game it starts.
@Suite("Languages through the API")
struct LanguageTests {
  /// Sends `body` to `uri` as `player`, asking for `language`.
  static func send(
    _ player: Player, _ method: HTTPRequest.Method, _ uri: String, json body: String? = nil,
    language: String
  ) async throws -> TestResponse {
    var headers: HTTPFields = [.cookie: player.cookie, .acceptLanguage: language]
    if body != nil { headers[.contentType] = "application/json" }
    return try await player.client.execute(
      uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
  }

  static let gameList = Games.all.map { $0.kind.rawValue }.joined(separator: ", ")

  static func error(_ response: TestResponse) throws -> ErrorReply.Detail {
    try JSONDecoder().decode(ErrorReply.self, from: Data(buffer: response.body)).error
  }

  @Test(
    "An error's message is in the request's language; its code is not",
    arguments: ["ru-RU,ru;q=0.9,en;q=0.8", "es-MX", "en-GB", "de"])
  func errors(header: String) async throws {
    let catalog = Catalog.of(Language(acceptLanguage: header) ?? .en)
    let unknownWords = catalog.render(
      Message("error.unknownGame", ["list": .text(Self.gameList)]))
    let settingWords = catalog.render(
      Message("setting.invalid.allowed.integer", ["setting": "attempts", "low": 1, "high": 20]))
    let refusedWords = catalog.render(
      Message("number.refusal.outOfRange", ["number": 500, "low": 0, "high": 99]))
    let staleWords = catalog.render(Message("error.staleVersion", ["current": "1"]))
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)

      // An unknown game: the server's own error.
      let unknown = try Self.error(
        try await Self.send(ana, .post, "/api/games", json: #"{"game":"chess"}"#, language: header))
      #expect(unknown.code == "unknown-game")
      #expect(unknown.message == unknownWords)

      // A setting out of range: the core's allowed range, said by the server.
      let setting = try Self.error(
        try await Self.send(
          ana, .post, "/api/games", json: #"{"game":"number","settings":{"attempts":99}}"#,
          language: header))
      #expect(setting.code == "invalid-setting")
      #expect(setting.message == settingWords)

      // A refusal of the rules: a guess outside the game.
      var game = try await ana.start(.number)
      let refused = try Self.error(
        try await Self.send(
          ana, .post, "/api/games/\(game.id)/actions",
          json: #"{"action":{"type":"guess","number":500},"version":0}"#, language: header))
      #expect(refused.code == "out-of-range")
      #expect(refused.message == refusedWords)

      // A stale version: after a digit typed on the pad, a move that cannot end the game (a
      // guess could be right, and a move on a finished game hears that it is over instead).
      try await ana.act(&game, #"{"type":"digit","digit":5}"#)
      let stale = try Self.error(
        try await Self.send(
          ana, .post, "/api/games/\(game.id)/actions",
          json: #"{"action":{"type":"guess","number":40},"version":0}"#, language: header))
      #expect(stale.code == "stale-version")
      #expect(stale.message == staleWords)
    }
  }

  @Test(
    "A body's mistakes are said in the request's language, a setting of the wrong kind names its range",
    arguments: ["ru", "es", "en"])
  func bodyErrors(language: String) async throws {
    let catalog = Catalog.of(Language(acceptLanguage: language) ?? .en)
    let settingWords = catalog.render(
      Message("setting.invalid.allowed.integer", ["setting": "attempts", "low": 1, "high": 20]))
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      func refusal(_ method: HTTPRequest.Method, _ uri: String, _ body: String) async throws
        -> ErrorReply.Detail
      {
        let response = try await Self.send(ana, method, uri, json: body, language: language)
        #expect(response.status == .badRequest, "\(body)")
        return try Self.error(response)
      }
      let empty = try await refusal(.post, "/api/players", #"{"name": ""}"#)
      #expect(
        empty.message == catalog.render(Message("text.empty", ["field": .key("text.field.name")])))
      let number = try await refusal(.post, "/api/players", #"{"name": 5}"#)
      #expect(
        number.message
          == catalog.render(
            Message("error.body.type", ["path": "name", "type": .key("error.body.a.string")])))
      let broken = try await refusal(.post, "/api/players", #"{"name": "#)
      #expect(broken.message == catalog.render(Message("error.body.notJSON")))
      for wrongKind in ["2.5", #""five""#, "true"] {
        let setting = try await refusal(
          .post, "/api/games", #"{"game":"number","settings":{"attempts":\#(wrongKind)}}"#)
        #expect(setting.code == "invalid-setting")
        #expect(setting.message == settingWords)
      }
      if language != "en" {
        #expect(
          empty.message
            != Catalog.of(.en).render(Message("text.empty", ["field": .key("text.field.name")])))
      }
    }
  }

  @Test("Russian errors are not English ones")
  func russianDiffers() {
    for key in ["error.unknownGame", "error.staleVersion", "number.refusal.outOfRange"] {
      #expect(Catalog.of(.ru)(key) != Catalog.of(.en)(key), "\(key)")
      #expect(Catalog.of(.es)(key) != Catalog.of(.en)(key), "\(key)")
    }
  }

  @Test("The catalog of games, settings and categories is in the request's language")
  func catalogInLanguage() async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let response = try await Self.send(ana, .get, "/api/catalog", language: "ru")
      let catalog = try JSONDecoder().decode(JSON.self, from: Data(buffer: response.body))
      let number = try #require(catalog["games"]?.array.first { $0["id"]?.string == "number" })
      #expect(number["title"]?.string == "Угадай число")
      let attempts = try #require(
        number["settings"]?.array.first { $0["name"]?.string == "attempts" })
      #expect(attempts["label"]?.string == Catalog.of(.ru)("number.setting.attempts"))
      let animals = try #require(
        catalog["categories"]?.array.first { $0["id"]?.string == "animals" })
      #expect(animals["title"]?.string == Catalog.of(.ru)("category.animals"))
      #expect((animals["words"]?.int ?? 0) >= 200)
      let deck = try #require(catalog["decks"]?.array.first { $0["id"]?.string == "animals" })
      #expect(deck["title"]?.string != "Animal Friends")
    }
  }

  @Test("A game started in Spanish or Russian plays on that language's words and names")
  func contentInLanguage() async throws {
    try await withServer(.sqlite) { client, clock in
      let ana = try await Player.join(client)
      let spanish = Set(ContentLibrary.bundled.words(category: "animals", in: .es))
      let started = try await Self.send(
        ana, .post, "/api/games", json: #"{"game":"guess-or-pass","category":"animals"}"#,
        language: "es")
      #expect(started.status == .created)
      var game = try JSONDecoder().decode(GameReply.self, from: Data(buffer: started.body))
      clock.advance(seconds: 6)
      try await ana.act(&game, #"{"type":"guessed"}"#)
      try await ana.act(&game, #"{"type":"end"}"#)
      let guessed = try #require(game.view["guessed"]?.array.first?.string)
      #expect(spanish.contains(guessed), "\(guessed)")

      let quiz = try await Self.send(
        ana, .post, "/api/games", json: #"{"game":"picture-quiz","deck":"animals"}"#,
        language: "ru")
      let reply = try JSONDecoder().decode(GameReply.self, from: Data(buffer: quiz.body))
      let asked = try #require(reply.view["answerName"]?.string)
      #expect(asked.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "\(asked)")
    }
  }

  @Test("The language chosen in settings is kept with the player")
  func preference() async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let patched = try await ana.send(
        .patch, "/api/me", json: #"{"preferences":{"language":"ru"}}"#)
      #expect(patched.status == .ok)
      let me = try JSONDecoder().decode(
        JSON.self, from: Data(buffer: try await ana.send(.get, "/api/me").body))
      #expect(me["preferences"]?["language"]?.string == "ru")
      let wrong = try await ana.send(.patch, "/api/me", json: #"{"preferences":{"language":"xx"}}"#)
      #expect(wrong.status == .badRequest)
    }
  }
}
