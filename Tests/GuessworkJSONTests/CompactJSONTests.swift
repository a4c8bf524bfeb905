import Foundation
import GuessworkCore
import GuessworkJSON
import Testing

/// The same JSON as Foundation's encoder writes (keys aside, which come in the order a type
/// encodes them), for every state, action, event, view and summary of every game, and for
/// the shapes `Codable` allows that the games do not use.
@Suite struct CompactJSONTests {
  /// `value` encoded both ways, each parsed back and written again with sorted keys, must be
  /// the same; and the compact JSON must decode to an equal value.
  func expectSameJSON<T: Codable & Equatable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let compact = Data(try CompactJSON.encode(value))
    let foundation = try JSONEncoder().encode(value)
    #expect(
      try canonical(compact) == canonical(foundation),
      "\(String(decoding: compact, as: UTF8.self))", sourceLocation: sourceLocation)
    #expect(
      try JSONDecoder().decode(T.self, from: compact) == value, sourceLocation: sourceLocation)
  }

  /// A value typed as writing itself (every value a game hands the server), written by the
  /// overload the server takes, which does not ask the runtime: also Foundation's JSON.
  func expectWrittenAlike(
    _ value: some JSONTextWritable, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let written = Data(try CompactJSON.encode(value))
    #expect(
      try canonical(written) == canonical(JSONEncoder().encode(value)),
      "\(String(decoding: written, as: UTF8.self))", sourceLocation: sourceLocation)
  }

  func canonical(_ json: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    return String(
      decoding: try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]),
      as: UTF8.self)
  }

  /// Plays `game` to its end (or for `steps` actions), trying `actions` in turn and letting a
  /// second pass between them, and compares everything the server encodes at every step.
  @discardableResult
  func playAndCompare<G: Game>(_ start: G, actions: [G.Action], steps: Int = 200) throws -> G {
    var game = start
    var now = Instant.zero
    try expectSameJSON(game)
    try expectSameJSON(game.settings)
    for step in 0..<steps where !game.isOver {
      now = Instant(milliseconds: now.milliseconds + 1_000)
      var events = game.tick(at: now)
      let action = actions[step % actions.count]
      try expectSameJSON(action)
      try expectWrittenAlike(action)
      if let more = try? game.apply(action, at: now) { events += more }
      try expectSameJSON(events)
      // One by one too: a reply writes its events so, each as it writes itself.
      for event in events {
        try expectSameJSON(event)
        try expectWrittenAlike(event)
      }
      try expectSameJSON(game)
      try expectWrittenAlike(game)
      try expectSameJSON(game.view(at: now))
      try expectWrittenAlike(game.view(at: now))
      try expectSameJSON(game.summary)
      try expectWrittenAlike(game.summary)
    }
    return game
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyGameEncodesAsFoundationDoes(seed: UInt64) throws {
    try playAndCompare(
      NumberGame(
        settings: .init(low: 0, high: 999, attempts: 9), content: (), seed: seed, at: .zero),
      actions: [.digit(5), .digit(0), .backspace, .enter, .guess(250), .clear, .guess(750)])
    // Played to a win (every number in turn) and to a loss: the secret shows once it is over.
    let won = try playAndCompare(
      NumberGame(
        settings: .init(low: 0, high: 9, attempts: 20), content: (), seed: seed, at: .zero),
      actions: (0...9).map { .guess($0) })
    #expect(won.phase == .won)
    let lost = try playAndCompare(
      NumberGame(
        settings: .init(low: 0, high: 99, attempts: 2), content: (), seed: seed, at: .zero),
      actions: [.guess(100), .digit(0), .enter, .guess(99)])
    #expect(lost.phase == .lost)
    try playAndCompare(
      ColorMatchGame(settings: .init(), content: (), seed: seed, at: .zero),
      actions: [.answer(match: true, reactionMs: 480), .answer(match: false), .answer(match: true)])
    // Ended by the player, with settings that are not the defaults.
    try playAndCompare(
      ColorMatchGame(
        settings: .init(duration: 30, feedbackMs: 0, matchRate: 0.35, congruentRate: 0.8),
        content: (), seed: seed, at: .zero),
      actions: [
        .answer(match: true, reactionMs: 300), .answer(match: false, reactionMs: 1_250), .quit,
      ])
    try playAndCompare(
      BullseyeGame(settings: .init(), content: (), seed: seed, at: .zero),
      actions: [.check(guess: RGB(r: 120, g: 80, b: 200)), .next, .newColour])
    let words = GuessOrPassGame.Words(fresh: (0..<40).map { "word \"\($0)\"\n\\ é" })
    try playAndCompare(
      GuessOrPassGame(settings: .init(), content: words, seed: seed, at: .zero),
      actions: [.guessed, .pass, .guessed])
    let deck = (0..<12).map { PictureQuizGame.Item(id: "item-\($0)", name: "Item <\($0)>") }
    try playAndCompare(
      PictureQuizGame(settings: .init(), content: deck, seed: seed, at: .zero),
      actions: [.choose(0), .next, .choose(2), .next])
    // A deck's noun ("Wrong! That's <noun> <name>.") is written only when there is one.
    var named = PictureQuizGame.Settings(choices: 4, questions: 5)
    named.noun = "the \"great\""
    try playAndCompare(
      PictureQuizGame(settings: named, content: deck, seed: seed, at: .zero),
      actions: [.choose(3), .next, .choose(1), .next])
  }

  struct Shapes: Codable, Equatable {
    var text = "quote \" backslash \\ slash / tab \t newline \n bell \u{07} nul \u{0} é 🎯"
    var numbers: [Int] = [0, 7, 10, -1, -10, Int.max, Int.min]
    var unsigned: UInt64 = .max
    var small: Int8 = -128
    var doubles: [Double] = [0, 0.1, -2.5, 12, 1e-7, 1.5e300, 123_456_789.125]
    var float: Float = 0.1
    var optionals: [Int?] = [1, nil, 3]
    var missing: String? = nil
    var empty: [String] = []
    var nested: [[String: [Bool]]] = [["a": [true, false]], [:]]
    var data = Data([0, 1, 2, 250])
    var url = URL(string: "https://example.com/a?b=c")!
    var instant = Instant(milliseconds: 42)
  }

  @Test func codableShapesEncodeAsFoundationDoes() throws {
    try expectSameJSON(Shapes())
    try expectSameJSON("just a string")
    try expectSameJSON(42)
    try expectSameJSON([Shapes(), Shapes()])
  }

  /// A type that writes through `superEncoder`, nested containers, asks for its container twice,
  /// and encodes a value that writes nothing at all.
  struct Unusual: Encodable {
    struct Nothing: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    enum Keys: String, CodingKey { case first, inner, list, again, nothing }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .first)
      try [1, 2].encode(to: container.superEncoder(forKey: .inner))
      var list = container.nestedUnkeyedContainer(forKey: .list)
      var object = list.nestedContainer(keyedBy: Keys.self)
      try object.encode("x", forKey: .first)
      try list.encode(Nothing())
      try "y".encode(to: list.superEncoder())
      var same = encoder.container(keyedBy: Keys.self)
      try same.encode(true, forKey: .again)
      try container.encode(Nothing(), forKey: .nothing)
    }
  }

  @Test func messagesWrittenAsTextEncodeAsFoundationDoes() throws {
    // A message writes its own text here (`JSONTextEncoder`), not through Codable.
    try expectSameJSON(Message("number.intro"))
    try expectSameJSON([
      Message(
        "a.b",
        [
          "count": 3, "ratio": .decimal(0.25), "name": "Ana \"\\ é\n🎯",
          "game": .key("game.number"), "negative": -7,
        ]),
      Message("key with \"quote\""),
    ])
    #expect(throws: EncodingError.self) {
      try CompactJSON.encode(Message("x", ["n": .decimal(.infinity)]))
    }
    // The message's own text stands where the value goes, inside any container.
    struct Holder: Codable, Equatable {
      var first: Message
      var list: [Message?]
      var after = 1
    }
    try expectSameJSON(
      Holder(first: Message("k", ["n": 1]), list: [nil, Message("k2"), Message("k3", ["t": "x"])]))
  }

  @Test("A message handed the encoder itself writes its text there, and the value after it follows")
  func aMessageGivenTheEncoderWritesItsText() throws {
    // A type that forwards its encoder to a message, so the message asks which encoder it
    // was given (`JSONTextEncoder`), inside containers, with values after it.
    struct Forwarding: Codable, Equatable {
      var message: Message
      init(_ message: Message) { self.message = message }
      init(from decoder: any Decoder) throws { message = try Message(from: decoder) }
      func encode(to encoder: any Encoder) throws { try message.encode(to: encoder) }
    }
    struct Holder: Codable, Equatable {
      var list: [Forwarding]
      var after: Forwarding
      var last = 2
    }
    let holder = Holder(
      list: [Forwarding(Message("a", ["n": 1])), Forwarding(Message("b"))],
      after: Forwarding(Message("c", ["t": "x"])))
    try expectSameJSON(holder)
    #expect(
      String(decoding: try CompactJSON.encode(holder), as: UTF8.self)
        == #"{"list":[{"key":"a","args":{"n":1}},{"key":"b"}],"after":{"key":"c","args":{"t":"x"}},"last":2}"#
    )
  }

  @Test("A message's arguments are written in the order they were given")
  func messageArgumentsKeepTheirOrder() throws {
    let message = Message("number.range", ["low": 1, "high": 9, "a": "x", "count": 2])
    let expected = #"{"key":"number.range","args":{"low":1,"high":9,"a":"x","count":2}}"#
    #expect(try CompactJSON.string(message) == expected)
  }

  @Test func containersUsedInAnyOrderMakeValidJSON() throws {
    let compact = Data(try CompactJSON.encode(Unusual()))
    #expect(try canonical(compact) == canonical(JSONEncoder().encode(Unusual())))
    #expect(
      String(decoding: compact, as: UTF8.self)
        == #"{"first":1,"inner":[1,2],"list":[{"first":"x"},{},"y"],"again":true,"nothing":{}}"#)
  }

  @Test func numbersJSONCannotHoldAreRefused() {
    #expect(throws: EncodingError.self) { try CompactJSON.encode([Double.nan]) }
    #expect(throws: EncodingError.self) { try CompactJSON.encode(["x": Double.infinity]) }
  }

  /// A value's bytes and its string are the same JSON, by either overload; a value that cannot
  /// be written gives neither.
  @Test func aValuesTextIsItsEncoding() throws {
    let value = ["b": [1, 2], "a": [3]]
    #expect(
      try String(decoding: CompactJSON.encode(value), as: UTF8.self) == CompactJSON.string(value))
    let message = Message("number.range", ["low": 1, "high": 9])
    #expect(
      try CompactJSON.string(message) == #"{"key":"number.range","args":{"low":1,"high":9}}"#)
    #expect(
      try CompactJSON.encode(message)
        == Array(#"{"key":"number.range","args":{"low":1,"high":9}}"#.utf8))
    #expect(throws: EncodingError.self) { try CompactJSON.string(["x": Double.nan]) }
  }
}
