import GuessworkCore
import GuessworkPlay

/// Guess the Number: digits enter on the engine's digit pad (each shifts the display left),
/// Backspace removes one, Enter guesses; the known range shows as a bar.
final class NumberScreen: GameScreen {
  static let help = "0–9 type (the display shifts left), Backspace deletes, Enter guesses"
  let session: LocalSession<NumberGame>
  let isTimed = false
  let quitAction: NumberGame.Action? = nil
  var controls: String { Speech.say("number.terminal.controls") }

  init(session: LocalSession<NumberGame>, content: ChosenContent) {
    self.session = session
  }

  func handle(_ key: Key, at now: Instant) {
    if let digit = key.digit {
      session.apply(.digit(digit), at: now)
    } else if key == .backspace {
      session.apply(.backspace, at: now)
    } else if key == .enter {
      session.apply(.enter, at: now)
    }
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    canvas.add(Speech.say(NumberGame.title), .fg(.accent, bold: true))
    canvas.blank()
    if view.isOver {
      drawEnd(&canvas, view)
      return
    }
    canvas.paragraph(Speech.say(view.message), .bold)
    canvas.blank()
    // The display: typed digits, then placeholders for the rest.
    let shown = view.display + String(repeating: "_", count: view.displayWidth - view.display.count)
    if let big = BigText.lines(shown, width: canvas.width - 4), canvas.height >= 24 {
      for row in big { canvas.add(row, .fg(.accent)) }
    } else {
      canvas.add("[ " + shown.map(String.init).joined(separator: " ") + " ]", .bold)
    }
    canvas.blank()
    rangeBar(&canvas, view)
    canvas.add(Speech.say(view.knownRangeText))
    canvas.blank()
    let attemptsLeft = Speech.say(view.attemptsLeftText)
    canvas.add(
      attemptsLeft.prefix(1).uppercased() + attemptsLeft.dropFirst(),
      view.isLastAttempt ? .fg(.bad, bold: true) : .bold)
    if !view.guesses.isEmpty {
      canvas.blank()
      canvas.add(
        Speech.say(
          "number.terminal.guesses",
          [
            "list": .text(
              view.guesses.map { "\($0.number)\($0.hint == .higher ? "↑" : "↓")" }
                .joined(separator: "  "))
          ]), .dim)
    }
  }

  /// The whole range as a bar, the part still possible filled.
  private func rangeBar(_ canvas: inout Canvas, _ view: NumberGame.View) {
    let width = min(50, canvas.width - 16)
    let size = Double(view.high - view.low + 1)
    let from = Int((Double(view.knownLow - view.low) / size * Double(width)).rounded(.down))
    let to = max(
      from + 1, Int((Double(view.knownHigh - view.low + 1) / size * Double(width)).rounded(.up)))
    let left = String(repeating: "·", count: from)
    let middle = String(repeating: "█", count: min(width, to) - from)
    let right = String(repeating: "·", count: max(0, width - to))
    canvas.add([
      Span(text: "\(view.low) ", style: .dim),
      Span(text: left, style: .dim),
      Span(text: middle, style: .fg(.accent)),
      Span(text: right, style: .dim),
      Span(text: " \(view.high)", style: .dim),
    ])
  }

  private func drawEnd(_ canvas: inout Canvas, _ view: NumberGame.View) {
    let summary = session.game.summary
    canvas.paragraph(Speech.say(view.message), .fg(summary.won ? .good : .bad, bold: true))
    if let secret = view.secret, let big = BigText.lines(String(secret), width: canvas.width - 4),
      canvas.height >= 26
    {
      canvas.blank()
      for row in big { canvas.add(row, .fg(summary.won ? .good : .bad)) }
    }
    canvas.blank()
    canvas.add(Speech.say("terminal.score", ["score": .int(summary.score)]), .bold)
    canvas.blank()
    canvas.add(Speech.say("number.terminal.yourGuesses"), .dim)
    for guess in summary.guesses {
      let hint =
        switch guess.hint {
        case .higher: "number.terminal.higher"
        case .lower: "number.terminal.lower"
        case .correct: "number.terminal.right"
        }
      canvas.add(
        Speech.say(
          "number.terminal.guess",
          [
            "mark": .text(guess.halved ? "✔" : " "), "number": .int(guess.number),
            "low": .int(guess.knownLow), "high": .int(guess.knownHigh), "hint": .key(hint),
          ]))
    }
    canvas.blank()
    canvas.paragraph(Speech.say(summary.strategy))
    canvas.blank()
    canvas.add(Speech.say("terminal.seed", ["seed": .text("\(session.seed)")]), .dim)
  }
}
