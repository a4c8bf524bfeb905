import GuessworkCore
import GuessworkPlay

/// Guess or Pass, pass-and-play: one player reads the word (in large letters), the others give
/// clues. → or Space: guessed, ←: pass, Q or Esc: end the round.
final class GuessOrPassScreen: GameScreen {
  static let help = "→ or Space: guessed, ←: pass, Q: end the round"
  let session: LocalSession<GuessOrPassGame>
  let categoryTitle: String
  let isTimed = true
  let quitAction: GuessOrPassGame.Action? = .end
  var controls: String { Speech.say("guess-or-pass.terminal.controls") }

  init(session: LocalSession<GuessOrPassGame>, content: ChosenContent) {
    self.session = session
    self.categoryTitle = content.title
  }

  func handle(_ key: Key, at now: Instant) {
    if key == .right || key == .character(" ") {
      session.apply(.guessed, at: now)
    } else if key == .left {
      session.apply(.pass, at: now)
    }
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    canvas.add(
      Speech.say(GuessOrPassGame.title) + " · \(categoryTitle)", .fg(.accent, bold: true))
    switch view.phase {
    case .countdown:
      canvas.blank()
      canvas.add(Speech.say("guess-or-pass.terminal.hold"))
      canvas.add(Speech.say("guess-or-pass.terminal.starting"), .dim)
      let number = String(view.countdownSeconds ?? 1)
      if let big = BigText.lines(number, width: canvas.width) {
        for row in big { canvas.add(row, .fg(.accent)) }
      } else {
        canvas.add(number, .bold)
      }
    case .playing:
      let warning = view.lastTenSeconds
      canvas.add(
        Speech.say(
          "guess-or-pass.terminal.status",
          [
            "seconds": .int(view.secondsLeft ?? 0), "score": .int(view.score),
            "passed": .int(view.passedCount),
          ]),
        warning ? .fg(.bad, bold: true) : .bold, volatile: true)
      timerBar(&canvas, view)
      canvas.blank()
      if let flash = view.lastResult {
        canvas.add(
          Speech.say(
            flash == .guessed
              ? "guess-or-pass.terminal.flash.guessed" : "guess-or-pass.terminal.flash.passed"),
          .fg(flash == .guessed ? .good : .bad))
      } else {
        canvas.blank()
      }
      canvas.blank()
      let word = view.word ?? ""
      if let big = BigText.lines(word, width: canvas.width - 2), canvas.height >= 18 {
        for row in big { canvas.add(row, .fg(.white, bold: true)) }
        canvas.blank()
        canvas.add(word, .dim)
      } else {
        canvas.add(word.uppercased(), .bold)
      }
    case .over:
      canvas.blank()
      canvas.add(view.message.map(Speech.say) ?? "", .fg(.accent, bold: true))
      canvas.blank()
      let guessed = view.guessed ?? []
      let passed = view.passed ?? []
      let none = Speech.say("guess-or-pass.terminal.none")
      canvas.paragraph(
        Speech.say(
          "guess-or-pass.terminal.guessed",
          ["list": .text(guessed.isEmpty ? none : guessed.joined(separator: ", "))]))
      canvas.paragraph(
        Speech.say(
          "guess-or-pass.terminal.passed",
          ["list": .text(passed.isEmpty ? none : passed.joined(separator: ", "))]))
      if let missed = view.missed {
        canvas.add(Speech.say("guess-or-pass.terminal.missed", ["word": .text(missed)]), .dim)
      }
      canvas.add(Speech.say("terminal.seed", ["seed": .text("\(session.seed)")]), .dim)
    }
  }

  /// The time left as a bar that drains.
  private func timerBar(_ canvas: inout Canvas, _ view: GuessOrPassGame.View) {
    let width = min(50, canvas.width - 4)
    let filled = view.durationMs == 0 ? 0 : view.remainingMs * width / view.durationMs
    canvas.add(
      [
        Span(
          text: String(repeating: "█", count: filled),
          style: .fg(view.lastTenSeconds ? .bad : .good)),
        Span(text: String(repeating: "░", count: width - filled), style: .dim),
      ], volatile: true)
  }
}
