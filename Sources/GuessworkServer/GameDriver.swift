import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

/// What a game needs to start besides its settings: a category or a deck.
struct GameOptions: Sendable {
  var category: String?
  var deck: Deck?
  /// The words of a Guess or Pass round, found (with what this player has seen) before the
  /// round starts.
  var words: GuessOrPassGame.Words?
}

/// A game after a step: its encoded state, what a player may see, and what it caused.
struct Outcome: Sendable {
  var state: String
  /// The game's settings, encoded, as it plays them (`start` only; empty otherwise).
  var settings: String
  var view: any Encodable & Sendable
  var events: [any Encodable & Sendable]
  var isOver: Bool
  var score: Int
  /// The end-of-game figures, encoded, once the game is over.
  var summary: String?
  /// The same figures, to send to the player.
  var summaryValue: any Encodable & Sendable
}

/// One game kind, erased so that routes can drive any game from its stored JSON.
/// The server lists the games in one place (``GameDrivers/all``); adding a game means one
/// line there.
protocol GameDriver: Sendable {
  var kind: GameKind { get }
  /// Starts a game from a request body `{"settings": {...}}`; also says what it is played on.
  func start(body: Data, options: GameOptions, seed: UInt64, now: Instant) throws -> (
    Outcome, variant: String?
  )
  /// Lets time pass; `nil` when nothing changed.
  func tick(_ game: GameRecord, now: Instant) throws -> Outcome?
  /// The view at `now` with no change.
  func view(_ game: GameRecord, now: Instant) throws -> Outcome
  /// Reads a request body `{"version": N, "action": {...}}` once. Only a missing or invalid
  /// version throws here: what is wrong with the action is told when it is applied, after the
  /// version has been checked (a stale client hears that first).
  func read(body: Data) throws -> ActionRequest
  /// Applies the action of `request` (after letting time pass).
  func apply(_ request: ActionRequest, to game: GameRecord, now: Instant) throws -> (
    Outcome, action: String
  )
}

/// A request body to act on a game, read: the version the client saw, and the action (or what
/// made it unreadable).
struct ActionRequest: Sendable {
  var version: Int
  fileprivate var action: Result<any Sendable, any Error>
}

/// The driver of one engine.
struct Driver<G: Game>: GameDriver {
  /// Finds the content a game plays with; throws an ``APIError`` naming what is missing.
  let content: @Sendable (GameOptions) throws -> (G.Content, variant: String?)
  /// Adjusts settings to the content (Picture Quiz asks no more questions than its deck has).
  var fit: @Sendable (G.Settings, G.Content, GameOptions) -> G.Settings = { settings, _, _ in
    settings
  }

  /// States decoded lately, by game and version: a game in play is read and moved again and
  /// again, and decoding its state costs more than the rest of a move (BENCHMARKS.md).
  private let decoded = DecodedStates<G>()

  var kind: GameKind { G.kind }

  private struct SettingsBody: Decodable {
    var settings: G.Settings?
  }

  private struct ActionBody: Decodable {
    var version: Int
    var action: Result<G.Action, any Error>

    enum CodingKeys: String, CodingKey { case version, action }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      version = try container.decode(Int.self, forKey: .version)
      action = Result {
        do {
          return try container.decode(G.Action.self, forKey: .action)
        } catch let error as DecodingError {
          throw error
        } catch {
          // What JSONDecoder itself says of a number it cannot hold, as it would at the top.
          throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
      }
    }
  }

  func start(body: Data, options: GameOptions, seed: UInt64, now: Instant) throws -> (
    Outcome, variant: String?
  ) {
    let settings = try JSONDecoder().decode(SettingsBody.self, from: body).settings ?? .init()
    let (content, variant) = try content(options)
    let game: G
    do {
      game = try G(
        settings: fit(settings, content, options), content: content, seed: seed, at: now)
    } catch {
      throw APIError.invalidSetting(error)
    }
    var outcome = try outcome(game, events: [], now: now)
    outcome.settings = try CompactJSON.string(game.settings)
    return (outcome, variant)
  }

  func tick(_ record: GameRecord, now: Instant) throws -> Outcome? {
    var game = try decode(record)
    let before = game
    let events = game.tick(at: now)
    return game == before ? nil : try outcome(game, events: events, now: now)
  }

  func view(_ record: GameRecord, now: Instant) throws -> Outcome {
    try outcome(try decode(record), events: [], now: now, encoded: record.state)
  }

  func read(body: Data) throws -> ActionRequest {
    let body = try JSONDecoder().decode(ActionBody.self, from: body)
    return ActionRequest(version: body.version, action: body.action.map { $0 })
  }

  func apply(_ request: ActionRequest, to record: GameRecord, now: Instant) throws -> (
    Outcome, action: String
  ) {
    guard let action = try request.action.get() as? G.Action else {
      preconditionFailure("An action read by another game's driver.")
    }
    var game = try decode(record)
    var events = game.tick(at: now)
    if game.isOver { throw APIError.gameOver }
    do {
      events += try game.apply(action, at: now)
    } catch {
      throw APIError.refused(error)
    }
    let encodedAction = try CompactJSON.string(action)
    let outcome = try outcome(game, events: events, now: now)
    // Remembered as the next version, which is what it will be if it is stored; if it is
    // not, the JSON of whatever is stored instead will not match.
    decoded[record.id, record.version + 1] = (outcome.state, game)
    return (outcome, encodedAction)
  }

  private func decode(_ record: GameRecord) throws -> G {
    if let (json, game) = decoded[record.id, record.version], json == record.state { return game }
    let game = try JSONDecoder().decode(G.self, from: Data(record.state.utf8))
    decoded[record.id, record.version] = (record.state, game)
    return game
  }

  /// The outcome of `game`, whose state is `encoded` when the caller has it already.
  private func outcome(_ game: G, events: [G.Event], now: Instant, encoded: String? = nil)
    throws -> Outcome
  {
    let state = try encoded ?? CompactJSON.string(game)
    return Outcome(
      state: state,
      settings: "",
      view: game.view(at: now),
      events: events,
      isOver: game.isOver,
      score: game.score,
      summary: game.isOver
        ? try CompactJSON.string(game.summary) : nil,
      summaryValue: game.summary)
  }
}

/// Decoded game states by game and version, each with the JSON it was decoded from: a hit
/// counts only when that JSON is the one asked about (the same string, usually, so comparing
/// is immediate). At most ``capacity`` of them, the ones in use kept (``RecentlyUsed``).
final class DecodedStates<G: Game>: Sendable {
  static var capacity: Int { 8192 }

  private struct Key: Hashable {
    var gameID: String
    var version: Int
  }

  private let states = NIOLockedValueBox(
    RecentlyUsed<Key, (json: String, game: G)>(capacity: capacity))

  subscript(gameID: String, version: Int) -> (json: String, game: G)? {
    get { states.withLockedValue { $0[Key(gameID: gameID, version: version)] } }
    set {
      states.withLockedValue { states in
        // One entry per game: the previous version will not be asked for again.
        states[Key(gameID: gameID, version: version - 1)] = nil
        states[Key(gameID: gameID, version: version)] = newValue
      }
    }
  }
}

extension APIError {
  static let gameOver = APIError(.conflict, "game-over", "The game is over.")
}
