import Foundation
import Testing

@testable import GuessworkCore

@Suite("Seeded randomness")
struct SeededRandomTests {
  @Test("SplitMix64 produces the published sequence for seed 0")
  func splitMixReferenceSequence() {
    // Reference values of SplitMix64 (Vigna's splitmix64.c) seeded with 0.
    var random = SeededRandom(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }

  @Test("Range sampling and shuffles are pinned forever for a given seed")
  func pinnedSequences() {
    var random = SeededRandom(seed: 42)
    let ints = (0..<8).map { _ in random.int(in: 0...99) }
    var shuffler = SeededRandom(seed: 7)
    let shuffled = shuffler.shuffled(Array(0..<10))
    #expect(ints == Self.pinnedInts)
    #expect(shuffled == Self.pinnedShuffle)
  }

  // Pinned once from this implementation; a change here breaks every stored game.
  static let pinnedInts = [74, 15, 27, 34, 3, 86, 21, 80]
  static let pinnedShuffle = [9, 5, 8, 6, 1, 2, 4, 7, 0, 3]

  @Test("Range sampling stays in range and reaches both ends", arguments: [0...1, 0...99, -5...5])
  func rangeSamplingCoversRange(range: ClosedRange<Int>) {
    var random = SeededRandom(seed: 1)
    var seen = Set<Int>()
    for _ in 0..<10_000 {
      let value = random.int(in: range)
      #expect(range.contains(value))
      seen.insert(value)
    }
    #expect(seen.count == range.count)
  }

  @Test("Range sampling is unbiased: each of 3 values about a third of the time")
  func rangeSamplingIsUniform() {
    var random = SeededRandom(seed: 99)
    var counts = [0, 0, 0]
    let draws = 30_000
    for _ in 0..<draws { counts[random.int(in: 0...2)] += 1 }
    for count in counts {
      // 10 standard deviations (about 82 draws each) away from a third would be no accident.
      #expect(abs(count - draws / 3) < 820)
    }
  }

  @Test("The full Int range can be sampled")
  func fullRange() {
    var random = SeededRandom(seed: 3)
    _ = random.int(in: Int.min...Int.max)
  }

  @Test("A shuffle is a permutation and every position is reachable")
  func shuffleIsPermutation() {
    var random = SeededRandom(seed: 5)
    var firstElements = Set<Int>()
    for _ in 0..<500 {
      let shuffled = random.shuffled(Array(0..<6))
      #expect(shuffled.sorted() == Array(0..<6))
      firstElements.insert(shuffled[0])
    }
    #expect(firstElements.count == 6)
  }

  @Test("A generator encoded and decoded continues the same sequence")
  func codableResumes() throws {
    var original = SeededRandom(seed: 11)
    _ = original.next()
    var decoded = try JSONDecoder().decode(
      SeededRandom.self, from: JSONEncoder().encode(original))
    #expect((0..<5).map { _ in decoded.next() } == (0..<5).map { _ in original.next() })
  }

  @Test("unit() stays in 0..<1")
  func unitRange() {
    var random = SeededRandom(seed: 8)
    for _ in 0..<10_000 {
      let u = random.unit()
      #expect(u >= 0 && u < 1)
    }
  }
}
