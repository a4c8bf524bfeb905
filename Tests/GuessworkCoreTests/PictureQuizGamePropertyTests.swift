import Foundation
import Testing

@testable import GuessworkCore

@Suite("Picture quiz properties over many seeds")
struct PictureQuizGamePropertyTests {
  /// A random game: a deck of 6...30 items and settings that fit it.
  static func randomGame(seed: UInt64, _ driver: inout SeededRandom) throws -> PictureQuizGame {
    let deck = driver.chance(0.3) ? hallOfFamers : quizDeck(driver.int(in: 6...30))
    let choices = driver.int(in: 2...6)
    let questions = driver.int(in: 1...min(12, deck.count))
    return try PictureQuizGame(
      settings: .init(choices: choices, questions: questions), content: deck, seed: seed, at: .zero)
  }

  /// A random action: mostly legal, sometimes in the wrong phase or out of range.
  static func randomAction(
    _ game: PictureQuizGame, _ driver: inout SeededRandom
  ) -> PictureQuizGame.Action {
    switch driver.index(below: 10) {
    case 0: return .next
    case 1: return .choose(driver.chance(0.5) ? -1 : game.settings.choices)
    case 2, 3, 4, 5: return .choose(driver.index(below: game.settings.choices))
    default: return game.phase == .answered ? .next : .choose(game.shown.rightChoice)
    }
  }

  /// The score the rules give for the taps so far.
  static func expectedScore(_ game: PictureQuizGame) -> Int {
    zip(game.questions, game.taps).reduce(0) { score, pair in
      pair.0.rightChoice == pair.1 ? score + 1 : max(0, score - 1)
    }
  }

  /// A question's view says nothing about which picture is right: its JSON is exactly the
  /// counters, the name asked for and the ids in displayed order, and it names no other item.
  static func checkQuestionView(_ game: PictureQuizGame) throws {
    let json = try sortedJSON(game.view(at: .zero))
    let question = game.shown
    let ids = question.choices.map { #""\#(game.deck[$0].id)""# }.joined(separator: ",")
    let expected =
      #"{"answerName":"\#(game.deck[question.answer].name)","choices":[\#(ids)],"#
      + #""isOver":false,"phase":"question","questionNumber":\#(game.taps.count + 1),"#
      + #""questions":\#(game.questions.count),"score":\#(game.score)}"#
    #expect(json == expected)
    for (index, item) in game.deck.enumerated() where index != question.answer {
      #expect(!json.contains(#""\#(item.name)""#))
    }
  }

  @Test("Over 1,000 seeds: invariants hold, refusals change nothing, questions hide the answer")
  func randomPlay() throws {
    for seed in 0..<UInt64(1_000) {
      var driver = SeededRandom(seed: seed &* 104_729 &+ 7)
      var game = try Self.randomGame(seed: seed, &driver)
      #expect(Set(game.questions.map(\.answer)).count == game.questions.count)
      try Self.checkQuestionView(game)
      var steps = 0
      while !game.isOver && steps < 100 {
        steps += 1
        let before = game
        let action = Self.randomAction(game, &driver)
        do {
          let events = try game.apply(action, at: .zero)
          #expect(game.score == Self.expectedScore(game))
          #expect(game.score >= 0)
          #expect(game.isOver == (game.taps.count == game.questions.count))
          #expect(events.contains(.gameOver(score: game.score)) == game.isOver)
          switch game.phase {
          case .question: try Self.checkQuestionView(game)
          case .answered, .over:
            let view = game.view(at: .zero)
            #expect(view.answer?.rightId == game.deck[game.shown.answer].id)
            #expect(view.answer?.correct == (game.taps.last == game.shown.rightChoice))
          }
        } catch let refusal as Refusal {
          #expect(game == before, "refused \(action) changed the game (seed \(seed))")
          switch action {
          case .next: #expect(refusal.code == .wrongPhase && game.phase == .question)
          case .choose(let choice):
            #expect(
              refusal.code
                == (game.phase == .answered
                  ? .wrongPhase : .outOfRange))
            if game.phase == .question {
              #expect(!(0..<game.settings.choices).contains(choice))
            }
          }
        }
      }
      #expect(game.isOver)
      #expect(game.summary.correct + game.summary.missed.count == game.questions.count)
      #expect(game.refusal(of: .next) == .gameOver)
    }
  }
}
