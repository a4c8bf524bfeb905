import RealModule

extension ColorMatchGame {
  /// A colour as 8-bit sRGB channels, with what a page needs to draw it and what the core needs
  /// to prove it readable (WCAG 2 relative luminance and contrast ratio).
  public struct RGB: Codable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
      self.red = red
      self.green = green
      self.blue = blue
    }

    /// CSS notation, lower case: `#b32f3c`.
    public var hex: String {
      "#"
        + [red, green, blue].map { channel in
          let digits = String(channel, radix: 16)
          return channel < 16 ? "0" + digits : digits
        }.joined()
    }

    /// WCAG 2 relative luminance, 0 (black) ... 1 (white).
    public var relativeLuminance: Double {
      func linear(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : Double.pow((value + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio with `other`, 1 ... 21 (3 is the floor for large text, 4.5 for
    /// body text).
    public func contrastRatio(with other: RGB) -> Double {
      let a = relativeLuminance
      let b = other.relativeLuminance
      return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
  }

  /// The six colours of the game, with the seed app's inks.
  ///
  /// No single background keeps all six inks readable (yellow needs a dark one, purple a light
  /// one), so each ink brings the card background it is drawn on: `paper` for the dark inks
  /// (red, blue, purple), `slate` for the light ones (orange, yellow, green). Every pair reaches
  /// a contrast of at least 4.5:1, which tests check.
  public enum Colour: String, Codable, CaseIterable, Sendable {
    case red, orange, yellow, green, blue, purple

    /// The word a card shows for this colour ("Red"): `color-match.colour.<colour>`.
    public var word: Message { Message("color-match.colour.\(rawValue)") }

    /// The ink, as in the seed app.
    public var rgb: RGB {
      switch self {
      case .red: RGB(179, 47, 60)
      case .orange: RGB(248, 148, 29)
      case .yellow: RGB(231, 217, 54)
      case .green: RGB(57, 181, 74)
      case .blue: RGB(0, 114, 188)
      case .purple: RGB(146, 39, 143)
      }
    }

    /// The ink in CSS notation (`#b32f3c`).
    public var hex: String { rgb.hex }

    /// The card background a word in this ink is drawn on, chosen for contrast.
    public var cardBackground: RGB {
      switch self {
      case .red, .blue, .purple: ColorMatchGame.paper
      case .orange, .yellow, .green: ColorMatchGame.slate
      }
    }
  }

  /// A light, warm card background (`#f4f1ea`) for the dark inks and for the top card.
  public static let paper = RGB(0xF4, 0xF1, 0xEA)
  /// A dark card background (`#1f2430`) for the light inks.
  public static let slate = RGB(0x1F, 0x24, 0x30)
  /// The top card's ink: a neutral dark grey on `paper`. The top word only carries a meaning;
  /// a coloured ink there would add a second Stroop conflict the question does not ask about.
  public static let neutralInk = RGB(0x1F, 0x24, 0x30)
}
