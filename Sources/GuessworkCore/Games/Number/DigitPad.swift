/// The display of the number game's digit pad, as in the seed app: each digit shifts the display
/// left and the oldest digit falls off once the display is full.
///
/// It lives in the core so that the browser, the terminal and the API all enter numbers the same
/// way: front ends only send key presses. The display may be empty (nothing typed yet), and it
/// keeps leading zeros as typed ("07") so the player sees exactly what they pressed.
public struct DigitPad: Codable, Sendable, Equatable {
  /// How many digits the display holds: as many as the highest number in the range has.
  public let width: Int
  /// The digits typed so far, oldest first; at most `width` of them.
  public private(set) var display: String

  /// An empty display holding `width` digits (at least one).
  public init(width: Int) {
    precondition(width >= 1, "a display holds at least one digit")
    self.width = width
    self.display = ""
  }

  /// An empty display wide enough for every number up to `high` (which must not be negative).
  public init(fitting high: Int) {
    precondition(high >= 0, "the digit pad enters numbers from 0 up")
    self.init(width: String(high).count)
  }

  /// Types `digit` (0...9): it enters on the right; when the display is full the oldest digit
  /// falls off the left.
  public mutating func press(_ digit: Int) {
    precondition((0...9).contains(digit), "a digit is 0...9")
    display.append(String(digit))
    if display.count > width { display.removeFirst() }
  }

  /// Drops the last digit typed, if any.
  public mutating func backspace() {
    if !display.isEmpty { display.removeLast() }
  }

  /// Empties the display.
  public mutating func clear() {
    display = ""
  }

  /// Whether nothing is typed.
  public var isEmpty: Bool { display.isEmpty }

  /// The number on the display, or `nil` when it is empty.
  public var value: Int? { display.isEmpty ? nil : Int(display) }
}
