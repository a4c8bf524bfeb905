import Foundation
import GuessworkCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import Testing

@Suite("The API defends itself")
struct DefenceTests {
  @Test(
    "A stale version gets 409 and changes nothing, so a double tap applies once",
    arguments: Database.available)
  func staleVersion(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      var game = try await ana.start(.number)
      let stale = game
      try await ana.act(&game, #"{"type":"digit","digit":5}"#)
      let error = try await ana.refused(stale, #"{"type":"digit","digit":6}"#, status: .conflict)
      #expect(error.error.code == "stale-version")
      let now = try await ana.game(game.id)
      #expect(now.version == 1)
      #expect(now.view["display"]?.string == "5")
      // The version is checked before the action is: a stale client hears that it is stale,
      // whatever else is wrong with what it sent.
      let unreadable = try await ana.refused(stale, #"{"type":"fly"}"#, status: .conflict)
      #expect(unreadable.error.code == "stale-version")
    }
  }

  @Test(
    "A refused action gets 422 with the core's reason and costs nothing",
    arguments: Database.available)
  func refusedAction(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      let game = try await ana.start(.number)
      let error = try await ana.refused(
        game, #"{"type":"guess","number":100}"#, status: .unprocessableContent)
      #expect(error.error.code == "out-of-range")
      let now = try await ana.game(game.id)
      #expect(now.version == 0)
      #expect(now.view["attemptsLeft"]?.int == 5)
    }
  }

  @Test("An action on a finished game gets 409", arguments: Database.available)
  func finishedGame(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      var game = try await ana.start(.guessOrPass, extra: #","category":"music""#)
      try await ana.act(&game, #"{"type":"end"}"#)
      let error = try await ana.refused(game, #"{"type":"end"}"#, status: .conflict)
      #expect(error.error.code == "game-over")
    }
  }

  @Test(
    "Another player's game, profile and avatar do not exist for them", arguments: Database.available
  )
  func privacy(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client, name: "Ana")
      let bo = try await Player.join(client, name: "Bo")
      let game = try await ana.start(.number)
      #expect(try await bo.send(.get, "/api/games/\(game.id)").status == .notFound)
      let action = try await bo.send(
        .post, "/api/games/\(game.id)/actions", json: #"{"action":{"type":"clear"},"version":0}"#)
      #expect(action.status == .notFound)
      let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
      #expect(try await ana.send(.put, "/api/me/avatar", bytes: png).status == .ok)
      #expect(try await ana.send(.get, "/api/players/\(ana.id)/avatar").status == .ok)
      #expect(try await bo.send(.get, "/api/players/\(ana.id)/avatar").status == .notFound)
      let me = try await bo.send(.get, "/api/me")
      #expect(String(buffer: me.body).contains("\"Bo\""))
      #expect(!String(buffer: me.body).contains("Ana"))
      #expect(try await ana.game(game.id).version == 0)
    }
  }

  @Test("No cookie, no player: 401 with what to do", arguments: Database.available)
  func noPlayer(database: Database) async throws {
    try await withServer(database) { client, _ in
      let session = try await client.execute(uri: "/api/session", method: .get)
      #expect(session.status == .ok)
      #expect(String(buffer: session.body) == #"{"player":null}"#)
      let response = try await client.execute(uri: "/api/me", method: .get)
      #expect(response.status == .unauthorized)
      #expect(String(buffer: response.body).contains("POST /api/players"))
      let forged = try await client.execute(
        uri: "/api/me", method: .get,
        headers: [.cookie: "guesswork_player=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
      #expect(forged.status == .unauthorized)
    }
  }

  @Test("The player cookie is found among others, and only under its own name")
  func cookieAmongOthers() async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let token = String(ana.cookie.dropFirst("guesswork_player=".count))
      func me(_ cookie: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/api/me", method: .get, headers: [.cookie: cookie]).status
      }
      #expect(try await me("theme=dark; guesswork_player=\(token); lang=en") == .ok)
      #expect(try await me("theme=dark;guesswork_player=\(token)") == .ok)
      #expect(try await me("xguesswork_player=\(token)") == .unauthorized)
      #expect(try await me("guesswork_player=\(token)x") == .unauthorized)
      #expect(try await me("guesswork_player=\(token.dropLast())") == .unauthorized)
    }
  }

  @Test(
    "Names are 1...24 characters after trimming, without control characters",
    arguments: [
      (#"{"name":"   "}"#, HTTPResponse.Status.badRequest),
      (#"{"name":"abcdefghijklmnopqrstuvwxy"}"#, .badRequest),
      (#"{"name":"a\u0007b"}"#, .badRequest),
      (#"{"name":42}"#, .badRequest),
      (#"{}"#, .badRequest),
      (#"{"name":"a\u2028b"}"#, .badRequest),
      (#"{"name":"  Zoë 🎲  "}"#, .created),
      (#"{"name":"Ana 👩‍💻"}"#, .created),
    ])
  func names(body: String, status: HTTPResponse.Status) async throws {
    try await withServer(.sqlite) { client, _ in
      let response = try await client.execute(
        uri: "/api/players", method: .post, headers: [.contentType: "application/json"],
        body: ByteBuffer(string: body))
      #expect(response.status == status, "\(body): \(String(buffer: response.body))")
      if body.contains("Zoë") { #expect(String(buffer: response.body).contains(#""Zoë 🎲""#)) }
    }
  }

  @Test(
    "A JSON route refuses a body of another type (what a cross-site form can send) with 415, changing nothing",
    arguments: Database.available)
  func jsonOnly(database: Database) async throws {
    try await withServer(database) { client, _ in
      for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", nil] {
        let response = try await client.execute(
          uri: "/api/players", method: .post,
          headers: type.map { [.contentType: $0] } ?? [:],
          body: ByteBuffer(string: #"{"name":"Eve"}"#))
        #expect(response.status == .unsupportedMediaType, "\(type ?? "no type")")
        #expect(response.headers[.setCookie] == nil)
        #expect(String(buffer: response.body).contains("Content-Type: application/json"))
      }
      let ana = try await Player.join(client)
      let renamed = try await client.execute(
        uri: "/api/me", method: .patch, headers: [.cookie: ana.cookie, .contentType: "text/plain"],
        body: ByteBuffer(string: #"{"name":"Eve"}"#))
      #expect(renamed.status == .unsupportedMediaType)
      #expect(String(buffer: try await ana.send(.get, "/api/me").body).contains(#""name":"Ana""#))
      // A charset parameter is fine, and so are capitals, spaces and tabs around the type.
      for type in [
        "application/json; charset=utf-8", " Application/JSON\t;charset=utf-8", "APPLICATION/json ",
      ] {
        let fine = try await client.execute(
          uri: "/api/players", method: .post, headers: [.contentType: type],
          body: ByteBuffer(string: #"{"name":"Bo"}"#))
        #expect(fine.status == .created, "\(type)")
      }
      // Not a type that only begins like JSON's.
      let longer = try await client.execute(
        uri: "/api/players", method: .post, headers: [.contentType: "application/jsonx"],
        body: ByteBuffer(string: #"{"name":"Bo"}"#))
      #expect(longer.status == .unsupportedMediaType)
      // Two types, JSON's among them, are not JSON's: read together, as one joined value.
      var twice = HTTPFields()
      twice.append(HTTPField(name: .contentType, value: "application/json"))
      twice.append(HTTPField(name: .contentType, value: "text/plain"))
      let both = try await client.execute(
        uri: "/api/players", method: .post, headers: twice,
        body: ByteBuffer(string: #"{"name":"Bo"}"#))
      #expect(both.status == .unsupportedMediaType)
    }
  }

  @Test("An action that changes nothing is answered but not stored", arguments: Database.available)
  func idleActions(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      var game = try await ana.start(.number)
      for _ in 0..<50 {
        let reply = try await ana.act(&game, #"{"type":"backspace"}"#)
        #expect(reply.version == 0 && (reply.events ?? []).isEmpty)
      }
      try await ana.act(&game, #"{"type":"digit","digit":4}"#)
      #expect(game.version == 1)
      try await ana.act(&game, #"{"type":"backspace"}"#)
      #expect(game.version == 2, "a Backspace that erases a digit is a move")
      #expect(try await ana.game(game.id).version == 2)
    }
  }

  @Test("A misspelt setting is refused with the game's settings named")
  func unknownSetting() async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let response = try await ana.send(
        .post, "/api/games", json: #"{"game":"number","settings":{"attemps":8}}"#)
      #expect(response.status == .badRequest)
      let message = String(buffer: response.body)
      #expect(message.contains("invalid-setting") && message.contains(#"\"attemps\""#))
      #expect(message.contains("low, high, attempts"))
      // The same from a body only JSONDecoder reads (an escape, a fraction), one name in it
      // wrong.
      let escaped = try await ana.send(
        .post, "/api/games",
        json: #"{"game":"number","settings":{"attempts":8,"low":0,"c\u006flour":1.5}}"#)
      #expect(escaped.status == .badRequest)
      #expect(String(buffer: escaped.body).contains(#"\"colour\""#))
      let fine = try await ana.start(.number, settings: #"{"attempts":8}"#)
      #expect(fine.view["attemptsLeft"] == .number(8))
    }
  }

  @Test("Wrong methods get 405 with the methods allowed; a NUL in a path is 400")
  func methods() async throws {
    try await withServer(.sqlite) { client, _ in
      for (uri, method, allowed) in [
        ("/api/games", HTTPRequest.Method.delete, "POST"),
        ("/api/me", .put, "GET, PATCH"),
        ("/api/games/abc/actions", .get, "POST"),
        ("/index.html", .post, "GET, HEAD"),
      ] {
        let response = try await client.execute(uri: uri, method: method)
        #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
        #expect(response.headers[.allow] == allowed, "\(method) \(uri)")
        #expect(String(buffer: response.body).contains("method-not-allowed"))
      }
      #expect(try await client.execute(uri: "/nothing/here", method: .delete).status == .notFound)
      #expect(try await client.execute(uri: "/api/nothing", method: .get).status == .notFound)
      let nul = try await client.execute(uri: "/index.html%00.png", method: .get)
      #expect(nul.status == .badRequest)
      #expect(nul.headers[.contentType]?.hasPrefix("application/json") == true)
    }
  }

  @Test("Avatars: pictures by their bytes only, at most 256 KB", arguments: Database.available)
  func avatars(database: Database) async throws {
    try await withServer(database) { client, _ in
      let ana = try await Player.join(client)
      let text = try await ana.send(.put, "/api/me/avatar", bytes: Array("hello, not a png".utf8))
      #expect(text.status == .unsupportedMediaType)
      let big = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 300_000)
      let tooBig = try await ana.send(.put, "/api/me/avatar", bytes: big)
      #expect(tooBig.status == .contentTooLarge)
      #expect(String(buffer: tooBig.body).contains("256 KB"))
      let gif = try await ana.send(.put, "/api/me/avatar", bytes: Array("GIF89a......".utf8))
      #expect(gif.status == .ok)
      let avatar = try await ana.send(.get, "/api/players/\(ana.id)/avatar")
      #expect(avatar.headers[.contentType] == "image/gif")
    }
  }

  @Test(
    "Bad requests get a clear 4xx, never a 5xx",
    arguments: [
      ("/api/games", "not json"),
      ("/api/games", ""),
      ("/api/games", #"{"game":"chess"}"#),
      ("/api/games", #"{"game":42}"#),
      ("/api/games", #"{"game":"number","settings":{"attempts":1e400}}"#),
      ("/api/games", #"{"game":"number","settings":{"attempts":99999999999999999999}}"#),
      ("/api/games", #"{"game":"number","settings":{"attempts":"many"}}"#),
      ("/api/games", #"{"game":"number","settings":[1,2]}"#),
      ("/api/games", #"{"game":"picture-quiz","deck":"nope"}"#),
      ("/api/games", #"{"game":"guess-or-pass","category":"nope"}"#),
    ])
  func badRequests(path: String, body: String) async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let response = try await ana.send(.post, path, json: body)
      #expect((400..<500).contains(response.status.code), "\(body): \(response.status)")
      let error = try JSONDecoder().decode(ErrorReply.self, from: Data(buffer: response.body))
      #expect(!error.error.message.isEmpty)
    }
  }

  @Test(
    "Bad actions get a clear 4xx and change nothing",
    arguments: [
      #"{"action":{"type":"fly"},"version":0}"#,
      #"{"action":{"type":"guess"},"version":0}"#,
      #"{"action":{"type":"guess","number":1e400},"version":0}"#,
      #"{"action":{"type":"guess","number":5}}"#,
      #"{"version":0}"#,
      #"[]"#,
    ])
  func badActions(body: String) async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let game = try await ana.start(.number)
      let response = try await ana.send(.post, "/api/games/\(game.id)/actions", json: body)
      #expect((400..<500).contains(response.status.code), "\(body): \(response.status)")
      #expect(try await ana.game(game.id).version == 0)
    }
  }

  @Test("A body over 1 MB is refused with 413")
  func hugeBody() async throws {
    try await withServer(.sqlite) { client, _ in
      let ana = try await Player.join(client)
      let huge = #"{"game":"number","pad":""# + String(repeating: "x", count: 1_100_000) + #""}"#
      let response = try await ana.send(.post, "/api/games", json: huge)
      #expect(response.status == .contentTooLarge)
    }
  }

  @Test("Every answer carries the security headers, errors and pages included")
  func securityHeaders() async throws {
    try await withServer(.sqlite) { client, _ in
      for uri in ["/healthz", "/api/me", "/no/such/thing", "/"] {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
        #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
        #expect(response.headers[HTTPField.Name("Referrer-Policy")!] != nil)
      }
    }
  }
}
