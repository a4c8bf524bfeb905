import Foundation
import GuessworkCore
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

/// The databases the server tests run on: SQLite always, PostgreSQL when the test script
/// started one (`GUESSWORK_TEST_POSTGRES_URL`).
enum Database: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgres

  static var available: [Database] {
    let url = ProcessInfo.processInfo.environment["GUESSWORK_TEST_POSTGRES_URL"] ?? ""
    return url.isEmpty ? [.sqlite] : allCases
  }

  var testDescription: String { rawValue }

  func location() -> StoreLocation {
    switch self {
    case .sqlite:
      .sqlite(
        path: FileManager.default.temporaryDirectory
          .appendingPathComponent("guesswork-server-\(UUID().uuidString)/g.sqlite").path)
    case .postgres:
      .postgres(url: ProcessInfo.processInfo.environment["GUESSWORK_TEST_POSTGRES_URL"]!)
    }
  }
}

/// A clock the test moves by hand, so timed rounds can run out in no time.
final class ManualClock: Sendable {
  private let milliseconds: Mutex<Int64>

  init(milliseconds: Int64 = 1_800_000_000_000) {
    self.milliseconds = Mutex(milliseconds)
  }

  var now: Instant { Instant(milliseconds: milliseconds.withLock { $0 }) }

  func advance(seconds: Double) {
    milliseconds.withLock { $0 += Int64(seconds * 1000) }
  }

  func set(_ instant: Instant) {
    milliseconds.withLock { $0 = instant.milliseconds }
  }
}

extension ServerConfiguration {
  /// For tests that drive the clock: rounds end when a test reads them (or asks for
  /// statistics), never behind its back. e2e/server/test_expiry.py watches the sweep with the
  /// real clock.
  ///
  /// A connection may wait long for its first request: the test client connects when the
  /// server starts, and on a loaded machine (the suites run at once, beside a build) its first
  /// request came after the usual 10 s and found the connection closed. The deadline itself is
  /// tested end to end (e2e/server/test_hardening_two.py).
  static var drivenClock: ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.expirySweep = nil
    configuration.firstRequestSeconds = 600
    return configuration
  }
}

/// Runs `body` against a real server on a loopback port, on `database`, with a manual clock.
func withServer(
  _ database: Database, games: [any Game.Type] = Games.all, clock: ManualClock = ManualClock(),
  _ body: @Sendable (any TestClientProtocol, ManualClock) async throws -> Void
) async throws {
  try await withServer(database, games: games, clock: clock) { client, clock, _ in
    try await body(client, clock)
  }
}

/// The same, with the server's store at hand, to look at what it stored.
func withServer(
  _ database: Database, games: [any Game.Type] = Games.all, clock: ManualClock = ManualClock(),
  _ body: @Sendable (any TestClientProtocol, ManualClock, SQLStore) async throws -> Void
) async throws {
  var logger = Logger(label: "server-tests")
  logger.logLevel = .warning
  let store = try await SQLStore.open(database.location(), logger: logger)
  let app = try buildApplication(
    .drivenClock, store: store, logger: logger, clock: { clock.now }, games: games)
  try await app.test(.live) { client in try await body(client, clock, store) }
}

/// The JSON a game route answers.
struct GameReply: Decodable {
  var id: String
  var game: String
  var version: Int
  var isOver: Bool
  var score: Int
  var variant: String?
  var view: JSON
  var summary: JSON?
  var events: [JSON]?
  var newBest: Bool?
  var newBestOverall: Bool?
  var daily: JSON?
}

/// Any JSON value, to look into views without knowing every game's types.
enum JSON: Decodable, Equatable, Sendable {
  case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSON].self))
    }
  }

  subscript(key: String) -> JSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  var int: Int? { if case .number(let n) = self { Int(n) } else { nil } }
  var string: String? { if case .string(let s) = self { s } else { nil } }
  var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
  var array: [JSON] { if case .array(let a) = self { a } else { [] } }
}

struct ErrorReply: Decodable {
  struct Detail: Decodable {
    var code: String
    var message: String
    var gameId: String?
  }
  var error: Detail
}

/// A player at a browser: their cookie, and the things they do.
struct Player {
  let client: any TestClientProtocol
  let cookie: String
  let id: String

  /// Creates a player the way the first visit does.
  static func join(_ client: any TestClientProtocol, name: String = "Ana") async throws -> Player {
    let response = try await client.execute(
      uri: "/api/players", method: .post, headers: [.contentType: "application/json"],
      body: ByteBuffer(string: #"{"name":"\#(name)"}"#))
    try #require(response.status == .created)
    let setCookie = try #require(response.headers[.setCookie])
    #expect(setCookie.contains("HttpOnly"))
    #expect(setCookie.contains("SameSite=Lax"))
    let cookie = String(setCookie.split(separator: ";")[0])
    struct Created: Decodable { var id: String }
    let created = try JSONDecoder().decode(Created.self, from: Data(buffer: response.body))
    return Player(client: client, cookie: cookie, id: created.id)
  }

  func send(_ method: HTTPRequest.Method, _ uri: String, json body: String? = nil) async throws
    -> TestResponse
  {
    try await client.execute(
      uri: uri, method: method,
      headers: body == nil
        ? [.cookie: cookie] : [.cookie: cookie, .contentType: "application/json"],
      body: body.map { ByteBuffer(string: $0) })
  }

  func send(_ method: HTTPRequest.Method, _ uri: String, bytes: [UInt8]) async throws
    -> TestResponse
  {
    try await client.execute(
      uri: uri, method: method, headers: [.cookie: cookie], body: ByteBuffer(bytes: bytes))
  }

  func start(_ game: GameKind, settings: String = "{}", extra: String = "") async throws
    -> GameReply
  {
    let response = try await send(
      .post, "/api/games", json: #"{"game":"\#(game.rawValue)","settings":\#(settings)\#(extra)}"#)
    try #require(
      response.status == .created, "\(response.status): \(String(buffer: response.body))")
    return try decode(response)
  }

  func game(_ id: String) async throws -> GameReply {
    let response = try await send(.get, "/api/games/\(id)")
    try #require(response.status == .ok, "\(response.status): \(String(buffer: response.body))")
    return try decode(response)
  }

  /// Sends an action the game must accept.
  @discardableResult
  func act(_ game: inout GameReply, _ action: String) async throws -> GameReply {
    let response = try await send(
      .post, "/api/games/\(game.id)/actions",
      json: #"{"action":\#(action),"version":\#(game.version)}"#)
    try #require(response.status == .ok, "\(action): \(String(buffer: response.body))")
    game = try decode(response)
    return game
  }

  /// Sends an action that must be answered with `status`; returns the error.
  func refused(
    _ game: GameReply, _ action: String, version: Int? = nil, status: HTTPResponse.Status
  )
    async throws -> ErrorReply
  {
    let response = try await send(
      .post, "/api/games/\(game.id)/actions",
      json: #"{"action":\#(action),"version":\#(version ?? game.version)}"#)
    #expect(response.status == status, "\(action): \(String(buffer: response.body))")
    return try JSONDecoder().decode(ErrorReply.self, from: Data(buffer: response.body))
  }

  func decode<T: Decodable>(_ response: TestResponse, as type: T.Type = GameReply.self) throws -> T
  {
    try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
  }
}
