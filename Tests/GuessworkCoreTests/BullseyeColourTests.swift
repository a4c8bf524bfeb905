import Foundation
import Testing

@testable import GuessworkCore

/// One row of the published CIEDE2000 test data.
struct CIEDE2000Case: Sendable, CustomTestStringConvertible {
  let pair: Int
  let first: (l: Double, a: Double, b: Double)
  let second: (l: Double, a: Double, b: Double)
  let deltaE: Double

  /// A row as the paper prints it: pair, L1 a1 b1, L2 a2 b2, ΔE00.
  static func row(
    _ pair: Int, _ l1: Double, _ a1: Double, _ b1: Double, _ l2: Double, _ a2: Double,
    _ b2: Double, _ deltaE: Double
  ) -> CIEDE2000Case {
    CIEDE2000Case(pair: pair, first: (l1, a1, b1), second: (l2, a2, b2), deltaE: deltaE)
  }

  var lab1: Lab { Lab(l: first.l, a: first.a, b: first.b) }
  var lab2: Lab { Lab(l: second.l, a: second.a, b: second.b) }
  var testDescription: String { "pair \(pair): ΔE00 \(deltaE)" }
}

@Suite("Bullseye colour science")
struct BullseyeColourTests {
  /// The complete test data of Sharma, Wu and Dalal (2005), "The CIEDE2000 Color-Difference
  /// Formula: Implementation Notes, Supplementary Test Data, and Mathematical Observations",
  /// Table 1 (ciede2000testdata.txt): 34 pairs, ΔE00 to four decimals. The pairs exercise the
  /// hue wrap-around of the mean hue and of the hue difference, neutral colours (C' = 0) and
  /// lightness extremes.
  static let sharmaTable: [CIEDE2000Case] = [
    // pair, L1 a1 b1, L2 a2 b2, ΔE00
    .row(1, 50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    .row(2, 50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    .row(3, 50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    .row(4, 50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
    .row(5, 50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
    .row(6, 50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
    .row(7, 50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    .row(8, 50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
    .row(9, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    .row(10, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    .row(11, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    .row(12, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    .row(13, 50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
    .row(14, 50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
    .row(15, 50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
    .row(16, 50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
    .row(17, 50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    .row(18, 50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
    .row(19, 50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
    .row(20, 50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
    .row(21, 50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    .row(22, 50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    .row(23, 50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
    .row(24, 50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
    .row(25, 60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    .row(26, 63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
    .row(27, 61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
    .row(28, 35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
    .row(29, 22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
    .row(30, 36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
    .row(31, 90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
    .row(32, 90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
    .row(33, 6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
    .row(34, 2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
  ]

  @Test("The published table has all 34 pairs")
  func tableIsComplete() {
    #expect(Self.sharmaTable.count == 34)
    #expect(Self.sharmaTable.map(\.pair) == Array(1...34))
  }

  @Test("CIEDE2000 matches Sharma, Wu and Dalal's test data to 1e-4", arguments: sharmaTable)
  func matchesPublishedData(row: CIEDE2000Case) {
    let computed = Lab.deltaE2000(row.lab1, row.lab2)
    #expect(abs(computed - row.deltaE) <= 1e-4, "computed \(computed)")
  }

  @Test("CIEDE2000 is symmetric", arguments: sharmaTable)
  func symmetricOnTable(row: CIEDE2000Case) {
    #expect(abs(Lab.deltaE2000(row.lab1, row.lab2) - Lab.deltaE2000(row.lab2, row.lab1)) < 1e-12)
  }

  @Test("CIEDE2000 is symmetric and zero on itself for random sRGB colours")
  func symmetricAndZeroOnRandomColours() {
    var random = SeededRandom(seed: 2005)
    for _ in 0..<2_000 {
      let x = RGB(
        r: random.int(in: 0...255), g: random.int(in: 0...255), b: random.int(in: 0...255))
      let y = RGB(
        r: random.int(in: 0...255), g: random.int(in: 0...255), b: random.int(in: 0...255))
      #expect(abs(x.deltaE2000(to: y) - y.deltaE2000(to: x)) < 1e-9)
      #expect(x.deltaE2000(to: x) == 0)
      #expect(x == y || x.deltaE2000(to: y) > 0)
    }
  }

  @Test("sRGB white is L 100, a 0, b 0 and black is L 0")
  func whiteAndBlack() {
    let white = RGB.white.lab
    #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
    let black = RGB.black.lab
    #expect(abs(black.l) < 0.01 && abs(black.a) < 0.01 && abs(black.b) < 0.01)
  }

  @Test(
    "sRGB primaries and a grey land on their known CIELAB values",
    arguments: [
      (RGB(r: 255, g: 0, b: 0), Lab(l: 53.24, a: 80.09, b: 67.20)),
      (RGB(r: 0, g: 255, b: 0), Lab(l: 87.73, a: -86.18, b: 83.18)),
      (RGB(r: 0, g: 0, b: 255), Lab(l: 32.30, a: 79.19, b: -107.86)),
      (RGB(r: 128, g: 128, b: 128), Lab(l: 53.59, a: 0, b: 0)),
    ])
  func knownLabValues(rgb: RGB, expected: Lab) {
    let lab = rgb.lab
    #expect(abs(lab.l - expected.l) < 0.01, "L \(lab.l)")
    #expect(abs(lab.a - expected.a) < 0.01, "a \(lab.a)")
    #expect(abs(lab.b - expected.b) < 0.01, "b \(lab.b)")
  }

  @Test("The sRGB transfer function is linear near black and a 2.4 power above")
  func transferFunction() {
    #expect(RGB.linear(0) == 0)
    #expect(RGB.linear(1) == 1)
    #expect(abs(RGB.linear(0.04) - 0.04 / 12.92) < 1e-15)
    #expect(abs(RGB.linear(0.5) - 0.214_041_140_5) < 1e-9)
  }

  @Test("Black against white differs by ΔE00 100")
  func blackWhite() {
    #expect(abs(RGB.black.deltaE2000(to: .white) - 100) < 1e-4)
  }

  @Test(
    "ΔE meanings change at 1, 2, 10 and 49 (bounds inclusive)",
    arguments: [
      (0.0, "not perceptible"), (1.0, "not perceptible"), (1.0001, "visible on close look"),
      (2.0, "visible on close look"), (2.05, "visible at a glance"),
      (10.0, "visible at a glance"), (10.1, "clearly different"),
      (49.0, "clearly different"), (49.01, "opposite colours"),
      (100.0, "opposite colours"),
    ])
  func meanings(deltaE: Double, label: String) {
    #expect(said(PerceivedDifference(deltaE: deltaE).message) == label)
  }

  @Test("RGB encodes as r, g, b and has an upper-case hex code")
  func rgbWireAndHex() throws {
    let colour = RGB(r: 10, g: 171, b: 255)
    #expect(colour.hex == "#0AABFF")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(colour), as: UTF8.self) == #"{"b":255,"g":171,"r":10}"#)
    let decoded = try JSONDecoder().decode(RGB.self, from: Data(#"{"r":10,"g":171,"b":255}"#.utf8))
    #expect(decoded == colour)
    #expect(RGB(hex: "#0aabff") == colour)
    #expect(RGB(hex: "0AABFF") == colour)
    #expect(RGB(hex: "#0AABF") == nil)
    #expect(RGB(hex: "#0AABFG") == nil)
    #expect(RGB(r: 300, g: -4, b: 0).hex == "#FF0000")
    #expect(!RGB(r: 300, g: 0, b: 0).isValid)
    #expect(RGB(r: 255, g: 0, b: 0).isValid)
  }
}
