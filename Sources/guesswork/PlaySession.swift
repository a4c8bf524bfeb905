import Crypto
import Foundation
import GuessworkCore
import GuessworkServer
import GuessworkStore
import Logging

/// The terminal's clock: the wall clock when play started, moved on by a monotonic clock, so
/// that stored times read as dates while the game's time never jumps (a clock change, NTP).
struct GameClock {
  let wallStart: Int64
  let start: ContinuousClock.Instant

  init() {
    wallStart = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    start = ContinuousClock.now
  }

  func now() -> Instant {
    let elapsed = ContinuousClock.now - start
    let milliseconds =
      elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    return Instant(milliseconds: wallStart + milliseconds)
  }
}

/// Encodes states and actions as the server stores them, so a game played in the terminal is
/// stored exactly like one played in a browser.
func encoded(_ value: some Encodable) -> String {
  (try? CompactJSON.string(value)) ?? "null"
}

/// One game being played: the engine, and every accepted step as the server would store it.
final class Session<G: Game> {
  private(set) var game: G
  let seed: UInt64
  /// The category or deck it is played on.
  let variant: String?
  let id = UUID().uuidString.lowercased()
  let createdAt: Instant
  /// The accepted steps: the state after each, the action (none when time ended the game).
  private(set) var moves: [Move] = []
  /// The last refusal, for the player to read.
  var notice: String?

  init(game: G, seed: UInt64, variant: String?, at now: Instant) {
    self.game = game
    self.seed = seed
    self.variant = variant
    createdAt = now
  }

  var isOver: Bool { game.isOver }

  /// Lets time pass; a round that ends by itself is stored like the server stores a timeout.
  @discardableResult
  func tick(at now: Instant) -> [G.Event] {
    guard !game.isOver else { return [] }
    let events = game.tick(at: now)
    if game.isOver { record(action: nil, at: now) }
    return events
  }

  /// Ticks, then applies `action`; a refusal is kept in `notice` and returns nil.
  @discardableResult
  func apply(_ action: G.Action, at now: Instant) -> [G.Event]? {
    var events = tick(at: now)
    guard !game.isOver else { return nil }
    do {
      events += try game.apply(action, at: now)
      notice = nil
      record(action: encoded(action), at: now)
      return events
    } catch {
      notice = error.message
      return nil
    }
  }

  private func record(action: String?, at now: Instant) {
    let finished =
      game.isOver
      ? GameRecord.Finished(at: now.milliseconds, score: game.score, summary: encoded(game.summary))
      : nil
    moves.append(
      Move(
        gameID: id, version: moves.count + 1, state: encoded(game), at: now.milliseconds,
        action: action, finished: finished))
  }

  /// The game as first stored, before any move.
  func initialRecord(playerID: String, initialState: String) -> GameRecord {
    GameRecord(
      id: id, playerID: playerID, kind: G.kind.rawValue, variant: variant,
      settings: encoded(game.settings), seed: seed, state: initialState, version: 0,
      createdAt: createdAt.milliseconds)
  }
}

/// Where the terminal keeps statistics: the store `guesswork serve` uses by default, and the
/// local player's token in a file beside it.
struct LocalData {
  var dataDirectory: String
  var databaseURL: String?

  init(dataDirectory: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
  {
    let configuration = ServerConfiguration.fromEnvironment(environment)
    self.dataDirectory = dataDirectory ?? configuration.dataDirectory
    databaseURL = configuration.databaseURL
  }

  var sqlitePath: String { (dataDirectory as NSString).appendingPathComponent("guesswork.sqlite") }
  var tokenPath: String {
    (dataDirectory as NSString).appendingPathComponent("guesswork-local-player")
  }

  func location() throws -> StoreLocation {
    try StoreLocation.from(databaseURL: databaseURL, sqlitePath: sqlitePath)
  }

  func openStore() async throws -> SQLStore {
    let logger = Logger(label: "guesswork.play") { _ in SwiftLogNoOpLogHandler() }
    return try await SQLStore.open(try location(), logger: logger)
  }

  /// The local player's token, if one was saved.
  func savedToken() -> String? {
    guard let text = try? String(contentsOfFile: tokenPath, encoding: .utf8) else { return nil }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return token.count == 43 ? token : nil
  }

  /// Saves the token readable by its owner only (it is the player's key, like a cookie).
  func saveToken(_ token: String) throws {
    try FileManager.default.createDirectory(
      atPath: dataDirectory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: tokenPath, contents: Data((token + "\n").utf8),
      attributes: [.posixPermissions: 0o600])
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenPath)
  }

  /// The local player, if there is one.
  func localPlayer(in store: any GuessworkStore) async throws -> (PlayerRecord, token: String)? {
    guard let token = savedToken(),
      let player = try await store.player(tokenHash: Self.hash(token))
    else { return nil }
    return (player, token)
  }

  /// A random 256-bit token, base64url without padding (43 characters), as the server makes.
  static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
    return Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// What the store keeps instead of the token: its SHA-256, in hex.
  static func hash(_ token: String) -> String {
    SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}

/// Records the terminal's games under the local player; if the store cannot be used, play goes
/// on and says that this game is not counted.
final class Recorder {
  let store: SQLStore?
  let player: PlayerRecord?
  let problem: String?

  init(store: SQLStore?, player: PlayerRecord?, problem: String?) {
    self.store = store
    self.player = player
    self.problem = problem
  }

  /// Opens the store and finds (or creates, with `name`) the local player.
  static func open(data: LocalData, name: String?, ask: () -> String) async -> Recorder {
    do {
      let store = try await data.openStore()
      do {
        var player: PlayerRecord
        if let (existing, _) = try await data.localPlayer(in: store) {
          player = existing
          if let name = try name.map(validName), name != player.name {
            player.name = name
            try await store.updatePlayer(
              id: player.id, name: name, preferences: player.preferences,
              at: GameClock().now().milliseconds)
          }
        } else {
          let chosen = try validName(name ?? ask())
          let token = LocalData.newToken()
          player = PlayerRecord(
            id: UUID().uuidString.lowercased(), name: chosen, preferences: #"{"inputMode":"all"}"#,
            createdAt: GameClock().now().milliseconds)
          try await store.insertPlayer(player, tokenHash: LocalData.hash(token))
          try data.saveToken(token)
        }
        return Recorder(store: store, player: player, problem: nil)
      } catch {
        try? await store.close()
        throw error
      }
    } catch {
      return Recorder(store: nil, player: nil, problem: "\(error)")
    }
  }

  /// A name as the server accepts it: 1...24 characters after trimming, no control characters.
  static func validName(_ raw: String) throws -> String {
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, name.count <= 24,
      !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
    else {
      throw PlayError("a name must have 1 to 24 characters, with no control characters")
    }
    return name
  }

  func begin<G: Game>(_ session: Session<G>) async {
    guard let store, let player else { return }
    try? await store.insertGame(
      session.initialRecord(playerID: player.id, initialState: encoded(session.game)))
  }

  /// Stores the moves after the game started, in order, in one go once it is over.
  func finish<G: Game>(_ session: Session<G>) async {
    guard let store else { return }
    for move in session.moves {
      _ = try? await store.saveMove(move, expectedVersion: move.version - 1)
    }
  }

  func close() async {
    try? await store?.close()
  }
}

struct PlayError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension Error {
  /// A refusal's or setting error's own words; anything else described.
  var message: String {
    if let refusal = self as? Refusal { return refusal.message }
    if let setting = self as? SettingError { return setting.message }
    return "\(self)"
  }
}
