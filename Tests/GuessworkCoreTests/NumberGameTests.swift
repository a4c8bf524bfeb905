import Foundation
import Testing

@testable import GuessworkCore

/// A game on `settings` whose secret is `secret` (the seed only decides the secret, so tests that
/// need a known secret set it directly).
func numberGame(
  secret: Int, _ settings: NumberGame.Settings = .init(), seed: UInt64 = 1
) throws -> NumberGame {
  var game = try NumberGame(settings: settings, seed: seed)
  game.secret = secret
  return game
}

extension NumberGame {
  /// Guesses `number` directly and returns the events.
  @discardableResult
  mutating func guess(_ number: Int) throws(Refusal) -> [Event] {
    try apply(.guess(number), at: .zero)
  }

  /// Types `digits` on the pad, one key at a time.
  mutating func type(_ digits: Int...) throws(Refusal) {
    for digit in digits { _ = try apply(.digit(digit), at: .zero) }
  }

  /// The refusal `action` gets, asserting that it leaves the game unchanged.
  func refusal(of action: Action, sourceLocation: SourceLocation = #_sourceLocation) -> Refusal? {
    var copy = self
    do {
      _ = try copy.apply(action, at: .zero)
      Issue.record("\(action) was accepted", sourceLocation: sourceLocation)
      return nil
    } catch {
      #expect(copy == self, "a refused action changed the game", sourceLocation: sourceLocation)
      return error
    }
  }
}

@Suite("Number game rules")
struct NumberGameTests {
  @Test("The secret is drawn uniformly in low...high")
  func secretIsUniform() throws {
    var counts = [Int: Int]()
    let draws = 10_000
    for seed in 0..<UInt64(draws) {
      let game = try NumberGame(settings: .init(low: 20, high: 29), seed: seed)
      counts[game.secret, default: 0] += 1
    }
    #expect(Set(counts.keys) == Set(20...29))
    for (_, count) in counts {
      // About 30 draws make a standard deviation; 6 of them is no accident.
      #expect(abs(count - draws / 10) < 180)
    }
  }

  @Test("The same seed picks the same secret; the default range is 0...99")
  func seedDecidesSecret() throws {
    let a = try NumberGame(settings: .init(), seed: 42)
    let b = try NumberGame(settings: .init(), seed: 42)
    #expect(a == b)
    #expect((0...99).contains(a.secret))
    #expect(said(a.view(at: .zero).knownRangeText) == "The number is between 0 and 99.")
  }

  @Test("Each digit shifts the display left; the display holds as many digits as high has")
  func digitPadShiftsLeft() throws {
    var game = try numberGame(secret: 50)
    try game.type(1, 2, 3)
    #expect(game.view(at: .zero).display == "23")
    #expect(game.view(at: .zero).displayWidth == 2)

    var wide = try numberGame(secret: 500, .init(low: 0, high: 1000))
    try wide.type(1, 2, 3, 4, 5)
    #expect(wide.view(at: .zero).display == "2345")
    #expect(wide.view(at: .zero).displayWidth == 4)
  }

  @Test("Backspace drops the last digit, clear empties the display")
  func backspaceAndClear() throws {
    var game = try numberGame(secret: 50)
    try game.type(4, 2)
    #expect(try game.apply(.backspace, at: .zero) == [.displayChanged(display: "4")])
    #expect(try game.apply(.clear, at: .zero) == [.displayChanged(display: "")])
    #expect(try game.apply(.backspace, at: .zero) == [])
    #expect(try game.apply(.clear, at: .zero) == [])
    #expect(game.attemptsLeft == 5)
  }

  @Test("Enter submits the display and clears it; an empty display is not ready")
  func enterSubmitsDisplay() throws {
    var game = try numberGame(secret: 50)
    #expect(game.refusal(of: .enter)?.code == .notReady)
    try game.type(0, 7)
    let events = try game.apply(.enter, at: .zero)
    #expect(
      events == [
        .guessed(number: 7, hint: .higher, attemptsLeft: 4, knownLow: 8, knownHigh: 99),
        .displayChanged(display: ""),
      ])
    #expect(game.view(at: .zero).display == "")
  }

  @Test("A refused enter keeps the display so the player can fix it")
  func refusedEnterKeepsDisplay() throws {
    var game = try numberGame(secret: 50)
    try game.guess(60)
    try game.type(7, 0)
    #expect(game.refusal(of: .enter)?.code == .alreadyExcluded)
    #expect(game.view(at: .zero).display == "70")
  }

  @Test("A digit outside 0...9 is refused")
  func digitOutOfRange() throws {
    let game = try numberGame(secret: 50)
    #expect(game.refusal(of: .digit(10))?.code == .outOfRange)
    #expect(game.refusal(of: .digit(-1))?.code == .outOfRange)
  }

  @Test("A wrong guess says higher or lower, spends one attempt and narrows the known range")
  func wrongGuessNarrows() throws {
    var game = try numberGame(secret: 50)
    #expect(
      try game.guess(42)
        == [.guessed(number: 42, hint: .higher, attemptsLeft: 4, knownLow: 43, knownHigh: 99)])
    var view = game.view(at: .zero)
    #expect(said(view.hint) == "Higher than 42")
    #expect(said(view.message) == "My number is higher than 42.")
    #expect(said(view.knownRangeText) == "The number is between 43 and 99.")
    #expect(view.attemptsLeft == 4)

    #expect(
      try game.guess(80)
        == [.guessed(number: 80, hint: .lower, attemptsLeft: 3, knownLow: 43, knownHigh: 79)])
    view = game.view(at: .zero)
    #expect(said(view.hint) == "Lower than 80")
    #expect((view.knownLow, view.knownHigh) == (43, 79))
    #expect(
      view.guesses.map { said($0.text) } == ["Higher than 42", "Lower than 80"])
  }

  @Test("Regression: a guess outside the known range never widens it (the seed did)")
  func rangeNeverWidens() throws {
    var game = try numberGame(secret: 50)
    try game.guess(42)  // 43...99
    try game.guess(60)  // 43...59
    // The seed set min = guess + 1 / max = guess − 1 for any guess, so 30 would have widened
    // the range back to 31...59, and 90 to 43...89.
    let low = game.refusal(of: .guess(30))
    #expect(low?.code == .alreadyExcluded)
    #expect(said(low?.reason) == "The hints already rule out 30. The number is between 43 and 59.")
    #expect(game.refusal(of: .guess(90))?.code == .alreadyExcluded)
    #expect((game.knownLow, game.knownHigh) == (43, 59))
    #expect(game.attemptsLeft == 3)
  }

  @Test("A guess outside low...high is refused and costs no attempt")
  func outOfRangeRefused() throws {
    let game = try numberGame(secret: 50, .init(low: 10, high: 99))
    let refusal = game.refusal(of: .guess(5))
    #expect(refusal?.code == .outOfRange)
    #expect(said(refusal?.reason) == "5 is not in the game: guess from 10 to 99.")
    #expect(game.refusal(of: .guess(100))?.code == .outOfRange)
    #expect(game.attemptsLeft == 5)
  }

  @Test("A repeated guess is refused and costs no attempt")
  func repeatRefused() throws {
    var game = try numberGame(secret: 50)
    try game.guess(30)
    let refusal = game.refusal(of: .guess(30))
    #expect(refusal?.code == .repeated)
    #expect(
      said(refusal?.reason)
        == "You already guessed 30: my number is higher. The number is between 31 and 99.")
    #expect(game.attemptsLeft == 4)
  }

  @Test(
    "Attempts left are shown in words",
    arguments: [
      (20, "twenty attempts left"), (12, "twelve attempts left"), (5, "five attempts left"),
      (3, "three attempts left"), (2, "two attempts left"), (1, "last attempt!"),
      (0, "no attempts left"),
    ])
  func attemptsInWords(left: Int, words: String) {
    #expect(said(NumberGame.attemptsLeftText(left)) == words)
  }

  @Test("The view counts attempts down in words and flags the last one")
  func lastAttemptFlagged() throws {
    var game = try numberGame(secret: 50, .init(attempts: 3))
    #expect(said(game.view(at: .zero).attemptsLeftText) == "three attempts left")
    #expect(
      said(game.view(at: .zero).message)
        == "I've picked a number from 0 to 99. You have three attempts to guess it!")
    try game.guess(10)
    #expect(said(game.view(at: .zero).attemptsLeftText) == "two attempts left")
    #expect(!game.view(at: .zero).isLastAttempt)
    try game.guess(90)
    #expect(said(game.view(at: .zero).attemptsLeftText) == "last attempt!")
    #expect(game.view(at: .zero).isLastAttempt)
  }

  @Test("A win reveals the number with a congratulation and scores attempts left + 1")
  func winRevealsAndScores() throws {
    var game = try numberGame(secret: 50)
    try game.guess(42)
    let events = try game.guess(50)
    #expect(
      events == [
        .guessed(number: 50, hint: .correct, attemptsLeft: 3, knownLow: 50, knownHigh: 50),
        .won(secret: 50, score: 4),
      ])
    let view = game.view(at: .zero)
    #expect(view.phase == .won)
    #expect(view.isOver)
    #expect(view.secret == 50)
    #expect(view.score == 4)
    #expect(said(view.message) == "You got it in 2 attempts! My number was 50.")
    #expect(said(view.hint) == nil)
    #expect(game.score == 4)
  }

  @Test("A first-try win scores the number of attempts; a last-attempt win scores 1")
  func winScoreBounds() throws {
    var first = try numberGame(secret: 50)
    try first.guess(50)
    #expect(first.score == 5)
    #expect(said(first.view(at: .zero).message) == "You got it on the first try! My number was 50.")

    var last = try numberGame(secret: 50)
    for guess in [10, 20, 30, 40] { try last.guess(guess) }
    try last.guess(50)
    #expect(last.score == 1)
  }

  @Test("A loss reveals the secret and scores 0")
  func lossRevealsSecret() throws {
    var game = try numberGame(secret: 50, .init(attempts: 2))
    try game.guess(10)
    let events = try game.guess(90)
    #expect(
      events == [
        .guessed(number: 90, hint: .lower, attemptsLeft: 0, knownLow: 11, knownHigh: 89),
        .lost(secret: 50),
      ])
    let view = game.view(at: .zero)
    #expect(view.phase == .lost)
    #expect(view.secret == 50)
    #expect(view.score == 0)
    #expect(said(view.message) == "Out of attempts! My number was 50.")
    #expect(said(view.attemptsLeftText) == "no attempts left")
  }

  @Test("The view shows the secret only once the game is over")
  func secretOnlyWhenOver() throws {
    var game = try numberGame(secret: 50)
    #expect(game.view(at: .zero).secret == nil)
    #expect(game.summary.secret == nil)
    try game.guess(42)
    #expect(game.view(at: .zero).secret == nil)
    try game.guess(50)
    #expect(game.view(at: .zero).secret == 50)
    #expect(game.summary.secret == 50)
  }

  @Test(
    "Every action after the game is over is refused",
    arguments: [
      NumberGame.Action.digit(1), .backspace, .clear, .enter, .guess(3),
    ])
  func actionsAfterOver(action: NumberGame.Action) throws {
    var game = try numberGame(secret: 50)
    try game.guess(50)
    #expect(game.refusal(of: action) == .gameOver)
  }

  @Test(
    "A perfect halving strategy needs ⌈log2(n+1)⌉ tries; k attempts guarantee 2^k − 1 numbers",
    arguments: [
      (10, 4), (15, 4), (16, 5), (31, 5), (32, 6), (100, 7), (127, 7), (128, 8), (10_000, 14),
    ])
  func optimalTries(size: Int, tries: Int) {
    #expect(NumberGame.optimalTries(forRangeSize: size) == tries)
  }

  @Test("The end analysis for 0...99 with five attempts: 7 tries, 31 numbers guaranteed")
  func endAnalysisDefaults() throws {
    var game = try numberGame(secret: 50)
    for guess in [10, 20, 30, 40, 60] { try game.guess(guess) }
    let summary = game.summary
    #expect(summary.isOver && !summary.won)
    #expect(summary.attemptsUsed == 5 && summary.attemptsAllowed == 5)
    #expect(summary.secret == 50)
    #expect(summary.rangeSize == 100)
    #expect(summary.optimalTries == 7)
    #expect(summary.guaranteedNumbers == 31)
    #expect(
      said(summary.strategy)
        == "A perfect halving strategy needs at most 7 tries for 100 numbers. So 5 attempts can "
        + "guarantee only 31 of them. You halved the range with 0 of your 5 guesses.")
    #expect(NumberGame.guaranteedNumbers(attempts: 20, rangeSize: 100) == 100)
    #expect(NumberGame.guaranteedNumbers(attempts: 20, rangeSize: 10_000) == 10_000)
    #expect(NumberGame.guaranteedNumbers(attempts: 1, rangeSize: 100) == 1)
  }

  @Test("With enough attempts the analysis says halving always wins")
  func enoughAttempts() throws {
    var game = try numberGame(secret: 7, .init(low: 0, high: 9, attempts: 4))
    try game.guess(7)
    #expect(
      said(game.summary.strategy)
        == "A perfect halving strategy needs at most 4 tries for 10 numbers. So 4 attempts always "
        + "find the number. You halved the range with 0 of your 1 guess.")
  }

  @Test("A guess halved the range when it was a middle value of the range known at that moment")
  func halvingGuesses() throws {
    // 0...99 holds 100 numbers: 49 and 50 are both middle values.
    for (guess, halved) in [(49, true), (50, true), (48, false), (51, false), (0, false)] {
      var game = try numberGame(secret: 99)
      try game.guess(guess)
      #expect(game.summary.guesses[0].halved == halved, "guess \(guess)")
    }
    // 0...100 holds 101 numbers: only 50 is the middle.
    for (guess, halved) in [(50, true), (49, false), (51, false)] {
      var game = try numberGame(secret: 100, .init(low: 0, high: 100))
      try game.guess(guess)
      #expect(game.summary.guesses[0].halved == halved, "guess \(guess) of 0...100")
    }
    // Later guesses are judged against the range known when they were made.
    var game = try numberGame(secret: 80)
    try game.guess(49)  // halves 0...99 -> 50...99 (50 numbers: 74 and 75 are the middles)
    try game.guess(75)  // halves -> 76...99 (24 numbers: 87 and 88)
    try game.guess(78)  // does not halve -> 79...99
    try game.guess(80)  // 79...99 holds 21 numbers: the middle is 89, so 80 does not halve
    let summary = game.summary
    #expect(summary.guesses.map(\.halved) == [true, true, false, false])
    #expect(summary.guesses.map(\.knownLow) == [0, 50, 76, 79])
    #expect(summary.halvedCount == 2)
    #expect(summary.won && summary.score == 2)
  }

  @Test("A range known to hold one number: guessing it halves it")
  func singleNumberRange() throws {
    var game = try numberGame(secret: 1, .init(low: 0, high: 9))
    try game.guess(0)  // 1...9
    try game.guess(2)  // 1...1
    try game.guess(1)
    #expect(game.summary.guesses.map(\.halved) == [false, false, true])
  }
}
