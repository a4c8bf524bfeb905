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
}
