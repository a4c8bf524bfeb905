public import Foundation
import GuessworkContent
public import GuessworkCore
public import GuessworkJSON
public import GuessworkStore
import Synchronization

/// A game after a step, ready to store and to answer with: its encoded state, what a player may
/// see, and what the step caused.
public struct Step: Sendable {
  /// The game's state, encoded as it is stored.
  public var state: String
  public var view: any JSONTextWritable & Sendable
  public var events: [any JSONTextWritable & Sendable]
  public var isOver: Bool
  public var score: Int
  /// The end-of-game figures, once the game is over (made only then: a move of a game that
  /// goes on has no use for them).
  public var summary: (any JSONTextWritable & Sendable)?
  /// The same figures, encoded.
  public var encodedSummary: String?
  /// The action the step applied, encoded; none when only time passed.
  public var action: String?
  /// What the finished game hands back.
  public var handback: Handback

  /// The step as the store keeps it, as version `version` of game `gameID`.
  public func move(gameID: String, version: Int, at now: Instant) -> Move {
    Move(
      gameID: gameID, version: version, state: state, at: now.milliseconds, action: action,
      finished: finished(at: now))
  }

  /// The finished game's record, once it is over.
  public func finished(at now: Instant) -> GameRecord.Finished? {
    guard isOver, let encodedSummary else { return nil }
    return GameRecord.Finished(at: now.milliseconds, score: score, summary: encodedSummary)
  }
}

/// A game brought up to `now`: decoded from its stored state and ticked once. Nothing is
/// encoded until the caller asks for a ``Step``.
public struct Advanced: Sendable {
  let game: any Game
  /// The events the tick caused.
  let events: [any Encodable & Sendable]
  /// Whether time changed the game (a round that ran out must be stored).
  public let changed: Bool
  public let isOver: Bool
  /// The stored JSON when the tick changed nothing (so a view needs no new encoding).
  let stored: String?
}

/// Why an action was not applied.
public enum PlayError: Error, Equatable, Sendable {
  case gameOver
  case refused(Refusal)
  case invalidSetting(SettingError)
}

/// A request to act on a game, read: the version the client saw, and the action (or what made
/// it unreadable, told once the version has been checked: a stale client hears that first).
public struct ActionRequest: Sendable {
  public var version: Int
  var action: Result<any Sendable, any Error>
}

/// One game kind, erased, so that the server and the terminal can drive any game in
/// ``Games/all`` from stored JSON and encoded requests, with one step for both.
public protocol GameEngine: Sendable {
  var kind: GameKind { get }
  /// Whether time alone can end this game (``Game/isTimed``).
  var isTimed: Bool { get }
  /// The game's name, as a catalog key.
  var title: Message { get }
  var contentNeed: ContentNeed { get }
  /// The game as clients see it in the catalog: name, settings, figures.
  var entry: CatalogEntry { get }
  /// The game's Swift type, for generic code such as the API document's schemas.
  var gameType: any Game.Type { get }
  /// The states kept decoded (``DecodedStates``), for the metrics.
  var decodedCached: CacheSize { get }

  /// Starts game `gameID` on the content found for it, with the settings in the `settings` key
  /// of a JSON object (missing keys take their defaults). Also returns the settings as played,
  /// encoded. The game is remembered decoded as version 0, for its first move (not when
  /// `gameID` is `nil`: a start that only checks the settings).
  func start(
    settingsIn body: PlainJSON.Document, content: SuppliedContent, seed: UInt64, at now: Instant,
    gameID: String?
  ) throws -> (Step, settings: String)
  /// Decodes the stored state and lets time pass to `now`, once.
  func advance(_ state: String, gameID: String, version: Int, at now: Instant) throws -> Advanced
  /// The advanced game, encoded, with what its tick caused.
  func step(_ advanced: Advanced, at now: Instant) throws -> Step
  /// Reads a request body `{"version": N, "action": {...}}` once. Only a missing or invalid
  /// version throws here.
  func read(body: PlainJSON.Document) throws -> ActionRequest
  /// Applies the action of `request` to a game already advanced to `now`: refuses it if the
  /// game is over, else applies it. The result is remembered as version `version + 1`.
  func apply(
    _ request: ActionRequest, to advanced: Advanced, gameID: String, version: Int,
    at now: Instant
  ) throws -> Step
  /// A tally of this game's statistics (encoded; `nil`: empty) with `games` added, oldest
  /// first (games of other kinds are skipped).
  func tally(_ encoded: String?, adding games: [FinishedGame]) -> String
  /// The statistics of a tally.
  func statistics(_ encoded: String?) -> Statistics.PerGame
  /// The best score of a tally on `variant`.
  func best(_ encoded: String?, variant: String?) -> Int?
  /// The best score of a tally on any variant.
  func bestOfAll(_ encoded: String?) -> Int?
  /// Starts the daily puzzle as game `gameID`: the game's daily settings on the content and
  /// seed of the day. The game is remembered decoded as version 0.
  func startDaily(content: SuppliedContent, seed: UInt64, at now: Instant, gameID: String)
    throws -> (Step, settings: String)
  /// The share line of a finished game, from its encoded summary.
  func shareLine(summary: String, score: Int) -> Message?
  /// A daily score as results and boards show it (``Game/dailyResult(score:)``).
  func dailyResult(score: Int) -> String
  /// A request body `{"settings": {...}}` from settings typed as text (`name=value`, the
  /// terminal's), each read and checked by its field.
  func settingsBody(_ typed: [(name: String, value: String)]) throws -> Data
  /// Checks the settings of a request body as the server does before a game starts.
  func checkSettings(_ body: Data) throws
  /// The colour a player must see but may not read (Bullseye's target), from a stored state.
  func swatch(_ state: String) throws -> String?
}

extension GameEngine {
  /// Starts a game with the settings in a request body, as
  /// ``start(settingsIn:content:seed:at:gameID:)`` does with the body parsed.
  public func start(
    settingsIn body: Data, content: SuppliedContent, seed: UInt64, at now: Instant,
    gameID: String?
  ) throws -> (Step, settings: String) {
    try start(
      settingsIn: PlainJSON.Document(body), content: content, seed: seed, at: now,
      gameID: gameID)
  }
}

/// The engine of one game.
public struct Engine<G: Game>: GameEngine {
  /// States decoded lately, by game and version: a game in play is read and moved again and
  /// again, and decoding its state costs more than the rest of a move (BENCHMARKS.md).
  let decoded = DecodedStates<G>()
  /// Tallies decoded lately, by their JSON: a player's statistics are read again and again
  /// between two games, and decoding their tallies was most of a read (perf).
  let decodedTallies = Decoded<KindTally<G>>(capacity: 4096)

  public var decodedCached: CacheSize { decoded.size }

  public init(_ type: G.Type = G.self) {}

  public var kind: GameKind { G.kind }
  public var isTimed: Bool { G.isTimed }
  public var title: Message { G.title }
  public var contentNeed: ContentNeed { G.contentNeed }
  public var gameType: any Game.Type { G.self }

  public var entry: CatalogEntry {
    CatalogEntry(
      id: G.kind.rawValue, title: G.title.key, emoji: G.emoji, blurb: G.blurb.key,
      page: "\(G.kind.rawValue).html", rooms: RoomKinds.kind(of: G.self) != nil,
      content: G.contentNeed, settings: G.settingInfos, figures: G.figureInfos)
  }

  /// A new game's body when it is not plain JSON: its settings, and the names it gave in
  /// them (read from the same parse, to refuse a name that is no setting).
  struct SettingsBody: Decodable {
    var settings: G.Settings?
    var given: GivenNames?

    private enum CodingKeys: String, CodingKey { case settings }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      settings = try container.decodeIfPresent(G.Settings.self, forKey: .settings)
      given = try container.decodeIfPresent(GivenNames.self, forKey: .settings)
    }
  }

  /// A new game's body, plain: its settings alone (their names are read from the document).
  struct SettingsOnly: Decodable {
    var settings: G.Settings?
  }

  // A game's start and each move's steps (read, advance, apply, step) are compiled for each of
  // Guesswork's games (`@specialized`); called through `any GameEngine`, the generic code
  // otherwise ran for any `G`, asking the runtime for its types and copying the game through
  // its value witnesses (engine benchmarks: a Number game started and played by halving,
  // 90 -> 82 µs). A game not listed still runs the generic code.
  @specialized(where G == NumberGame)
  @specialized(where G == ColorMatchGame)
  @specialized(where G == BullseyeGame)
  @specialized(where G == GuessOrPassGame)
  @specialized(where G == PictureQuizGame)
  public func start(
    settingsIn body: PlainJSON.Document, content supplied: SuppliedContent, seed: UInt64,
    at now: Instant, gameID: String?
  ) throws -> (Step, settings: String) {
    let game = try start(try settings(from: body), content: supplied, seed: seed, at: now)
    return try started(game, gameID: gameID, at: now)
  }

  /// A new game's first step and its settings, encoded. The game is remembered decoded as
  /// version 0: its first move would otherwise decode the state just encoded, through
  /// `JSONDecoder`, about 20 µs a game (1.6% of the move loop's server CPU, perf).
  func started(_ game: G, gameID: String?, at now: Instant) throws -> (
    Step, settings: String
  ) {
    let step = try step(game, events: [], at: now)
    if let gameID { decoded[gameID, 0] = (step.state, game) }
    return (step, try CompactJSON.string(game.settings))
  }

  @specialized(where G == NumberGame)
  @specialized(where G == ColorMatchGame)
  @specialized(where G == BullseyeGame)
  @specialized(where G == GuessOrPassGame)
  @specialized(where G == PictureQuizGame)
  public func advance(_ state: String, gameID: String, version: Int, at now: Instant) throws
    -> Advanced
  {
    var game = try decode(state, gameID: gameID, version: version)
    let (events, changed) = tick(&game, at: now)
    return Advanced(
      game: game, events: events, changed: changed, isOver: game.isOver,
      stored: changed ? nil : state)
  }

  @specialized(where G == NumberGame)
  @specialized(where G == ColorMatchGame)
  @specialized(where G == BullseyeGame)
  @specialized(where G == GuessOrPassGame)
  @specialized(where G == PictureQuizGame)
  public func step(_ advanced: Advanced, at now: Instant) throws -> Step {
    try step(
      advanced.game as! G, events: advanced.events as! [G.Event], at: now,
      encoded: advanced.stored)
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

  @specialized(where G == NumberGame)
  @specialized(where G == ColorMatchGame)
  @specialized(where G == BullseyeGame)
  @specialized(where G == GuessOrPassGame)
  @specialized(where G == PictureQuizGame)
  public func read(body: PlainJSON.Document) throws -> ActionRequest {
    // An action is nearly always plain JSON, read without JSONDecoder, its two members
    // straight from the parsed document (through a Codable container for the body: 981
    // against 621 ns, engine benchmarks); anything else, and any mistake, goes to
    // JSONDecoder, whose errors the player is told.
    if let version = body.integer("version"),
      let action = body.decode(G.Action.self, at: "action")
    {
      return ActionRequest(version: version, action: .success(action))
    }
    let read = try JSONDecoder().decode(ActionBody.self, from: body.bytes)
    return ActionRequest(version: read.version, action: read.action.map { $0 })
  }

  @specialized(where G == NumberGame)
  @specialized(where G == ColorMatchGame)
  @specialized(where G == BullseyeGame)
  @specialized(where G == GuessOrPassGame)
  @specialized(where G == PictureQuizGame)
  public func apply(
    _ request: ActionRequest, to advanced: Advanced, gameID: String, version: Int,
    at now: Instant
  ) throws -> Step {
    guard let action = try request.action.get() as? G.Action else {
      preconditionFailure("An action read by another game's engine.")
    }
    var game = advanced.game as! G
    let step = try apply(action, to: &game, afterTick: advanced.events as! [G.Event], at: now)
    // Remembered as the next version, which is what it will be if it is stored; if it is
    // not, the JSON of whatever is stored instead will not match.
    decoded[gameID, version + 1] = (step.state, game)
    return step
  }
}
