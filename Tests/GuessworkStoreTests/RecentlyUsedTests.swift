import GuessworkStore
import Testing

@Suite("A bounded map that keeps what is in use")
struct RecentlyUsedTests {
  @Test func entriesInUseOutliveAStreamOfOthers() {
    var map = RecentlyUsed<String, Int>(capacity: 100)
    map["kept"] = -1
    for round in 0..<1_000 {
      map["other-\(round)"] = round
      #expect(map["kept"] == -1)
    }
    let others = (0..<1_000).filter { map["other-\($0)"] != nil }
    #expect(others.count < 100)
    #expect(others.contains(999))
    #expect(!others.contains(0))
  }

  @Test func aNewValueReplacesTheOldOneWhereverItIs() {
    var map = RecentlyUsed<String, Int>(capacity: 4)
    map["a"] = 1
    map["b"] = 2
    map["c"] = 3  // "a" and "b" are now the old generation
    map["a"] = 10
    #expect(map["a"] == 10)
    map["b"] = nil
    #expect(map["b"] == nil)
    map["d"] = 4
    map["e"] = 5
    map["f"] = 6
    #expect(map["b"] == nil)
    #expect(map["c"] == nil, "left alone for two generations")
  }

  @Test func fewLargeEntriesAreBoundedByBytes() {
    var map = RecentlyUsed<Int, String>(
      capacity: 10_000, byteCapacity: 1_000, weigh: { _, text in text.utf8.count })
    for key in 0..<100 { map[key] = String(repeating: "x", count: 100) }
    #expect(map.size.bytes <= 1_000 + 100, "at most the budget and one entry over")
    #expect(map.size.entries <= 11)
    #expect(map[99] != nil && map[0] == nil)
    // Small entries still fill up to the count bound.
    var small = RecentlyUsed<Int, String>(
      capacity: 100, byteCapacity: 1_000_000, weigh: { _, text in text.utf8.count })
    for key in 0..<1_000 { small[key] = "y" }
    #expect(small.size.entries <= 100 && small.size.entries >= 50)
    // Replacing or removing an entry gives its bytes back.
    var changing = RecentlyUsed<Int, String>(
      capacity: 100, byteCapacity: 400, weigh: { _, text in text.utf8.count })
    for _ in 0..<50 { changing[1] = String(repeating: "z", count: 150) }
    changing[2] = String(repeating: "z", count: 40)
    #expect(changing[1] != nil && changing[2] != nil, "one entry rewritten is counted once")
    changing[1] = nil
    #expect(changing.size.bytes == 40)
  }
}
