import RealModule

extension Lab {
  /// The CIEDE2000 colour difference ΔE00 between two CIELAB colours, with the parametric
  /// factors kL = kC = kH = 1.
  ///
  /// Follows the formulas as set out in G. Sharma, W. Wu and E. N. Dalal, "The CIEDE2000
  /// Color-Difference Formula: Implementation Notes, Supplementary Test Data, and Mathematical
  /// Observations", Color Research and Application 30(1), 2005 — equations (1) to (17), including
  /// their notes: hue angles are in degrees in 0..<360, a hue is 0 when a' = b = 0, the hue
  /// difference and mean hue are taken the short way round the circle, and when either chroma
  /// C' is 0 the hue difference is 0 and the mean hue is the plain sum. The result is symmetric
  /// in its arguments and 0 for identical colours.
  public static func deltaE2000(_ first: Lab, _ second: Lab) -> Double {
    let pow25To7 = 6_103_515_625.0  // 25^7

    // (2)-(7): a' corrected for the near-neutral region, then C' and h'.
    let c1 = (first.a * first.a + first.b * first.b).squareRoot()
    let c2 = (second.a * second.a + second.b * second.b).squareRoot()
    let meanC = (c1 + c2) / 2
    let meanC7 = Double.pow(meanC, 7)
    let g = 0.5 * (1 - (meanC7 / (meanC7 + pow25To7)).squareRoot())
    let a1 = (1 + g) * first.a
    let a2 = (1 + g) * second.a
    let chroma1 = (a1 * a1 + first.b * first.b).squareRoot()
    let chroma2 = (a2 * a2 + second.b * second.b).squareRoot()
    let hue1 = hueDegrees(a: a1, b: first.b)
    let hue2 = hueDegrees(a: a2, b: second.b)

    // (8)-(10): the differences.
    let deltaL = second.l - first.l
    let deltaC = chroma2 - chroma1
    let chromaProduct = chroma1 * chroma2
    var deltaHue = 0.0
    if chromaProduct != 0 {
      deltaHue = hue2 - hue1
      if deltaHue > 180 {
        deltaHue -= 360
      } else if deltaHue < -180 {
        deltaHue += 360
      }
    }
    let deltaH = 2 * chromaProduct.squareRoot() * Double.sin(radians(deltaHue / 2))

    // (12)-(14): the means; the mean hue goes the short way round the circle.
    let meanL = (first.l + second.l) / 2
    let meanChroma = (chroma1 + chroma2) / 2
    var meanHue = hue1 + hue2
    if chromaProduct != 0 {
      if abs(hue1 - hue2) <= 180 {
        meanHue = (hue1 + hue2) / 2
      } else if hue1 + hue2 < 360 {
        meanHue = (hue1 + hue2 + 360) / 2
      } else {
        meanHue = (hue1 + hue2 - 360) / 2
      }
    }

    // (15)-(21): the weighting functions and the rotation term.
    let t =
      1 - 0.17 * Double.cos(radians(meanHue - 30)) + 0.24 * Double.cos(radians(2 * meanHue))
      + 0.32 * Double.cos(radians(3 * meanHue + 6)) - 0.20 * Double.cos(radians(4 * meanHue - 63))
    let deltaTheta = 30 * Double.exp(-((meanHue - 275) / 25) * ((meanHue - 275) / 25))
    let meanChroma7 = Double.pow(meanChroma, 7)
    let rotationC = 2 * (meanChroma7 / (meanChroma7 + pow25To7)).squareRoot()
    let lightnessOffset = (meanL - 50) * (meanL - 50)
    let sL = 1 + 0.015 * lightnessOffset / (20 + lightnessOffset).squareRoot()
    let sC = 1 + 0.045 * meanChroma
    let sH = 1 + 0.015 * meanChroma * t
    let rotationT = -Double.sin(radians(2 * deltaTheta)) * rotationC

    // (22), with kL = kC = kH = 1.
    let termL = deltaL / sL
    let termC = deltaC / sC
    let termH = deltaH / sH
    let sum = termL * termL + termC * termC + termH * termH + rotationT * termC * termH
    return max(sum, 0).squareRoot()
  }

  /// The hue angle of (a', b) in degrees in 0..<360; 0 for the neutral axis, as the paper says.
  private static func hueDegrees(a: Double, b: Double) -> Double {
    if a == 0 && b == 0 { return 0 }
    let degrees = Double.atan2(y: b, x: a) * 180 / Double.pi
    return degrees < 0 ? degrees + 360 : degrees
  }

  private static func radians(_ degrees: Double) -> Double {
    degrees * Double.pi / 180
  }
}

/// What a CIEDE2000 difference means to an observer, on the common rule of thumb (as in the
/// `wezterm` documentation the seed research cites): up to 1 nobody sees it, up to 2 only on a
/// close look, up to 10 at a glance, up to 49 the colours are still more alike than opposite.
public enum PerceivedDifference: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
  /// ΔE00 ≤ 1.
  case notPerceptible
  /// 1 < ΔE00 ≤ 2.
  case visibleOnCloseLook
  /// 2 < ΔE00 ≤ 10.
  case visibleAtAGlance
  /// 10 < ΔE00 ≤ 49.
  case moreSimilarThanOpposite
  /// ΔE00 > 49.
  case oppositeColours

  /// The band `deltaE` falls in (upper bounds inclusive).
  public init(deltaE: Double) {
    switch deltaE {
    case ...1: self = .notPerceptible
    case ...2: self = .visibleOnCloseLook
    case ...10: self = .visibleAtAGlance
    case ...49: self = .moreSimilarThanOpposite
    default: self = .oppositeColours
    }
  }

  /// What a player reads: `bullseye.difference.<band>` ("visible at a glance").
  public var message: Message { Message("bullseye.difference.\(name)") }

  /// The band's name in the catalog.
  public var name: String {
    switch self {
    case .notPerceptible: "notPerceptible"
    case .visibleOnCloseLook: "visibleOnCloseLook"
    case .visibleAtAGlance: "visibleAtAGlance"
    case .moreSimilarThanOpposite: "moreSimilarThanOpposite"
    case .oppositeColours: "oppositeColours"
    }
  }

  public var description: String { name }
}
