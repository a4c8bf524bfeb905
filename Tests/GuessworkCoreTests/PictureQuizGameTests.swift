import Foundation
import Testing

@testable import GuessworkCore

/// The seed's 25 Eagles Hall of Famers (alphabetical, as the seed's array was), with opaque ids
/// that do not reveal the names.
let hallOfFamers: [PictureQuizGame.Item] = [
  "Alex Wojciechowicz", "Art Monk", "Bert Bell", "Bill Hewitt", "Bob Brown", "Brian Dawkins",
  "Chris Carter", "Chuck Bednarik", "Claude Humphrey", "Dick Vermeil", "Earle Greasy Neale",
  "Harold Carmichael", "James Lofton", "Jim Ringo", "Mike Ditka", "Norm Van Brocklin",
  "Ollie Matson", "Pete Pihos", "Reggie White", "Richard Dent", "Sonny Jurgensen",
  "Steve Van Buren", "Terrell Owens", "Tommy McDonald", "Walt Kiesling",
].enumerated().map { PictureQuizGame.Item(id: "p\(($0.offset * 37 + 11) % 97)", name: $0.element) }

/// A deck of `count` items named "Item 0", "Item 1", ... with ids "x0", "x1", ...
func quizDeck(_ count: Int) -> [PictureQuizGame.Item] {
  (0..<count).map { PictureQuizGame.Item(id: "x\($0)", name: "Item \($0)") }
}

extension PictureQuizGame {
  /// The question on screen.
  var shown: Question { questions[taps.count - (phase == .question ? 0 : 1)] }

  /// Taps the right picture.
  @discardableResult
  mutating func chooseRight() throws(Refusal) -> [Event] {
    try apply(.choose(shown.rightChoice), at: .zero)
  }

  /// Taps a wrong picture.
  @discardableResult
  mutating func chooseWrong() throws(Refusal) -> [Event] {
    try apply(.choose(shown.rightChoice == 0 ? 1 : 0), at: .zero)
  }

  @discardableResult
  mutating func next() throws(Refusal) -> [Event] {
    try apply(.next, at: .zero)
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

@Suite("Picture quiz rules")
struct PictureQuizGameTests {
  @Test("A question shows `choices` different pictures, one of them the answer")
  func questionShape() throws {
    for choices in 2...6 {
      let game = try PictureQuizGame(
        settings: .init(choices: choices), content: hallOfFamers, seed: UInt64(choices), at: .zero)
      for question in game.questions {
        #expect(question.choices.count == choices)
        #expect(Set(question.choices).count == choices)
        #expect(question.choices.contains(question.answer))
      }
      let view = game.view(at: .zero)
      #expect(view.choices.count == choices)
      #expect(view.answerName == hallOfFamers[game.questions[0].answer].name)
    }
  }

  @Test("A game is 8 questions by default, and as many as the setting says")
  func gameLength() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 3, at: .zero)
    #expect(game.questions.count == 8)
    for number in 1...8 {
      #expect(game.view(at: .zero).questionNumber == number)
      #expect(!game.isOver)
      try game.chooseRight()
      if number < 8 { #expect(try game.next() == [.nextQuestion(questionNumber: number + 1)]) }
    }
    #expect(game.isOver)
    let short = try PictureQuizGame(
      settings: .init(questions: 2), content: hallOfFamers, seed: 3, at: .zero)
    #expect(short.questions.count == 2)
  }

  @Test("No item is the answer twice in a game; with as many questions as items, each once")
  func answersNeverRepeat() throws {
    for seed in 0..<UInt64(200) {
      let game = try PictureQuizGame(
        settings: .init(choices: 4, questions: 25), content: hallOfFamers, seed: seed, at: .zero)
      #expect(Set(game.questions.map(\.answer)) == Set(hallOfFamers.indices))
    }
  }

  @Test(
    "Regression: every item is the first answer about equally often (the seed's replay was not)")
  func firstAnswerUniform() throws {
    // The seed's "play again" reset to the unshuffled list and removed a stale index, so its
    // first answer of a replayed game came from the first three names alphabetically.
    let games = 5_000
    var firstAnswers = [Int](repeating: 0, count: hallOfFamers.count)
    var allAnswers = [Int](repeating: 0, count: hallOfFamers.count)
    for seed in 0..<UInt64(games) {
      let game = try PictureQuizGame(
        settings: .init(), content: hallOfFamers, seed: seed, at: .zero)
      firstAnswers[game.questions[0].answer] += 1
      for question in game.questions { allAnswers[question.answer] += 1 }
    }
    // 200 expected each, standard deviation about 14: 5 of them is no accident.
    for count in firstAnswers { #expect(abs(count - games / 25) < 70) }
    // The first three names alphabetically are the first answer about 3 times in 25.
    #expect(abs(firstAnswers[0..<3].reduce(0, +) - 3 * games / 25) < 120)
    // Each item is an answer in about 8 of 25 games (1,600 expected, deviation about 33).
    for count in allAnswers { #expect(abs(count - 8 * games / 25) < 165) }
  }

  @Test("The right picture is in each place about equally often", arguments: [2, 3, 6])
  func rightPlaceUniform(choices: Int) throws {
    var places = [Int](repeating: 0, count: choices)
    let games = 1_500
    for seed in 0..<UInt64(games) {
      let game = try PictureQuizGame(
        settings: .init(choices: choices), content: hallOfFamers, seed: seed, at: .zero)
      for question in game.questions { places[question.rightChoice] += 1 }
    }
    let expected = games * 8 / choices
    for count in places {
      #expect(abs(count - expected) < expected / 10, "places \(places)")
    }
  }

  @Test("The other pictures are drawn from the whole deck")
  func distractorsCoverDeck() throws {
    var seen = Set<Int>()
    for seed in 0..<UInt64(100) {
      let game = try PictureQuizGame(
        settings: .init(), content: hallOfFamers, seed: seed, at: .zero)
      let first = game.questions[0]
      seen.formUnion(first.choices.filter { $0 != first.answer })
    }
    #expect(seen.count == hallOfFamers.count)
  }

  @Test("A right answer scores +1 and says Correct")
  func rightAnswer() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 8, at: .zero)
    let right = game.shown.rightChoice
    #expect(
      try game.chooseRight() == [
        .answered(correct: true, choice: right, rightChoice: right, score: 1)
      ])
    let view = game.view(at: .zero)
    #expect(view.phase == .answered)
    #expect(view.score == 1)
    #expect(view.answer?.correct == true)
    #expect(said(view.answer?.title) == "Correct")
    #expect(said(view.message) == "Your score is 1 with 7 questions remaining!")
  }

  @Test("A wrong answer scores −1, names the tapped item and shows the right one")
  func wrongAnswer() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 8, at: .zero)
    try game.chooseRight()
    try game.next()
    let question = game.shown
    let tap = question.rightChoice == 0 ? 1 : 0
    let tapped = hallOfFamers[question.choices[tap]]
    #expect(
      try game.apply(.choose(tap), at: .zero)
        == [.answered(correct: false, choice: tap, rightChoice: question.rightChoice, score: 0)])
    let answer = try #require(game.view(at: .zero).answer)
    #expect(answer.correct == false)
    #expect(answer.choice == tap)
    #expect(answer.chosenId == tapped.id)
    #expect(answer.chosenName == tapped.name)
    #expect(answer.rightChoice == question.rightChoice)
    #expect(answer.rightId == hallOfFamers[question.answer].id)
    #expect(said(answer.title) == "Wrong! That's \(tapped.name).")
    #expect(said(game.view(at: .zero).message) == "Your score is 0 with 6 questions remaining!")
  }

  @Test("The score never goes below 0")
  func scoreFloor() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 2, at: .zero)
    try game.chooseWrong()
    #expect(game.score == 0)
    try game.next()
    try game.chooseRight()
    try game.next()
    try game.chooseRight()
    #expect(game.score == 2)
    try game.next()
    try game.chooseWrong()
    #expect(game.score == 1)
  }

  @Test("With one question left the message says so in the singular")
  func singularRemaining() throws {
    var game = try PictureQuizGame(
      settings: .init(questions: 2), content: hallOfFamers, seed: 2, at: .zero)
    try game.chooseRight()
    #expect(said(game.view(at: .zero).message) == "Your score is 1 with 1 question remaining!")
  }

  @Test("The last answer ends the game with the final score and the questions missed")
  func gameOver() throws {
    var game = try PictureQuizGame(
      settings: .init(questions: 3), content: hallOfFamers, seed: 5, at: .zero)
    try game.chooseRight()
    try game.next()
    let missedQuestion = game.shown
    let tap = missedQuestion.rightChoice == 0 ? 1 : 0
    _ = try game.apply(.choose(tap), at: .zero)
    try game.next()
    let right = game.shown.rightChoice
    #expect(
      try game.chooseRight()
        == [
          .answered(correct: true, choice: right, rightChoice: right, score: 1),
          .gameOver(score: 1),
        ])
    let view = game.view(at: .zero)
    #expect(view.phase == .over)
    #expect(view.isOver)
    #expect(said(view.message) == "Game over! Your final score was 1.")
    #expect(said(view.answer?.title) == "Correct")
    let miss = PictureQuizGame.Miss(
      questionNumber: 2,
      answerId: hallOfFamers[missedQuestion.answer].id,
      answerName: hallOfFamers[missedQuestion.answer].name,
      chosenId: hallOfFamers[missedQuestion.choices[tap]].id,
      chosenName: hallOfFamers[missedQuestion.choices[tap]].name)
    #expect(view.missed == [miss])
    #expect(
      game.summary
        == .init(isOver: true, score: 1, correct: 2, answered: 3, questions: 3, missed: [miss]))
  }

  @Test("Choosing during the dialog and continuing during a question are wrong-phase refusals")
  func wrongPhase() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 4, at: .zero)
    #expect(game.refusal(of: .next)?.code == .wrongPhase)
    try game.chooseRight()
    #expect(game.refusal(of: .choose(0))?.code == .wrongPhase)
  }

  @Test("A choice outside the shown pictures is refused", arguments: [-1, 3, 99])
  func choiceOutOfRange(choice: Int) throws {
    let game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 4, at: .zero)
    let refusal = game.refusal(of: .choose(choice))
    #expect(refusal?.code == .outOfRange)
    #expect(said(refusal?.reason) == "There are 3 pictures: choose 0 to 2, not \(choice).")
  }

  @Test("Every action after the game is over is refused")
  func afterOver() throws {
    var game = try PictureQuizGame(
      settings: .init(questions: 1), content: hallOfFamers, seed: 4, at: .zero)
    try game.chooseRight()
    #expect(game.refusal(of: .choose(0)) == .gameOver)
    #expect(game.refusal(of: .next) == .gameOver)
  }

  @Test("A question's view holds only the name asked for, the pictures' ids and the counters")
  func questionViewHidesAnswer() throws {
    var game = try PictureQuizGame(settings: .init(), content: hallOfFamers, seed: 6, at: .zero)
    try game.chooseWrong()
    try game.next()
    let question = game.shown
    let ids = question.choices.map { #""\#(hallOfFamers[$0].id)""# }.joined(separator: ",")
    #expect(
      try sortedJSON(game.view(at: .zero))
        == #"{"answerName":"\#(hallOfFamers[question.answer].name)","choices":[\#(ids)],"#
        + #""isOver":false,"phase":"question","questionNumber":2,"questions":8,"score":0}"#)
  }

  @Test("A wrong answer names the tapped item with the deck's noun, as the seed did")
  func wrongAnswerUsesTheDecksNoun() throws {
    let items = ["Reggie White", "Brian Dawkins", "Mike Ditka"].map {
      PictureQuizGame.Item(id: "id-\($0)", name: $0)
    }
    var settings = PictureQuizGame.Settings(choices: 3, questions: 1)
    settings.noun = "Eagles legend"
    var game = try PictureQuizGame(settings: settings, content: items, seed: 4, at: .zero)
    let view = game.view(at: .zero)
    let right = try #require(items.first { $0.name == view.answerName })
    let wrongIndex = try #require(view.choices.firstIndex { $0 != right.id })
    let tapped = try #require(items.first { $0.id == view.choices[wrongIndex] })
    _ = try game.apply(.choose(wrongIndex), at: .zero)
    #expect(
      said(game.view(at: .zero).answer?.title) == "Wrong! That's Eagles legend \(tapped.name).")
  }
}
