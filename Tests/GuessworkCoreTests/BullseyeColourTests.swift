import Foundation
import Testing

@testable import GuessworkCore

/// One row of the published CIEDE2000 test data.
struct CIEDE2000Case: Sendable, CustomTestStringConvertible {
  let pair: Int
  let first: (l: Double, a: Double, b: Double)
  let second: (l: Double, a: Double, b: Double)
  let deltaE: Double

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
    .init(pair: 1, first: (50.0000, 2.6772, -79.7751), second: (50.0000, 0.0000, -82.7485), deltaE: 2.0425),
    .init(pair: 2, first: (50.0000, 3.1571, -77.2803), second: (50.0000, 0.0000, -82.7485), deltaE: 2.8615),
    .init(pair: 3, first: (50.0000, 2.8361, -74.0200), second: (50.0000, 0.0000, -82.7485), deltaE: 3.4412),
    .init(pair: 4, first: (50.0000, -1.3802, -84.2814), second: (50.0000, 0.0000, -82.7485), deltaE: 1.0000),
    .init(pair: 5, first: (50.0000, -1.1848, -84.8006), second: (50.0000, 0.0000, -82.7485), deltaE: 1.0000),
    .init(pair: 6, first: (50.0000, -0.9009, -85.5211), second: (50.0000, 0.0000, -82.7485), deltaE: 1.0000),
    .init(pair: 7, first: (50.0000, 0.0000, 0.0000), second: (50.0000, -1.0000, 2.0000), deltaE: 2.3669),
    .init(pair: 8, first: (50.0000, -1.0000, 2.0000), second: (50.0000, 0.0000, 0.0000), deltaE: 2.3669),
    .init(pair: 9, first: (50.0000, 2.4900, -0.0010), second: (50.0000, -2.4900, 0.0009), deltaE: 7.1792),
    .init(pair: 10, first: (50.0000, 2.4900, -0.0010), second: (50.0000, -2.4900, 0.0010), deltaE: 7.1792),
    .init(pair: 11, first: (50.0000, 2.4900, -0.0010), second: (50.0000, -2.4900, 0.0011), deltaE: 7.2195),
    .init(pair: 12, first: (50.0000, 2.4900, -0.0010), second: (50.0000, -2.4900, 0.0012), deltaE: 7.2195),
    .init(pair: 13, first: (50.0000, -0.0010, 2.4900), second: (50.0000, 0.0009, -2.4900), deltaE: 4.8045),
    .init(pair: 14, first: (50.0000, -0.0010, 2.4900), second: (50.0000, 0.0010, -2.4900), deltaE: 4.8045),
    .init(pair: 15, first: (50.0000, -0.0010, 2.4900), second: (50.0000, 0.0011, -2.4900), deltaE: 4.7461),
    .init(pair: 16, first: (50.0000, 2.5000, 0.0000), second: (50.0000, 0.0000, -2.5000), deltaE: 4.3065),
    .init(pair: 17, first: (50.0000, 2.5000, 0.0000), second: (73.0000, 25.0000, -18.0000), deltaE: 27.1492),
    .init(pair: 18, first: (50.0000, 2.5000, 0.0000), second: (61.0000, -5.0000, 29.0000), deltaE: 22.8977),
    .init(pair: 19, first: (50.0000, 2.5000, 0.0000), second: (56.0000, -27.0000, -3.0000), deltaE: 31.9030),
    .init(pair: 20, first: (50.0000, 2.5000, 0.0000), second: (58.0000, 24.0000, 15.0000), deltaE: 19.4535),
    .init(pair: 21, first: (50.0000, 2.5000, 0.0000), second: (50.0000, 3.1736, 0.5854), deltaE: 1.0000),
    .init(pair: 22, first: (50.0000, 2.5000, 0.0000), second: (50.0000, 3.2972, 0.0000), deltaE: 1.0000),
    .init(pair: 23, first: (50.0000, 2.5000, 0.0000), second: (50.0000, 1.8634, 0.5757), deltaE: 1.0000),
    .init(pair: 24, first: (50.0000, 2.5000, 0.0000), second: (50.0000, 3.2592, 0.3350), deltaE: 1.0000),
    .init(pair: 25, first: (60.2574, -34.0099, 36.2677), second: (60.4626, -34.1751, 39.4387), deltaE: 1.2644),
    .init(pair: 26, first: (63.0109, -31.0961, -5.8663), second: (62.8187, -29.7946, -4.0864), deltaE: 1.2630),
    .init(pair: 27, first: (61.2901, 3.7196, -5.3901), second: (61.4292, 2.2480, -4.9620), deltaE: 1.8731),
    .init(pair: 28, first: (35.0831, -44.1164, 3.7933), second: (35.0232, -40.0716, 1.5901), deltaE: 1.8645),
    .init(pair: 29, first: (22.7233, 20.0904, -46.6940), second: (23.0331, 14.9730, -42.5619), deltaE: 2.0373),
    .init(pair: 30, first: (36.4612, 47.8580, 18.3852), second: (36.2715, 50.5065, 21.2231), deltaE: 1.4146),
    .init(pair: 31, first: (90.8027, -2.0831, 1.4410), second: (91.1528, -1.6435, 0.0447), deltaE: 1.4441),
    .init(pair: 32, first: (90.9257, -0.5406, -0.9208), second: (88.6381, -0.8985, -0.7239), deltaE: 1.5381),
    .init(pair: 33, first: (6.7747, -0.2908, -2.4247), second: (5.8714, -0.0985, -2.2286), deltaE: 0.6377),
    .init(pair: 34, first: (2.0776, 0.0795, -1.1350), second: (0.9033, -0.0636, -0.5514), deltaE: 0.9082),
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
      (10.0, "visible at a glance"), (10.1, "more similar than opposite"),
      (49.0, "more similar than opposite"), (49.01, "opposite colours"),
      (100.0, "opposite colours"),
    ])
  func meanings(deltaE: Double, label: String) {
    #expect(PerceivedDifference(deltaE: deltaE).label == label)
  }

  @Test("RGB encodes as r, g, b and has an upper-case hex code")
  func rgbWireAndHex() throws {
    let colour = RGB(r: 10, g: 171, b: 255)
    #expect(colour.hex == "#0AABFF")
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(colour), as: UTF8.self) == #"{"b":255,"g":171,"r":10}"#)
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
