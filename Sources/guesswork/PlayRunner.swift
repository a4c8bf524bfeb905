import Foundation
import GuessworkCore
import GuessworkPlay

/// What the player chose when a screen ends.
enum Choice {
  case again, menu, quit
  /// Ctrl-C: leave at once.
  case interrupted
}

/// A game's terminal screen: turns keys into the engine's actions and draws its view.
protocol GameScreen: AnyObject {
  associatedtype G: Game
  /// The keys of the game, in a few lines, for `guesswork play --help`.
  static var help: String { get }
  init(session: LocalSession<G>, content: ChosenContent)
  var session: LocalSession<G> { get }
  /// Timed games are redrawn every 50 ms; the others when a key comes (or every 250 ms).
  var isTimed: Bool { get }
  /// The action that ends the game early (Color Match's quit, Guess or Pass's end), if any.
  var quitAction: G.Action? { get }
  /// The keys, in one line, for the footer.
  var controls: String { get }
  func handle(_ key: Key, at now: Instant)
  func draw(_ canvas: inout Canvas, at now: Instant)
}

/// The smallest terminal a game is drawn in.
let minimumColumns = 40
let minimumRows = 12

/// Runs screens on the terminal: the timer loop, resizing, recording, the end-of-game keys.
final class Runner {
  let terminal: Terminal
  var renderer: Renderer
  let recorder: Recorder
  let clock = GameClock()
  /// Where Esc leads: back to the menu when the game was picked there.
  var fromMenu = false
  private var lastFrame = ""

  init(terminal: Terminal, recorder: Recorder) {
    self.terminal = terminal
    self.renderer = Renderer(terminal: terminal)
    self.recorder = recorder
  }

  func canvas() -> Canvas? {
    let size = terminal.size
    let colour = terminal.isFullScreen
    guard !terminal.isFullScreen || (size.columns >= minimumColumns && size.rows >= minimumRows)
    else { return nil }
    return Canvas(
      width: terminal.isFullScreen ? size.columns : 72,
      height: terminal.isFullScreen ? size.rows : 200, colour: colour)
  }

  /// A clear message instead of a broken screen.
  func drawTooSmall() {
    let size = terminal.size
    var canvas = Canvas(width: size.columns, height: size.rows, colour: false)
    for line in wrap(
      Speech.say(
        "terminal.tooSmall",
        [
          "columns": .text("\(size.columns)"), "rows": .text("\(size.rows)"),
          "minColumns": .text("\(minimumColumns)"), "minRows": .text("\(minimumRows)"),
        ]),
      width: max(10, size.columns - 2))
    {
      canvas.add(line, .bold)
    }
    renderer.draw(canvas)
  }

  /// Draws a frame built by `build`, or the too-small message.
  func show(_ build: (inout Canvas) -> Void) {
    guard var canvas = canvas() else { return drawTooSmall() }
    build(&canvas)
    renderer.draw(canvas)
  }

  /// Plays one game to its end (or until the player leaves) and records it.
  func run<S: GameScreen>(_ screen: S) async -> Choice {
    await recorder.begin(screen.session)
    var recorded = false
    while true {
      let now = clock.now()
      screen.session.tick(at: now)
      if screen.session.isOver, !recorded {
        recorded = true
        await recorder.finish(screen.session)
      }
      show { canvas in
        screen.draw(&canvas, at: now)
        if let notice = screen.session.notice {
          canvas.blank()
          canvas.paragraph(Speech.say(notice), .fg(.warn, bold: true))
        }
        canvas.blank()
        canvas.paragraph(
          screen.session.isOver
            ? Speech.say("terminal.afterGame") + (recordedLine.map { " · " + $0 } ?? "")
            : screen.controls, .dim)
      }
      let timeout: Int32 = screen.isTimed && !screen.session.isOver ? 50 : 250
      guard let key = terminal.readKey(timeoutMs: timeout) else { continue }
      if key == .interrupt { return .interrupted }
      if screen.session.isOver {
        switch key {
        case .enter, .character(" "): return .again
        case _ where key.is("a"): return .again
        case _ where key.is("m"): return .menu
        case _ where key.isQuit: return key == .escape && fromMenu ? .menu : .quit
        default: continue
        }
      }
      if canvas() == nil {
        if key.isQuit { return .quit }
        continue
      }
      if key.isQuit {
        if let quit = screen.quitAction {
          screen.session.apply(quit, at: clock.now())
          if key == .end {
            // The input is gone: record the game and leave.
            if !recorded { await recorder.finish(screen.session) }
            return .quit
          }
          continue
        }
        return fromMenu && key == .escape ? .menu : .quit
      }
      screen.handle(key, at: clock.now())
    }
  }

  /// Says where the game went.
  private var recordedLine: String? {
    recorder.player == nil ? Speech.say("terminal.notCounted") : nil
  }

  /// A list to pick from with ↑/↓ and Enter, or the item's number; nil when the player leaves.
  func pick(title: String, subtitle: String, items: [String]) -> Int? {
    var selected = 0
    while true {
      show { canvas in
        canvas.add(title, .fg(.accent, bold: true))
        canvas.blank()
        canvas.paragraph(subtitle)
        canvas.blank()
        let widest = items.map { displayWidth($0) }.max() ?? 0
        for (index, item) in items.enumerated() {
          let padded = item + String(repeating: " ", count: widest - displayWidth(item))
          let text = " \(index + 1)  \(padded) "
          canvas.add(
            text,
            index == selected
              ? (canvas.colour ? Style(inverse: true) : .bold) : .plain)
        }
        canvas.blank()
        canvas.add("↑/↓ or 1–\(items.count) to choose · Enter to start · Q to quit", .dim)
      }
      guard let key = terminal.readKey(timeoutMs: 250) else { continue }
      switch key {
      case .up: selected = (selected + items.count - 1) % items.count
      case .down, .tab: selected = (selected + 1) % items.count
      case .enter: return selected
      case _ where key.digit.map { (1...items.count).contains($0) } == true:
        return key.digit! - 1
      case _ where key.isQuit: return nil
      default: continue
      }
    }
  }
}
