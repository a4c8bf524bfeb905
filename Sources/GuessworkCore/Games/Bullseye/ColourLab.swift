import RealModule

/// CIE 1931 XYZ tristimulus values, scaled so that the D65 white has Y = 1.
public struct XYZ: Equatable, Sendable {
  public var x: Double
  public var y: Double
  public var z: Double

  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The D65 reference white that sRGB is defined against (IEC 61966-2-1), matching the rows of
  /// the sRGB matrix below so that sRGB white lands on a* = b* = 0.
  public static let d65White = XYZ(x: 0.950_47, y: 1.0, z: 1.088_83)
}

/// A colour in CIELAB (CIE 1976 L*a*b*): L* is lightness 0...100, a* runs green to red, b* blue
/// to yellow. Distances in this space (and better, CIEDE2000 on it) track what people perceive,
/// which raw RGB distances do not.
public struct Lab: Equatable, Sendable, CustomStringConvertible {
  public var l: Double
  public var a: Double
  public var b: Double

  public init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// The CIELAB coordinates of `xyz` relative to `white` (D65 unless told).
  public init(_ xyz: XYZ, white: XYZ = .d65White) {
    let fx = Self.f(xyz.x / white.x)
    let fy = Self.f(xyz.y / white.y)
    let fz = Self.f(xyz.z / white.z)
    self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }

  /// The CIELAB coordinates of an sRGB colour, through linear light and XYZ under D65.
  public init(_ rgb: RGB) {
    self.init(XYZ(rgb))
  }

  public var description: String { "Lab(\(l), \(a), \(b))" }

  /// The CIELAB companding function: a cube root, with a linear segment near black.
  private static func f(_ t: Double) -> Double {
    let delta = 6.0 / 29.0
    return t > delta * delta * delta ? Double.root(t, 3) : t / (3 * delta * delta) + 4.0 / 29.0
  }
}

extension XYZ {
  /// The XYZ values of an sRGB colour (clamped to 0...255), via the sRGB transfer function and
  /// the sRGB-to-XYZ matrix for D65.
  public init(_ rgb: RGB) {
    let (r, g, b) = rgb.unitChannels
    let lr = RGB.linear(r)
    let lg = RGB.linear(g)
    let lb = RGB.linear(b)
    self.init(
      x: 0.412_456_4 * lr + 0.357_576_1 * lg + 0.180_437_5 * lb,
      y: 0.212_672_9 * lr + 0.715_152_2 * lg + 0.072_175_0 * lb,
      z: 0.019_333_9 * lr + 0.119_192_0 * lg + 0.950_304_1 * lb)
  }
}

extension RGB {
  /// Undoes the sRGB gamma: a channel in 0...1 to linear light in 0...1.
  public static func linear(_ channel: Double) -> Double {
    channel <= 0.040_45 ? channel / 12.92 : Double.pow((channel + 0.055) / 1.055, 2.4)
  }

  /// This colour in CIELAB.
  public var lab: Lab { Lab(self) }

  /// The CIEDE2000 colour difference ΔE00 between this colour and `other`.
  public func deltaE2000(to other: RGB) -> Double {
    Lab.deltaE2000(lab, other.lab)
  }
}
