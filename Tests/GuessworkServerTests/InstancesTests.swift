import GuessworkCore
import HTTPTypes
import Testing

/// Several instances share PostgreSQL only: on SQLite one process owns the file (its writer
/// keeps the live games in memory), so these run on PostgreSQL when the tests have one.
@Suite("Several instances on one database")
struct InstancesTests {
  static let databases = Database.available.filter { $0 == .postgres }

  @Test(
    "A game moved on either instance in turn: moves from the latest version are accepted, older refused",
    arguments: databases)
  func movesAlternateBetweenInstances(database: Database) async throws {
    try await withTwoServers(database, clock: ManualClock()) { one, two in
      let onOne = try await Player.join(one)
      // The same player (the same cookie) on the other instance.
      let onTwo = Player(client: two, cookie: onOne.cookie, id: onOne.id)
      var game = try await onOne.start(.number, settings: #"{"low":0,"high":9999,"attempts":20}"#)
      for turn in 0..<6 where !game.isOver {
        // Each instance moves from the version the other wrote last: the first instance's
        // own memory of the game is then behind the database.
        let player = turn.isMultiple(of: 2) ? onOne : onTwo
        let before = game
        let low = try #require(game.view["knownLow"]?.int)
        let high = try #require(game.view["knownHigh"]?.int)
        try await player.act(&game, #"{"type":"guess","number":\#((low + high) / 2)}"#)
        #expect(game.version == before.version + 1)
        // The version just replaced is refused on both instances, and names the latest.
        for other in [onOne, onTwo] {
          let refused = try await other.refused(
            before, #"{"type":"guess","number":\#(low)}"#, status: .conflict)
          if game.isOver {  // the guess found the secret
            #expect(refused.error.code == "game-over")
          } else {
            #expect(refused.error.code == "stale-version")
            #expect(refused.error.message.contains("version \(game.version)"))
          }
        }
        #expect(try await onOne.game(game.id).version == game.version)
        #expect(try await onTwo.game(game.id).version == game.version)
      }
      #expect(game.version == 6 || game.isOver)
    }
  }
}
