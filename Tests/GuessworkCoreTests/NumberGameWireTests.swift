import Foundation
import Testing

@testable import GuessworkCore

/// Encodes with sorted keys, as the pinned strings are written.
func sortedJSON(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

@Suite("Number game settings and wire format")
struct NumberGameWireTests {
  @Test("Settings default to 0...99 with five attempts")
  func defaults() {
    let settings = NumberGame.Settings()
    #expect(settings.low == 0 && settings.high == 99 && settings.attempts == 5)
    #expect(throws: Never.self) { try settings.validate() }
  }

  @Test("Settings decode from a partial object; missing keys take their defaults")
  func partialSettings() throws {
    #expect(try decode(NumberGame.Settings.self, "{}") == .init())
    #expect(try decode(NumberGame.Settings.self, #"{"attempts":8}"#) == .init(attempts: 8))
    #expect(
      try decode(NumberGame.Settings.self, #"{"low":100,"high":999}"#)
        == .init(low: 100, high: 999, attempts: 5))
    #expect(throws: SettingError.self) {
      try decode(NumberGame.Settings.self, #"{"attempts":"many"}"#)
    }
  }

  @Test(
    "Each invalid setting gives a SettingError naming it",
    arguments: [
      (NumberGame.Settings(low: -1, high: 99), "low"),
      (NumberGame.Settings(low: 999_992, high: 1_000_000), "low"),
      (NumberGame.Settings(low: 0, high: 8), "high"),
      (NumberGame.Settings(low: 0, high: 10_000), "high"),
      (NumberGame.Settings(low: 995_000, high: 1_000_001), "high"),
      (NumberGame.Settings(attempts: 0), "attempts"),
      (NumberGame.Settings(attempts: 21), "attempts"),
    ])
  func invalidSettings(settings: NumberGame.Settings, setting: String) {
    let error = #expect(throws: SettingError.self) {
      _ = try NumberGame(settings: settings, seed: 1)
    }
    #expect(error?.setting == setting)
  }

  @Test("The range-size error says what high may be")
  func rangeSizeMessage() {
    let error = #expect(throws: SettingError.self) {
      try NumberGame.Settings(low: 50, high: 55).validate()
    }
    #expect(
      said(error?.message)
        == "high must be a whole number from 59 to 10,049: the range from low to high must hold "
        + "10 to 10,000 numbers, and high can be at most 1,000,000.")
  }

  @Test("The widest and narrowest ranges are allowed")
  func rangeLimits() {
    #expect(throws: Never.self) {
      try NumberGame.Settings(low: 0, high: 9).validate()
      try NumberGame.Settings(low: 0, high: 9_999).validate()
      try NumberGame.Settings(low: 999_991, high: 1_000_000, attempts: 20).validate()
      try NumberGame.Settings(attempts: 1).validate()
    }
  }

  @Test("Actions decode from the JSON the browser sends")
  func decodeActions() throws {
    let cases: [(String, NumberGame.Action)] = [
      (#"{"type":"digit","digit":7}"#, .digit(7)),
      (#"{"type":"backspace"}"#, .backspace),
      (#"{"type":"clear"}"#, .clear),
      (#"{"type":"enter"}"#, .enter),
      (#"{"type":"guess","number":42}"#, .guess(42)),
    ]
    for (json, action) in cases {
      #expect(try decode(NumberGame.Action.self, json) == action)
      #expect(try decode(NumberGame.Action.self, sortedJSON(action)) == action)
    }
    #expect(try sortedJSON(NumberGame.Action.digit(7)) == #"{"digit":7,"type":"digit"}"#)
    #expect(try sortedJSON(NumberGame.Action.guess(42)) == #"{"number":42,"type":"guess"}"#)
  }

  @Test("An unknown action type or a missing field is a decoding error")
  func badActions() {
    #expect(throws: DecodingError.self) { try decode(NumberGame.Action.self, #"{"type":"jump"}"#) }
    #expect(throws: DecodingError.self) { try decode(NumberGame.Action.self, #"{"type":"digit"}"#) }
    #expect(throws: DecodingError.self) { try decode(NumberGame.Action.self, #"{"digit":1}"#) }
  }

  @Test("Events encode as flat objects and decode back")
  func events() throws {
    let cases: [(NumberGame.Event, String)] = [
      (.displayChanged(display: "42"), #"{"display":"42","type":"displayChanged"}"#),
      (
        .guessed(number: 42, hint: .higher, attemptsLeft: 4, knownLow: 43, knownHigh: 99),
        #"{"attemptsLeft":4,"hint":"higher","knownHigh":99,"knownLow":43,"number":42,"type":"guessed"}"#
      ),
      (.won(secret: 42, score: 5), #"{"score":5,"secret":42,"type":"won"}"#),
      (.lost(secret: 42), #"{"secret":42,"type":"lost"}"#),
    ]
    for (event, json) in cases {
      #expect(try sortedJSON(event) == json)
      #expect(try decode(NumberGame.Event.self, json) == event)
    }
    #expect(throws: DecodingError.self) { try decode(NumberGame.Event.self, #"{"type":"x"}"#) }
  }

  @Test("The view of a game in play is pinned")
  func pinnedPlayingView() throws {
    var game = try numberGame(secret: 50)
    try game.guess(42)
    try game.type(7)
    let json = try sortedJSON(game.view(at: .zero))
    #expect(
      json
        == #"{"attemptsAllowed":5,"attemptsLeft":4,"attemptsLeftText":{"args":{"count":4},"key":"number.attemptsLeft"},"#
        + #""display":"7","displayWidth":2,"guesses":[{"hint":"higher","number":42,"#
        + #""text":{"args":{"number":42},"key":"number.hint.higher"}}],"high":99,"hint":{"args":{"number":42},"key":"number.hint.higher"},"isLastAttempt":false,"#
        + #""isOver":false,"knownHigh":99,"knownLow":43,"#
        + #""knownRangeText":{"args":{"high":99,"low":43},"key":"number.range"},"low":0,"#
        + #""message":{"args":{"number":42},"key":"number.said.higher"},"phase":"playing","score":0}"#
    )
  }

  @Test("The view of a won game is pinned, secret included")
  func pinnedWonView() throws {
    var game = try numberGame(secret: 50)
    try game.guess(50)
    let json = try sortedJSON(game.view(at: .zero))
    #expect(
      json
        == #"{"attemptsAllowed":5,"attemptsLeft":4,"attemptsLeftText":{"args":{"count":4},"key":"number.attemptsLeft"},"#
        + #""display":"","displayWidth":2,"guesses":[{"hint":"correct","number":50,"#
        + #""text":{"args":{"number":50},"key":"number.hint.correct"}}],"high":99,"isLastAttempt":false,"isOver":true,"#
        + #""knownHigh":50,"knownLow":50,"knownRangeText":{"args":{"number":50},"key":"number.range.one"},"low":0,"#
        + #""message":{"args":{"count":1,"secret":50},"key":"number.won"},"phase":"won","#
        + #""score":5,"secret":50}"#)
  }

  @Test("The summary is pinned")
  func pinnedSummary() throws {
    var game = try numberGame(secret: 50)
    try game.guess(49)
    try game.guess(50)
    let json = try sortedJSON(game.summary)
    #expect(
      json
        == #"{"attemptsAllowed":5,"attemptsUsed":2,"guaranteedNumbers":31,"guesses":["#
        + #"{"halved":true,"hint":"higher","knownHigh":99,"knownLow":0,"number":49},"#
        + #"{"halved":false,"hint":"correct","knownHigh":99,"knownLow":50,"number":50}],"#
        + #""halvedCount":1,"high":99,"isOver":true,"low":0,"optimalTries":7,"rangeSize":100,"#
        + #""score":4,"secret":50,"strategy":[{"args":{"count":7,"size":100},"#
        + #""key":"number.strategy.needs"},{"args":{"count":5,"guaranteed":31},"#
        + #""key":"number.strategy.only"},{"args":{"count":2,"halved":1},"#
        + #""key":"number.strategy.halved"}],"won":true}"#)
  }
}
