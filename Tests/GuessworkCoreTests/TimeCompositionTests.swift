import Testing

@testable import GuessworkCore

/// The server does not store a tick that ends nothing: it works the game out again from the
/// stored state and the time. That is only right if letting time pass in steps leaves the
/// same game as letting it pass at once.
@Suite("Time passing in steps equals time passing at once")
struct TimeCompositionTests {
  @Test("Color Match: tick(a) then tick(b) equals tick(b)", arguments: 0..<300)
  func colorMatch(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    var game = try ColorMatchGame(settings: .init(), seed: seed, at: .zero)
    var now = Instant.zero
    for _ in 0..<random.int(in: 0...25) {
      now = now.advanced(by: Int64(random.int(in: 0...4_000)))
      _ = game.tick(at: now)
      _ = try? game.apply(.answer(match: random.chance(0.5)), at: now)
    }
    let a = now.advanced(by: Int64(random.int(in: 0...40_000)))
    let b = a.advanced(by: Int64(random.int(in: 0...70_000)))
    var stepwise = game
    _ = stepwise.tick(at: a)
    _ = stepwise.tick(at: b)
    var once = game
    _ = once.tick(at: b)
    #expect(stepwise == once)
    #expect(stepwise.view(at: b) == once.view(at: b))
  }

  @Test("Guess or Pass: tick(a) then tick(b) equals tick(b)", arguments: 0..<300)
  func guessOrPass(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let words = (0..<40).map { "word \($0)" }
    var game = try GuessOrPassGame(
      settings: .init(duration: 30), content: .init(fresh: words), seed: seed, at: .zero)
    var now = Instant.zero
    for _ in 0..<random.int(in: 0...25) {
      now = now.advanced(by: Int64(random.int(in: 0...3_000)))
      _ = game.tick(at: now)
      _ = try? game.apply(random.chance(0.5) ? .guessed : .pass, at: now)
    }
    let a = now.advanced(by: Int64(random.int(in: 0...20_000)))
    let b = a.advanced(by: Int64(random.int(in: 0...40_000)))
    var stepwise = game
    _ = stepwise.tick(at: a)
    _ = stepwise.tick(at: b)
    var once = game
    _ = once.tick(at: b)
    #expect(stepwise == once)
    #expect(stepwise.view(at: b) == once.view(at: b))
  }

  /// The server answers a read of an untimed game in play with the answer it encoded for that
  /// version before (`API.readReplies`): right only if such a game looks the same at any time.
  @Test(
    "Number, Bullseye, Picture Quiz: time changes neither the game nor its view", arguments: 0..<200
  )
  func untimedGames(seed: UInt64) throws {
    var driver = SeededRandom(seed: seed ^ 0x0071_3ED5)
    var number = try NumberGame(
      settings: NumberGamePropertyTests.randomSettings(&driver), seed: seed)
    var bullseye = try Bullseye(
      settings: .init(
        rounds: driver.int(in: 1...10), scoring: driver.chance(0.5) ? .perceptual : .classic,
        freePlay: driver.chance(0.3)),
      seed: seed)
    var quiz = try PictureQuizGamePropertyTests.randomGame(seed: seed, &driver)
    var now = Instant.zero
    for _ in 0..<driver.int(in: 0...30) {
      now = now.advanced(by: Int64(driver.int(in: 0...100_000)))
      _ = try? number.apply(NumberGamePropertyTests.randomAction(number, &driver), at: now)
      _ = try? bullseye.apply(BullseyePropertyTests.randomAction(&driver, game: bullseye), at: now)
      _ = try? quiz.apply(PictureQuizGamePropertyTests.randomAction(quiz, &driver), at: now)
    }
    let later = now.advanced(by: Int64(driver.int(in: 1...100_000_000)))
    Self.expectTimeless(number, from: now, to: later)
    Self.expectTimeless(bullseye, from: now, to: later)
    Self.expectTimeless(quiz, from: now, to: later)
  }

  static func expectTimeless<G: Game & Equatable>(_ game: G, from now: Instant, to later: Instant)
  where G.View: Equatable {
    #expect(!G.isTimed)
    #expect(game.view(at: now) == game.view(at: later))
    var ticked = game
    #expect(ticked.tick(at: later).isEmpty)
    #expect(ticked == game)
  }
}
