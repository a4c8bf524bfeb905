import GuessworkCore
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A read of an untimed game in play is answered with the answer encoded at its last read of
/// the same version (`API.readReplies`); these hold it to what a read made anew would say.
@Suite("Reads answered again")
struct ReadRepliesTests {
  @Test(
    "An untimed game reads the same between moves, at any time, and each move shows at once",
    arguments: Database.available)
  func untimedGame(database: Database) async throws {
    try await withServer(database) { client, clock in
      let ana = try await Player.join(client)
      var game = try await ana.start(.number, settings: #"{"low":0,"high":999,"attempts":20}"#)
      let first = try await ana.send(.get, "/api/games/\(game.id)")
      clock.advance(seconds: 3600)
      let again = try await ana.send(.get, "/api/games/\(game.id)")
      #expect(first.status == .ok)
      #expect(again.body == first.body)
      for _ in 0..<3 where !game.isOver {
        let low = try #require(game.view["knownLow"]?.int)
        let high = try #require(game.view["knownHigh"]?.int)
        try await ana.act(&game, #"{"type":"guess","number":\#((low + high) / 2)}"#)
        // The move's own answer and a read of the game agree on all but the move's events,
        // the first read after it and the one answered again.
        for _ in 0..<2 {
          let read = try await ana.game(game.id)
          #expect(read.version == game.version)
          #expect(read.view == game.view)
          #expect(read.events == nil)
        }
      }
      // Another player's read of the same game finds nothing, answered before or not.
      let ben = try await Player.join(client, name: "Ben")
      #expect(try await ben.send(.get, "/api/games/\(game.id)").status == .notFound)
    }
  }

  @Test("A timed game's read shows the time as it passes", arguments: Database.available)
  func timedGame(database: Database) async throws {
    try await withServer(database) { client, clock in
      let ana = try await Player.join(client)
      let game = try await ana.start(.guessOrPass, extra: #","category":"animals""#)
      clock.advance(seconds: 5)
      let playing = try await ana.game(game.id)
      clock.advance(seconds: 2)
      let later = try await ana.game(game.id)
      #expect(playing.version == later.version)
      let before = try #require(playing.view["remainingMs"]?.int)
      #expect(later.view["remainingMs"]?.int == before - 2000)
    }
  }
}
