// What one game costs the server's CPU, per game: starting it, one typical action, storing
// and loading a mid-game state (JSON, as the server does), and building the view; and one
// CIEDE2000 colour difference; reading a move's body, with and without JSONDecoder; and the
// hash of a player's token, which every request a player makes is known by.
// Run: `cd Benchmarks && swift package benchmark`.
import Benchmark
import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkStore

let words = GuessOrPassGame.Words(fresh: (0..<250).map { "word \($0)" })
let deck = (0..<30).map { PictureQuizGame.Item(id: "item-\($0)", name: "Item \($0)") }
let midGame = Instant(milliseconds: 10_000)

/// Random colour pairs, made once so that only the difference is measured.
let colourPairs: [(Lab, Lab)] = {
  var random = SeededRandom(seed: 9)
  func colour() -> Lab {
    RGB(r: random.int(in: 0...255), g: random.int(in: 0...255), b: random.int(in: 0...255)).lab
  }
  return (0..<1024).map { _ in (colour(), colour()) }
}()

/// The four measurements every game gets.
func gameBenchmarks<G: Game>(
  _ name: String, start: @escaping @Sendable (UInt64) throws -> G, action: G.Action,
  prepare: @escaping @Sendable (inout G) -> Void = { _ in }
) {
  let configuration = timed
  Benchmark("\(name): start a game", configuration: configuration) { benchmark in
    for seed in benchmark.scaledIterations { blackHole(try start(UInt64(seed))) }
  }
  var playing = try! start(42)
  prepare(&playing)
  let ready = playing
  Benchmark("\(name): one action", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations {
      var game = ready
      blackHole(try? game.apply(action, at: midGame))
    }
  }
  Benchmark("\(name): encode and decode the state", configuration: configuration) { benchmark in
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for _ in benchmark.scaledIterations {
      blackHole(try decoder.decode(G.self, from: try encoder.encode(ready)))
    }
  }
  Benchmark("\(name): build the view", configuration: configuration) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(ready.view(at: midGame)) }
  }
  // As the server writes them at every move: the state to store, the view to answer.
  Benchmark("\(name): encode the state (CompactJSON)", configuration: configuration) {
    benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(ready)) }
  }
  let view = ready.view(at: midGame)
  Benchmark("\(name): encode the view (CompactJSON)", configuration: configuration) {
    benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(view)) }
  }
}

/// Time and allocations, for at most two seconds.
var timed: Benchmark.Configuration {
  .init(metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(2))
}

let benchmarks: @Sendable () -> Void = {
  gameBenchmarks(
    "Number", start: { try NumberGame(settings: .init(), seed: $0) }, action: .digit(5),
    prepare: { game in _ = try? game.apply(.guess(50), at: .zero) })
  gameBenchmarks(
    "Color Match", start: { try ColorMatchGame(settings: .init(), seed: $0, at: .zero) },
    action: .answer(match: true, reactionMs: 500),
    prepare: { game in _ = game.tick(at: Instant(milliseconds: 3_500)) })
  gameBenchmarks(
    "Bullseye", start: { try BullseyeGame(settings: .init(), seed: $0) },
    action: .check(guess: RGB(r: 120, g: 80, b: 200)))
  gameBenchmarks(
    "Guess or Pass",
    start: { try GuessOrPassGame(settings: .init(), content: words, seed: $0, at: .zero) },
    action: .guessed, prepare: { game in _ = game.tick(at: Instant(milliseconds: 6_000)) })
  gameBenchmarks(
    "Picture Quiz",
    start: { try PictureQuizGame(settings: .init(), content: deck, seed: $0, at: .zero) },
    action: .choose(0))

  // A move's body as the browser sends it, read as the server reads it.
  struct Body: Decodable {
    var version: Int
    var action: NumberGame.Action
  }
  let body = Data(#"{"action":{"type":"guess","number":4321},"version":7}"#.utf8)
  Benchmark("Action body: JSONDecoder", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try JSONDecoder().decode(Body.self, from: body))
    }
  }
  Benchmark("Action body: PlainJSON", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(PlainJSON.decode(Body.self, from: body)) }
  }
  // As the engine reads it (parsed once by the server, which reads the same document for the
  // game's id on the play socket): through a container for the body, as before 2026-11-29,
  // and its two members straight from the document, as now.
  let parsed = PlainJSON.Document(body)
  Benchmark("Action body, parsed: through a container", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(parsed.decode(Body.self)) }
  }
  Benchmark("Action body, parsed: its members", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(parsed.integer("version"))
      blackHole(parsed.decode(NumberGame.Action.self, at: "action"))
    }
  }
  let number = Engine<NumberGame>()
  Benchmark("Action body, parsed: the engine's read", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(try number.read(body: parsed)) }
  }

  // A Number game played through its engine as the server plays it (`any GameEngine`):
  // started, then at each move the body read, the game advanced from its stored JSON (kept
  // decoded by the engine), the guess applied and its state and action encoded, and the
  // reply's view and events written; halving 0...9999 by the hints until the game ends, as the
  // HTTP move loop does (about 13 moves a game).
  let anyEngine: any GameEngine = number
  let newNumber = PlainJSON.Document(
    Data(#"{"settings":{"low":0,"high":9999,"attempts":20}}"#.utf8))
  Benchmark("Number game through the engine: started, played by halving", configuration: timed) {
    benchmark in
    for iteration in benchmark.scaledIterations {
      let gameID = "bench-\(iteration)"
      var (step, _) = try anyEngine.start(
        settingsIn: newNumber, content: .none, seed: UInt64(iteration), at: .zero,
        gameID: gameID)
      blackHole(try CompactJSON.encode(Reply(step)))
      var (low, high, version) = (0, 9999, 0)
      while !step.isOver {
        let guess = (low + high) / 2
        let body = PlainJSON.Document(
          Data(#"{"action":{"type":"guess","number":\#(guess)},"version":\#(version)}"#.utf8))
        let asked = try anyEngine.read(body: body)
        let advanced = try anyEngine.advance(
          step.state, gameID: gameID, version: version, at: .zero)
        step = try anyEngine.apply(asked, to: advanced, gameID: gameID, version: version, at: .zero)
        blackHole(try CompactJSON.encode(Reply(step)))
        version += 1
        for case .guessed(_, let hint, _, _, _) in step.events.compactMap({
          $0 as? NumberGame.Event
        }) {
          if hint == .higher { low = guess + 1 } else { high = guess - 1 }
        }
      }
    }
  }

  // A new game's body as the move loop sends it: read for the game's name by the server and
  // for the settings by the engine, with the names given in them (refused if unknown).
  let newGame = Data(#"{"game":"number","settings":{"low":0,"high":9999,"attempts":20}}"#.utf8)
  struct NewGame: Decodable { var game: String }
  Benchmark("New game body: parsed by each reader", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try PlainJSON.read(NewGame.self, from: newGame))
      blackHole(try number.settings(from: newGame))
    }
  }
  Benchmark("New game body: parsed once, as the server reads it", configuration: timed) {
    benchmark in
    for _ in benchmark.scaledIterations {
      let document = PlainJSON.Document(newGame)
      blackHole(try document.read(NewGame.self))
      blackHole(try number.settings(from: document))
    }
  }

  // A Number game's view and state after eight guesses (0...9999, 20 attempts), encoded as
  // the server encodes a move's reply and the state it stores.
  let eightGuesses: NumberGame = {
    var game = try! NumberGame(settings: .init(low: 0, high: 9999, attempts: 20), seed: 3)
    for number in [100, 200, 300, 400, 500, 600, 700, 800] {
      _ = try? game.apply(.guess(number), at: .zero)
    }
    return game
  }()
  let eightGuessesView = eightGuesses.view(at: .zero)
  // The view built, as at every move and read: a message for each guess and the range.
  Benchmark("Number after eight guesses: build the view", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(eightGuesses.view(at: .zero)) }
  }
  Benchmark("Number after eight guesses: encode the view (CompactJSON)", configuration: timed) {
    benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(eightGuessesView)) }
  }
  Benchmark("Number after eight guesses: encode the state (CompactJSON)", configuration: timed) {
    benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(eightGuesses)) }
  }

  // The summary of the game above played to its end (every number from its lowest in turn),
  // encoded twice as a game ends: stored, and in the reply.
  let endSummary: NumberGame.Summary = {
    var game = eightGuesses
    for number in 0...9999 where !game.isOver { _ = try? game.apply(.guess(number), at: .zero) }
    return game.summary
  }()
  Benchmark(
    "Number after eight guesses, ended: encode the summary (CompactJSON)", configuration: timed
  ) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(endSummary)) }
  }

  // A Color Match round after 50 answers, its state encoded as the server stores it at every
  // answer: the state keeps every answered trial, so it grows through the round.
  let fiftyAnswers: ColorMatchGame = {
    var game = try! ColorMatchGame(settings: .init(duration: 120), seed: 3, at: .zero)
    var now = Instant(milliseconds: 3_000)
    for _ in 0..<50 {
      now = Instant(milliseconds: now.milliseconds + 600)
      _ = game.tick(at: now)
      _ = try? game.apply(.answer(match: true, reactionMs: 400), at: now)
      now = Instant(milliseconds: now.milliseconds + 500)
      _ = game.tick(at: now)
    }
    return game
  }()
  Benchmark("Color Match after 50 answers: encode the state (CompactJSON)", configuration: timed) {
    benchmark in
    for _ in benchmark.scaledIterations { blackHole(try CompactJSON.encode(fiftyAnswers)) }
  }

  let token = PlayerIdentity.newToken()
  Benchmark("Player token: hash", configuration: timed) { benchmark in
    for _ in benchmark.scaledIterations { blackHole(PlayerIdentity.hash(token)) }
  }

  Benchmark(
    "CIEDE2000: one pair",
    configuration: .init(
      metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo,
      maxDuration: .seconds(2))
  ) { benchmark in
    var index = 0
    for _ in benchmark.scaledIterations {
      let pair = colourPairs[index & 1023]
      blackHole(Lab.deltaE2000(pair.0, pair.1))
      index &+= 1
    }
  }
}

/// A move's reply as the server writes it (`API.GameReply`): the game's view and events, each
/// as it writes itself (the server's reply has a few more plain members around them).
struct Reply: JSONTextWritable {
  let step: Step
  init(_ step: Step) { self.step = step }

  func writeJSON(to text: JSONText) throws {
    text.writeJSON(raw: #"{"view":"#)
    try step.view.writeJSON(to: text)
    text.writeJSON(raw: #","events":["#)
    for index in step.events.indices {
      if index != 0 { text.writeJSON(raw: ",") }
      try step.events[index].writeJSON(to: text)
    }
    text.writeJSON(raw: "]}")
  }

  private enum CodingKeys: String, CodingKey { case view, events }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(step.view, forKey: .view)
    var events = container.nestedUnkeyedContainer(forKey: .events)
    for event in step.events { try events.encode(event) }
  }
}
