import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay

/// Picture Quiz on an emoji deck: the pictures with numbers 1…n; a number answers, then Enter
/// (or any key) continues.
final class PictureQuizScreen: GameScreen {
  static let help = "1…n choose a picture, Enter continues"
  let session: LocalSession<PictureQuizGame>
  let deck: Deck
  let isTimed = false
  let quitAction: PictureQuizGame.Action? = nil

  var controls: String {
    session.game.view(at: .zero).phase == .answered
      ? Speech.say("picture-quiz.terminal.controls.next")
      : Speech.say("picture-quiz.terminal.controls", ["count": .int(session.game.settings.choices)])
  }

  init(session: LocalSession<PictureQuizGame>, content: ChosenContent) {
    self.session = session
    guard case .deck(let deck) = content else { preconditionFailure("Picture Quiz needs a deck.") }
    self.deck = deck
  }

  func handle(_ key: Key, at now: Instant) {
    let view = session.game.view(at: now)
    switch view.phase {
    case .question:
      if let digit = key.digit, digit >= 1 {
        session.apply(.choose(digit - 1), at: now)
      }
    case .answered:
      session.apply(.next, at: now)
    case .over:
      break
    }
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    canvas.add(deck.title, .fg(.accent, bold: true))
    canvas.add(
      Speech.say(
        "picture-quiz.terminal.progress",
        [
          "number": .int(view.questionNumber), "count": .int(view.questions),
          "score": .int(view.score),
        ]), .bold)
    canvas.blank()
    let question = deck.question
      .replacingOccurrences(of: "Tap", with: "Choose")
      .replacingOccurrences(of: "{answer}", with: view.answerName)
    canvas.paragraph(question, .bold)
    canvas.blank()
    // The pictures, each in a cell with its number under it.
    let cell = 8
    var pictures: [Span] = []
    var numbers: [Span] = []
    for (index, id) in view.choices.enumerated() {
      let picked = view.answer?.choice == index
      let right = view.answer?.rightChoice == index
      let picture = "  " + id + "  "
      let label = " \(index + 1) "
      let style: Style =
        view.answer == nil ? .bold : right ? .fg(.good, bold: true) : picked ? .fg(.bad) : .dim
      pictures.append(Span(text: pad(picture, to: cell), style: .plain))
      numbers.append(Span(text: pad(label, to: cell), style: style))
    }
    canvas.add(pictures)
    canvas.add(numbers)
    canvas.blank()
    if let answer = view.answer {
      canvas.add(Speech.say(answer.title), .fg(answer.correct ? .good : .bad, bold: true))
      if let message = view.message { canvas.paragraph(Speech.say(message)) }
    }
    if view.isOver {
      let missed = view.missed ?? []
      canvas.blank()
      if missed.isEmpty {
        canvas.add(Speech.say("picture-quiz.terminal.noMisses"), .fg(.good))
      } else {
        canvas.add(Speech.say("picture-quiz.terminal.missed"), .bold)
        for miss in missed {
          canvas.add(
            Speech.say(
              "picture-quiz.terminal.miss",
              [
                "number": .int(miss.questionNumber), "answer": .text(miss.answerName),
                "answerPicture": .text(miss.answerId), "chosen": .text(miss.chosenName),
                "chosenPicture": .text(miss.chosenId),
              ]))
        }
      }
      canvas.add(deck.credit, .dim)
      canvas.add(Speech.say("terminal.seed", ["seed": .text("\(session.seed)")]), .dim)
    }
  }

  private func pad(_ text: String, to width: Int) -> String {
    let missing = max(0, width - displayWidth(text))
    let left = missing / 2
    return String(repeating: " ", count: left) + text
      + String(repeating: " ", count: missing - left)
  }
}
