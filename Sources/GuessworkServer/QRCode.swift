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
  private let modules: [Bool]

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

// MARK: - Data and error correction

extension QRCode {
  /// How a version's codewords are split into blocks at level M: each block has its data
  /// codewords followed by `ecCodewordsPerBlock` error correction codewords.
  private struct BlockLayout: Sendable {
    let ecCodewordsPerBlock: Int
    /// Data codewords of each block, the shorter blocks first.
    let dataCodewordsPerBlock: [Int]

    init(ec: Int, blocks: Int, of dataCodewords: Int, then longBlocks: Int = 0) {
      ecCodewordsPerBlock = ec
      dataCodewordsPerBlock =
        Array(repeating: dataCodewords, count: blocks)
        + Array(repeating: dataCodewords + 1, count: longBlocks)
    }

    var dataCodewords: Int { dataCodewordsPerBlock.reduce(0, +) }
  }

  /// The block layouts of versions 1 to 10 at level M (ISO/IEC 18004, table 9).
  private static let layouts: [BlockLayout] = [
    BlockLayout(ec: 10, blocks: 1, of: 16),
    BlockLayout(ec: 16, blocks: 1, of: 28),
    BlockLayout(ec: 26, blocks: 1, of: 44),
    BlockLayout(ec: 18, blocks: 2, of: 32),
    BlockLayout(ec: 24, blocks: 2, of: 43),
    BlockLayout(ec: 16, blocks: 4, of: 27),
    BlockLayout(ec: 18, blocks: 4, of: 31),
    BlockLayout(ec: 22, blocks: 2, of: 38, then: 2),
    BlockLayout(ec: 22, blocks: 3, of: 36, then: 2),
    BlockLayout(ec: 26, blocks: 4, of: 43, then: 1),
  ]

  /// Bits of the character count in byte mode: 8 up to version 9, 16 from version 10.
  private static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

  /// Whether the bytes need an ECI designator saying they are UTF-8 (ECI 26): when any is not
  /// ASCII. Without it readers guess, and some guess Shift JIS; ASCII reads the same in all.
  private static func needsUTF8Designator(_ bytes: [UInt8]) -> Bool {
    bytes.contains { $0 >= 0x80 }
  }

  /// How many bytes a version holds: its data bits less the ECI designator (mode and number,
  /// when `designated`), the byte mode indicator and the character count.
  private static func byteCapacity(version: Int, designated: Bool) -> Int {
    let header = (designated ? 4 + 8 : 0) + 4 + countBits(version: version)
    return (layouts[version - 1].dataCodewords * 8 - header) / 8
  }

  /// The data codewords: the ECI designator if needed, the byte mode indicator, the count, the
  /// bytes, a terminator, then pad codewords up to the version's capacity.
  private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
    let capacity = layouts[version - 1].dataCodewords * 8
    var bits = BitBuffer()
    if needsUTF8Designator(bytes) {
      bits.append(0b0111, count: 4)
      bits.append(26, count: 8)
    }
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: countBits(version: version))
    for byte in bytes { bits.append(Int(byte), count: 8) }
    bits.append(0, count: min(4, capacity - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var codewords = bits.bytes()
    var pad: UInt8 = 0xEC
    while codewords.count < capacity / 8 {
      codewords.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return codewords
  }

  /// Splits the data into blocks, adds each block's error correction, then takes the first
  /// data codeword of every block, the second, and so on, then the error correction alike.
  private static func interleavedCodewords(_ data: [UInt8], version: Int) -> [UInt8] {
    let layout = layouts[version - 1]
    var dataBlocks: [[UInt8]] = []
    var start = 0
    for length in layout.dataCodewordsPerBlock {
      dataBlocks.append(Array(data[start..<start + length]))
      start += length
    }
    let ecBlocks = dataBlocks.map {
      ReedSolomon.remainder(of: $0, degree: layout.ecCodewordsPerBlock)
    }
    var result: [UInt8] = []
    for blocks in [dataBlocks, ecBlocks] {
      let longest = blocks.map(\.count).max() ?? 0
      for index in 0..<longest {
        for block in blocks where index < block.count {
          result.append(block[index])
        }
      }
    }
    return result
  }
}

/// Bits written most significant first, read back as bytes.
private struct BitBuffer {
  private(set) var bits: [Bool] = []

  var count: Int { bits.count }

  /// Appends the lowest `count` bits of `value`, most significant first.
  mutating func append(_ value: Int, count: Int) {
    for shift in stride(from: count - 1, through: 0, by: -1) {
      bits.append((value >> shift) & 1 == 1)
    }
  }

  /// The bits eight at a time (the count must be a multiple of 8).
  func bytes() -> [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      var byte: UInt8 = 0
      for bit in bits[start..<start + 8] { byte = byte << 1 | (bit ? 1 : 0) }
      return byte
    }
  }
}

/// Arithmetic in GF(256), the field QR codes use: bytes, polynomial x⁸ + x⁴ + x³ + x² + 1
/// (0x11d), generator α = 2.
private enum GaloisField {
  /// `powers[i]` is αⁱ, for i in 0..<255.
  static let powers: [UInt8] = {
    var powers: [UInt8] = []
    var value = 1
    for _ in 0..<255 {
      powers.append(UInt8(value))
      value <<= 1
      if value > 0xFF { value ^= 0x11D }
    }
    return powers
  }()

  /// `logarithms[x]` is the i with αⁱ = x (for x ≠ 0).
  static let logarithms: [Int] = {
    var logarithms = Array(repeating: 0, count: 256)
    for (exponent, value) in powers.enumerated() { logarithms[Int(value)] = exponent }
    return logarithms
  }()

  /// The product of two elements: αⁱ × αʲ = α^((i + j) mod 255).
  static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    if a == 0 || b == 0 { return 0 }
    return powers[(logarithms[Int(a)] + logarithms[Int(b)]) % 255]
  }
}

/// Reed–Solomon error correction codewords over GF(256).
private enum ReedSolomon {
  /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest power first;
  /// its first coefficient is 1.
  static func generator(degree: Int) -> [UInt8] {
    var polynomial: [UInt8] = [1]
    for exponent in 0..<degree {
      // Multiply by (x + αⁱ); in GF(256) minus is plus.
      var product = Array(repeating: UInt8(0), count: polynomial.count + 1)
      for (index, coefficient) in polynomial.enumerated() {
        product[index] ^= coefficient
        product[index + 1] ^= GaloisField.multiply(coefficient, GaloisField.powers[exponent])
      }
      polynomial = product
    }
    return polynomial
  }

  /// The `degree` error correction codewords of `data`: the remainder of data × x^degree
  /// divided by the generator polynomial.
  static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
    let generator = generator(degree: degree)
    var remainder = Array(repeating: UInt8(0), count: degree)
    for codeword in data {
      let factor = codeword ^ remainder.removeFirst()
      remainder.append(0)
      for index in 0..<degree {
        remainder[index] ^= GaloisField.multiply(generator[index + 1], factor)
      }
    }
    return remainder
  }
}

// MARK: - The symbol

/// A symbol being drawn: its modules and which of them belong to function patterns (finders,
/// timing, alignment, format and version information), which data and masks leave alone.
private struct Canvas {
  let version: Int
  let size: Int
  var dark: [Bool]
  var isFunction: [Bool]

  init(version: Int) {
    self.version = version
    size = 17 + 4 * version
    dark = Array(repeating: false, count: size * size)
    isFunction = Array(repeating: false, count: size * size)
  }

  func isDark(x: Int, y: Int) -> Bool { dark[y * size + x] }

  /// Sets a module of a function pattern.
  mutating func setFunction(x: Int, y: Int, dark isDark: Bool) {
    dark[y * size + x] = isDark
    isFunction[y * size + x] = true
  }

  /// Centres of the alignment patterns, in both directions, for versions 1 to 10 (annex E).
  static let alignmentCentres: [[Int]] = [
    [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
    [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
  ]

  /// Draws the timing patterns, the finders with their separators, the alignment patterns,
  /// the version information, and reserves the format information's modules.
  mutating func drawFunctionPatterns() {
    for index in 0..<size {
      setFunction(x: 6, y: index, dark: index % 2 == 0)
      setFunction(x: index, y: 6, dark: index % 2 == 0)
    }
    drawFinder(centreX: 3, centreY: 3)
    drawFinder(centreX: size - 4, centreY: 3)
    drawFinder(centreX: 3, centreY: size - 4)

    let centres = Self.alignmentCentres[version - 1]
    for (row, centreY) in centres.enumerated() {
      for (column, centreX) in centres.enumerated() {
        let last = centres.count - 1
        let onFinder =
          (row == 0 && column == 0) || (row == 0 && column == last)
          || (row == last && column == 0)
        if !onFinder { drawAlignment(centreX: centreX, centreY: centreY) }
      }
    }

    drawFormatInformation(mask: 0)
    drawVersionInformation()
  }

  /// A finder (7 × 7 rings: dark, light, 3 × 3 dark) with its light separator around it.
  mutating func drawFinder(centreX: Int, centreY: Int) {
    for dy in -4...4 {
      for dx in -4...4 {
        let x = centreX + dx
        let y = centreY + dy
        guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
        let ring = max(abs(dx), abs(dy))
        setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
      }
    }
  }

  /// An alignment pattern: 5 × 5 dark, light ring, dark centre.
  mutating func drawAlignment(centreX: Int, centreY: Int) {
    for dy in -2...2 {
      for dx in -2...2 {
        setFunction(x: centreX + dx, y: centreY + dy, dark: max(abs(dx), abs(dy)) != 1)
      }
    }
  }

  /// The remainder of `value` × x^degree divided by `generator`, polynomials over GF(2)
  /// written as bits: the check bits a BCH code appends to `value`.
  static func bchRemainder(_ value: Int, degree: Int, generator: Int) -> Int {
    var remainder = value
    for _ in 0..<degree {
      remainder <<= 1
      if (remainder >> degree) & 1 == 1 { remainder ^= generator }
    }
    return remainder
  }

  /// The format information, twice: level M (00) and the mask, 10 BCH bits, XOR 0x5412.
  /// Also the dark module beside the bottom left finder.
  mutating func drawFormatInformation(mask: Int) {
    let data = 0b00 << 3 | mask
    let bits = (data << 10 | Self.bchRemainder(data, degree: 10, generator: 0x537)) ^ 0x5412
    func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }

    // Around the top left finder: down column 8, then left along row 8, skipping timing.
    for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
    setFunction(x: 8, y: 7, dark: bit(6))
    setFunction(x: 8, y: 8, dark: bit(7))
    setFunction(x: 7, y: 8, dark: bit(8))
    for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }

    // Again: along row 8 under the top right finder, and up column 8 by the bottom left one.
    for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
    for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
    setFunction(x: 8, y: size - 8, dark: true)
  }

  /// From version 7: the version, 6 bits, and 12 BCH bits, in two 6 × 3 blocks by the top
  /// right and bottom left finders.
  mutating func drawVersionInformation() {
    guard version >= 7 else { return }
    let bits = version << 12 | Self.bchRemainder(version, degree: 12, generator: 0x1F25)
    for index in 0..<18 {
      let isDark = (bits >> index) & 1 == 1
      let near = index / 3
      let far = size - 11 + index % 3
      setFunction(x: far, y: near, dark: isDark)
      setFunction(x: near, y: far, dark: isDark)
    }
  }

  /// Places the codewords' bits, most significant first, in the modules no function pattern
  /// uses: in columns two wide, from the right, going up then down in turn, skipping the
  /// vertical timing pattern. Modules left over (the remainder bits) stay light.
  mutating func drawCodewords(_ codewords: [UInt8]) {
    var bits = BitBuffer()
    for codeword in codewords { bits.append(Int(codeword), count: 8) }
    var next = 0
    var right = size - 1
    var upward = true
    while right > 0 {
      if right == 6 { right = 5 }
      for step in 0..<size {
        let y = upward ? size - 1 - step : step
        for x in [right, right - 1] where !isFunction[y * size + x] && next < bits.count {
          dark[y * size + x] = bits.bits[next]
          next += 1
        }
      }
      upward.toggle()
      right -= 2
    }
  }

  /// Whether mask `mask` flips the module at column `x`, row `y` (ISO/IEC 18004, table 10).
  static func maskFlips(_ mask: Int, x: Int, y: Int) -> Bool {
    switch mask {
    case 0: (y + x) % 2 == 0
    case 1: y % 2 == 0
    case 2: x % 3 == 0
    case 3: (y + x) % 3 == 0
    case 4: (y / 2 + x / 3) % 2 == 0
    case 5: (y * x) % 2 + (y * x) % 3 == 0
    case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
    default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
    }
  }

  /// Flips the data modules the mask pattern selects.
  mutating func applyMask(_ mask: Int) {
    for y in 0..<size {
      for x in 0..<size where !isFunction[y * size + x] && Self.maskFlips(mask, x: x, y: y) {
        dark[y * size + x].toggle()
      }
    }
  }

  /// The penalty of the symbol as it is (ISO/IEC 18004, 7.8.3): runs of five or more modules
  /// of one colour, 2 × 2 blocks of one colour, patterns that look like a finder, and a
  /// proportion of dark modules far from half.
  func penalty() -> Int {
    var penalty = 0
    let rows = (0..<size).map { y in (0..<size).map { x in isDark(x: x, y: y) } }
    let columns = (0..<size).map { x in (0..<size).map { y in isDark(x: x, y: y) } }

    for line in rows + columns {
      penalty += Self.runPenalty(line) + Self.finderLikePenalty(line)
    }

    for y in 0..<size - 1 {
      for x in 0..<size - 1 {
        let colour = isDark(x: x, y: y)
        if isDark(x: x + 1, y: y) == colour && isDark(x: x, y: y + 1) == colour
          && isDark(x: x + 1, y: y + 1) == colour
        {
          penalty += 3
        }
      }
    }

    // 10 for each whole 5% that the share of dark modules is away from 50%.
    let darkCount = dark.filter { $0 }.count
    let total = size * size
    penalty += abs(darkCount * 100 - total * 50) / (total * 5) * 10
    return penalty
  }

  /// 3 for each run of five modules of one colour in a line, plus 1 for each module more.
  static func runPenalty(_ line: [Bool]) -> Int {
    var penalty = 0
    var runStart = 0
    for index in 1...line.count {
      if index == line.count || line[index] != line[runStart] {
        let run = index - runStart
        if run >= 5 { penalty += 3 + (run - 5) }
        runStart = index
      }
    }
    return penalty
  }

  /// Dark, light, dark × 3, light, dark: the 1:1:3:1:1 proportions of a finder's middle row.
  static let finderLike: [Bool] = [true, false, true, true, true, false, true]

  /// 40 for each finder-like pattern in a line with four light modules before or after it,
  /// the quiet zone counting as light.
  static func finderLikePenalty(_ line: [Bool]) -> Int {
    func allLight(_ range: Range<Int>) -> Bool {
      range.allSatisfy { !line.indices.contains($0) || !line[$0] }
    }
    var penalty = 0
    for start in 0...(line.count - finderLike.count)
    where line[start..<start + finderLike.count].elementsEqual(finderLike) {
      let end = start + finderLike.count
      if allLight(start - 4..<start) || allLight(end..<end + 4) { penalty += 40 }
    }
    return penalty
  }
}
