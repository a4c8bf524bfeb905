import Foundation
import GuessworkCore
import GuessworkJSON
import Testing

/// PlainJSON reads what Foundation's `JSONDecoder` reads, to the same value, or gives up:
/// never a value `JSONDecoder` would refuse or read differently. Checked on every game's
/// actions as the API receives them, on shapes the games do not use, and on thousands of
/// bodies mangled at random from those.
@Suite struct PlainJSONTests {
  /// What a move's body looks like (the engine's own type is private to it).
  struct Body<Action: Codable & Equatable>: Codable, Equatable {
    var version: Int
    var action: Action
  }

  /// Every game's actions, each as a body.
  static let bodies: [String] = {
    func bodies<A: Codable & Equatable>(_ actions: [A]) -> [String] {
      actions.enumerated().map { index, action in
        try! CompactJSON.string(Body(version: index * 7, action: action))
      }
    }
    return bodies([NumberGame.Action.digit(5), .backspace, .clear, .enter, .guess(4321)])
      + bodies([ColorMatchGame.Action.answer(match: true, reactionMs: 612), .quit])
      + bodies([ColorMatchGame.Action.answer(match: false)])
      + bodies([BullseyeGame.Action.check(guess: RGB(r: 12, g: 200, b: 0)), .next, .newColour])
      + bodies([BullseyeGame.Action.finish]) + bodies(GuessOrPassGame.Action.allCases)
      + bodies([PictureQuizGame.Action.choose(3), .next])
  }()

  /// Whether PlainJSON and JSONDecoder agree on `text` as a `T`: PlainJSON reads nothing
  /// that JSONDecoder refuses, and reads what it reads to an equal value. Returns whether
  /// PlainJSON read it.
  @discardableResult
  func agree<T: Decodable & Equatable>(
    _ type: T.Type, _ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let data = Data(text)
    let foundation = try? JSONDecoder().decode(type, from: data)
    guard let plain = PlainJSON.decode(type, from: data) else { return false }
    #expect(
      foundation == plain, "\(String(decoding: text, as: UTF8.self))",
      sourceLocation: sourceLocation)
    return true
  }

  /// Whether a body read member by member, as the engines read a move's body (its version,
  /// then its action, from the parsed document), agrees with JSONDecoder reading it whole:
  /// read so only what JSONDecoder reads, to an equal value, and whenever the body read as a
  /// whole through PlainJSON's container does. Returns whether it was read.
  @discardableResult
  func agreeByMembers<A: Codable & Equatable>(
    _ type: A.Type, _ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let data = Data(text)
    let document = PlainJSON.Document(data)
    let whole = document.decode(Body<A>.self)
    guard let version = document.integer("version"),
      let action = document.decode(A.self, at: "action")
    else {
      #expect(
        whole == nil, "\(String(decoding: text, as: UTF8.self))", sourceLocation: sourceLocation)
      return false
    }
    let foundation = try? JSONDecoder().decode(Body<A>.self, from: data)
    #expect(
      foundation == Body(version: version, action: action) && whole == foundation,
      "\(String(decoding: text, as: UTF8.self))", sourceLocation: sourceLocation)
    return true
  }

  /// Reads `text` as a body of each game's actions, whole and by its members; returns how
  /// many game's bodies read it.
  @discardableResult
  func agreeAsAnyBody(_ text: [UInt8]) -> Int {
    let byMembers = [
      agreeByMembers(NumberGame.Action.self, text),
      agreeByMembers(ColorMatchGame.Action.self, text),
      agreeByMembers(BullseyeGame.Action.self, text),
      agreeByMembers(GuessOrPassGame.Action.self, text),
      agreeByMembers(PictureQuizGame.Action.self, text),
    ]
    let whole = [
      agree(Body<NumberGame.Action>.self, text), agree(Body<ColorMatchGame.Action>.self, text),
      agree(Body<BullseyeGame.Action>.self, text), agree(Body<GuessOrPassGame.Action>.self, text),
      agree(Body<PictureQuizGame.Action>.self, text),
    ]
    #expect(byMembers == whole, "\(String(decoding: text, as: UTF8.self))")
    return whole.filter { $0 }.count
  }

  @Test func everyGamesActionsAreReadAsFoundationReadsThem() {
    for body in Self.bodies {
      // Each body is some game's action (`next` is two games'), read without JSONDecoder.
      #expect(agreeAsAnyBody(Array(body.utf8)) >= 1, "\(body)")
      // Spaced out as a person might write it.
      let spaced = body.replacingOccurrences(of: ",", with: " ,\n\t")
        .replacingOccurrences(of: ":", with: " : ").replacingOccurrences(of: "{", with: "{ \r\n")
      #expect(agreeAsAnyBody(Array(" \(spaced) ".utf8)) >= 1, "\(spaced)")
    }
    // Keys in another order, an unknown key, null for an optional value.
    #expect(
      agree(
        Body<NumberGame.Action>.self,
        Array(#"{"action":{"number":-0,"type":"guess","x":{}},"version":3}"#.utf8)))
    #expect(
      agree(
        Body<ColorMatchGame.Action>.self,
        Array(#"{"version":0,"action":{"type":"answer","match":false,"reactionMs":null}}"#.utf8)))
  }

  @Test func whatItDoesNotReadIsLeftToFoundation() {
    let given: [String] = [
      "", " ", "{", "}", "[]", "null", "1", #""x""#, #"{"version":1}"#,
      #"{"version":1,"action":{"type":"guess","number":1.5}}"#,
      #"{"version":1,"action":{"type":"guess","number":1e2}}"#,
      #"{"version":1,"action":{"type":"guess","number":12345678901234567890}}"#,
      #"{"version":01,"action":{"type":"enter"}}"#,
      #"{"version":1,"version":2,"action":{"type":"enter"}}"#,
      #"{"version":1,"action":{"type":"ent\u0065r"}}"#,
      #"{"version":1,"action":{"type":"enter"}} x"#,
      #"{"version":1,"action":{"type":"enter"},}"#,
      #"{"version":1 "action":{"type":"enter"}}"#,
      #"{"version":"1","action":{"type":"enter"}}"#,
      #"{"version":true,"action":{"type":"enter"}}"#,
      #"{"version":1,"action":{"type":"guess","number":null}}"#,
      #"{"version":1,"action":{"type":"Guess","number":1}}"#,
      #"{"version":1,"action":{"type":"check","guess":{"r":1,"g":2}}}"#,
      #"{"version":1,"action":{"type":"check","guess":[1,2,3]}}"#,
      #"{"version":1,"action":{"type":"answer","match":1}}"#,
      #"{"version":1,"action":{"type":"answer","match":true,"reactionMs":612.4}}"#,
      #"{"version":1,"action":{"type":"answer","match":true,"reactionMs":-1}}"#,
      #"{"version":1,"action":{"type":"é"}}"#,
      "{\"version\":1,\"action\":{\"type\":\"a\tb\"}}",
      #"{"version":1,"action":{"type":"guessed"}"#,
      #"{"version":-,"action":{"type":"guessed"}}"#,
      #"{"version":1,"action":{"type":"guessed"}}}"#,
      #"{"version":1,"action":tru}"#,
    ]
    for text in given {
      #expect(agreeAsAnyBody(Array(text.utf8)) == 0, "\(text)")
    }
  }

  /// Shapes the games do not use: PlainJSON either reads them as JSONDecoder does, or leaves
  /// them to it.
  struct Shapes: Codable, Equatable {
    var small: Int8?
    var float: Float?
    var double: Double?
    var unsigned: UInt64?
    var wide: Int64?
    var list: [Int]?
    var map: [String: Int]?
    var data: Data?
    var date: Date?
    var url: URL?
    var nested: [String: [String: Bool]]?
    /// Read through the generic `decode(_:forKey:)`, as a dictionary reads its values.
    var bytes: [String: UInt8]?
    var decimal: Decimal?
  }

  @Test func otherShapesAreReadAsFoundationReadsThemOrLeftToIt() {
    let read = [
      #"{"double":9007199254740992,"wide":-123456789012345678}"#,
      #"{"map":{"a":1,"b":-2},"nested":{"x":{"y":true}}}"#, "{}", #"{"small":-3}"#,
      #"{"float":16777216}"#, #"{"unsigned":5}"#, #"{"bytes":{"a":255,"b":0}}"#,
    ]
    for text in read { #expect(agree(Shapes.self, Array(text.utf8)), "\(text)") }
    let left = [
      #"{"small":300}"#, #"{"unsigned":-5}"#, #"{"float":16777217}"#, #"{"list":[1]}"#,
      #"{"data":"AAE="}"#, #"{"date":0}"#, #"{"url":"http://a"}"#,
      #"{"double":9007199254740993}"#, #"{"bytes":{"a":256}}"#,
      // An object where a scalar is asked for; and where a type JSONDecoder reads its own
      // way is, which (URL, Decimal) would otherwise read itself from its Codable keys.
      #"{"small":{}}"#, #"{"double":{"a":1}}"#, #"{"map":{"a":{}}}"#,
      #"{"url":{"relative":"http://a"}}"#, #"{"data":{}}"#, #"{"date":{}}"#,
      #"{"decimal":{"exponent":0,"length":1,"isNegative":false,"isCompact":true,"mantissa":[1]}}"#,
      #"{"decimal":{"exponent":0,"length":0,"isNegative":false,"isCompact":true}}"#,
    ]
    for text in left { #expect(!agree(Shapes.self, Array(text.utf8)), "\(text)") }
  }

  /// A type that tries one reading and, when it fails, another.
  enum Either: Decodable, Equatable {
    case data(Data)
    case text(String)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let data = try? container.decode(Data.self) {
        self = .data(data)
      } else {
        self = .text(try container.decode(String.self))
      }
    }
  }

  /// Where PlainJSON gives up and the type tries something else, PlainJSON still gives up,
  /// rather than read the something else that JSONDecoder never reaches.
  @Test func givingUpIsNotCaughtByTheTypeBeingRead() throws {
    let text = Data(#""AAE=""#.utf8)
    #expect(try JSONDecoder().decode(Either.self, from: text) == .data(Data([0, 1])))
    #expect(PlainJSON.decode(Either.self, from: text) == nil)
    #expect(try PlainJSON.read(Either.self, from: text) == .data(Data([0, 1])))
    // Asking for Data gives up whatever the value is: JSONDecoder decides.
    #expect(PlainJSON.decode(Either.self, from: Data(#""abc""#.utf8)) == nil)
    #expect(try JSONDecoder().decode(Either.self, from: Data(#""abc""#.utf8)) == .text("abc"))
  }

  /// A document parsed once reads as each type asked of it, as parsing it again would: a play
  /// socket's message is read for the game it names, then for its version and action.
  @Test func aDocumentReadsAsEveryTypeAskedOfIt() throws {
    struct Addressed: Decodable, Equatable {
      var ref: Int
      var game: String
    }
    // A move's body as the browser sends it, with the socket's address in front.
    let move = try CompactJSON.string(Body(version: 3, action: NumberGame.Action.guess(4321)))
    let text = Data((#"{"ref":7,"game":"g_1","# + move.dropFirst()).utf8)
    let document = PlainJSON.Document(text)
    #expect(document.bytes == text)
    #expect(document.decode(Addressed.self) == Addressed(ref: 7, game: "g_1"))
    let body = try #require(document.decode(Body<NumberGame.Action>.self))
    #expect(body == (try JSONDecoder().decode(Body<NumberGame.Action>.self, from: text)))
    #expect(body == Body(version: 3, action: .guess(4321)))
    // A document that is not plain JSON (a fraction) is read by JSONDecoder, each time.
    let fraction = PlainJSON.Document(Data(#"{"ref":7.0,"game":"g_1"}"#.utf8))
    #expect(fraction.decode(Addressed.self) == nil)
    #expect(try fraction.read(Addressed.self) == Addressed(ref: 7, game: "g_1"))
    #expect(throws: DecodingError.self) {
      try PlainJSON.Document(Data(#"{"ref":"7"}"#.utf8)).read(Addressed.self)
    }
  }

  /// A plain document's members, read without a container for the document: a whole
  /// number, a value of a type, and the names in an object; nil for what is not there, not of
  /// that kind, or in a document that is not plain.
  @Test func aDocumentsMembersAreReadOneByOne() {
    let document = PlainJSON.Document(
      Data(#"{"game":"number","version":4,"settings":{"low":1,"high":50},"none":{}}"#.utf8))
    #expect(document.integer("version") == 4)
    #expect(document.integer("game") == nil)
    #expect(document.integer("missing") == nil)
    #expect(document.decode(String.self, at: "game") == "number")
    #expect(document.decode(Int.self, at: "game") == nil)
    #expect(document.decode(String.self, at: "missing") == nil)
    #expect(document.memberNames(of: "settings") == ["low", "high"])
    #expect(document.memberNames(of: "none") == [])
    #expect(document.memberNames(of: "game") == nil)
    #expect(document.memberNames(of: "missing") == nil)
    // Not plain (a fraction somewhere): nothing is read from it.
    let fraction = PlainJSON.Document(Data(#"{"version":4,"settings":{"low":1.5}}"#.utf8))
    #expect(fraction.integer("version") == nil)
    #expect(fraction.memberNames(of: "settings") == nil)
    // Not an object at the top: no members.
    #expect(PlainJSON.Document(Data("4".utf8)).integer("version") == nil)
  }

  /// Thousands of bodies made from real ones by random edits with the characters JSON is
  /// made of: on every one, PlainJSON agrees with JSONDecoder or gives up.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func mangledBodiesAgree(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let alphabet = Array(#"{}[]":,-0123456789.eE tfnrul\ "#.utf8) + [0x09, 0x0A, 0xC3, 0xA9, 0x00]
    var read = 0
    var tried = 0
    for body in Self.bodies {
      for _ in 0..<300 {
        var bytes = Array(body.utf8)
        for _ in 0...(random.next() % 3) {
          let at = Int(random.next() % UInt64(bytes.count + 1))
          let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
          switch random.next() % 3 {
          case 0: bytes.insert(byte, at: at)
          case 1: if at < bytes.count { bytes.remove(at: at) }
          default: if at < bytes.count { bytes[at] = byte }
          }
        }
        tried += 1
        if agreeAsAnyBody(bytes) > 0 { read += 1 }
      }
    }
    // Some edits leave a body readable (a space, a digit): those were compared, not skipped.
    #expect(read > tried / 100, "\(read) of \(tried) mangled bodies read")
  }
}
