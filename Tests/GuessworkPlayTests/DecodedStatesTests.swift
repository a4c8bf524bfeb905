import Foundation
import GuessworkCore
import GuessworkStore
import Testing

@testable import GuessworkPlay

@Suite("Remembered decoded states")
struct DecodedStatesTests {
  /// A game in play must not be forgotten because many other games passed through: the first
  /// version of this memo forgot an arbitrary entry when full, and under load that was the
  /// games being played as often as any, so every read decoded its state again.
  @Test func gamesInPlayOutliveAStreamOfOtherGames() throws {
    let memo = DecodedStates<NumberGame>()
    let game = try NumberGame(settings: .init(), content: (), seed: 1, at: .zero)
    let hot = (0..<64).map { "hot-\($0)" }
    for id in hot { memo[id, 0] = ("{}", game) }
    for round in 0..<(DecodedStates<NumberGame>.capacity * 3) {
      memo["cold-\(round)", 0] = ("{}", game)
      #expect(memo[hot[round % hot.count], 0] != nil)
    }
    let remembered = (0..<(DecodedStates<NumberGame>.capacity * 3)).filter {
      memo["cold-\($0)", 0] != nil
    }
    #expect(remembered.count <= DecodedStates<NumberGame>.capacity)
  }

  @Test func aNewVersionReplacesTheOldOne() throws {
    let memo = DecodedStates<NumberGame>()
    let game = try NumberGame(settings: .init(), content: (), seed: 1, at: .zero)
    memo["g", 0] = ("v0", game)
    memo["g", 1] = ("v1", game)
    #expect(memo["g", 0] == nil)
    #expect(memo["g", 1]?.json == "v1")
    #expect(memo["g", 2] == nil)
    #expect(memo.size.entries == 1)
  }
}

@Suite("A new game remembered decoded")
struct StartedGameTests {
  /// A game's first move started from its state as JSON: without the game remembered as it
  /// started, that move decoded the state just encoded (1.6% of the move loop's CPU).
  @Test func aStartedGameIsRememberedAsVersionZero() throws {
    let engine = Engine<NumberGame>()
    let (step, _) = try engine.start(
      settingsIn: Data(#"{"settings":{"low":1,"high":50}}"#.utf8), content: .none, seed: 7,
      at: .zero, gameID: "g")
    #expect(engine.decodedCached.entries == 1)
    // The first move finds it: nothing more is decoded and remembered.
    _ = try engine.advance(step.state, gameID: "g", version: 0, at: .zero)
    #expect(engine.decodedCached.entries == 1)
    #expect(engine.decodedCached.bytes == 64 + 1 + 2 * step.state.utf8.count)
  }

  @Test func aDailyGameIsRememberedAsVersionZero() throws {
    let engine = Engine<NumberGame>()
    _ = try engine.startDaily(content: .none, seed: 7, at: .zero, gameID: "daily")
    #expect(engine.decodedCached.entries == 1)
  }
}
