import Foundation
import Testing

@testable import GuessworkCore

typealias CM = ColorMatchGame

/// A game at time 0 with the given settings, its first trial replaced by `trial` when given.
private func game(
  _ settings: CM.Settings = .init(), seed: UInt64 = 1, trial: CM.Trial? = nil
) throws -> CM {
  var game = try CM(settings: settings, seed: seed, at: .zero)
  if let trial { game.current = trial }
  return game
}

private func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

/// The moment the first trial appears in a game created at 0.
private let start: Int64 = 3000

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

@Suite("Color Match")
struct ColorMatchGameTests {
  // MARK: Colours

  @Test("The six inks are the seed's")
  func inks() {
    #expect(
      CM.Colour.allCases.map(\.hex) == [
        "#b32f3c", "#f8941d", "#e7d936", "#39b54a", "#0072bc", "#92278f",
      ])
    #expect(
      CM.Colour.allCases.map { said($0.word) } == [
        "Red", "Orange", "Yellow", "Green", "Blue", "Purple",
      ])
  }

  @Test("Relative luminance and contrast follow WCAG 2")
  func wcag() {
    let white = CM.RGB(255, 255, 255)
    let black = CM.RGB(0, 0, 0)
    #expect(white.relativeLuminance == 1)
    #expect(black.relativeLuminance == 0)
    #expect(abs(white.contrastRatio(with: black) - 21) < 1e-9)
    // Published figure: #777777 on white is 4.48:1.
    #expect(abs(CM.RGB(0x77, 0x77, 0x77).contrastRatio(with: white) - 4.48) < 0.01)
    // Yellow on white, the seed's complaint, is unreadable.
    #expect(CM.Colour.yellow.rgb.contrastRatio(with: white) < 3)
  }

  @Test("Every word stays readable on its background", arguments: CM.Colour.allCases)
  func readable(colour: CM.Colour) {
    #expect(colour.rgb.contrastRatio(with: colour.cardBackground) >= 4.5)
  }

  @Test("The top card's neutral ink is readable on its background")
  func topCardReadable() {
    #expect(CM.neutralInk.contrastRatio(with: CM.paper) >= 4.5)
  }

  // MARK: Settings

  @Test("Settings default to the rule book's values")
  func defaults() {
    let settings = CM.Settings()
    #expect(settings.duration == 60)
    #expect(settings.feedbackMs == 500)
    #expect(settings.matchRate == 0.5)
    #expect(settings.congruentRate == 0.5)
  }

  @Test("Settings decode from a partial object")
  func partialSettings() throws {
    let settings = try JSONDecoder().decode(
      CM.Settings.self, from: Data(#"{"duration":90,"matchRate":0.25}"#.utf8))
    #expect(settings == CM.Settings(duration: 90, matchRate: 0.25))
    let empty = try JSONDecoder().decode(CM.Settings.self, from: Data("{}".utf8))
    #expect(empty == CM.Settings())
  }

  @Test(
    "An out-of-range setting is refused by name",
    arguments: [
      (CM.Settings(duration: 29), "duration"),
      (CM.Settings(duration: 121), "duration"),
      (CM.Settings(feedbackMs: -1), "feedbackMs"),
      (CM.Settings(feedbackMs: 2001), "feedbackMs"),
      (CM.Settings(matchRate: 1.01), "matchRate"),
      (CM.Settings(matchRate: -0.1), "matchRate"),
      (CM.Settings(congruentRate: 2), "congruentRate"),
      (CM.Settings(congruentRate: .nan), "congruentRate"),
    ])
  func invalidSetting(settings: CM.Settings, name: String) {
    #expect(throws: SettingError.self) { try CM(settings: settings, seed: 1) }
    do {
      _ = try CM(settings: settings, seed: 1)
    } catch {
      #expect(error.setting == name)
    }
  }

  // MARK: Trials

  @Test("Yes is right exactly when the top meaning is the bottom ink")
  func rightAnswer() throws {
    for top in CM.Colour.allCases {
      for word in CM.Colour.allCases {
        for ink in CM.Colour.allCases {
          var yes = try game(trial: CM.Trial(top: top, word: word, ink: ink))
          let events = try yes.apply(.answer(match: true), at: at(start + 500))
          guard case .answered(_, let correct, _, _, _) = events.first else {
            Issue.record("no answer event")
            return
          }
          #expect(correct == (top == ink))
          var no = try game(trial: CM.Trial(top: top, word: word, ink: ink))
          _ = try no.apply(.answer(match: false), at: at(start + 500))
          #expect(no.records.last?.correct == (top != ink))
        }
      }
    }
  }

  @Test("Regression (seed bug): No is judged against the bottom ink, not the bottom word")
  func seedBugNoAgainstInk() throws {
    // Top says red; the bottom word is "Red" printed in blue: not a match, so No is right.
    var g = try game(trial: CM.Trial(top: .red, word: .red, ink: .blue))
    _ = try g.apply(.answer(match: false), at: at(start + 400))
    #expect(g.score == 100)
    #expect(g.records.last?.correct == true)
    // And Yes is wrong there.
    var h = try game(trial: CM.Trial(top: .red, word: .red, ink: .blue))
    _ = try h.apply(.answer(match: true), at: at(start + 400))
    #expect(h.score == -100)
  }

  @Test("A trial is a match with probability matchRate", arguments: [0.0, 0.5, 1.0, 0.2])
  func matchRate(rate: Double) {
    var random = SeededRandom(seed: 3)
    let settings = CM.Settings(matchRate: rate)
    let draws = 6000
    let matches = (0..<draws).count(where: { _ in
      CM.drawTrial(using: &random, settings: settings).isMatch
    })
    #expect(abs(Double(matches) / Double(draws) - rate) < 0.03)
  }

  @Test(
    "The bottom card is congruent with probability congruentRate, independently",
    arguments: [0.0, 0.5, 1.0, 0.8])
  func congruentRate(rate: Double) {
    var random = SeededRandom(seed: 4)
    let settings = CM.Settings(matchRate: 0.5, congruentRate: rate)
    let trials = (0..<6000).map { _ in CM.drawTrial(using: &random, settings: settings) }
    let congruent = trials.count(where: \.isCongruent)
    #expect(abs(Double(congruent) / 6000 - rate) < 0.03)
    // Among matches, the same rate: congruence does not depend on the match.
    let matches = trials.filter(\.isMatch)
    let congruentMatches = matches.count(where: \.isCongruent)
    #expect(abs(Double(congruentMatches) / Double(matches.count) - rate) < 0.04)
  }

  @Test("Every colour appears as top meaning, bottom word and ink")
  func coverage() {
    var random = SeededRandom(seed: 5)
    let trials = (0..<600).map { _ in CM.drawTrial(using: &random, settings: .init()) }
    #expect(Set(trials.map(\.top)).count == 6)
    #expect(Set(trials.map(\.word)).count == 6)
    #expect(Set(trials.map(\.ink)).count == 6)
  }

  // MARK: Scoring

  @Test("Scoring: from 0, +100 right, −100 wrong, can go below zero; streaks reset on a miss")
  func scoring() throws {
    var g = try game(trial: CM.Trial(top: .red, word: .blue, ink: .green))
    #expect(g.score == 0)
    var now = start + 300
    // Wrong twice: below zero.
    _ = try g.apply(.answer(match: true), at: at(now))
    now += 500 + 300
    g.current = CM.Trial(top: .red, word: .blue, ink: .red)
    _ = try g.apply(.answer(match: false), at: at(now))
    #expect(g.score == -200)
    #expect(g.view(at: at(now)).streak == 0)
    // Right three times.
    for _ in 0..<3 {
      now += 500 + 300
      g.current = CM.Trial(top: .blue, word: .blue, ink: .blue)
      _ = try g.apply(.answer(match: true), at: at(now))
    }
    #expect(g.score == 100)
    #expect(g.view(at: at(now)).streak == 3)
    // A miss resets the streak, the best stays.
    now += 800
    g.current = CM.Trial(top: .blue, word: .blue, ink: .blue)
    let events = try g.apply(.answer(match: false), at: at(now))
    #expect(events == [.answered(trial: 6, correct: false, score: 0, streak: 0, reactionMs: 300)])
    let view = g.view(at: at(now))
    #expect(view.streak == 0)
    #expect(view.bestStreak == 3)
    #expect(view.score == 0)
  }

  // MARK: Timeline

  @Test("A 3-2-1 countdown comes first; an answer then is refused and changes nothing")
  func countdown() throws {
    var g = try game()
    let first = g.view(at: at(0))
    #expect(first.phase == .countdown)
    #expect(first.countdownRemainingMs == 3000)
    #expect(first.countdownSeconds == 3)
    #expect(first.top == nil && first.bottom == nil)
    #expect(g.view(at: at(1001)).countdownSeconds == 2)
    #expect(g.view(at: at(2999)).countdownSeconds == 1)
    #expect(g.view(at: at(2999)).remainingMs == 60_000)
    let before = g
    let refused = refusal { () throws(Refusal) in
      _ = try g.apply(.answer(match: true), at: at(2999))
    }
    #expect(refused?.code == .notReady)
    #expect(g == before)
    let trial = g.view(at: at(3000))
    #expect(trial.phase == .trial)
    #expect(trial.trialNumber == 1)
    #expect(trial.top?.word == g.current.top.word)
    #expect(trial.bottom?.ink == g.current.ink.hex)
    #expect(trial.bottom?.background == g.current.ink.cardBackground.hex)
  }

  @Test("After an answer a ✓ or ✗ shows for feedbackMs, then the next trial follows by itself")
  func feedback() throws {
    var g = try game(
      CM.Settings(feedbackMs: 700), trial: CM.Trial(top: .red, word: .red, ink: .red))
    _ = try g.apply(.answer(match: true), at: at(start + 1000))
    let during = g.view(at: at(start + 1000 + 699))
    #expect(during.phase == .feedback)
    #expect(during.feedbackRemainingMs == 1)
    #expect(during.lastAnswer == CM.Feedback(trial: 1, answer: true, correct: true, mark: "✓"))
    #expect(during.top == nil && during.bottom == nil)
    #expect(during.trialNumber == 1)
    // An answer during the feedback is refused and changes nothing.
    let before = g
    let refused = refusal { () throws(Refusal) in
      _ = try g.apply(.answer(match: false), at: at(start + 1500))
    }
    #expect(refused?.code == .notReady)
    #expect(g == before)
    // The next trial appears with no action.
    let next = g.view(at: at(start + 1700))
    #expect(next.phase == .trial)
    #expect(next.trialNumber == 2)
    #expect(g.tick(at: at(start + 1700)) == [])
  }

  @Test("The clock runs only while a trial waits for an answer")
  func clockRunsOnlyWhileWaiting() throws {
    var g = try game(CM.Settings(feedbackMs: 2000))
    #expect(g.view(at: at(2000)).elapsedMs == 0)
    _ = try g.apply(.answer(match: true), at: at(start + 1234))
    // During the feedback the clock stands still.
    #expect(g.view(at: at(start + 1234)).elapsedMs == 1234)
    #expect(g.view(at: at(start + 1234 + 1999)).elapsedMs == 1234)
    #expect(g.view(at: at(start + 1234 + 1999)).clock == "0:58.8")
    // It runs again with the next trial.
    #expect(g.view(at: at(start + 1234 + 2000 + 766)).elapsedMs == 2000)
    #expect(g.view(at: at(start + 1234 + 2000 + 766)).remainingMs == 58_000)
  }

  @Test("The round ends when the clock runs out, at exactly that moment, even if nobody acts")
  func timeUp() throws {
    var g = try game(CM.Settings(duration: 30, feedbackMs: 500))
    _ = try g.apply(.answer(match: true), at: at(start + 10_000))
    // 20 s of budget left from start + 10_500.
    let end = start + 10_500 + 20_000
    #expect(g.tick(at: at(end - 1)) == [])
    #expect(!g.isOver)
    let late = end + 7_000
    // The view already shows it before tick.
    let before = g.view(at: at(late))
    #expect(before.phase == .over && before.isOver)
    #expect(before.remainingMs == 0 && before.clock == "0:00.0")
    #expect(before.report?.elapsedMs == 30_000)
    // An action then is refused unchanged; tick records the end at the exact moment.
    let copy = g
    let refused = refusal { () throws(Refusal) in
      _ = try g.apply(.answer(match: true), at: at(late))
    }
    #expect(refused == .gameOver)
    #expect(g == copy)
    #expect(g.tick(at: at(late)) == [.roundOver(reason: .timeUp, score: g.score)])
    #expect(g.isOver)
    #expect(g.ending == CM.Ending(at: at(end), reason: .timeUp))
    #expect(g.summary.elapsedMs == 30_000)
    #expect(g.summary.endReason == .timeUp)
    #expect(g.tick(at: at(late + 1)) == [])
    #expect(g.view(at: at(late)) == before)
  }

  @Test("An answer at the moment the clock runs out is too late")
  func answerAtTheBuzzer() throws {
    var g = try game(CM.Settings(duration: 30))
    let refused = refusal { () throws(Refusal) in
      _ = try g.apply(.answer(match: true), at: at(start + 30_000))
    }
    #expect(refused == .gameOver)
    _ = try g.apply(.answer(match: true), at: at(start + 29_999))
    #expect(g.records.count == 1)
  }

  @Test("Quit ends the game at any time and the score stands")
  func quit() throws {
    var g = try game(trial: CM.Trial(top: .red, word: .red, ink: .red))
    _ = try g.apply(.answer(match: true), at: at(start + 500))
    #expect(try g.apply(.quit, at: at(start + 800)) == [.roundOver(reason: .quit, score: 100)])
    #expect(g.isOver)
    let view = g.view(at: at(start + 900))
    #expect(view.phase == .over && view.endReason == .quit && view.score == 100)
    #expect(view.elapsedMs == 500)
    let copy = g
    #expect(
      refusal { () throws(Refusal) in _ = try g.apply(.quit, at: at(start + 900)) } == .gameOver)
    #expect(g == copy)
    var early = try game()
    _ = try early.apply(.quit, at: at(1000))
    #expect(early.isOver && early.summary.trials == 0)
  }

  // MARK: Reaction times

  @Test(
    "The reaction time kept is the browser's, clamped to what the server saw and to 100 ms",
    arguments: [
      (Int?.some(612), 800, 612),
      (Int?.some(5000), 800, 800),
      (Int?.some(20), 800, 100),
      (Int?.none, 800, 800),
      (Int?.some(300), 50, 100),
      (Int?.none, 0, 100),
    ])
  func reactionClamp(claimed: Int?, observed: Int, kept: Int) throws {
    #expect(CM.keptReactionMs(claimed: claimed, observed: observed) == kept)
    var g = try game()
    _ = try g.apply(
      .answer(match: true, reactionMs: claimed.map(CM.ReactionTime.init(ms:))),
      at: at(start + Int64(observed)))
    #expect(g.records.last?.reactionMs == kept)
  }

  @Test("A negative reaction time is refused")
  func negativeReaction() throws {
    var g = try game()
    let copy = g
    let refused = refusal { () throws(Refusal) in
      _ = try g.apply(.answer(match: true, reactionMs: -1), at: at(start + 500))
    }
    #expect(refused?.code == .outOfRange)
    #expect(g == copy)
  }

  // MARK: Report

  @Test("The end report gives accuracy, mean reaction times and the interference effect")
  func report() throws {
    var g = try game(CM.Settings(feedbackMs: 0))
    var now = start
    let plan: [(CM.Trial, Bool, Int)] = [
      (CM.Trial(top: .red, word: .red, ink: .red), true, 400),  // congruent, right
      (CM.Trial(top: .red, word: .blue, ink: .blue), true, 600),  // congruent, wrong
      (CM.Trial(top: .green, word: .green, ink: .yellow), false, 700),  // incongruent, right
      (CM.Trial(top: .purple, word: .orange, ink: .purple), true, 900),  // incongruent, right
    ]
    for (trial, answer, ms) in plan {
      g.current = trial
      now += Int64(ms)
      _ = try g.apply(.answer(match: answer), at: at(now))
    }
    _ = try g.apply(.quit, at: at(now))
    let summary = g.summary
    #expect(summary.trials == 4)
    #expect(summary.correct == 3)
    #expect(summary.accuracy == 0.75)
    #expect(summary.bestStreak == 2)
    #expect(summary.score == 200)
    #expect(summary.meanReactionMsCongruent == 500)
    #expect(summary.meanReactionMsIncongruent == 800)
    #expect(summary.interferenceMs == 300)
    #expect(summary.endReason == .quit)
    #expect(summary.elapsedMs == 2600)
    #expect(
      g.trialsCSV() == """
        trial,top_word,bottom_word,bottom_ink,congruent,match,answer,correct,reaction_ms\r
        1,red,red,red,true,true,yes,true,400\r
        2,red,blue,blue,true,false,yes,false,600\r
        3,green,green,yellow,false,false,no,true,700\r
        4,purple,orange,purple,false,true,yes,true,900\r

        """)
  }

  @Test("Means and interference are absent without the trials they need")
  func reportWithoutTrials() throws {
    var g = try game(trial: CM.Trial(top: .red, word: .red, ink: .red))
    #expect(g.summary.meanReactionMsCongruent == nil)
    #expect(g.summary.accuracy == 0)
    _ = try g.apply(.answer(match: true), at: at(start + 500))
    #expect(g.summary.meanReactionMsCongruent == 500)
    #expect(g.summary.meanReactionMsIncongruent == nil)
    #expect(g.summary.interferenceMs == nil)
    #expect(g.trialsCSV().hasPrefix(CM.Summary.csvHeader + "\r\n"))
  }

  @Test(
    "The clock reads m:ss.t",
    arguments: [
      (0, "0:00.0"), (99, "0:00.0"), (100, "0:00.1"), (9_950, "0:09.9"), (60_000, "1:00.0"),
      (61_234, "1:01.2"), (119_999, "1:59.9"), (-5, "0:00.0"),
    ])
  func clock(ms: Int, text: String) {
    #expect(CM.formatClock(ms) == text)
  }

  // MARK: Wire format

  @Test("Actions decode from the browser's JSON")
  func decodeActions() throws {
    let decoder = JSONDecoder()
    func action(_ text: String) throws -> CM.Action {
      try decoder.decode(CM.Action.self, from: Data(text.utf8))
    }
    #expect(
      try action(#"{"type":"answer","match":true,"reactionMs":612}"#)
        == .answer(match: true, reactionMs: 612))
    #expect(
      try action(#"{"type":"answer","match":false,"reactionMs":612.6}"#)
        == .answer(match: false, reactionMs: 613))
    #expect(try action(#"{"type":"answer","match":false}"#) == .answer(match: false))
    #expect(try action(#"{"type":"quit"}"#) == .quit)
    #expect(throws: DecodingError.self) { try action(#"{"type":"skip"}"#) }
    #expect(throws: DecodingError.self) { try action(#"{"type":"answer"}"#) }
    #expect(throws: DecodingError.self) {
      try action(#"{"type":"answer","match":true,"reactionMs":-3}"#)
    }
    #expect(throws: DecodingError.self) {
      try action(#"{"type":"answer","match":true,"reactionMs":1e300}"#)
    }
    #expect(
      try json(CM.Action.answer(match: true, reactionMs: 612))
        == #"{"match":true,"reactionMs":612,"type":"answer"}"#)
    #expect(try json(CM.Action.quit) == #"{"type":"quit"}"#)
  }

  @Test("Events encode as flat objects and decode back")
  func events() throws {
    let events: [CM.Event] = [
      .answered(trial: 1, correct: true, score: 100, streak: 1, reactionMs: 612),
      .roundOver(reason: .timeUp, score: 300),
    ]
    #expect(
      try json(events)
        == #"[{"correct":true,"reactionMs":612,"score":100,"streak":1,"trial":1,"type":"answered"},"#
        + #"{"reason":"timeUp","score":300,"type":"roundOver"}]"#)
    let decoded = try JSONDecoder().decode([CM.Event].self, from: Data(try json(events).utf8))
    #expect(decoded == events)
  }

  @Test("The view's JSON is pinned")
  func pinnedView() throws {
    var g = try game(trial: CM.Trial(top: .red, word: .red, ink: .blue))
    _ = try g.apply(.answer(match: false, reactionMs: 420), at: at(start + 450))
    g.current = CM.Trial(top: .yellow, word: .green, ink: .yellow)
    let view = g.view(at: at(start + 450 + 500 + 1000))
    #expect(
      try json(view)
        == ##"{"answered":1,"bestStreak":1,"bottom":{"background":"#1f2430","ink":"#e7d936","word":{"key":"color-match.colour.green"}},"##
        + ##""clock":"0:58.6","correct":1,"countdownRemainingMs":0,"durationMs":60000,"elapsedMs":1450,"##
        + ##""feedbackRemainingMs":0,"isOver":false,"lastAnswer":{"answer":false,"correct":true,"mark":"✓","trial":1},"##
        + ##""phase":"trial","remainingMs":58550,"score":100,"streak":1,"##
        + ##""top":{"background":"#f4f1ea","ink":"#1f2430","word":{"key":"color-match.colour.yellow"}},"trialNumber":2}"##
    )
  }

  // MARK: Properties

  /// Keys a view may have; anything else could leak the answer.
  static let viewKeys: Set<String> = [
    "phase", "isOver", "countdownRemainingMs", "countdownSeconds", "feedbackRemainingMs",
    "elapsedMs", "remainingMs", "durationMs", "clock", "trialNumber", "top", "bottom", "score",
    "streak", "bestStreak", "answered", "correct", "lastAnswer", "endReason", "report",
  ]

  @Test("Over 1,000 seeds of random play, every rule holds and no view gives the answer away")
  func randomPlay() throws {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for seed in UInt64(0)..<1000 {
      var driver = SeededRandom(seed: seed &* 7919 &+ 13)
      let settings = CM.Settings(
        duration: 30, feedbackMs: driver.int(in: 0...1000), matchRate: driver.unit(),
        congruentRate: driver.unit())
      var g = try CM(settings: settings, seed: seed, at: at(1_000))
      var now: Int64 = 1_000
      var resumed: CM?
      var resumedLog: [String] = []
      var log: [String] = []
      var steps = 0
      while steps < 200 {
        steps += 1
        now += Int64(driver.int(in: 0...2500))
        let roll = driver.index(below: 40)
        let action: CM.Action =
          roll == 0
          ? .quit
          : .answer(
            match: driver.chance(0.5),
            reactionMs: driver.chance(0.7) ? .init(ms: driver.int(in: -50...3000)) : nil)
        let tickEvents = g.tick(at: at(now))
        let before = g
        var events: [CM.Event] = tickEvents
        do {
          events += try g.apply(action, at: at(now))
        } catch {
          #expect(g == before, "a refused action changed the state")
        }
        let view = g.view(at: at(now))
        log.append(try json(events) + json(view))
        if var copy = resumed {
          let e = copy.tick(at: at(now)) + ((try? copy.apply(action, at: at(now))) ?? [])
          resumedLog.append(try json(e) + json(copy.view(at: at(now))))
          resumed = copy
        }
        // Invariants.
        let answered = g.records.count
        let right = g.records.count(where: \.correct)
        #expect(g.score == 100 * right - 100 * (answered - right))
        #expect(g.records.allSatisfy { $0.correct == ($0.answer == $0.match) })
        #expect(g.records.allSatisfy { $0.match == ($0.topWord == $0.bottomInk) })
        #expect(g.records.allSatisfy { $0.congruent == ($0.bottomWord == $0.bottomInk) })
        #expect(g.records.allSatisfy { $0.reactionMs >= CM.reactionFloorMs })
        #expect(view.elapsedMs <= 30_000 && view.elapsedMs >= 0)
        #expect(view.elapsedMs + view.remainingMs == 30_000)
        #expect(view.streak <= view.bestStreak)
        // No secret in the view: only known keys, and cards only while a trial waits.
        let data = try encoder.encode(view)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys).isSubset(of: Self.viewKeys))
        if view.phase == .trial {
          let bottom = try #require(object["bottom"] as? [String: Any])
          #expect(Set(bottom.keys) == ["word", "ink", "background"])
          #expect(view.report == nil)
        } else {
          #expect(object["top"] == nil && object["bottom"] == nil)
        }
        if steps == 5 {
          let stored = try encoder.encode(g)
          let copy = try decoder.decode(CM.self, from: stored)
          #expect(copy == g)
          resumed = copy
        }
        if g.isOver { break }
      }
      // Play on past the end: the round never lasts beyond its budget.
      _ = g.tick(at: at(now + 200_000))
      #expect(g.isOver)
      #expect(g.summary.elapsedMs <= 30_000)
      if let ending = g.ending, ending.reason == .timeUp {
        #expect(g.summary.elapsedMs == 30_000)
      }
      if let resumed {
        #expect(resumedLog == Array(log.suffix(resumedLog.count)))
        var r = resumed
        _ = r.tick(at: at(now + 200_000))
        #expect(r == g)
      }
    }
  }
}
