import RealModule

extension BullseyeGame {
  /// How a guess is scored, 0...100 (100 = a match).
  public enum Scoring: String, Codable, CaseIterable, Sendable {
    /// By how different the colours look: the CIEDE2000 ΔE00 mapped through
    /// `perceptualScore(deltaE:)`. The default.
    case perceptual
    /// By the distance of the RGB channels, like the seed's tutorial: see `classicScore`.
    case classic

    /// The score of `guess` against `target` under this scoring.
    public func score(target: RGB, guess: RGB) -> Int {
      switch self {
      case .perceptual: BullseyeGame.perceptualScore(deltaE: target.deltaE2000(to: guess))
      case .classic: BullseyeGame.classicScore(target: target, guess: guess)
      }
    }
  }

  /// The perceptual score of a colour difference: `round(100 / (1 + (ΔE00 / 10)^1.6))`.
  ///
  /// A log-logistic curve, the shape colour-matching games publish (dialed.gg's clones use the
  /// same form), tuned to the meaning of ΔE00: it falls steadily with the difference and is
  /// never below 0 nor above 100.
  /// - ΔE ≤ 0.36 (far below what anyone can see) scores 100, and nothing larger does;
  /// - ΔE 1 ("not perceptible") scores 98, ΔE 2 ("visible on close look") 93;
  /// - ΔE 2.5 scores 90;
  /// - ΔE 10 (the edge of "visible at a glance") scores 50;
  /// - ΔE 39.5 scores 10;
  /// - black against white (ΔE 100) scores 2.
  public static func perceptualScore(deltaE: Double) -> Int {
    guard deltaE > 0 else { return 100 }
    guard deltaE.isFinite else { return 0 }
    let value = 100 / (1 + Double.pow(deltaE / 10, 1.6))
    return Int(value.rounded())
  }

  /// The seed tutorial's score, corrected: `round(100 × (1 − √((Δr² + Δg² + Δb²) / 3)))` with the
  /// channels in 0...1. Dividing by 3 keeps the distance within 0...1, so the score stays in
  /// 0...100; the seed left the `/ 3` out and black against white scored about −73.
  public static func classicScore(target: RGB, guess: RGB) -> Int {
    let t = target.unitChannels
    let g = guess.unitChannels
    let dr = t.r - g.r
    let dg = t.g - g.g
    let db = t.b - g.b
    let distance = ((dr * dr + dg * dg + db * db) / 3).squareRoot()
    return min(max(Int((100 * (1 - distance)).rounded()), 0), 100)
  }
}
