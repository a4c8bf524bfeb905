import Foundation
import Testing

@testable import GuessworkCore

/// Random games, legal and illegal actions alike, checked against the rules after every step.
@Suite("Bullseye properties")
struct BullseyePropertyTests {
  typealias H = BullseyeHelpers

  /// A random action: mostly sensible, sometimes out of range or out of turn.
  static func randomAction(_ driver: inout SeededRandom, game: Bullseye) -> Bullseye.Action {
    switch driver.int(in: 0...99) {
    case 0..<35:
      return .check(
        guess: RGB(
          r: driver.int(in: 0...255), g: driver.int(in: 0...255), b: driver.int(in: 0...255)))
    case 35..<45:
      // A near miss, as a good player makes: one channel a few steps off (never the target).
      var guess = game.target
      let step = driver.int(in: 1...6)
      guess.r += guess.r + step <= 255 ? step : -step
      return .check(guess: guess)
    case 45..<52:
      let bad = driver.chance(0.5) ? driver.int(in: 256...100_000) : driver.int(in: -100_000 ... -1)
      return .check(guess: RGB(r: driver.int(in: 0...255), g: bad, b: driver.int(in: 0...255)))
    case 52..<77: return .next
    case 77..<92: return .newColour
    default: return .finish
    }
  }

  /// The refusal the rules call for, from a model independent of the engine; `nil` = accept.
  static func expectedRefusal(_ action: Bullseye.Action, game: Bullseye) -> Refusal.Code? {
    if game.isOver { return .gameOver }
    let free = game.settings.freePlay
    switch action {
    case .check(let guess):
      if game.phase != .guessing { return .wrongPhase }
      return guess.isValid ? nil : .outOfRange
    case .next: return (!free && game.phase == .scored) ? nil : .wrongPhase
    case .newColour, .finish: return free ? nil : .wrongPhase
    }
  }

  @Test("Random play over 1,000 seeds keeps every rule, never shows a pending target, resumes")
  func randomPlay() throws {
    let encoder = JSONEncoder()
    for seed in UInt64(0)..<1_000 {
      var driver = SeededRandom(seed: seed ^ 0x5EED_B011)
      let settings = Bullseye.Settings(
        rounds: driver.int(in: 1...10), scoring: driver.chance(0.5) ? .perceptual : .classic,
        freePlay: driver.chance(0.3))
      var game = try Bullseye(settings: settings, seed: seed)
      var resumed: Bullseye?
      let resumeAt = driver.int(in: 0...12)
      var bestCheck: Int?
      var scoredTargets: [RGB] = []

      for step in 0..<40 where !game.isOver {
        if step == resumeAt {
          let decoded = try JSONDecoder().decode(Bullseye.self, from: encoder.encode(game))
          #expect(decoded == game, "seed \(seed): the state did not survive encoding")
          resumed = decoded
        }
        let before = game
        let action = Self.randomAction(&driver, game: game)
        let expected = Self.expectedRefusal(action, game: game)
        var events: [Bullseye.Event] = []
        do {
          events = try game.apply(action, at: .zero)
          #expect(
            expected == nil,
            "seed \(seed): \(action) accepted, expected \(String(describing: expected))")
        } catch {
          #expect(error.code == expected, "seed \(seed): \(action) refused with \(error.code)")
          #expect(game == before, "seed \(seed): a refused action changed the game")
        }
        if var copy = resumed {
          let copyEvents = try? copy.apply(action, at: .zero)
          #expect((copyEvents ?? []) == events)
          #expect(copy == game)
          #expect(copy.view(at: .zero) == game.view(at: .zero))
          resumed = copy
        }

        // What each accepted action did.
        if expected == nil, case .check(let guess) = action {
          let score = settings.scoring.score(target: before.target, guess: guess)
          bestCheck = max(bestCheck ?? 0, score)
          #expect((0...100).contains(score))
          if settings.freePlay {
            #expect(events.count == 1)
            #expect(game.target == before.target)
          } else {
            #expect(game.rounds.last?.score == score && game.rounds.last?.target == before.target)
            scoredTargets.append(before.target)
          }
        }
        if expected == nil, action == .next || action == .newColour {
          #expect(game.target != before.target, "seed \(seed): the target did not change")
          #expect(game.round == before.round + 1 && game.phase == .guessing)
        }

        // The rules' invariants.
        #expect(game.total == game.rounds.reduce(0) { $0 + $1.score })
        #expect(game.rounds.allSatisfy { (0...100).contains($0.score) })
        if settings.freePlay {
          #expect(game.score == (bestCheck ?? 0))
          #expect(game.phase != .scored)
        } else {
          #expect(game.rounds.map(\.target) == scoredTargets)
          #expect(game.rounds.count <= settings.rounds)
          #expect(game.isOver == (game.rounds.count == settings.rounds))
          #expect(game.score == game.total && game.total <= 100 * settings.rounds)
        }

        // The secret: while a target is pending, neither the view nor the events show it.
        let view = game.view(at: .zero)
        #expect(view.isOver == game.isOver && view.score == game.score && view.phase == game.phase)
        if game.phase == .guessing {
          #expect(!H.reveals(try encoder.encode(view), game.target), "seed \(seed): view leaks")
          #expect(!H.reveals(try encoder.encode(events), game.target), "seed \(seed): events leak")
        }
      }
      if !settings.freePlay {
        // Finish any game of rounds, and check the end.
        while !game.isOver {
          if game.phase == .scored { H.play(&game, .next) }
          H.play(&game, .check(guess: .middle))
        }
        #expect(game.summary.rounds.count == settings.rounds)
        #expect(game.summary.maxTotal == 100 * settings.rounds)
        #expect(game.summary.total == game.score)
      }
    }
  }

  @Test("While guessing, the view never contains the target, over 1,000 seeds and their rounds")
  func viewNeverShowsPendingTarget() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for seed in UInt64(0)..<1_000 {
      var game = try H.newGame(rounds: 3, freePlay: seed % 2 == 1, seed: seed)
      for _ in 0..<3 {
        let json = try encoder.encode(game.view(at: .zero))
        #expect(!H.reveals(json, game.target))
        let text = String(decoding: json, as: UTF8.self)
        let t = game.target
        #expect(!text.contains(#""b":\#(t.b),"g":\#(t.g),"r":\#(t.r)"#))
        if game.settings.freePlay {
          H.play(&game, .check(guess: RGB(r: (t.r + 1) % 256, g: t.g, b: t.b)))
          #expect(!H.reveals(try encoder.encode(game.view(at: .zero)), game.target))
          H.play(&game, .newColour)
        } else {
          H.play(&game, .check(guess: .middle))
          if !game.isOver { H.play(&game, .next) }
        }
      }
    }
  }
}
