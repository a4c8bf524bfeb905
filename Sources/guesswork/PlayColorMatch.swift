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
  let controls = "← or N: No · → or Y: Yes · Q: quit"
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
    session.apply(.answer(match: answer, reactionMs: max(0, reaction)), at: now)
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    canvas.add("Color Match", .fg(.accent, bold: true))
    canvas.add(
      "⏱ \(view.clock)   Score \(view.score)   Streak \(view.streak)", .bold, volatile: true)
    canvas.blank()
    switch view.phase {
    case .countdown:
      canvas.add("Does the top word's MEANING match the bottom word's INK?")
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
      canvas.add("Does the top word's meaning match the bottom word's ink?")
      canvas.add([
        Span(text: " ← No ", style: .fg(.bad, bold: true)),
        Span(text: "      ", style: .plain),
        Span(text: " Yes → ", style: .fg(.good, bold: true)),
      ])
    case .feedback:
      let correct = view.lastAnswer?.correct ?? false
      let mark = view.lastAnswer?.mark ?? ""
      canvas.blank()
      canvas.add(
        "  \(mark)  \(correct ? "Right" : "Wrong")  ", .fg(correct ? .good : .bad, bold: true))
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
        ColorMatchGame.Colour.allCases.first { $0.hex == card.ink }?.rawValue ?? "neutral"
      canvas.add("[\(text)]  \(label == "ink" ? "(ink: \(inkName))" : "")")
      return
    }
    let blank = String(repeating: " ", count: inner)
    canvas.add(blank, .bg(paper))
    canvas.add(text, Style(foreground: ink, background: paper, bold: true))
    canvas.add(blank, .bg(paper))
  }

  private func drawReport(_ canvas: inout Canvas, _ view: ColorMatchGame.View) {
    let report = view.report ?? session.game.summary
    canvas.add(view.endReason == .quit ? "You quit the round." : "Time's up!", .bold)
    canvas.blank()
    canvas.add("Score: \(report.score)", .fg(.accent, bold: true))
    canvas.add(
      "Trials: \(report.trials)   Correct: \(report.correct)   Accuracy: "
        + "\(Int((report.accuracy * 100).rounded()))%   Best streak: \(report.bestStreak)")
    func ms(_ value: Double?) -> String { value.map { "\(Int($0.rounded())) ms" } ?? "–" }
    canvas.add("Mean reaction, congruent: \(ms(report.meanReactionMsCongruent))")
    canvas.add("Mean reaction, incongruent: \(ms(report.meanReactionMsIncongruent))")
    canvas.add(
      "Interference effect: "
        + (report.interferenceMs.map { "\(Int($0.rounded())) ms" } ?? "–"), .bold)
    if !report.trialRecords.isEmpty {
      canvas.blank()
      let marks = report.trialRecords.suffix(30).map { $0.correct ? "✓" : "✗" }.joined()
      canvas.add(marks)
    }
    canvas.add("Seed \(session.seed)", .dim)
  }
}
