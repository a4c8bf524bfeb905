import Foundation
import GuessworkCore
import GuessworkPlay

/// Bullseye: mix red, green and blue to match the target. R/G/B or ↑/↓ pick a channel, ←/→
/// change it by 1 (Shift+←/→ or PgUp/PgDn by 16), digits type a value, Enter checks; after a
/// scored round Enter draws the next colour. In free play, C checks, N gives up the colour and
/// F finishes.
final class BullseyeScreen: GameScreen {
  static let help =
    "R/G/B or ↑/↓ pick a channel; ←/→ change it by 1, Shift+←/→ or PgUp/PgDn by 16, or type its value; Enter checks, then Enter for the next colour; free play: N new colour, F finish"
  let session: LocalSession<BullseyeGame>
  let isTimed = false
  let quitAction: BullseyeGame.Action? = nil
  /// The guess being mixed.
  private var guess = RGB.middle
  private var channel = 0
  /// Digits typed for the selected channel.
  private var typed = ""

  var controls: String {
    session.game.settings.freePlay
      ? Speech.say("bullseye.terminal.controls.freePlay")
      : Speech.say("bullseye.terminal.controls")
  }

  init(session: LocalSession<BullseyeGame>, content: ChosenContent) {
    self.session = session
    guess = session.game.view(at: .zero).startGuess
  }

  private var values: [Int] {
    get { [guess.r, guess.g, guess.b] }
    set { guess = RGB(r: newValue[0], g: newValue[1], b: newValue[2]) }
  }

  private func change(by step: Int) {
    typed = ""
    values[channel] = min(255, max(0, values[channel] + step))
  }

  func handle(_ key: Key, at now: Instant) {
    let view = session.game.view(at: now)
    switch key {
    case _ where key.is("r"): select(0)
    case _ where key.is("g"): select(1)
    case _ where key.is("b"): select(2)
    case .up: select((channel + 2) % 3)
    case .down, .tab: select((channel + 1) % 3)
    case .left: change(by: -1)
    case .right: change(by: 1)
    case .shiftLeft, .pageDown: change(by: -16)
    case .shiftRight, .pageUp: change(by: 16)
    case .backspace:
      typed = String(typed.dropLast())
      values[channel] = Int(typed) ?? 0
    case .enter:
      typed = ""
      if view.actions.contains("next") {
        if session.apply(.next, at: now) != nil { guess = .middle }
      } else {
        session.apply(.check(guess: guess), at: now)
      }
    case _ where key.is("n") && view.freePlay:
      if session.apply(.newColour, at: now) != nil { guess = .middle }
    case _ where key.is("f") && view.freePlay:
      session.apply(.finish, at: now)
    default:
      if let digit = key.digit {
        typed = String((typed + String(digit)).suffix(3))
        if let value = Int(typed), value > 255 { typed = String(digit) }
        values[channel] = Int(typed) ?? 0
      }
    }
  }

  private func select(_ index: Int) {
    channel = index
    typed = ""
  }

  func draw(_ canvas: inout Canvas, at now: Instant) {
    let view = session.game.view(at: now)
    let progress = Speech.say(
      view.rounds == nil ? "bullseye.terminal.progress.freePlay" : "bullseye.terminal.progress",
      ["round": .int(view.round), "rounds": .int(view.rounds ?? 0), "score": .int(view.score)])
    canvas.add(Speech.say(BullseyeGame.title), .fg(.accent, bold: true))
    canvas.add(progress, .bold)
    canvas.blank()
    if view.isOver {
      drawEnd(&canvas, view)
      return
    }
    // While a round is scored, show the revealed target beside the guess that was scored.
    let scored = view.phase == .scored ? view.result : nil
    let shownGuess = scored.map { RGB(r: $0.guess.r, g: $0.guess.g, b: $0.guess.b) } ?? guess
    let target = scored?.target.map { RGB(r: $0.r, g: $0.g, b: $0.b) } ?? session.game.target
    swatches(
      &canvas, target: target, guess: shownGuess,
      targetLabel: scored?.target?.hex ?? Speech.say("bullseye.terminal.target"),
      guessLabel: shownGuess.hex)
    canvas.blank()
    if scored == nil {
      let names = ["bullseye.terminal.red", "bullseye.terminal.green", "bullseye.terminal.blue"]
        .map { Speech.say($0) }
        .map { $0.padding(toLength: 6, withPad: " ", startingAt: 0) }
      let tints = [Tint(220, 60, 60), Tint(60, 190, 80), Tint(70, 130, 230)]
      for index in 0..<3 {
        let value = values[index]
        let filled = value * 24 / 255
        let marker = index == channel ? "▶ " : "  "
        canvas.add([
          Span(text: marker + names[index] + " ", style: index == channel ? .bold : .plain),
          Span(text: String(repeating: "█", count: filled), style: .fg(tints[index])),
          Span(text: String(repeating: "░", count: 24 - filled), style: .dim),
          Span(
            text: " " + String(value).leftPadded(to: 3)
              + (index == channel && !typed.isEmpty ? "✎" : " "),
            style: index == channel ? .bold : .plain),
        ])
      }
      canvas.blank()
    }
    canvas.paragraph(Speech.say(view.message), scored == nil ? .plain : .bold)
    if let scored { canvas.add(Speech.say(scored.meaning)) }
    if let result = view.result, view.freePlay {
      canvas.add(
        Speech.say(
          "bullseye.terminal.lastCheck",
          [
            "score": .int(result.score), "deltaE": .decimal(result.deltaE),
            "meaning": .key(result.meaning.key),
          ]))
    }
    if let revealed = view.revealed, view.freePlay {
      canvas.add(Speech.say("bullseye.terminal.left", ["hex": .text(revealed.target.hex)]), .dim)
    }
  }

  /// Target and guess as large blocks of colour, side by side.
  private func swatches(
    _ canvas: inout Canvas, target: RGB, guess: RGB, targetLabel: String, guessLabel: String
  ) {
    let width = max(10, min(22, (canvas.width - 6) / 2))
    let rows = canvas.height >= 30 ? 6 : canvas.height >= 20 ? 4 : 2
    func tint(_ colour: RGB) -> Tint { Tint(red: colour.r, green: colour.g, blue: colour.b) }
    func centred(_ text: String) -> String {
      let left = max(0, (width - text.count) / 2)
      return String(repeating: " ", count: left) + text
        + String(repeating: " ", count: max(0, width - left - text.count))
    }
    if canvas.colour {
      let block = String(repeating: " ", count: width)
      for _ in 0..<rows {
        canvas.add([
          Span(text: block, style: .bg(tint(target))), Span(text: "  ", style: .plain),
          Span(text: block, style: .bg(tint(guess))),
        ])
      }
    } else {
      canvas.add(Speech.say("bullseye.terminal.noColour"))
    }
    canvas.add(centred(targetLabel) + "  " + centred(guessLabel), .dim)
  }

  private func drawEnd(_ canvas: inout Canvas, _ view: BullseyeGame.View) {
    canvas.paragraph(Speech.say(view.message), .fg(.accent, bold: true))
    canvas.blank()
    for round in view.history ?? [] {
      var spans = [
        Span(
          text: Speech.say("bullseye.terminal.round", ["round": .int(round.round)]), style: .bold)
      ]
      if canvas.colour, let target = round.target {
        spans.append(
          Span(text: "    ", style: .bg(Tint(red: target.r, green: target.g, blue: target.b))))
        spans.append(
          Span(
            text: "    ",
            style: .bg(Tint(red: round.guess.r, green: round.guess.g, blue: round.guess.b)))
        )
        spans.append(Span(text: " ", style: .plain))
      }
      spans.append(
        Span(
          text: Speech.say(
            "bullseye.terminal.roundResult",
            [
              "target": .text(round.target?.hex ?? ""), "guess": .text(round.guess.hex),
              "score": .int(round.score), "deltaE": .decimal(round.deltaE),
              "meaning": .key(round.meaning.key),
            ]), style: .plain))
      canvas.add(spans)
    }
    let summary = session.game.summary
    canvas.blank()
    canvas.add(
      Speech.say(
        "bullseye.terminal.average",
        ["average": .decimal(summary.average), "best": .int(summary.bestRoundScore ?? 0)]))
    canvas.add(Speech.say("terminal.seed", ["seed": .text("\(session.seed)")]), .dim)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
