/// A key press, decoded from the bytes a terminal sends.
enum Key: Equatable {
  case character(Character)
  case enter
  case backspace
  case tab
  case escape
  case up, down, left, right
  /// Shift + arrow: big steps.
  case shiftUp, shiftDown, shiftLeft, shiftRight
  case pageUp, pageDown
  /// Home and End (`end` is the end of the input, below).
  case home, endKey
  /// Ctrl-C (the terminal is in raw mode, so it arrives as a byte, not a signal).
  case interrupt
  /// The input ended (a closed pipe).
  case end
  case unknown
}

/// Turns bytes into keys: UTF-8 characters, control bytes and the ANSI/VT escape sequences of
/// arrows (plain, with Shift in xterm's `ESC [ 1 ; 2 X` form and rxvt's `ESC [ a`), PgUp,
/// PgDn, Home and End. A sequence cut between two reads waits for the rest.
struct KeyDecoder {
  private var buffer: [UInt8] = []

  /// Whether an incomplete escape sequence is waiting for more bytes.
  var isWaiting: Bool { buffer.first == 0x1B }

  mutating func feed(_ bytes: [UInt8]) -> [Key] {
    buffer += bytes
    var keys: [Key] = []
    while let (key, length) = Self.decode(buffer[...]) {
      keys.append(key)
      buffer.removeFirst(length)
    }
    return keys
  }

  /// No more bytes are coming now: what is left is taken as it is (a lone ESC is Escape).
  mutating func flush() -> [Key] {
    guard !buffer.isEmpty else { return [] }
    var keys: [Key] = []
    if buffer.first == 0x1B {
      keys.append(.escape)
      buffer.removeFirst()
    }
    keys += feed([])
    if !buffer.isEmpty {
      keys.append(.unknown)
      buffer.removeAll()
    }
    return keys
  }

  /// The first key in `bytes` and how many bytes it took; nil when more bytes are needed.
  static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    let start = bytes.startIndex
    switch first {
    case 0x1B:
      guard bytes.count >= 2 else { return nil }
      let second = bytes[start + 1]
      if second == UInt8(ascii: "[") || second == UInt8(ascii: "O") {
        // CSI / SS3: parameters, then a final byte in 0x40...0x7E.
        var index = start + 2
        while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        let final = bytes[index]
        return (csiKey(parameters: parameters, final: final), index - start + 1)
      }
      if second == 0x1B { return (.escape, 1) }
      // Alt + key: take the key.
      return (.escape, 1)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x09: return (.tab, 1)
    case 0x03: return (.interrupt, 1)
    case 0x00..<0x20: return (.unknown, 1)
    default:
      let length: Int =
        first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
      guard bytes.count >= length else { return nil }
      let text = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
      return (text.first.map(Key.character) ?? .unknown, length)
    }
  }

  private static func csiKey(parameters: String, final: UInt8) -> Key {
    let parts = parameters.split(separator: ";")
    let shifted = parts.count >= 2 && parts[1] == "2"
    switch final {
    case UInt8(ascii: "A"): return shifted ? .shiftUp : .up
    case UInt8(ascii: "B"): return shifted ? .shiftDown : .down
    case UInt8(ascii: "C"): return shifted ? .shiftRight : .right
    case UInt8(ascii: "D"): return shifted ? .shiftLeft : .left
    case UInt8(ascii: "a"): return .shiftUp
    case UInt8(ascii: "b"): return .shiftDown
    case UInt8(ascii: "c"): return .shiftRight
    case UInt8(ascii: "d"): return .shiftLeft
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .endKey
    case UInt8(ascii: "~"):
      switch parts.first {
      case "5": return .pageUp
      case "6": return .pageDown
      case "1", "7": return .home
      case "4", "8": return .endKey
      default: return .unknown
      }
    default: return .unknown
    }
  }
}

extension Key {
  /// The digit this key types, if it is one.
  var digit: Int? {
    if case .character(let character) = self, let value = character.wholeNumberValue,
      character.isASCII
    {
      return value
    }
    return nil
  }

  /// Whether this is the letter `letter`, in either case.
  func `is`(_ letter: Character) -> Bool {
    if case .character(let character) = self {
      return character.lowercased() == letter.lowercased()
    }
    return false
  }

  /// Keys that leave a screen: Q, Esc, Ctrl-C, or the end of the input.
  var isQuit: Bool {
    self == .escape || self == .interrupt || self == .end || self.is("q")
  }
}
