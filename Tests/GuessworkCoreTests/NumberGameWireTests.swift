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
    #expect(throws: DecodingError.self) {
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
      error?.message
        == "high must be a whole number from 59 to 10049: the range from low to high must hold "
        + "10 to 10,000 numbers, and high can be at most 1000000")
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
        == #"{"attemptsAllowed":5,"attemptsLeft":4,"attemptsLeftText":"four attempts left","#
        + #""display":"7","displayWidth":2,"guesses":[{"hint":"higher","number":42,"#
        + #""text":"Higher than 42"}],"high":99,"hint":"Higher than 42","isLastAttempt":false,"#
        + #""isOver":false,"knownHigh":99,"knownLow":43,"#
        + #""knownRangeText":"The number is between 43 and 99.","low":0,"#
        + #""message":"My number is higher than 42.","phase":"playing","score":0}"#)
  }

  @Test("The view of a won game is pinned, secret included")
  func pinnedWonView() throws {
    var game = try numberGame(secret: 50)
    try game.guess(50)
    let json = try sortedJSON(game.view(at: .zero))
    #expect(
      json
        == #"{"attemptsAllowed":5,"attemptsLeft":4,"attemptsLeftText":"four attempts left","#
        + #""display":"","displayWidth":2,"guesses":[{"hint":"correct","number":50,"#
        + #""text":"50 is right!"}],"high":99,"isLastAttempt":false,"isOver":true,"#
        + #""knownHigh":50,"knownLow":50,"knownRangeText":"The number is 50.","low":0,"#
        + #""message":"You got it on the first try! My number was 50.","phase":"won","#
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
        + #""score":4,"secret":50,"strategyText":"A perfect halving strategy needs at most 7 "#
        + #"tries for 100 numbers, so 5 attempts can guarantee only 31 of them. You halved the "#
        + #"range with 1 of your 2 guesses.","won":true}"#)
  }
}
