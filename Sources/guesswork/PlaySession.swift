import Foundation
import GuessworkCore
import GuessworkPlay
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

/// Where the terminal keeps statistics: the store `guesswork serve` uses by default, and the
/// local player's token in a file beside it.
struct LocalData {
  var dataDirectory: String
  var databaseURL: String?

  init(dataDirectory: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
  {
    let configuration = StorageSettings.fromEnvironment(environment)
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
    return PlayerIdentity.looksLikeToken(token) ? token : nil
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
      let player = try await store.player(tokenHash: PlayerIdentity.hash(token))
    else { return nil }
    return (player, token)
  }
}

/// Records the terminal's games under the local player; if the store cannot be used, play goes
/// on and says that this game is not counted.
final class Recorder {
  let store: SQLStore?
  let player: PlayerRecord?
  let problem: String?
  /// The share text of the daily puzzle just played.
  var shareText: String?

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
          let token = PlayerIdentity.newToken()
          player = PlayerRecord(
            id: UUID().uuidString.lowercased(), name: chosen, preferences: #"{"inputMode":"all"}"#,
            createdAt: GameClock().now().milliseconds)
          try await store.insertPlayer(player, tokenHash: PlayerIdentity.hash(token))
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

  /// A name as the server accepts it (``PlayerIdentity/validName(_:)``).
  static func validName(_ raw: String) throws -> String {
    do {
      return try PlayerIdentity.validName(raw)
    } catch {
      throw TerminalError(Speech.say(error.message))
    }
  }

  func begin<G: Game>(_ session: LocalSession<G>) async {
    guard let store, let player else { return }
    try? await session.insert(in: store, playerID: player.id)
  }

  /// Stores the moves after the game started, in order, in one go once it is over; a daily
  /// puzzle's result goes into its leaderboards and streaks, and its share text is kept.
  func finish<G: Game>(_ session: LocalSession<G>) async {
    guard let store, let player else { return }
    for move in session.moves {
      _ = try? await store.saveMove(move, expectedVersion: move.version - 1)
    }
    guard let daily = session.daily, session.isOver,
      let summary = session.moves.last?.finished?.summary
    else { return }
    let set = DailySet(store: store, engines: Play.engines)
    let record = session.initialRecord(playerID: player.id)
    let score = session.game.score
    try? await set.record(record, score: score, at: GameClock().now())
    if let engine = Play.engines[G.kind] {
      shareText = set.shareText(
        engine, daily: daily, summary: summary, score: score, link: nil,
        in: Speech.catalog)
    }
  }

  func close() async {
    try? await store?.close()
  }
}

struct TerminalError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension Error {
  /// A refusal's or setting error's own words, in the terminal's language; anything else
  /// described.
  var said: String {
    if let refusal = self as? Refusal { return Speech.say(refusal.reason) }
    if let setting = self as? SettingError { return Speech.say(setting.message) }
    if let error = self as? PlayError {
      switch error {
      case .gameOver: return Speech.say(Refusal.gameOver.reason)
      case .refused(let refusal): return Speech.say(refusal.reason)
      case .invalidSetting(let setting): return Speech.say(setting.message)
      }
    }
    return "\(self)"
  }
}
