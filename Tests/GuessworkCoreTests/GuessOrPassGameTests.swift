import Foundation
import GuessworkContent
import Testing

@testable import GuessworkCore

typealias GP = GuessOrPassGame

private func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

/// When play starts in a round created at 0.
private let play: Int64 = 5000

private let animals = ["Lion", "Tiger", "Owl", "Zebra", "Otter"]

private func round(
  _ words: [String] = animals, seen: [String] = [], duration: Int = 60, seed: UInt64 = 1
) throws -> GP {
  try GP(
    settings: GP.Settings(duration: duration, category: "Animals"),
    content: GP.Words(fresh: words, seen: seen), seed: seed, at: .zero)
}

private func refusal(_ body: () throws(Refusal) -> Void) -> Refusal? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

@Suite("Guess or Pass")
struct GuessOrPassGameTests {
  // MARK: Settings and words

  @Test("Settings default to a 60 s round with no category")
  func defaults() {
    #expect(GP.Settings().duration == 60)
    #expect(GP.Settings().category == nil)
    #expect(GP.countdownMs == 5000)
  }

  @Test("Settings decode from a partial object")
  func partialSettings() throws {
    let decoder = JSONDecoder()
    #expect(
      try decoder.decode(GP.Settings.self, from: Data(#"{"duration":90}"#.utf8))
        == GP.Settings(duration: 90))
    #expect(
      try decoder.decode(GP.Settings.self, from: Data(#"{"category":"Food"}"#.utf8))
        == GP.Settings(category: "Food"))
    #expect(try decoder.decode(GP.Settings.self, from: Data("{}".utf8)) == GP.Settings())
  }

  @Test(
    "An out-of-range setting is refused by name",
    arguments: [
      (GP.Settings(duration: 29), "duration"),
      (GP.Settings(duration: 181), "duration"),
      (GP.Settings(category: ""), "category"),
      (GP.Settings(category: String(repeating: "x", count: 61)), "category"),
    ])
  func invalidSetting(settings: GP.Settings, name: String) {
    do {
      _ = try GP(settings: settings, content: GP.Words(fresh: animals), seed: 1, at: .zero)
      Issue.record("accepted")
    } catch {
      #expect(error.setting == name)
    }
  }

  @Test("No words, or only blank ones, cannot make a round")
  func noWords() {
    for words in [GP.Words(fresh: []), GP.Words(fresh: [" ", ""], seen: ["  "])] {
      do {
        _ = try GP(settings: .init(), content: words, seed: 1, at: .zero)
        Issue.record("accepted")
      } catch {
        #expect(error.setting == "words")
      }
    }
  }

  @Test("Fresh words are dealt before seen ones, each group shuffled by the seed")
  func freshFirst() throws {
    let fresh = (0..<20).map { "fresh\($0)" }
    let seen = (0..<20).map { "seen\($0)" }
    var orders = Set<[String]>()
    for seed in UInt64(0)..<10 {
      let g = try round(fresh, seen: seen, seed: seed)
      #expect(Set(g.deck.prefix(20)) == Set(fresh))
      #expect(Set(g.deck.suffix(20)) == Set(seen))
      orders.insert(g.deck)
      #expect(try round(fresh, seen: seen, seed: seed).deck == g.deck)
    }
    #expect(orders.count == 10)
    #expect(!orders.contains(fresh + seen))
  }

  @Test("Words never repeat: duplicates are dropped ignoring case, and trimmed")
  func dedupe() throws {
    let g = try round(["Lion", "lion ", " LION", "Owl", ""], seen: ["owl", "Tiger", "tiger"])
    #expect(g.deck.count == 3)
    #expect(Set(g.deck.prefix(2)) == ["Lion", "Owl"])
    #expect(g.deck.last == "Tiger")
  }

  // MARK: Timeline

  @Test("A 5-second countdown comes first, with no word; guessed or pass then is refused")
  func countdown() throws {
    var g = try round()
    let view = g.view(at: at(0))
    #expect(view.phase == .countdown)
    #expect(view.countdownRemainingMs == 5000 && view.countdownSeconds == 5)
    #expect(view.word == nil)
    #expect(view.remainingMs == 60_000)
    #expect(g.view(at: at(4001)).countdownSeconds == 1)
    for action in [GP.Action.guessed, .pass] {
      let before = g
      let refused = refusal { () throws(Refusal) in _ = try g.apply(action, at: at(4999)) }
      #expect(refused?.code == .notReady)
      #expect(g == before)
    }
    let playing = g.view(at: at(play))
    #expect(playing.phase == .playing)
    #expect(playing.word == g.deck[0])
    #expect(playing.wordNumber == 1)
    #expect(playing.secondsLeft == 60)
  }

  @Test("Guessed counts the word, pass skips it; the next word follows")
  func guessAndPass() throws {
    var g = try round()
    let first = g.deck[0]
    let second = g.deck[1]
    #expect(try g.apply(.guessed, at: at(play + 1000)) == [.guessed(word: first, score: 1)])
    var view = g.view(at: at(play + 1000))
    #expect(view.score == 1 && view.lastResult == .guessed && view.word == second)
    #expect(view.wordNumber == 2)
    #expect(try g.apply(.pass, at: at(play + 2000)) == [.passed(word: second)])
    view = g.view(at: at(play + 2000))
    #expect(view.score == 1 && view.passedCount == 1 && view.lastResult == .passed)
    #expect(view.word == g.deck[2])
    #expect(g.score == 1)
  }

  @Test("The last 10 seconds are signalled")
  func lastTenSeconds() throws {
    let g = try round(duration: 30)
    #expect(!g.view(at: at(play + 19_999)).lastTenSeconds)
    #expect(g.view(at: at(play + 20_000)).lastTenSeconds)
    #expect(g.view(at: at(play + 29_999)).lastTenSeconds)
    #expect(g.view(at: at(play + 29_999)).secondsLeft == 1)
    #expect(!g.view(at: at(play + 30_000)).lastTenSeconds)
    #expect(!g.view(at: at(1000)).lastTenSeconds)
  }

  @Test("The round ends when the time is up, at exactly that moment, even if nobody acts")
  func timeUp() throws {
    var g = try round(duration: 30)
    _ = try g.apply(.guessed, at: at(play + 3000))
    let end = play + 30_000
    #expect(g.tick(at: at(end - 1)) == [])
    let late = end + 5000
    let before = g.view(at: at(late))
    #expect(before.phase == .over && before.isOver && before.remainingMs == 0)
    #expect(before.word == nil)
    #expect(before.missed == g.deck[1])
    let copy = g
    #expect(refusal { () throws(Refusal) in _ = try g.apply(.pass, at: at(end)) } == .gameOver)
    #expect(g == copy)
    #expect(g.tick(at: at(late)) == [.roundOver(reason: .timeUp, score: 1)])
    #expect(g.ending == GP.Ending(at: at(end), reason: .timeUp))
    #expect(g.view(at: at(late)) == before)
    #expect(g.tick(at: at(late + 1)) == [])
    let summary = g.summary
    #expect(summary.guessed == [g.deck[0]])
    #expect(summary.missed == g.deck[1])
    #expect(summary.wordsSeen == [g.deck[0], g.deck[1]])
    #expect(summary.endReason == .timeUp)
  }

  @Test("The round ends when the words run out")
  func wordsRunOut() throws {
    var g = try round(["Lion", "Owl"])
    _ = try g.apply(.pass, at: at(play + 100))
    let events = try g.apply(.guessed, at: at(play + 200))
    #expect(
      events == [.guessed(word: g.deck[1], score: 1), .roundOver(reason: .wordsRanOut, score: 1)])
    #expect(g.isOver)
    let view = g.view(at: at(play + 300))
    #expect(view.phase == .over && view.endReason == .wordsRanOut)
    #expect(view.missed == nil)
    #expect(view.remainingMs == 59_800)
    #expect(g.summary.wordsSeen == g.deck)
    #expect(
      refusal { () throws(Refusal) in _ = try g.apply(.guessed, at: at(play + 400)) } == .gameOver)
  }

  @Test("End game ends the round early, even during the countdown")
  func endEarly() throws {
    var g = try round()
    _ = try g.apply(.guessed, at: at(play + 500))
    #expect(try g.apply(.end, at: at(play + 800)) == [.roundOver(reason: .ended, score: 1)])
    let view = g.view(at: at(play + 900))
    #expect(view.phase == .over && view.endReason == .ended)
    #expect(view.guessed == [g.deck[0]] && view.passed == [])
    #expect(view.missed == g.deck[1])
    #expect(said(view.message) == "You guessed 1 word!")
    var early = try round()
    _ = try early.apply(.end, at: at(2000))
    #expect(early.summary.wordsSeen == [])
    #expect(early.view(at: at(3000)).missed == nil)
    #expect(said(early.view(at: at(3000)).message) == "You guessed 0 words!")
  }

  @Test("The end says how many words were guessed, with every word in order")
  func endScreen() throws {
    var g = try round()
    _ = try g.apply(.guessed, at: at(play + 100))
    _ = try g.apply(.pass, at: at(play + 200))
    _ = try g.apply(.guessed, at: at(play + 300))
    _ = g.tick(at: at(play + 60_000))
    let view = g.view(at: at(play + 60_000))
    #expect(said(view.message) == "You guessed 2 words!")
    #expect(view.guessed == [g.deck[0], g.deck[2]])
    #expect(view.passed == [g.deck[1]])
    #expect(said(GP.resultMessage(1)) == "You guessed 1 word!")
    #expect(g.summary.category == "Animals")
    #expect(g.summary.score == 2)
  }

  // MARK: Wire format

  @Test("Actions decode from the browser's JSON")
  func decodeActions() throws {
    func action(_ text: String) throws -> GP.Action {
      try JSONDecoder().decode(GP.Action.self, from: Data(text.utf8))
    }
    #expect(try action(#"{"type":"guessed"}"#) == .guessed)
    #expect(try action(#"{"type":"pass"}"#) == .pass)
    #expect(try action(#"{"type":"end"}"#) == .end)
    #expect(throws: DecodingError.self) { try action(#"{"type":"skip"}"#) }
    #expect(throws: DecodingError.self) { try action(#""pass""#) }
    #expect(try json(GP.Action.pass) == #"{"type":"pass"}"#)
  }

  @Test("Events encode as flat objects and decode back")
  func events() throws {
    let events: [GP.Event] = [
      .guessed(word: "Lion", score: 3), .passed(word: "Owl"),
      .roundOver(reason: .timeUp, score: 3),
    ]
    let text = try json(events)
    #expect(
      text
        == #"[{"score":3,"type":"guessed","word":"Lion"},{"type":"passed","word":"Owl"},"#
        + #"{"reason":"timeUp","score":3,"type":"roundOver"}]"#)
    #expect(try JSONDecoder().decode([GP.Event].self, from: Data(text.utf8)) == events)
  }

  @Test("The view's JSON is pinned")
  func pinnedView() throws {
    var g = try round(["Lion", "Owl", "Zebra"])
    g.deck = ["Lion", "Owl", "Zebra"]
    _ = try g.apply(.guessed, at: at(play + 1000))
    #expect(
      try json(g.view(at: at(play + 51_500)))
        == #"{"category":"Animals","countdownRemainingMs":0,"durationMs":60000,"isOver":false,"#
        + #""lastResult":"guessed","lastTenSeconds":true,"passedCount":0,"phase":"playing","#
        + #""remainingMs":8500,"score":1,"secondsLeft":9,"word":"Owl","wordNumber":2}"#)
    _ = try g.apply(.pass, at: at(play + 52_000))
    _ = try g.apply(.end, at: at(play + 53_000))
    #expect(
      try json(g.view(at: at(play + 53_000)))
        == #"{"category":"Animals","countdownRemainingMs":0,"durationMs":60000,"endReason":"ended","#
        + #""guessed":["Lion"],"isOver":true,"lastResult":"passed","lastTenSeconds":false,"#
        + #""message":{"args":{"count":1},"key":"guess-or-pass.result"},"missed":"Zebra","passed":["Owl"],"passedCount":1,"#
        + #""phase":"over","remainingMs":7000,"score":1,"wordNumber":2}"#)
  }

  // MARK: Properties

  @Test("Over 1,000 seeds of random play: no undealt word leaks, no repeats, no overtime")
  func randomPlay() throws {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for seed in UInt64(0)..<1000 {
      var driver = SeededRandom(seed: seed &* 104_729 &+ 7)
      // Distinct tokens, none inside another or inside any JSON key.
      let count = driver.int(in: 1...40)
      let fresh = (0..<count).map { "Wq\(1000 + $0)x" }
      let seen = (0..<driver.int(in: 0...10)).map { "Sq\(1000 + $0)x" }
      // Some case-variant duplicates that must be dropped.
      let duplicates = fresh.prefix(3).map { $0.uppercased() }
      let duration = driver.int(in: 30...180)
      let created = Int64(driver.int(in: 0...1_000_000))
      var g = try GP(
        settings: GP.Settings(duration: duration),
        content: GP.Words(fresh: fresh + duplicates, seen: seen + duplicates), seed: seed,
        at: at(created))
      #expect(g.deck.count == fresh.count + seen.count)
      #expect(Set(g.deck.map { $0.lowercased() }).count == g.deck.count)
      var now = created
      var shown: [String] = []
      var resumed: GP?
      var log: [String] = []
      var resumedLog: [String] = []
      var steps = 0
      while !g.isOver && steps < 300 {
        steps += 1
        now += Int64(driver.int(in: 0...4000))
        let roll = driver.index(below: 60)
        let action: GP.Action = roll == 0 ? .end : (roll % 2 == 0 ? .guessed : .pass)
        var events = g.tick(at: at(now))
        let before = g
        do {
          events += try g.apply(action, at: at(now))
        } catch {
          #expect(g == before, "a refused action changed the state")
        }
        let view = g.view(at: at(now))
        if let word = view.word { shown.append(word) }
        let text = try json(events) + json(view)
        log.append(text)
        if var copy = resumed {
          let e = copy.tick(at: at(now)) + ((try? copy.apply(action, at: at(now))) ?? [])
          resumedLog.append(try json(e) + json(copy.view(at: at(now))))
          resumed = copy
        }
        // No word beyond the one on screen (or, once over, the last one dealt) ever appears.
        let dealt = g.isOver ? g.summary.wordsSeen.count : g.position + (view.word == nil ? 0 : 1)
        for word in g.deck.dropFirst(dealt) {
          #expect(!text.contains(word), "undealt word \(word) leaked")
        }
        #expect(view.score == g.results.count(where: { $0.result == .guessed }))
        #expect(view.remainingMs >= 0 && view.remainingMs <= duration * 1000)
        if steps == 4 {
          let copy = try decoder.decode(GP.self, from: encoder.encode(g))
          #expect(copy == g)
          resumed = copy
        }
      }
      _ = g.tick(at: at(now + 400_000))
      #expect(g.isOver)
      let summary = g.summary
      let ending = try #require(g.ending)
      // The round never lasts past its duration.
      #expect(ending.at <= at(created + 5000 + Int64(duration) * 1000))
      // Words never repeat; score == guessed count; every seen word was shown.
      #expect(Set(summary.wordsSeen.map { $0.lowercased() }).count == summary.wordsSeen.count)
      #expect(summary.score == summary.guessed.count)
      #expect(
        summary.guessed.count + summary.passed.count + (summary.missed == nil ? 0 : 1)
          == summary.wordsSeen.count)
      #expect(Set(shown).isSubset(of: Set(summary.wordsSeen)))
      #expect(
        Array(summary.wordsSeen.prefix(min(fresh.count, summary.wordsSeen.count)))
          .allSatisfy { $0.hasPrefix("Wq") })
      if let resumed {
        #expect(resumedLog == Array(log.suffix(resumedLog.count)))
        var r = resumed
        _ = r.tick(at: at(now + 400_000))
        #expect(r == g)
      }
    }
  }

  @Test("The share line is said in the player's language", arguments: [Language.en, .es, .ru])
  func shareLineLanguage(language: Language) throws {
    var game = try round()
    _ = try game.apply(.guessed, at: at(play + 1000))
    _ = try game.apply(.pass, at: at(play + 2000))
    _ = try game.apply(.end, at: at(play + 3000))
    let line = Catalog.of(language).render(GP.shareLine(game.summary, score: game.score))
    let expected: [Language: String] = [
      .en: "✅ 1 guessed · ⏭️ 1 passed", .es: "✅ 1 acertadas · ⏭️ 1 pasadas",
      .ru: "✅ угадано: 1 · ⏭️ пропущено: 1",
    ]
    #expect(line == expected[language])
  }
}
