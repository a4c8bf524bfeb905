import Foundation
import Testing

@testable import GuessworkCore

@Suite("Number game properties over many seeds")
struct NumberGamePropertyTests {
  /// Random settings within the allowed ranges.
  static func randomSettings(_ driver: inout SeededRandom) -> NumberGame.Settings {
    let low = driver.chance(0.5) ? 0 : driver.int(in: 0...2_000)
    let size = driver.chance(0.5) ? 100 : driver.int(in: 10...300)
    return .init(low: low, high: low + size - 1, attempts: driver.int(in: 1...20))
  }

  /// A random action: mostly fair guesses and pad keys, sometimes unfair ones.
  static func randomAction(_ game: NumberGame, _ driver: inout SeededRandom) -> NumberGame.Action {
    let settings = game.settings
    switch driver.index(below: 10) {
    case 0, 1, 2: return .digit(driver.int(in: 0...9))
    case 3: return driver.chance(0.5) ? .backspace : .clear
    case 4: return .enter
    case 5: return .guess(driver.int(in: settings.low - 5...settings.high + 5))
    case 6: return .guess(driver.element(of: game.guesses)?.number ?? settings.low)
    case 7: return .digit(driver.chance(0.5) ? 10 : -1)
    default: return .guess(driver.int(in: game.knownLow...game.knownHigh))
    }
  }

  /// Checks the rule invariants of `game`, reached from `before` by an accepted action.
  static func checkInvariants(_ game: NumberGame, after before: NumberGame) {
    let settings = game.settings
    #expect((settings.low...settings.high).contains(game.secret))
    #expect((game.knownLow...game.knownHigh).contains(game.secret))
    // The known range only narrows.
    #expect(game.knownLow >= before.knownLow && game.knownHigh <= before.knownHigh)
    #expect(game.attemptsLeft == settings.attempts - game.guesses.count)
    #expect(game.attemptsLeft >= 0)
    #expect(game.guesses.count - before.guesses.count <= 1)
    #expect(Set(game.guesses.map(\.number)).count == game.guesses.count)
    switch game.phase {
    case .won:
      #expect(game.guesses.last?.number == game.secret)
      #expect(game.score == game.attemptsLeft + 1)
      #expect((1...settings.attempts).contains(game.score))
    case .lost:
      #expect(game.attemptsLeft == 0)
      #expect(!game.guesses.contains { $0.number == game.secret })
      #expect(game.score == 0)
    case .playing:
      #expect(game.attemptsLeft > 0)
      #expect(game.score == 0)
    }
    #expect(game.pad.display.count <= game.pad.width)
  }

  /// The view of a game in play must not depend on the secret: any other secret the hints allow
  /// gives the very same JSON (view and summary), and no "secret" key appears.
  static func checkNoSecret(_ game: NumberGame, _ driver: inout SeededRandom) throws {
    let json = try sortedJSON(game.view(at: .zero))
    guard !game.isOver else {
      #expect(json.contains(#""secret":\#(game.secret)"#))
      return
    }
    #expect(!json.contains("secret"))
    guard game.knownLow < game.knownHigh else { return }
    var other = game.secret
    while other == game.secret { other = driver.int(in: game.knownLow...game.knownHigh) }
    var twin = game
    twin.secret = other
    #expect(try sortedJSON(twin.view(at: .zero)) == json)
    #expect(try sortedJSON(twin.summary) == sortedJSON(game.summary))
  }

  @Test("Over 1,000 seeds: invariants hold, refusals change nothing, views keep the secret")
  func randomPlay() throws {
    for seed in 0..<UInt64(1_000) {
      var driver = SeededRandom(seed: seed &* 7919 &+ 13)
      var game = try NumberGame(settings: Self.randomSettings(&driver), seed: seed)
      var steps = 0
      while !game.isOver && steps < 60 {
        steps += 1
        let before = game
        let action = Self.randomAction(game, &driver)
        do {
          let events = try game.apply(action, at: .zero)
          Self.checkInvariants(game, after: before)
          // Only the final events may name the secret.
          let namesSecret = events.contains {
            if case .won = $0 { return true }
            if case .lost = $0 { return true }
            return false
          }
          #expect(namesSecret == game.isOver)
          try Self.checkNoSecret(game, &driver)
        } catch let error as Refusal {
          #expect(game == before, "refused \(action) changed the game (seed \(seed))")
          if case .guess(let number) = action, error.code == .alreadyExcluded {
            #expect(!(game.knownLow...game.knownHigh).contains(number))
          }
        }
      }
      if game.isOver {
        #expect(game.refusal(of: .guess(game.settings.low)) == .gameOver)
      }
    }
  }

  @Test("A halving player always wins when the attempts allow ⌈log2(n+1)⌉ tries")
  func halvingAlwaysWins() throws {
    for seed in 0..<UInt64(1_000) {
      var driver = SeededRandom(seed: seed)
      let size = driver.int(in: 10...2_000)
      let tries = NumberGame.optimalTries(forRangeSize: size)
      var game = try NumberGame(
        settings: .init(low: 0, high: size - 1, attempts: tries), seed: seed)
      while !game.isOver {
        try game.guess((game.knownLow + game.knownHigh) / 2)
      }
      #expect(game.phase == .won)
      #expect(game.summary.halvedCount == game.summary.attemptsUsed)
    }
  }
}
