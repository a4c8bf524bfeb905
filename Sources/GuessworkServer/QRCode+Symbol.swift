// MARK: - The symbol

/// A symbol being drawn: its modules and which of them belong to function patterns (finders,
/// timing, alignment, format and version information), which data and masks leave alone.
struct Canvas {
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
