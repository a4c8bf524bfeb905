import ExampleGames
import Foundation
import GuessworkJSON
import Testing

@testable import GuessworkCore

/// What the laws need of a game to play it at random: a start, an action a player might try
/// now (legal or not), and a twin that differs only in what the player may not know yet. Each
/// game of the list conforms in its own test file's neighbourhood (below); a game without it
/// fails `everyGameIsLawful`.
protocol LawfulGame: Game {
  /// A game to play, its settings and content drawn from `random`.
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self
  /// Something a player might do now, right or wrong.
  func lawAction(_ random: inout SeededRandom) -> Action
  /// The same game with another secret (the number, the target, the next cards): its view and
  /// summary must be the same while the game goes on. Nil when nothing is hidden now.
  func lawTwin(_ random: inout SeededRandom) throws -> Self?
  /// The longest step of time between two actions (a timed game's clock runs meanwhile).
  static var lawStepMs: Int { get }
}

extension LawfulGame {
  static var lawStepMs: Int { 5_000 }
}

/// The games the laws hold for: every game of ``Games/all`` and the example Coin Flip.
let lawfulGames: [any Game.Type] = Games.all + [CoinFlipGame.self]

/// The laws every game keeps, run for each game by its being in the list (docs/architecture.md,
/// "Adding a game"): a refusal changes nothing, a game stored mid-play resumes exactly, time
/// passing in steps equals time passing at once (and changes nothing in an untimed game),
/// views hold no secret, the JSON writer writes what `Codable` encodes, and a room round
/// scores within its bounds.
@Suite("The laws of every game")
struct GameLawsTests {
  @Test("Every game of the list can be played by the laws")
  func everyGameIsLawful() {
    for game in lawfulGames {
      #expect(game is any LawfulGame.Type, "\(game.kind) has no LawfulGame conformance")
    }
  }

  @Test("Random play keeps the laws", arguments: lawfulGames.map { $0.kind.rawValue })
  func laws(kind: String) throws {
    let type = try #require(lawfulGames.first { $0.kind.rawValue == kind } as? any LawfulGame.Type)
    try Self.play(type)
    if let roomType = type as? any (LawfulGame & RoomPlayable).Type {
      try Self.playRooms(roomType)
    }
  }

  // MARK: Solo

  static func play<G: LawfulGame>(_: G.Type) throws {
    for seed in UInt64(0)..<100 {
      var random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ 7)
      var game = try G.lawStart(seed: seed, &random)
      var now = Instant.zero
      for _ in 0..<random.int(in: 1...40) where !game.isOver {
        now = now.advanced(by: Int64(random.int(in: 0...G.lawStepMs)))
        try expectTimeComposes(game, from: now, &random)
        expectTimelessUnlessTimed(game, from: now, &random)
        _ = game.tick(at: now)
        try expectNoSecret(game, at: now, &random)
        try expectWritesAsCodable(game, at: now)
        try expectResumes(game)
        let action = game.lawAction(&random)
        let before = game
        do {
          let events = try game.apply(action, at: now)
          for event in events { try expectSame(written(event), codable(event), "\(G.kind) event") }
        } catch {
          #expect(game == before, "\(G.kind): refused \(action) changed the game (seed \(seed))")
        }
      }
      try expectNoSecret(game, at: now, &random)
      try expectWritesAsCodable(game, at: now)
      try expectResumes(game)
    }
  }

  /// tick(a) then tick(b) leaves the same game as tick(b).
  static func expectTimeComposes<G: LawfulGame>(
    _ game: G, from now: Instant, _ random: inout SeededRandom
  ) throws {
    let a = now.advanced(by: Int64(random.int(in: 0...(4 * G.lawStepMs))))
    let b = a.advanced(by: Int64(random.int(in: 0...(8 * G.lawStepMs))))
    var stepwise = game
    _ = stepwise.tick(at: a)
    _ = stepwise.tick(at: b)
    var once = game
    _ = once.tick(at: b)
    #expect(stepwise == once, "\(G.kind): ticks do not compose")
    #expect(stepwise.view(at: b) == once.view(at: b))
  }

  /// The server answers a read of an untimed game in play with the answer it encoded for that
  /// version before (`API.readReplies`): right only if such a game looks the same at any time.
  static func expectTimelessUnlessTimed<G: LawfulGame>(
    _ game: G, from now: Instant, _ random: inout SeededRandom
  ) {
    guard !G.isTimed else { return }
    let later = now.advanced(by: Int64(random.int(in: 1...100_000_000)))
    #expect(game.view(at: now) == game.view(at: later), "\(G.kind): the view changes with time")
    var ticked = game
    #expect(ticked.tick(at: later).isEmpty && ticked == game, "\(G.kind): time changes it")
  }

  /// While the game goes on, a twin with another secret looks the same.
  static func expectNoSecret<G: LawfulGame>(
    _ game: G, at now: Instant, _ random: inout SeededRandom
  ) throws {
    guard !game.isOver, let twin = try game.lawTwin(&random) else { return }
    #expect(twin != game, "\(G.kind): the twin is the same game")
    try expectSame(codable(twin.view(at: now)), codable(game.view(at: now)), "\(G.kind) view")
    try expectSame(codable(twin.summary), codable(game.summary), "\(G.kind) summary")
  }

  /// The state, view and summary written by the JSON writer are what `Codable` encodes.
  static func expectWritesAsCodable<G: Game>(_ game: G, at now: Instant) throws {
    try expectSame(written(game), codable(game), "\(G.kind) state")
    try expectSame(written(game.view(at: now)), codable(game.view(at: now)), "\(G.kind) view")
    try expectSame(written(game.summary), codable(game.summary), "\(G.kind) summary")
  }

  /// Stored as JSON and read back, the game is the same game.
  static func expectResumes<G: Game>(_ game: G) throws {
    let resumed = try JSONDecoder().decode(G.self, from: JSONEncoder().encode(game))
    #expect(resumed == game, "\(G.kind) does not resume")
  }

  // MARK: Rooms

  /// Three players and the screen play every round at random; each round's points are within
  /// the room's bounds: never negative, at most 1,000 an answer.
  static func playRooms<G: LawfulGame & RoomPlayable>(_: G.Type) throws {
    for seed in UInt64(0)..<25 {
      var random = SeededRandom(seed: seed ^ 0xA11_0F_600D)
      let first = try G.lawStart(seed: seed, &random)
      let content = try #require(try contentOf(first))
      var match = try RoundsMatch<G>(
        settings: first.settings, content: content, seed: seed, players: ["a", "b", "c"],
        at: .zero)
      var now = Instant.zero
      while match.phase != .over {
        if match.phase == .question {
          for _ in 0..<random.int(in: 0...12) {
            now = now.advanced(by: Int64(random.int(in: 0...(match.limitMs / 8))))
            let player = ["a", "b", "c"][random.index(below: 3)]
            guard let game = match.games[player] else { continue }
            _ = match.tick(at: now, active: ["a", "b", "c"])
            guard match.phase == .question else { break }
            try? match.play(player, round: match.round, game.lawAction(&random), at: now)
          }
          now = match.endsAt
          _ = match.tick(at: now, active: ["a", "b", "c"])
        }
        #expect(match.phase == .reveal)
        for (player, result) in match.results.last ?? [:] {
          let answers = max(1, match.games[player]?.roundProgress ?? 1)
          #expect(
            (0...(1000 * answers)).contains(result.points),
            "\(G.kind): \(result.points) points in a round (seed \(seed))")
        }
        try match.next(at: now)
      }
    }
  }

  /// The content a game was dealt, found again from its state (rooms deal it to everyone).
  static func contentOf<G: LawfulGame>(_ game: G) throws -> G.Content? {
    (game as? any ContentKeeping).flatMap { $0.keptContent as? G.Content }
      ?? (() as? G.Content)
  }

  // MARK: JSON

  /// What the value writes of itself; what `Codable` encodes when it does not write itself
  /// (the server then writes it through `Codable`).
  static func written(_ value: some JSONTextWritable) throws -> String {
    let text = JSONText()
    do {
      try text.writeJSON(value: value)
    } catch is EncodingError {
      return try codable(value)
    }
    return try canonical(Data(text.bytes))
  }

  static func codable(_ value: some Encodable) throws -> String {
    try canonical(JSONEncoder().encode(value))
  }

  static func canonical(_ json: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    return String(
      decoding: try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]),
      as: UTF8.self)
  }

  static func expectSame(_ a: String, _ b: String, _ what: String) {
    #expect(a == b, "\(what) differs:\n\(a)\n\(b)")
  }
}

/// A game that carries its content, so that a room can be dealt the same.
protocol ContentKeeping {
  var keptContent: Any { get }
}

/// A game changed through its stored JSON (for twins whose secret is private).
func changedThroughJSON<G: Game>(_ game: G, _ change: (inout [String: Any]) -> Void) throws -> G {
  var object = try #require(
    try JSONSerialization.jsonObject(with: JSONEncoder().encode(game)) as? [String: Any])
  change(&object)
  return try JSONDecoder().decode(G.self, from: JSONSerialization.data(withJSONObject: object))
}

// MARK: The games, played by the laws

extension NumberGame: LawfulGame {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    try NumberGame(settings: NumberGamePropertyTests.randomSettings(&random), seed: seed)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    NumberGamePropertyTests.randomAction(self, &random)
  }
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    guard knownLow < knownHigh else { return nil }
    var twin = self
    while twin.secret == secret { twin.secret = random.int(in: knownLow...knownHigh) }
    return twin
  }
}

extension BullseyeGame: LawfulGame {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    try BullseyeGame(
      settings: .init(
        rounds: random.int(in: 1...10), scoring: random.chance(0.5) ? .perceptual : .classic,
        freePlay: random.chance(0.3)),
      seed: seed)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    BullseyePropertyTests.randomAction(&random, game: self)
  }
  /// While a colour is being matched and not yet checked, its target is the secret (a check
  /// in free play tells how far the guess is from it).
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    let state = try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any]
    let checked = state?["current"].map { !($0 is NSNull) } ?? false
    guard phase == .guessing, !checked else { return nil }
    let other = [random.int(in: 0...255), random.int(in: 0...255), random.int(in: 0...255)]
    guard other != [target.r, target.g, target.b] else { return nil }
    return try changedThroughJSON(self) {
      $0["target"] = ["r": other[0], "g": other[1], "b": other[2]]
    }
  }
}

extension PictureQuizGame: LawfulGame, ContentKeeping {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    try PictureQuizGamePropertyTests.randomGame(seed: seed, &random)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    PictureQuizGamePropertyTests.randomAction(self, &random)
  }
  var keptContent: Any { deck }
  /// During a question, which of the pictures shown is the one named: the answer and another
  /// choice never shown before trade places and ids, which leaves the same names and ids on
  /// show (and the same history).
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    guard phase == .question else { return nil }
    let question = shown
    let before = Set(questions.prefix(taps.count).flatMap(\.choices))
    guard !before.contains(question.answer) else { return nil }
    let others = question.choices.filter { $0 != question.answer && !before.contains($0) }
    guard let other = random.element(of: others) else { return nil }
    var deck = self.deck
    (deck[question.answer].id, deck[other].id) = (deck[other].id, deck[question.answer].id)
    var choices = question.choices
    let (a, b) = (choices.firstIndex(of: question.answer)!, choices.firstIndex(of: other)!)
    choices.swapAt(a, b)
    let number = taps.count
    return try changedThroughJSON(self) { state in
      state["deck"] = deck.map { ["id": $0.id, "name": $0.name] }
      var questions = state["questions"] as! [[String: Any]]
      questions[number]["choices"] = choices
      state["questions"] = questions
    }
  }
}

extension ColorMatchGame: LawfulGame {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    try ColorMatchGame(settings: .init(), seed: seed, at: .zero)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    random.index(below: 20) == 0 ? .quit : .answer(match: random.chance(0.5))
  }
  static var lawStepMs: Int { 3_000 }
  /// The cards to come: another random sequence.
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    var twin = self
    twin.random = SeededRandom(seed: random.next())
    return twin
  }
}

extension GuessOrPassGame: LawfulGame, ContentKeeping {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    try GuessOrPassGame(
      settings: .init(duration: 30),
      content: .init(fresh: (0..<random.int(in: 5...40)).map { "word \($0)" }), seed: seed,
      at: .zero)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    [.guessed, .pass, .guessed, .pass, .end][random.index(below: 5)]
  }
  static var lawStepMs: Int { 4_000 }
  var keptContent: Any { WordList(fresh: deck) }
  /// The words to come, in another order.
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    let rest = Array(deck.dropFirst(position + 1))
    guard rest.count > 1 else { return nil }
    var shuffled = rest
    while shuffled == rest { shuffled = random.shuffled(rest) }
    var twin = self
    twin.deck = Array(deck.prefix(position + 1)) + shuffled
    return twin
  }
}

extension CoinFlipGame: LawfulGame {
  static func lawStart(seed: UInt64, _ random: inout SeededRandom) throws -> Self {
    var settings = Settings()
    settings.flips = random.int(in: 1...5)
    return try CoinFlipGame(settings: settings, content: (), seed: seed, at: .zero)
  }
  func lawAction(_ random: inout SeededRandom) -> Action {
    .call(random.chance(0.5) ? .heads : .tails)
  }
  /// The flips to come: another random sequence.
  func lawTwin(_ random: inout SeededRandom) throws -> Self? {
    try changedThroughJSON(self) { $0["random"] = ["state": random.next() >> 1] }
  }
}
