/// A colour as an sRGB triple of 8-bit channels, the way a player mixes it with three sliders.
///
/// It encodes as `{"r":10,"g":20,"b":30}`. The channels are plain `Int`s so that a value a client
/// sent can be held and refused with a clear reason (a game checks `isValid`) rather than failing
/// to decode: a colour is only meaningful when every channel is in `0...255`. Colour science on an
/// invalid value uses its channels clamped to that range.
public struct RGB: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The range of every channel.
  public static let channelRange: ClosedRange<Int> = 0...255

  public var r: Int
  public var g: Int
  public var b: Int

  public init(r: Int, g: Int, b: Int) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// The middle of every slider, where a guess starts (the seed started its sliders at 0.5).
  public static let middle = RGB(r: 128, g: 128, b: 128)
  public static let black = RGB(r: 0, g: 0, b: 0)
  public static let white = RGB(r: 255, g: 255, b: 255)

  /// Whether every channel lies in `0...255`.
  public var isValid: Bool {
    Self.channelRange.contains(r) && Self.channelRange.contains(g) && Self.channelRange.contains(b)
  }

  /// The same colour with each channel clamped to `0...255`.
  public var clamped: RGB {
    RGB(r: Self.clamp(r), g: Self.clamp(g), b: Self.clamp(b))
  }

  /// The channels in `0...1`, as the seed's sliders held them (clamped).
  public var unitChannels: (r: Double, g: Double, b: Double) {
    let c = clamped
    return (Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255)
  }

  /// The colour as a CSS hex code, `"#RRGGBB"` in upper case (clamped).
  public var hex: String {
    let c = clamped
    return "#" + Self.hexByte(c.r) + Self.hexByte(c.g) + Self.hexByte(c.b)
  }

  /// Reads `"#RRGGBB"` or `"RRGGBB"` (either case); `nil` for anything else.
  public init?(hex: String) {
    var digits = Substring(hex)
    if digits.first == "#" { digits = digits.dropFirst() }
    guard digits.count == 6, digits.allSatisfy(\.isHexDigit),
      let value = Int(digits, radix: 16)
    else { return nil }
    self.init(r: value >> 16, g: (value >> 8) & 0xFF, b: value & 0xFF)
  }

  public var description: String { "rgb(\(r), \(g), \(b))" }

  private static func clamp(_ channel: Int) -> Int {
    min(max(channel, channelRange.lowerBound), channelRange.upperBound)
  }

  private static func hexByte(_ value: Int) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[value >> 4], digits[value & 0xF]])
  }
}
