/// A QR code (ISO/IEC 18004) for a short text, such as a room's link: byte mode (the text's
/// UTF-8 bytes, declared UTF-8 by ECI 26 when not all ASCII), error correction level M (about
/// 15% of the symbol may be lost), the smallest of versions 1 to 10 that holds the text.
/// Drawn as SVG for pages and as PGM for tests.
public struct QRCode: Sendable {
  /// Thrown when the text has more UTF-8 bytes than a version 10 symbol holds at level M.
  public struct TooLong: Error, Sendable, Equatable {
    /// The text's length in UTF-8 bytes.
    public let byteCount: Int
    /// The most bytes a code made here can hold: 213 for ASCII, 212 for other text (which
    /// needs 12 more bits to say it is UTF-8).
    public let limit: Int
  }

  /// The version, 1 to 10: the symbol has 17 + 4 × version modules per side.
  public let version: Int
  /// The mask pattern, 0 to 7: the one whose symbol has the lowest penalty.
  public let mask: Int
  /// Modules per side, without the quiet zone.
  public let size: Int
  /// Every module, row by row: true for dark.
  let modules: [Bool]

  /// Encodes `text` in the smallest version that holds it.
  /// - Throws: `QRCode.TooLong` when not even version 10 holds it.
  public init(_ text: String) throws {
    try self.init(text, mask: nil)
  }

  /// Encodes `text` with mask pattern `mask` (0 to 7), or when it is nil with the mask whose
  /// symbol has the lowest penalty. A given mask lets tests compare with another encoder.
  init(_ text: String, mask: Int?) throws {
    let bytes = Array(text.utf8)
    let designated = Self.needsUTF8Designator(bytes)
    func capacity(_ version: Int) -> Int {
      Self.byteCapacity(version: version, designated: designated)
    }
    guard let version = (1...10).first(where: { bytes.count <= capacity($0) }) else {
      throw TooLong(byteCount: bytes.count, limit: capacity(10))
    }
    let codewords = Self.interleavedCodewords(
      Self.dataCodewords(bytes, version: version), version: version)

    var canvas = Canvas(version: version)
    canvas.drawFunctionPatterns()
    canvas.drawCodewords(codewords)

    // Every mask allowed is tried; the first with the lowest penalty is kept.
    var chosen = canvas
    var chosenMask = 0
    var lowestPenalty = Int.max
    let candidates = if let mask { [mask] } else { Array(0..<8) }
    for candidate in candidates {
      var masked = canvas
      masked.applyMask(candidate)
      masked.drawFormatInformation(mask: candidate)
      let penalty = masked.penalty()
      if penalty < lowestPenalty {
        chosen = masked
        chosenMask = candidate
        lowestPenalty = penalty
      }
    }
    self.version = version
    self.mask = chosenMask
    self.size = chosen.size
    self.modules = chosen.dark
  }

  /// Whether the module at column `x`, row `y` is dark; (0, 0) is the top left corner.
  /// Outside the symbol (in the quiet zone) every module is light.
  public func isDark(x: Int, y: Int) -> Bool {
    guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
    return modules[y * size + x]
  }

  /// The code as an SVG document: one unit per module, a white background with `quietZone`
  /// light modules around the symbol, and the dark modules as one path of horizontal runs.
  public func svg(quietZone: Int = 4) -> String {
    precondition(quietZone >= 0, "a quiet zone of \(quietZone) modules")
    let side = size + 2 * quietZone
    var path = ""
    for y in 0..<size {
      var x = 0
      while x < size {
        guard isDark(x: x, y: y) else {
          x += 1
          continue
        }
        var run = 1
        while isDark(x: x + run, y: y) { run += 1 }
        path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
        x += run
      }
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" \
      shape-rendering="crispEdges">\
      <rect width="\(side)" height="\(side)" fill="#fff"/>\
      <path fill="#000" d="\(path)"/></svg>

      """
  }

  /// The code as a binary PGM (P5) image: `scale` pixels per module, black on white, with
  /// `quietZone` light modules around the symbol.
  public func pgm(scale: Int = 8, quietZone: Int = 4) -> [UInt8] {
    precondition(scale >= 1 && quietZone >= 0, "scale \(scale), quiet zone \(quietZone)")
    let side = (size + 2 * quietZone) * scale
    var image = Array("P5\n\(side) \(side)\n255\n".utf8)
    image.reserveCapacity(image.count + side * side)
    for row in 0..<side {
      let y = row / scale - quietZone
      for column in 0..<side {
        let x = column / scale - quietZone
        image.append(isDark(x: x, y: y) ? 0 : 255)
      }
    }
    return image
  }
}
