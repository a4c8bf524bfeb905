import Foundation
import GuessworkCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import Testing

@testable import GuessworkServer

/// A game's start, its read and its actions are taken to the API before the router
/// (``GameRoutesResponder``); these hold them to what the router did with the same requests.
@Suite("A game's routes without the router")
struct GameRoutesTests {
  @Test(
    "Only a game's start, its read and its actions, exactly, are taken",
    arguments: [
      (HTTPRequest.Method.post, "/api/games", GameRoute.start),
      (.get, "/api/games/01abc", .read(id: "01abc")),
      (.post, "/api/games/01abc/actions", .act(id: "01abc")),
      (.get, "/api/games/a%20b", .read(id: "a%20b")),
      (.get, "/api/games/", nil),
      (.get, "/api/games", nil),
      (.put, "/api/games", nil),
      (.post, "/api/games/", nil),
      (.post, "/api/gamesx", nil),
      (.post, "/API/games", nil),
      (.get, "/api/games/01abc/", nil),
      (.get, "/api/games/01abc/actions", nil),
      (.get, "/api/games/01abc/target.svg", nil),
      (.post, "/api/games/01abc", nil),
      (.post, "/api/games//actions", nil),
      (.post, "/api/games/01abc/actions/", nil),
      (.post, "/api/games/01abc/actionsx", nil),
      (.post, "/api/games/01abc/act", nil),
      (.head, "/api/games/01abc", nil),
      (.put, "/api/games/01abc", nil),
      (.delete, "/api/games/01abc/actions", nil),
      (.get, "/api/gamesx/01abc", nil),
      (.get, "/API/games/01abc", nil),
      (.get, "/ping", nil),
    ] as [(HTTPRequest.Method, String, GameRoute?)])
  func shapes(method: HTTPRequest.Method, path: String, route: GameRoute?) {
    #expect(GameRoute(method, path) == route)
  }

  @Test(
    "They answer as the router's routes do, errors and headers alike; other methods stay 405",
    arguments: Database.available)
  func answers(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      var game = try await ana.start(.number, settings: #"{"low":0,"high":99,"attempts":7}"#)
      let read = try await ana.send(.get, "/api/games/\(game.id)")
      #expect(read.status == .ok)
      #expect(read.headers[.xContentTypeOptions] == "nosniff")
      #expect(read.headers[.contentType] == "application/json; charset=utf-8")
      try await ana.act(&game, #"{"type":"guess","number":50}"#)
      #expect(game.version == 1)

      // Errors from the handlers go through the same middleware as every route's.
      let unknown = try await ana.send(.post, "/api/games", json: #"{"game":"chess"}"#)
      #expect(unknown.status == .badRequest)
      #expect(unknown.headers[.xContentTypeOptions] == "nosniff")
      let unknownError = try JSONDecoder().decode(
        ErrorReply.self, from: Data(buffer: unknown.body))
      #expect(unknownError.error.code == "unknown-game")
      let missing = try await ana.send(.get, "/api/games/nope")
      #expect(missing.status == .notFound)
      #expect(missing.headers[.xContentTypeOptions] == "nosniff")
      let error = try JSONDecoder().decode(ErrorReply.self, from: Data(buffer: missing.body))
      #expect(error.error.code == "not-found")
      let stale = try await ana.send(
        .post, "/api/games/\(game.id)/actions",
        json: #"{"action":{"type":"guess","number":10},"version":0}"#)
      #expect(stale.status == .conflict)
      #expect(stale.headers[.xContentTypeOptions] == "nosniff")

      // Another method, or a path of another shape, is still the router's.
      for (method, path) in [
        (HTTPRequest.Method.delete, "/api/games/\(game.id)"),
        (.put, "/api/games/\(game.id)/actions"),
        (.delete, "/api/games"),
      ] {
        let refused = try await ana.send(method, path)
        #expect(refused.status == .methodNotAllowed, "\(method) \(path)")
        #expect(refused.headers[.allow] != nil)
      }
      let swatch = try await ana.send(.get, "/api/games/\(game.id)/target.svg")
      #expect(swatch.status == .notFound)  // a Number game has no target to show
      #expect(try await ana.game(game.id).version == 1)
    }
  }
}
