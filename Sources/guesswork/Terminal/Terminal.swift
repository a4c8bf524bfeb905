import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The terminal's saved state lives in globals because signal handlers, which are plain C
// functions, must reach it. Only `enter`/`leave` write them, on the main flow; handlers only
// read them (and restore the terminal with async-signal-safe calls: tcsetattr and write).
nonisolated(unsafe) private var savedAttributes = termios()
nonisolated(unsafe) private var rawModeOn = false
nonisolated(unsafe) private var fullScreenOn = false
nonisolated(unsafe) private var handlersInstalled = false
/// Set by SIGWINCH; the loop redraws and clears it.
nonisolated(unsafe) var terminalResized = false

/// Leaves the alternate screen, shows the cursor and restores the keyboard's modes, using
/// only async-signal-safe calls so that signal handlers may call it.
private func restoreTerminalNow() {
  if fullScreenOn {
    // Reset colours, show the cursor, leave the alternate screen.
    let leave: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
    _ = leave.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    fullScreenOn = false
  }
  if rawModeOn {
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedAttributes)
    rawModeOn = false
  }
}

/// A fatal signal (or a termination request) arrived: put the terminal back, then let the
/// signal do what it would have done, so the exit status still tells what happened.
private func restoreAndReraise(_ signalNumber: Int32) {
  restoreTerminalNow()
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}

/// How the screen is drawn.
enum OutputMode: Equatable {
  /// Full-screen: alternate screen, hidden cursor, cursor positioning, colours.
  case fullScreen(ColourDepth)
  /// Plain lines with no escape sequence at all: `NO_COLOR`, or output that is not a terminal.
  case plain
}

/// The terminal: raw keyboard input through termios, the alternate screen, the window size,
/// and a guarantee that whatever happens (a normal exit, Ctrl-C, SIGTERM, a crash) the
/// terminal is given back as it was found.
final class Terminal {
  let mode: OutputMode
  let inputIsTerminal: Bool
  private var decoder = KeyDecoder()
  private var pending: [Key] = []
  private(set) var inputEnded = false

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    inputIsTerminal = isatty(STDIN_FILENO) == 1
    let noColour = !(environment["NO_COLOR"] ?? "").isEmpty
    if !outputIsTerminal || noColour || environment["TERM"] == "dumb" {
      mode = .plain
    } else {
      mode = .fullScreen(ColourDepth(environment: environment))
    }
  }

  var isFullScreen: Bool { mode != .plain }

  /// Installs the handlers that restore the terminal on exit, on SIGINT/SIGTERM/SIGHUP and on
  /// a crash, and the SIGWINCH handler that asks for a redraw.
  private static func installHandlers() {
    guard !handlersInstalled else { return }
    handlersInstalled = true
    atexit { restoreTerminalNow() }
    for fatal in [
      SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE,
    ] {
      signal(fatal) { restoreAndReraise($0) }
    }
    signal(SIGWINCH) { _ in terminalResized = true }
  }

  /// Raw keys (when the input is a terminal) and, in full-screen mode, the alternate screen
  /// with a hidden cursor.
  func enter() {
    Self.installHandlers()
    if inputIsTerminal, !rawModeOn {
      var attributes = termios()
      if tcgetattr(STDIN_FILENO, &attributes) == 0 {
        savedAttributes = attributes
        // Like cfmakeraw, but output processing stays on (so "\n" still returns the carriage).
        attributes.c_iflag &= ~tcflag_t(
          IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        attributes.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        attributes.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        attributes.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &attributes.c_cc) { cc in
          cc[Int(VMIN)] = 1
          cc[Int(VTIME)] = 0
        }
        rawModeOn = true
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
      }
    }
    if isFullScreen, !fullScreenOn {
      fullScreenOn = true
      write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }
  }

  /// Gives the terminal back as it was.
  func leave() {
    restoreTerminalNow()
  }

  /// The window's size in cells (80×24 when it cannot be told).
  var size: (columns: Int, rows: Int) {
    var window = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
      return (Int(window.ws_col), Int(window.ws_row))
    }
    return (80, 24)
  }

  func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBufferPointer {
        Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      offset += written
    }
  }

  /// The next key, waiting at most `timeoutMs` (nil when none came). After the input ends
  /// (a pipe closed), returns `.end` forever.
  func readKey(timeoutMs: Int32) -> Key? {
    if !pending.isEmpty { return pending.removeFirst() }
    if inputEnded { return .end }
    guard let bytes = readBytes(timeoutMs: timeoutMs) else { return nil }
    if bytes.isEmpty {
      inputEnded = true
      pending = decoder.flush()
      pending.append(.end)
      return pending.removeFirst()
    }
    pending = decoder.feed(bytes)
    // A lone ESC may be the start of a sequence still on its way: give it a moment.
    if decoder.isWaiting, let more = readBytes(timeoutMs: 40), !more.isEmpty {
      pending += decoder.feed(more)
    }
    pending += decoder.flush()
    return pending.isEmpty ? nil : pending.removeFirst()
  }

  /// Bytes from stdin: nil on timeout (or a signal), empty at the end of the input.
  private func readBytes(timeoutMs: Int32) -> [UInt8]? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, timeoutMs)
    guard ready > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBufferPointer { read(STDIN_FILENO, $0.baseAddress, 256) }
    if count < 0 { return errno == EINTR || errno == EAGAIN ? nil : [] }
    return Array(buffer.prefix(count))
  }
}
