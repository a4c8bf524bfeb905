import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkServer
import GuessworkStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization
import Testing

/// A Datamuse stand-in on a loopback port. Each behaviour has its own base path:
/// `/normal/words`, `/empty/words`, `/malformed/words`, `/slow/words`, `/busy/words` (429).
final class FakeDatamuse: Sendable {
  let requests = Mutex<[String]>([])

  static let normalAnswer = """
    [{"word":"cats","score":900},{"word":"Buses","score":800},{"word":"hot dogs","score":700},
     {"word":"guinea pig","score":650},{"word":"dog","score":600},{"word":"4x4","score":500},
     {"word":"three word thing","score":400},{"word":"species","score":300},
     {"word":"wolves","score":200},{"word":"otters","score":100},{"word":"otter","score":90},
     {"word":"c++","score":80},{"word":"axolotls"}]
    """

  func run(_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws {
    let router = Router()
    @Sendable func record(_ request: Request) {
      self.requests.withLock { $0.append(request.uri.description) }
    }
    @Sendable func answer(_ text: String, _ status: HTTPResponse.Status = .ok) -> Response {
      Response(
        status: status, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
    router.get("/normal/words") { request, _ in
      record(request)
      return answer(Self.normalAnswer)
    }
    router.get("/empty/words") { request, _ in
      record(request)
      return answer("[]")
    }
    router.get("/malformed/words") { request, _ in
      record(request)
      return answer(#"{"word": "this is not a list"#)
    }
    router.get("/slow/words") { request, _ in
      record(request)
      try await Task.sleep(for: .seconds(3))
      return answer(Self.normalAnswer)
    }
    router.get("/busy/words") { request, _ in
      record(request)
      return answer(#"{"error":"slow down"}"#, .tooManyRequests)
    }
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
      try await body("http://127.0.0.1:\(try #require(client.port))")
    }
  }
}

/// A log handler that keeps the lines, to check that a failure logs exactly one.
final class LogLines: Sendable {
  let lines = Mutex<[String]>([])

  var logger: Logger {
    var logger = Logger(label: "datamuse-tests") { _ in Handler(lines: self) }
    logger.logLevel = .info
    return logger
  }

  struct Handler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
      lines.lines.withLock { $0.append("\(event.level) \(event.message)") }
    }
  }
}

func temporaryStore() async throws -> SQLStore {
  try await SQLStore.open(
    .sqlite(
      path: FileManager.default.temporaryDirectory
        .appendingPathComponent("guesswork-datamuse-\(UUID().uuidString)/d.sqlite").path),
    logger: Logger(label: "store"))
}

@Suite("Datamuse against a local stand-in")
struct DatamuseTests {
  @Test("A normal answer is asked the seed's way, cleaned and merged with its source")
  func normal() async throws {
    let fake = FakeDatamuse()
    try await fake.run { base in
      let store = try await temporaryStore()
      let log = LogLines()
      let bank = WordBank(
        store: store, datamuse: DatamuseSettings(enabled: true, baseURL: base + "/normal"),
        logger: log.logger, now: { 1_000 })
      let result = await bank.refresh(category: "animals")
      // Cleaned: singular, at most two words, letters only, each once; "dog" is bundled.
      let stored = try await store.storedWords(category: "animals")
      #expect(
        Set(stored.map(\.word)) == [
          "cat", "bus", "hot dog", "guinea pig", "dog", "species", "wolf", "otter", "axolotl",
        ])
      #expect(stored.allSatisfy { $0.source == "datamuse" && $0.fetchedAt == 1_000 })
      #expect(result == .added(new: 9, fetched: 9))
      let request = try #require(fake.requests.withLock { $0.first })
      let query = try #require(URLComponents(string: request)?.queryItems)
      #expect(query.first { $0.name == "ml" }?.value == "dog")
      #expect(query.first { $0.name == "topics" }?.value == "animals,zoo,pets")
      #expect(query.first { $0.name == "max" }?.value == "1000")
      // The round's words: bundled first, then the new stored ones.
      let words = await bank.words(category: "animals")
      let bundled = ContentLibrary.bundled.category("animals")!.words
      #expect(Array(words.prefix(bundled.count)) == bundled)
      #expect(words.contains("axolotl") && words.filter { $0 == "dog" }.count == 1)
      try await store.close()
    }
  }

  @Test(
    "Each category asks with the seed's word and topics",
    arguments: [
      ("food", "pizza", "food,meals"), ("sports", "football", "sports,games,fitness"),
      ("technology", "smartphone", "technology,gadgets"), ("music", "guitar", "music,instruments"),
      ("nature", "tree", "nature,environment,outdoors"),
    ])
  func queries(category: String, ml: String, topics: String) throws {
    let url = try DatamuseClient(settings: DatamuseSettings(enabled: true, baseURL: "http://x/"))
      .url(for: category)
    #expect(url.absoluteString == "http://x/words?ml=\(ml)&topics=\(topics)&max=1000")
  }

  @Test(
    "Empty, malformed, slow and 429 answers leave the words as they were and log one line",
    arguments: [
      ("empty", DatamuseError.empty), ("malformed", .malformed), ("busy", .status(429)),
    ])
  func failures(path: String, expected: DatamuseError) async throws {
    let fake = FakeDatamuse()
    try await fake.run { base in
      let store = try await temporaryStore()
      try await store.addWords(["axolotl"], category: "animals", source: "datamuse", at: 1)
      let before = await WordBank(store: store, datamuse: .off, logger: Logger(label: "x"))
        .words(category: "animals")
      let log = LogLines()
      let bank = WordBank(
        store: store,
        // A timeout far above these answers' time: on a busy machine a 1 s limit turned a 429
        // into a timeout.
        datamuse: DatamuseSettings(enabled: true, baseURL: base + "/" + path, timeout: 15),
        logger: log.logger, now: { 1_000 })
      #expect(await bank.refresh(category: "animals") == .failed(expected))
      #expect(await bank.words(category: "animals") == before)
      let lines = log.lines.withLock { $0 }
      #expect(lines.count == 1, "\(lines)")
      #expect(lines.first?.hasPrefix("warning words: animals:") == true)
      try await store.close()
    }
  }

  @Test("A slow answer times out quickly and changes nothing")
  func slow() async throws {
    let fake = FakeDatamuse()
    try await fake.run { base in
      let store = try await temporaryStore()
      let log = LogLines()
      let bank = WordBank(
        store: store,
        datamuse: DatamuseSettings(enabled: true, baseURL: base + "/slow", timeout: 0.5),
        logger: log.logger, now: { 1_000 })
      // The stand-in answers well, but after 3 s: a result that is a timeout, not those words,
      // shows the limit worked (no wall-clock bound here: these machines are shared and noisy).
      let result = await bank.refresh(category: "music")
      guard case .failed(.unreachable) = result else {
        Issue.record("expected a timeout, got \(result)")
        return
      }
      #expect(try await store.storedWords(category: "music").isEmpty)
      #expect(log.lines.withLock { $0.count } == 1)
      try await store.close()
    }
  }

  @Test("Unreachable Datamuse fails the same way")
  func unreachable() async throws {
    let store = try await temporaryStore()
    let bank = WordBank(
      store: store, datamuse: DatamuseSettings(enabled: true, baseURL: "http://127.0.0.1:1"),
      logger: Logger(label: "x"))
    guard case .failed(.unreachable) = await bank.refresh(category: "food") else {
      Issue.record("expected unreachable")
      return
    }
    #expect(await bank.words(category: "food") == ContentLibrary.bundled.category("food")!.words)
    try await store.close()
  }

  @Test("A category is asked at most once a day; turned off, never")
  func oncePerDay() async throws {
    let fake = FakeDatamuse()
    try await fake.run { base in
      let store = try await temporaryStore()
      let now = Mutex<Int64>(1_000_000)
      let bank = WordBank(
        store: store, datamuse: DatamuseSettings(enabled: true, baseURL: base + "/normal"),
        logger: Logger(label: "x"), now: { now.withLock { $0 } })
      _ = await bank.refresh(category: "nature")
      now.withLock { $0 += 23 * 3_600_000 }
      #expect(await bank.refresh(category: "nature") == .notDue(lastAt: 1_000_000))
      #expect(fake.requests.withLock { $0.count } == 1)
      now.withLock { $0 += 3_600_000 }
      _ = await bank.refresh(category: "nature")
      #expect(fake.requests.withLock { $0.count } == 2)
      let off = WordBank(store: store, datamuse: .off, logger: Logger(label: "x"))
      #expect(await off.refresh(category: "nature", force: true) == .disabled)
      #expect(fake.requests.withLock { $0.count } == 2)
      try await store.close()
    }
  }
}

@Suite("Guess or Pass rounds and their words")
struct GuessOrPassWordsTests {
  @Test("A round plays to its end while Datamuse cannot be reached")
  func roundWithoutDatamuse() async throws {
    var configuration = ServerConfiguration.drivenClock
    configuration.datamuse = DatamuseSettings(enabled: true, baseURL: "http://127.0.0.1:1")
    let store = try await temporaryStore()
    let clock = ManualClock()
    let app = try buildApplication(
      configuration, store: store, logger: Logger(label: "x"), clock: { clock.now })
    try await app.test(.live) { client in
      let ana = try await Player.join(client)
      var game = try await ana.start(.guessOrPass, extra: #","category":"animals""#)
      clock.advance(seconds: 6)
      try await ana.act(&game, #"{"type":"guessed"}"#)
      try await ana.act(&game, #"{"type":"pass"}"#)
      try await ana.act(&game, #"{"type":"end"}"#)
      #expect(game.isOver)
      #expect(game.view["guessed"]?.array.count == 1)
    }
  }

  @Test("Words seen in earlier rounds come last, until every word has been seen")
  func seenWordsLast() async throws {
    let store = try await temporaryStore()
    let clock = ManualClock()
    let app = try buildApplication(
      .drivenClock, store: store, logger: Logger(label: "x"), clock: { clock.now })
    try await app.test(.live) { client in
      let ana = try await Player.join(client)
      let words = (1...12).map { "word\(String(UnicodeScalar(UInt8(96 + $0))))" }
      let list = words.map { "\"\($0)\"" }.joined(separator: ",")
      let body = #"{"name":"Mine","words":[\#(list)]}"#
      let created = try await ana.send(.post, "/api/categories", json: body)
      try #require(created.status == .created, "\(String(buffer: created.body))")
      struct Created: Decodable { var id: String }
      let id = try JSONDecoder().decode(Created.self, from: Data(buffer: created.body)).id

      /// Passes `count` words, ends the round, and returns every word it showed.
      func round(_ count: Int) async throws -> [String] {
        var game = try await ana.start(.guessOrPass, extra: #","category":"\#(id)""#)
        clock.advance(seconds: 6)
        for _ in 0..<count { try await ana.act(&game, #"{"type":"pass"}"#) }
        if !game.isOver { try await ana.act(&game, #"{"type":"end"}"#) }
        return try #require(game.summary?["wordsSeen"]).array.compactMap(\.string)
      }
      let first = try await round(4)
      let second = try await round(4)
      #expect(first.count == 5 && second.count == 5)
      #expect(Set(first).isDisjoint(with: second), "\(first) \(second)")
      // Two words are fresh; the round deals them first, then seen ones.
      let third = try await round(4)
      let unseen = Set(words).subtracting(first).subtracting(second)
      #expect(Set(third.prefix(2)) == unseen, "\(third)")
      // Every word seen: a new cycle, any word can come.
      let fourth = try await round(3)
      #expect(fourth.count == 4)
    }
  }
}
