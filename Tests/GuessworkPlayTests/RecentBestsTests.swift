import GuessworkStore
import Testing

@testable import GuessworkPlay

/// What a finish may take from the bests this instance saw lately, without asking the
/// database: only that an earlier game of the same player, game and variant scored as much.
@Suite("Recent bests")
struct RecentBestsTests {
  static func game(
    _ id: String, player: String = "ana", kind: String = "guess-or-pass",
    variant: String? = "food"
  ) -> GameRecord {
    GameRecord(
      id: id, playerID: player, kind: kind, variant: variant, settings: "{}", seed: 1,
      state: "{}", createdAt: 0)
  }

  @Test func aScoreNoHigherThanAnEarlierGamesIsKnownNotToBeABest() {
    let bests = RecentBests()
    bests.learn(["food": 3, "music": 1], by: Self.game("first"), finishedBy: 1_000)
    let next = Self.game("next")
    #expect(bests.scoredAtLeast(3, by: next, before: 1_001))
    #expect(bests.scoredAtLeast(2, by: next, before: 1_001))
    // A higher score is for the database to judge.
    #expect(!bests.scoredAtLeast(4, by: next, before: 1_001))
    // Each variant has its own best...
    #expect(!bests.scoredAtLeast(2, by: Self.game("other", variant: "music"), before: 1_001))
    #expect(!bests.scoredAtLeast(1, by: Self.game("new", variant: "animals"), before: 1_001))
    // ... and each player and game theirs.
    #expect(!bests.scoredAtLeast(1, by: Self.game("ben's", player: "ben"), before: 1_001))
    #expect(!bests.scoredAtLeast(1, by: Self.game("quiz", kind: "picture-quiz"), before: 1_001))
  }

  @Test func onlyGamesThatFinishedBeforeCount() {
    let bests = RecentBests()
    bests.learn(["food": 3], by: Self.game("first"), finishedBy: 1_000)
    // A game that finished at the same moment, or before (read again later, or finished on
    // another instance), may itself be one of those counted, or not be after them.
    #expect(!bests.scoredAtLeast(1, by: Self.game("same"), before: 1_000))
    #expect(!bests.scoredAtLeast(1, by: Self.game("older"), before: 999))
  }

  @Test func learningKeepsTheHigherScoreAndTheLaterTime() {
    let bests = RecentBests()
    bests.learn(["food": 5], by: Self.game("a"), finishedBy: 1_000)
    bests.learn(["food": 2], by: Self.game("b"), finishedBy: 2_000)
    #expect(bests.scoredAtLeast(5, by: Self.game("c"), before: 2_001))
    #expect(!bests.scoredAtLeast(5, by: Self.game("c"), before: 1_500))
  }

  @Test func whatWasLearntIsTrustedForAMinute() {
    let bests = RecentBests()
    bests.learn(["food": 3], by: Self.game("first"), finishedBy: 1_000)
    let minute = StatisticsBook.settleMs
    #expect(bests.scoredAtLeast(3, by: Self.game("soon"), before: 1_000 + minute - 1))
    #expect(!bests.scoredAtLeast(3, by: Self.game("late"), before: 1_000 + minute))
    // Learning after that starts again from what is learnt then.
    bests.learn(["food": 1], by: Self.game("late"), finishedBy: 1_000 + minute)
    #expect(!bests.scoredAtLeast(3, by: Self.game("later"), before: 1_000 + minute + 1))
    #expect(bests.scoredAtLeast(1, by: Self.game("later"), before: 1_000 + minute + 1))
    #expect(bests.size.entries == 1 && bests.size.bytes > 0)
  }
}
