/// A colour as three 8-bit channels.
struct Tint: Equatable {
  var red: UInt8
  var green: UInt8
  var blue: UInt8

  init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  init(red: Int, green: Int, blue: Int) {
    self.init(UInt8(clamping: red), UInt8(clamping: green), UInt8(clamping: blue))
  }

  /// `#rrggbb`, as the core writes colours.
  init?(hex: String) {
    let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
    guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
    self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
  }

  static let white = Tint(255, 255, 255)
  static let black = Tint(0, 0, 0)
  static let grey = Tint(140, 140, 140)
  static let good = Tint(57, 181, 74)
  static let bad = Tint(214, 69, 80)
  static let accent = Tint(0, 150, 220)
  static let warn = Tint(240, 170, 40)
}

/// How many colours the terminal shows.
enum ColourDepth: Equatable {
  /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
  case trueColour
  /// The xterm 256-colour palette.
  case palette256

  init(environment: [String: String]) {
    let declared = (environment["COLORTERM"] ?? "").lowercased()
    self = declared == "truecolor" || declared == "24bit" ? .trueColour : .palette256
  }

  /// The SGR parameters for `tint` as foreground (38) or background (48).
  func parameters(_ tint: Tint, layer: Int) -> String {
    switch self {
    case .trueColour: "\(layer);2;\(tint.red);\(tint.green);\(tint.blue)"
    case .palette256: "\(layer);5;\(Self.paletteIndex(tint))"
    }
  }

  /// The nearest colour of the xterm palette: the 6×6×6 cube or the 24 greys.
  static func paletteIndex(_ tint: Tint) -> Int {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearestLevel(_ value: UInt8) -> Int {
      levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) }!
    }
    let (r, g, b) = (nearestLevel(tint.red), nearestLevel(tint.green), nearestLevel(tint.blue))
    let cube = (levels[r], levels[g], levels[b])
    let average = (Int(tint.red) + Int(tint.green) + Int(tint.blue)) / 3
    let greyStep = max(0, min(23, (average - 8 + 5) / 10))
    let grey = 8 + greyStep * 10
    func distance(_ c: (Int, Int, Int)) -> Int {
      let dr = c.0 - Int(tint.red)
      let dg = c.1 - Int(tint.green)
      let db = c.2 - Int(tint.blue)
      return dr * dr + dg * dg + db * db
    }
    return distance((grey, grey, grey)) < distance(cube)
      ? 232 + greyStep : 16 + 36 * r + 6 * g + b
  }
}

struct Style: Equatable {
  var foreground: Tint?
  var background: Tint?
  var bold = false
  var dim = false
  var inverse = false

  static let plain = Style()
  static let bold = Style(bold: true)
  static let dim = Style(dim: true)
  static func fg(_ tint: Tint, bold: Bool = false) -> Style { Style(foreground: tint, bold: bold) }
  static func bg(_ tint: Tint) -> Style { Style(background: tint) }

  func escape(_ depth: ColourDepth) -> String {
    var parameters = ["0"]
    if bold { parameters.append("1") }
    if dim { parameters.append("2") }
    if inverse { parameters.append("7") }
    if let foreground { parameters.append(depth.parameters(foreground, layer: 38)) }
    if let background { parameters.append(depth.parameters(background, layer: 48)) }
    return "\u{1B}[" + parameters.joined(separator: ";") + "m"
  }
}

struct Span: Equatable {
  var text: String
  var style: Style
}

/// One line of a frame. A `volatile` line (a running clock) does not by itself make plain
/// output print the frame again.
struct Line: Equatable {
  var spans: [Span]
  var volatile = false

  var text: String { spans.map(\.text).joined() }
  var width: Int { spans.reduce(0) { $0 + displayWidth($1.text) } }
}

/// What one screen shows: lines, drawn centred. Screens build it; the renderer draws it as
/// escape sequences or plain lines.
struct Canvas {
  let width: Int
  let height: Int
  /// Whether colours show: screens that need colour say so in words when they do not.
  let colour: Bool
  private(set) var lines: [Line] = []

  init(width: Int, height: Int, colour: Bool) {
    self.width = width
    self.height = height
    self.colour = colour
  }

  mutating func add(_ spans: [Span], volatile: Bool = false) {
    lines.append(Line(spans: spans, volatile: volatile))
  }

  mutating func add(_ text: String, _ style: Style = .plain, volatile: Bool = false) {
    add([Span(text: text, style: style)], volatile: volatile)
  }

  mutating func blank() { add([]) }

  /// Lines of wrapped text (at most `limit` cells wide).
  mutating func paragraph(_ text: String, _ style: Style = .plain, limit: Int? = nil) {
    for line in wrap(text, width: min(limit ?? width - 4, width - 2)) { add(line, style) }
  }
}

/// Words of `text` in lines of at most `width` cells.
func wrap(_ text: String, width: Int) -> [String] {
  var lines: [String] = []
  var current = ""
  for word in text.split(separator: " ") {
    let candidate = current.isEmpty ? String(word) : current + " " + word
    if displayWidth(candidate) > width, !current.isEmpty {
      lines.append(current)
      current = String(word)
    } else {
      current = candidate
    }
  }
  if !current.isEmpty { lines.append(current) }
  return lines
}

/// The cells a character takes: 2 for emoji and East Asian wide characters, 0 for combining
/// marks and joiners, 1 otherwise.
func displayWidth(_ character: Character) -> Int {
  let scalars = character.unicodeScalars
  guard let first = scalars.first else { return 0 }
  if first.value < 0x300 { return first.value < 0x20 ? 0 : 1 }
  if scalars.contains(where: { $0.properties.isEmojiPresentation })
    || scalars.contains(where: { $0.value == 0xFE0F })
  {
    return 2
  }
  switch first.value {
  case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
    return 2
  default:
    return first.properties.generalCategory == .nonspacingMark ? 0 : 1
  }
}

func displayWidth(_ text: String) -> Int {
  text.reduce(0) { $0 + displayWidth($1) }
}

/// Draws canvases: full-screen with escape sequences, or as plain lines.
struct Renderer {
  let terminal: Terminal
  private var lastPlain: [String]?
  /// The last frame written, so an unchanged frame is not written again.
  private var lastFull = ""

  init(terminal: Terminal) {
    self.terminal = terminal
  }

  mutating func draw(_ canvas: Canvas) {
    switch terminal.mode {
    case .fullScreen(let depth): drawFull(canvas, depth: depth)
    case .plain: drawPlain(canvas)
    }
  }

  /// Plain mode prints a frame only when something other than a running clock changed.
  private mutating func drawPlain(_ canvas: Canvas) {
    let lines = canvas.lines.map { line in
      String(line.text.reversed().drop(while: { $0 == " " }).reversed())
    }
    let key = zip(canvas.lines, lines).filter { !$0.0.volatile }.map(\.1)
    guard key != lastPlain else { return }
    lastPlain = key
    var text = ""
    var previousBlank = true
    for line in lines {
      let blank = line.isEmpty
      if blank && previousBlank { continue }
      text += line + "\n"
      previousBlank = blank
    }
    terminal.write(text + "----\n")
  }

  private mutating func drawFull(_ canvas: Canvas, depth: ColourDepth) {
    let lines = Array(canvas.lines.prefix(canvas.height))
    let top = max(0, (canvas.height - lines.count) / 2)
    var out = "\u{1B}[0m\u{1B}[H"
    for row in 0..<canvas.height {
      let index = row - top
      if index >= 0, index < lines.count {
        let line = lines[index]
        let padding = max(0, (canvas.width - line.width) / 2)
        out += String(repeating: " ", count: padding)
        var room = canvas.width - padding
        for span in line.spans where room > 0 {
          var text = ""
          for character in span.text {
            let cells = displayWidth(character)
            if cells > room { room = 0; break }
            text.append(character)
            room -= cells
          }
          out += span.style.escape(depth) + text
        }
      }
      out += "\u{1B}[0m\u{1B}[K"
      if row < canvas.height - 1 { out += "\r\n" }
    }
    if terminalResized {
      // After a resize, start from a clean screen: the terminal may have reflowed the old one.
      terminalResized = false
      out = "\u{1B}[2J" + out
    } else if out == lastFull {
      return
    }
    lastFull = out
    terminal.write(out)
  }
}
