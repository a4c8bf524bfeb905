/// A small seeded random number generator (SplitMix64) with our own range sampling and shuffle.
///
/// The standard library does not promise that `shuffle(using:)` or `random(in:using:)` produce
/// the same values across Swift versions, and a stored seed must replay the same game forever
/// (a resumed game, a daily challenge). So every random choice a game makes goes through this
/// type, whose outputs are pinned by tests. It deliberately does not conform to
/// `RandomNumberGenerator`, so that it cannot be handed to those unstable algorithms by accident.
///
/// It is a value: storing it inside a game's state and decoding it later resumes the sequence
/// exactly where it was.
public struct SeededRandom: Codable, Hashable, Sendable {
  /// The generator's whole state.
  public private(set) var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits (SplitMix64, Steele, Lea and Flood 2014).
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly distributed value in `0..<bound`, without modulo bias.
  ///
  /// Lemire's multiply-and-shift method ("Fast Random Integer Generation in an Interval",
  /// 2019): the rare draws that would make some values more likely than others are rejected.
  public mutating func value(below bound: UInt64) -> UInt64 {
    precondition(bound > 0, "bound must be positive")
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return product.high
  }

  /// A uniformly distributed integer in `range`.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound))
    if width == .max { return Int(truncatingIfNeeded: next()) }
    return range.lowerBound &+ Int(truncatingIfNeeded: value(below: width + 1))
  }

  /// A uniformly distributed index in `0..<count`.
  public mutating func index(below count: Int) -> Int {
    precondition(count > 0, "count must be positive")
    return Int(value(below: UInt64(count)))
  }

  /// A uniformly distributed `Double` in `0..<1`, with 53 random bits.
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// `true` with probability `probability` (clamped to 0...1).
  public mutating func chance(_ probability: Double) -> Bool {
    unit() < probability
  }

  /// Shuffles `elements` in place with the Fisher-Yates algorithm: every order is equally likely.
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    guard elements.count > 1 else { return }
    var last = elements.count - 1
    while last > 0 {
      let other = index(below: last + 1)
      elements.swapAt(last, other)
      last -= 1
    }
  }

  /// A shuffled copy of `elements`.
  public mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
    var copy = elements
    shuffle(&copy)
    return copy
  }

  /// One element of `elements`, chosen uniformly; `nil` when it is empty.
  public mutating func element<Element>(of elements: [Element]) -> Element? {
    elements.isEmpty ? nil : elements[index(below: elements.count)]
  }
}
