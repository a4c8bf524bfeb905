import GuessworkCore
import GuessworkPlay

/// Color Match, the Stroop game: does the top word's meaning match the bottom word's ink?
/// ← or N for No, → or Y for Yes. Reaction times are measured here, on a monotonic clock, from
/// the moment the cards are drawn to the key, and sent with the answer.
final class ColorMatchScreen: GameScreen {
  static let help = "← or N: No, → or Y: Yes (does the top word's meaning match the ink below?)"
  let session: LocalSession<ColorMatchGame>
  let isTimed = true
  let quitAction: ColorMatchGame.Action? = .quit
  var controls: String { Speech.say("color-match.terminal.controls") }
  /// The trial on screen and when it was drawn.
  private var shownTrial = 0
  private var shownAt = ContinuousClock.now

  init(session: LocalSession<ColorMatchGame>, content: ChosenContent) {
    self.session = session
  }

  func handle(_ key: Key, at now: Instant) {
    let answer: Bool
    if key == .right || key.is("y") {
      answer = true
    } else if key == .left || key.is("n") {
      answer = false
    } else {
      return
    }
    let elapsed = ContinuousClock.now - shownAt
    let reaction =
      Int(elapsed.components.seconds) * 1000
      + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    session.apply(.answer(match: answer, reactionMs: .init(ms: max(0, reaction))), at: now)
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    canvas.add(Speech.say(ColorMatchGame.title), .fg(.accent, bold: true))
    canvas.add(
      Speech.say(
        "color-match.terminal.status",
        ["clock": .text(view.clock), "score": .int(view.score), "streak": .int(view.streak)]),
      .bold, volatile: true)
    canvas.blank()
    switch view.phase {
    case .countdown:
      canvas.add(Speech.say("color-match.terminal.askLoud"))
      canvas.blank()
      let number = String(view.countdownSeconds ?? 1)
      if let big = BigText.lines(number, width: canvas.width) {
        for row in big { canvas.add(row, .fg(.accent)) }
      } else {
        canvas.add(number, .bold)
      }
    case .trial:
      if view.trialNumber != shownTrial {
        shownTrial = view.trialNumber
        shownAt = ContinuousClock.now
      }
      if let top = view.top, let bottom = view.bottom {
        card(&canvas, top, label: "meaning")
        canvas.blank()
        card(&canvas, bottom, label: "ink")
      }
      canvas.blank()
      canvas.add(Speech.say("color-match.terminal.ask"))
      canvas.add([
        Span(text: Speech.say("color-match.terminal.no"), style: .fg(.bad, bold: true)),
        Span(text: "      ", style: .plain),
        Span(text: Speech.say("color-match.terminal.yes"), style: .fg(.good, bold: true)),
      ])
    case .feedback:
      let correct = view.lastAnswer?.correct ?? false
      let mark = view.lastAnswer?.mark ?? ""
      canvas.blank()
      canvas.add(
        "  \(mark)  \(Speech.say(correct ? "color-match.terminal.right" : "color-match.terminal.wrong"))  ",
        .fg(correct ? .good : .bad, bold: true))
      canvas.blank()
    case .over:
      drawReport(&canvas, view)
    }
  }

  /// A card: the word in its ink on its background; without colour, the ink said in words.
  private func card(_ canvas: inout Canvas, _ card: ColorMatchGame.Card, label: String) {
    let inner = 20
    let word = Speech.say(card.word).uppercased()
    let left = (inner - word.count) / 2
    let text =
      String(repeating: " ", count: left) + word
      + String(repeating: " ", count: inner - left - word.count)
    guard canvas.colour, let ink = Tint(hex: card.ink), let paper = Tint(hex: card.background)
    else {
      let inkName =
        ColorMatchGame.Colour.allCases.first { $0.hex == card.ink }.map { Speech.say($0.word) }
        ?? "–"
      canvas.add(
        "[\(text)]  "
          + (label == "ink"
            ? Speech.say("color-match.terminal.ink", ["ink": .text(inkName.lowercased())]) : ""))
      return
    }
    let blank = String(repeating: " ", count: inner)
    canvas.add(blank, .bg(paper))
    canvas.add(text, Style(foreground: ink, background: paper, bold: true))
    canvas.add(blank, .bg(paper))
  }

  private func drawReport(_ canvas: inout Canvas, _ view: ColorMatchGame.View) {
    let report = view.report ?? session.game.summary
    canvas.add(
      Speech.say(
        view.endReason == .quit ? "color-match.terminal.quit" : "color-match.terminal.timeUp"),
      .bold)
    canvas.blank()
    canvas.add(
      Speech.say("terminal.score", ["score": .int(report.score)]), .fg(.accent, bold: true))
    canvas.add(
      Speech.say(
        "color-match.terminal.counts",
        [
          "trials": .int(report.trials), "correct": .int(report.correct),
          "accuracy": .int(Int((report.accuracy * 100).rounded())),
          "streak": .int(report.bestStreak),
        ]))
    func ms(_ value: Double?) -> Message.Argument {
      .text(
        value.map { Speech.say("color-match.terminal.ms", ["ms": .int(Int($0.rounded()))]) } ?? "–")
    }
    canvas.add(
      Speech.say("color-match.terminal.congruent", ["time": ms(report.meanReactionMsCongruent)]))
    canvas.add(
      Speech.say("color-match.terminal.incongruent", ["time": ms(report.meanReactionMsIncongruent)])
    )
    canvas.add(
      Speech.say("color-match.terminal.interference", ["time": ms(report.interferenceMs)]), .bold)
    if !report.trialRecords.isEmpty {
      canvas.blank()
      let marks = report.trialRecords.suffix(30).map { $0.correct ? "✓" : "✗" }.joined()
      canvas.add(marks)
    }
    canvas.add(Speech.say("terminal.seed", ["seed": .text("\(session.seed)")]), .dim)
  }
}
