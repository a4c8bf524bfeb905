// MARK: - Data and error correction

extension QRCode {
  /// How a version's codewords are split into blocks at level M: each block has its data
  /// codewords followed by `ecCodewordsPerBlock` error correction codewords.
  struct BlockLayout: Sendable {
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
  static let layouts: [BlockLayout] = [
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
  static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

  /// Whether the bytes need an ECI designator saying they are UTF-8 (ECI 26): when any is not
  /// ASCII. Without it readers guess, and some guess Shift JIS; ASCII reads the same in all.
  static func needsUTF8Designator(_ bytes: [UInt8]) -> Bool {
    bytes.contains { $0 >= 0x80 }
  }

  /// How many bytes a version holds: its data bits less the ECI designator (mode and number,
  /// when `designated`), the byte mode indicator and the character count.
  static func byteCapacity(version: Int, designated: Bool) -> Int {
    let header = (designated ? 4 + 8 : 0) + 4 + countBits(version: version)
    return (layouts[version - 1].dataCodewords * 8 - header) / 8
  }

  /// The data codewords: the ECI designator if needed, the byte mode indicator, the count, the
  /// bytes, a terminator, then pad codewords up to the version's capacity.
  static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
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
  static func interleavedCodewords(_ data: [UInt8], version: Int) -> [UInt8] {
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
struct BitBuffer {
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
enum GaloisField {
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
enum ReedSolomon {
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
