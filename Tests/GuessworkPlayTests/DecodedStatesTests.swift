import GuessworkCore
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
  }
}
