/// A moment, in milliseconds since the Unix epoch.
///
/// The core never reads a clock: whoever applies an action says when it happens. The server
/// passes its own wall clock, the terminal a monotonic one, tests whatever they like. It encodes
/// as a bare integer.
public struct Instant: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var milliseconds: Int64

  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  /// The moment zero, handy in tests.
  public static let zero = Instant(milliseconds: 0)

  public static func < (lhs: Instant, rhs: Instant) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }

  /// This moment moved by `milliseconds`.
  public func advanced(by milliseconds: Int64) -> Instant {
    Instant(milliseconds: self.milliseconds &+ milliseconds)
  }

  /// The milliseconds from `earlier` to this moment (negative when `earlier` is later).
  public func milliseconds(since earlier: Instant) -> Int64 {
    milliseconds &- earlier.milliseconds
  }

  public var description: String { "\(milliseconds) ms" }

  public init(from decoder: any Decoder) throws {
    milliseconds = try decoder.singleValueContainer().decode(Int64.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(milliseconds)
  }
}
