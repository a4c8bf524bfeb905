import Foundation
import Testing

@testable import GuessworkCore

typealias Bullseye = BullseyeGame

/// Small helpers so that tests read as what a player does.
enum BullseyeHelpers {
  static func newGame(
    rounds: Int = 5, scoring: Bullseye.Scoring = .perceptual, freePlay: Bool = false,
    seed: UInt64 = 1
  ) throws -> Bullseye {
    try Bullseye(
      settings: .init(rounds: rounds, scoring: scoring, freePlay: freePlay), seed: seed)
  }

  /// Applies an action that must be accepted.
  @discardableResult
  static func play(_ game: inout Bullseye, _ action: Bullseye.Action) -> [Bullseye.Event] {
    do {
      return try game.apply(action, at: .zero)
    } catch {
      Issue.record("\(action) was refused: \(error)")
      return []
    }
  }

  /// Applies an action that must be refused with `code`, leaving the game unchanged.
  static func expectRefused(
    _ game: inout Bullseye, _ action: Bullseye.Action, _ code: Refusal.Code,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = game
    do {
      let events = try game.apply(action, at: .zero)
      Issue.record("\(action) was accepted: \(events)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == code, sourceLocation: sourceLocation)
      #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
    }
    #expect(game == before, "a refused action changed the game", sourceLocation: sourceLocation)
  }

  static func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.utf8))
  }

  /// Whether `colour` can be read from `json`: its hex code (any case) or any object whose
  /// r, g and b are its channels.
  static func reveals(_ json: Data, _ colour: RGB) -> Bool {
    let text = String(decoding: json, as: UTF8.self).uppercased()
    if text.contains(colour.hex.dropFirst()) { return true }
    func walk(_ value: Any) -> Bool {
      if let object = value as? [String: Any] {
        if let r = object["r"] as? Int, let g = object["g"] as? Int, let b = object["b"] as? Int,
          RGB(r: r, g: g, b: b) == colour
        {
          return true
        }
        return object.values.contains(where: walk)
      }
      if let array = value as? [Any] { return array.contains(where: walk) }
      return false
    }
    guard let parsed = try? JSONSerialization.jsonObject(with: json) else { return true }
    return walk(parsed)
  }
}

@Suite("Bullseye rules")
struct BullseyeGameTests {
  typealias H = BullseyeHelpers

  // MARK: Settings

  @Test("Settings default to 5 rounds, perceptual scoring, no free play")
  func settingsDefaults() throws {
    let settings = Bullseye.Settings()
    #expect(settings.rounds == 5)
    #expect(settings.scoring == .perceptual)
    #expect(settings.freePlay == false)
    #expect(try H.decode(Bullseye.Settings.self, "{}") == settings)
  }

  @Test("Settings decode from a partial object; missing keys take defaults")
  func settingsPartial() throws {
    #expect(try H.decode(Bullseye.Settings.self, #"{"rounds":3}"#) == .init(rounds: 3))
    #expect(
      try H.decode(Bullseye.Settings.self, #"{"scoring":"classic","freePlay":true}"#)
        == .init(rounds: 5, scoring: .classic, freePlay: true))
    #expect(
      try H.json(Bullseye.Settings(rounds: 2, scoring: .classic))
        == #"{"freePlay":false,"rounds":2,"scoring":"classic"}"#)
  }

  @Test("An unknown scoring is refused as a setting, naming what it allows")
  func settingsUnknownScoring() {
    #expect(throws: SettingError.self) {
      try H.decode(Bullseye.Settings.self, #"{"scoring":"euclid"}"#)
    }
  }

  @Test("Rounds must be 1...10; the error names the setting", arguments: [0, -1, 11, 100])
  func settingsRoundsRange(rounds: Int) {
    #expect(
      throws: SettingError(
        setting: "rounds", allowed: Message("allowed.integer", ["low": 1, "high": 10]))
    ) {
      try Bullseye(settings: .init(rounds: rounds), seed: 1)
    }
  }

  @Test("Rounds 1 and 10 are allowed", arguments: [1, 10])
  func settingsRoundsEnds(rounds: Int) throws {
    #expect(try H.newGame(rounds: rounds).settings.rounds == rounds)
  }

  // MARK: Scoring

  @Test("Perceptual score hits its documented anchors")
  func perceptualAnchors() {
    #expect(Bullseye.perceptualScore(deltaE: 0) == 100)
    #expect(Bullseye.perceptualScore(deltaE: 0.36) == 100)
    #expect(Bullseye.perceptualScore(deltaE: 0.37) == 99)
    #expect(Bullseye.perceptualScore(deltaE: 1) == 98)
    #expect(Bullseye.perceptualScore(deltaE: 2) == 93)
    #expect(Bullseye.perceptualScore(deltaE: 2.5) == 90)
    #expect(Bullseye.perceptualScore(deltaE: 10) == 50)
    #expect(Bullseye.perceptualScore(deltaE: 39.5) == 10)
    #expect(Bullseye.perceptualScore(deltaE: 100) == 2)
  }

  @Test("Perceptual score never rises as ΔE grows and stays in 0...100")
  func perceptualMonotonic() {
    var previous = Int.max
    for step in 0...20_000 {
      let score = Bullseye.perceptualScore(deltaE: Double(step) / 100)
      #expect(score <= previous)
      #expect((0...100).contains(score))
      previous = score
    }
    #expect(Bullseye.perceptualScore(deltaE: .infinity) == 0)
  }

  @Test("Only a near-perfect match scores 100 (perceptual)")
  func perceptualHundred() {
    let target = RGB(r: 120, g: 40, b: 200)
    #expect(Bullseye.Scoring.perceptual.score(target: target, guess: target) == 100)
    // Five steps on one slider: a small difference, yet no longer a perfect score.
    #expect(
      Bullseye.Scoring.perceptual.score(target: target, guess: RGB(r: 125, g: 40, b: 200)) < 100)
  }

  @Test("Classic score: black against white is 0, not negative (the seed's bug)")
  func classicBlackWhite() {
    #expect(Bullseye.classicScore(target: .black, guess: .white) == 0)
    #expect(Bullseye.classicScore(target: .white, guess: .black) == 0)
  }

  @Test("Classic score follows 100 × (1 − √(Σ/3)), rounded")
  func classicFormula() {
    #expect(Bullseye.classicScore(target: .white, guess: .white) == 100)
    // Red against black: 1 − √(1/3) = 0.4226...
    #expect(Bullseye.classicScore(target: RGB(r: 255, g: 0, b: 0), guess: .black) == 42)
    // Two channels fully off: 1 − √(2/3) = 0.1835...
    #expect(Bullseye.classicScore(target: RGB(r: 255, g: 255, b: 0), guess: .black) == 18)
  }

  @Test("Classic score stays in 0...100 for any colours")
  func classicBounds() {
    var random = SeededRandom(seed: 42)
    for _ in 0..<5_000 {
      let a = RGB(
        r: random.int(in: 0...255), g: random.int(in: 0...255), b: random.int(in: 0...255))
      let b = RGB(
        r: random.int(in: 0...255), g: random.int(in: 0...255), b: random.int(in: 0...255))
      #expect((0...100).contains(Bullseye.classicScore(target: a, guess: b)))
      #expect((0...100).contains(Bullseye.Scoring.perceptual.score(target: a, guess: b)))
    }
  }

  // MARK: A game of rounds

  @Test("A game starts guessing round 1 with the sliders in the middle and no target shown")
  func start() throws {
    let game = try H.newGame()
    let view = game.view(at: .zero)
    #expect(view.phase == .guessing)
    #expect(view.round == 1 && view.rounds == 5)
    #expect(view.startGuess == RGB(r: 128, g: 128, b: 128))
    #expect(view.total == 0 && view.score == 0 && view.maxTotal == 500)
    #expect(view.result == nil && view.history == nil && view.revealed == nil)
    #expect(view.actions == ["check"])
    #expect(!view.isOver)
    #expect(game.target.isValid)
  }

  @Test("Checking scores the round once and shows target and guess with hex codes")
  func checkScoresRound() throws {
    var game = try H.newGame()
    let target = game.target
    let guess = RGB(r: 10, g: 20, b: 30)
    let events = H.play(&game, .check(guess: guess))
    let deltaE = target.deltaE2000(to: guess)
    let score = Bullseye.perceptualScore(deltaE: deltaE)
    #expect(
      events == [
        .scored(
          round: 1, target: target, guess: guess, score: score, deltaE: (deltaE * 10).rounded() / 10
        )
      ])
    let view = game.view(at: .zero)
    #expect(view.phase == .scored)
    #expect(view.actions == ["next"])
    let result = try #require(view.result)
    #expect(result.target?.hex == target.hex)
    #expect(result.guess.hex == "#0A141E")
    #expect(result.score == score)
    #expect(result.deltaE == (deltaE * 10).rounded() / 10)
    #expect(result.meaning == PerceivedDifference(deltaE: result.deltaE).message)
    #expect(view.total == score && view.score == score)
  }

  @Test("ΔE is shown with one decimal, even when it is whole")
  func deltaEText() {
    let result = Bullseye.RoundResult(
      round: 1, target: .black, guess: .white, score: 2, deltaE: 99.9999, checks: 1)
    #expect(result.deltaEText == "100.0")
    #expect(result.deltaE == 100)
    let small = Bullseye.RoundResult(
      round: 1, target: .black, guess: .white, score: 2, deltaE: 1.04, checks: 1)
    #expect(small.deltaEText == "1.0")
    #expect(said(small.meaning) == "not perceptible")
  }

  @Test("A perfect guess scores 100 under either scoring", arguments: Bullseye.Scoring.allCases)
  func perfectGuess(scoring: Bullseye.Scoring) throws {
    var game = try H.newGame(scoring: scoring)
    H.play(&game, .check(guess: game.target))
    #expect(game.rounds.last?.score == 100)
  }

  @Test("Classic scoring scores with the classic formula")
  func classicInGame() throws {
    var game = try H.newGame(scoring: .classic, seed: 9)
    let target = game.target
    H.play(&game, .check(guess: .black))
    #expect(game.rounds.last?.score == Bullseye.classicScore(target: target, guess: .black))
  }

  @Test("A round is scored once: checking again is refused")
  func checkTwiceRefused() throws {
    var game = try H.newGame()
    H.play(&game, .check(guess: .white))
    H.expectRefused(&game, .check(guess: .black), .wrongPhase)
  }

  @Test(
    "A guess with a channel outside 0...255 is refused and changes nothing",
    arguments: [
      RGB(r: 256, g: 0, b: 0), RGB(r: 0, g: -1, b: 0), RGB(r: 0, g: 0, b: 1000),
      RGB(r: .min, g: .max, b: 0),
    ])
  func outOfRange(guess: RGB) throws {
    var game = try H.newGame()
    H.expectRefused(&game, .check(guess: guess), .outOfRange)
  }

  @Test("Next before the round is scored is refused")
  func nextTooEarly() throws {
    var game = try H.newGame()
    H.expectRefused(&game, .next, .wrongPhase)
  }

  @Test("Next draws a new target every round (the seed never changed its target)")
  func nextDrawsNewTarget() throws {
    for seed in UInt64(0)..<200 {
      var game = try H.newGame(rounds: 10, seed: seed)
      var targets = [game.target]
      for round in 2...10 {
        H.play(&game, .check(guess: .middle))
        let events = H.play(&game, .next)
        #expect(events == [.newTarget(round: round)])
        #expect(game.round == round && game.phase == .guessing)
        #expect(game.target != targets.last, "seed \(seed) kept its target")
        targets.append(game.target)
      }
      #expect(Set(targets).count == 10)
    }
  }

  @Test("Targets are drawn from the seed: the same seed gives the same targets")
  func targetsFollowSeed() throws {
    var one = try H.newGame(seed: 77)
    var two = try H.newGame(seed: 77)
    #expect(one.target == two.target)
    #expect(try H.newGame(seed: 78).target != one.target)
    H.play(&one, .check(guess: .black))
    H.play(&two, .check(guess: .white))
    H.play(&one, .next)
    H.play(&two, .next)
    #expect(one.target == two.target)
  }

  @Test("After the last round is scored the game is over, out of 100 × rounds")
  func gameEnds() throws {
    var game = try H.newGame(rounds: 3, seed: 5)
    var scores: [Int] = []
    for round in 1...3 {
      let events = H.play(&game, .check(guess: RGB(r: 50 * round, g: 60, b: 70)))
      guard case .scored(_, _, _, let score, _) = events.first else {
        Issue.record("no score")
        return
      }
      scores.append(score)
      if round < 3 {
        #expect(events.count == 1)
        H.play(&game, .next)
      } else {
        let total = scores.reduce(0, +)
        #expect(events.last == .gameOver(score: total, total: total, maxTotal: 300))
      }
    }
    #expect(game.isOver)
    let view = game.view(at: .zero)
    #expect(view.phase == .over && view.isOver)
    #expect(view.actions.isEmpty)
    #expect(view.total == scores.reduce(0, +) && view.maxTotal == 300)
    #expect(view.history?.map(\.score) == scores)
    #expect(view.result?.round == 3 && view.result?.target != nil)
    #expect(game.score == scores.reduce(0, +))
    for action in [Bullseye.Action.check(guess: .white), .next, .newColour, .finish] {
      H.expectRefused(&game, action, .gameOver)
    }
  }

  @Test("New colour and finish are for free play only")
  func freePlayActionsRefused() throws {
    var game = try H.newGame()
    H.expectRefused(&game, .newColour, .wrongPhase)
    H.expectRefused(&game, .finish, .wrongPhase)
  }

  @Test("The summary lists every round with target, guess, score and ΔE")
  func summary() throws {
    var game = try H.newGame(rounds: 2, seed: 3)
    let first = game.target
    H.play(&game, .check(guess: first))
    H.play(&game, .next)
    let second = game.target
    H.play(&game, .check(guess: .black))
    let summary = game.summary
    let secondScore = Bullseye.perceptualScore(deltaE: second.deltaE2000(to: .black))
    #expect(summary.rounds.map(\.target?.hex) == [first.hex, second.hex])
    #expect(summary.rounds.map(\.guess.hex) == [first.hex, "#000000"])
    #expect(summary.rounds.map(\.score) == [100, secondScore])
    #expect(summary.rounds[0].deltaE == 0)
    #expect(summary.total == 100 + secondScore && summary.maxTotal == 200)
    #expect(summary.average == (Double(100 + secondScore) / 2 * 10).rounded() / 10)
    #expect(summary.bestRoundScore == 100)
    #expect(summary.checks == 2)
    #expect(!summary.freePlay)
  }

  // MARK: Free play

  @Test("Free play: check as often as you like; the target stays secret")
  func freePlayChecks() throws {
    var game = try H.newGame(freePlay: true, seed: 4)
    let target = game.target
    let guesses = [RGB.black, .white, RGB(r: 200, g: 10, b: 10), .black]
    var best = 0
    for (index, guess) in guesses.enumerated() {
      let events = H.play(&game, .check(guess: guess))
      let score = Bullseye.perceptualScore(deltaE: target.deltaE2000(to: guess))
      best = max(best, score)
      #expect(
        events == [
          .checked(
            round: 1, guess: guess, score: score,
            deltaE: (target.deltaE2000(to: guess) * 10).rounded() / 10)
        ])
      let view = game.view(at: .zero)
      #expect(view.phase == .guessing)
      #expect(view.result?.target == nil)
      #expect(view.result?.score == score && view.result?.checks == index + 1)
      #expect(said(view.message)?.contains("Keep trying") == true)
      #expect(view.startGuess == guess)
      #expect(view.bestScore == best && view.score == best)
      #expect(view.actions == ["check", "newColour", "finish"])
      #expect(!H.reveals(Data(try H.json(view).utf8), target))
    }
    #expect(game.target == target)
    #expect(game.rounds.isEmpty)
  }

  @Test("Free play: a new colour reveals the last one and draws another")
  func freePlayNewColour() throws {
    var game = try H.newGame(freePlay: true, seed: 6)
    let first = game.target
    H.play(&game, .check(guess: .white))
    H.play(&game, .check(guess: .black))
    let events = H.play(&game, .newColour)
    #expect(events == [.revealed(round: 1, target: first), .newTarget(round: 2)])
    #expect(game.target != first)
    #expect(game.round == 2)
    let view = game.view(at: .zero)
    #expect(view.revealed?.target.hex == first.hex)
    #expect(view.revealed?.best?.checks == 2)
    #expect(view.result == nil && view.startGuess == .middle)
    let bestScore = [RGB.white, .black].map {
      Bullseye.perceptualScore(deltaE: first.deltaE2000(to: $0))
    }.max()
    #expect(game.rounds.map(\.score) == [bestScore])
    // A colour left without a check is revealed but does not count as a round.
    let second = game.target
    #expect(
      H.play(&game, .newColour) == [.revealed(round: 2, target: second), .newTarget(round: 3)])
    #expect(game.rounds.count == 1)
  }

  @Test("Free play never ends by itself; finish ends it with the best check as score")
  func freePlayFinish() throws {
    var game = try H.newGame(rounds: 1, freePlay: true, seed: 8)
    for _ in 0..<3 {
      H.play(&game, .check(guess: .middle))
      H.play(&game, .newColour)
    }
    #expect(!game.isOver)
    H.expectRefused(&game, .next, .wrongPhase)
    let last = game.target
    H.play(&game, .check(guess: last))
    let events = H.play(&game, .finish)
    #expect(events.first == .revealed(round: 4, target: last))
    #expect(events.last == .gameOver(score: 100, total: game.total, maxTotal: 400))
    #expect(game.isOver && game.score == 100)
    let summary = game.summary
    #expect(summary.freePlay && summary.rounds.count == 4 && summary.bestRoundScore == 100)
    #expect(summary.checks == 4)
    let view = game.view(at: .zero)
    #expect(view.phase == .over && view.revealed?.target.hex == last.hex)
    #expect(said(view.message) == "Free play over: your best match scored 100.")
    H.expectRefused(&game, .check(guess: .black), .gameOver)
  }
}
