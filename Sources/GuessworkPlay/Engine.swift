public import Foundation
public import GuessworkContent
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
  fileprivate let game: any Game
  /// The events the tick caused.
  fileprivate let events: [any Encodable & Sendable]
  /// Whether time changed the game (a round that ran out must be stored).
  public let changed: Bool
  public let isOver: Bool
  /// The stored JSON when the tick changed nothing (so a view needs no new encoding).
  fileprivate let stored: String?
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
  fileprivate var action: Result<any Sendable, any Error>
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
  private let decoded = DecodedStates<G>()
  /// Tallies decoded lately, by their JSON: a player's statistics are read again and again
  /// between two games, and decoding their tallies was most of a read (perf).
  private let decodedTallies = Decoded<KindTally<G>>(capacity: 4096)

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
  private struct SettingsBody: Decodable {
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
  private struct SettingsOnly: Decodable {
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
  private func started(_ game: G, gameID: String?, at now: Instant) throws -> (
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

  // MARK: The step, typed (the terminal holds its game as a value)

  /// Starts a game of `G` on its content.
  public func start(
    _ settings: G.Settings, content supplied: SuppliedContent, seed: UInt64, at now: Instant
  )
    throws(PlayError) -> G
  {
    guard let content = G.content(from: supplied) else {
      preconditionFailure("\(G.kind) was given content it does not use.")
    }
    do {
      return try G(settings: G.fit(settings, to: supplied), content: content, seed: seed, at: now)
    } catch {
      throw .invalidSetting(error)
    }
  }

  /// Lets time pass to `now`, once; says what it caused and whether it changed the game.
  public func tick(_ game: inout G, at now: Instant) -> (events: [G.Event], changed: Bool) {
    let before = game
    let events = game.tick(at: now)
    return (events, game != before)
  }

  /// Refuses `action` if the game (already ticked to `now`) is over, else applies it; the
  /// result is encoded as it is stored and answered.
  public func apply(
    _ action: G.Action, to game: inout G, afterTick events: [G.Event], at now: Instant
  )
    throws -> Step
  {
    let caused: [G.Event]
    do {
      caused = try game.apply(action, afterTick: events, at: now)
    } catch .gameOver {
      throw PlayError.gameOver
    } catch .refused(let refusal) {
      throw PlayError.refused(refusal)
    }
    var step = try step(game, events: caused, at: now)
    step.action = try CompactJSON.string(action)
    return step
  }

  public func settingsBody(_ typed: [(name: String, value: String)]) throws -> Data {
    var object: [String: Any] = [:]
    for (name, text) in typed {
      guard let field = G.Settings.field(name) else {
        throw SettingError(
          setting: name,
          allowed: Message(
            "allowed.settingName",
            ["list": .text(G.Settings.fields.map(\.name).joined(separator: ", "))]))
      }
      object[name] =
        switch try field.parse(text) {
        case .integer(let value): value
        case .number(let value): value
        case .text(let value): value
        case .flag(let value): value
        }
    }
    return (try? JSONSerialization.data(withJSONObject: ["settings": object])) ?? Data("{}".utf8)
  }

  /// The settings in the `settings` key of a request body (defaults for missing keys). A key
  /// that is no setting of this game is refused, not ignored: a misspelt setting would
  /// otherwise start a game the player did not ask for.
  public func settings(from body: PlainJSON.Document) throws -> G.Settings {
    do {
      return try readSettings(from: body)
    } catch let error as SettingError {
      throw PlayError.invalidSetting(error)
    }
  }

  private func readSettings(from body: PlainJSON.Document) throws -> G.Settings {
    // A plain body's settings through Codable, and the names given in them straight from
    // the parsed document (a second pass through Codable for the names, with a second parse
    // of the body for the server's own members, made reading it half as dear again: engine
    // benchmarks); any other body through JSONDecoder, whose errors the player is told.
    let settings: G.Settings?
    let given: [String]?
    if let plain = body.decode(SettingsOnly.self) {
      (settings, given) = (plain.settings, body.memberNames(of: "settings"))
    } else {
      let read = try JSONDecoder().decode(SettingsBody.self, from: body.bytes)
      (settings, given) = (read.settings, read.given?.names)
    }
    // A closure, not a key path: in generic code a key path is made at run time, each call
    // (a third of reading a new game's settings, perf).
    let names = G.Settings.fields.map { $0.name }
    if let unknown = given?.sorted().first(where: { !names.contains($0) }) {
      throw PlayError.invalidSetting(
        SettingError(
          setting: "settings",
          allowed: Message(
            "allowed.settingNames",
            ["list": .text(names.joined(separator: ", ")), "unknown": .text(unknown)]))
      )
    }
    return settings ?? .init()
  }

  /// The settings in the `settings` key of a request body, as read from the body parsed.
  public func settings(from body: Data) throws -> G.Settings {
    try settings(from: PlainJSON.Document(body))
  }

  public func checkSettings(_ body: Data) throws {
    do {
      try settings(from: body).validate()
    } catch let error as SettingError {
      throw PlayError.invalidSetting(error)
    }
  }

  public func tally(_ encoded: String?, adding games: [FinishedGame]) -> String {
    var tally = decodeTally(encoded)
    for game in games where game.kind == G.kind.rawValue {
      guard
        let summary = try? JSONDecoder().decode(G.Summary.self, from: Data(game.summary.utf8))
      else { continue }
      tally.add(FinishedRecord(summary: summary, score: game.score, variant: game.variant))
    }
    return (try? CompactJSON.string(tally)) ?? ""
  }

  public func statistics(_ encoded: String?) -> Statistics.PerGame {
    let tally = decodeTally(encoded)
    return Statistics.PerGame(
      game: G.kind.rawValue, title: G.title.key, played: tally.played, bestScore: tally.best,
      lastScores: tally.last, figures: Figures(G.figures(tally.game)))
  }

  public func best(_ encoded: String?, variant: String?) -> Int? {
    decodeTally(encoded).bests[variant ?? ""]
  }

  public func bestOfAll(_ encoded: String?) -> Int? {
    decodeTally(encoded).bests.values.max()
  }

  private func decodeTally(_ encoded: String?) -> KindTally<G> {
    guard let encoded else { return KindTally() }
    return decodedTallies.value(for: encoded) {
      (try? JSONDecoder().decode(KindTally<G>.self, from: Data(encoded.utf8))) ?? KindTally()
    }
  }

  public func startDaily(
    content supplied: SuppliedContent, seed: UInt64, at now: Instant, gameID: String
  ) throws -> (Step, settings: String) {
    let game = try start(G.dailySettings, content: supplied, seed: seed, at: now)
    return try started(game, gameID: gameID, at: now)
  }

  public func dailyResult(score: Int) -> String { G.dailyResult(score: score) }

  public func shareLine(summary: String, score: Int) -> Message? {
    (try? JSONDecoder().decode(G.Summary.self, from: Data(summary.utf8))).map {
      G.shareLine($0, score: score)
    }
  }

  public func swatch(_ state: String) throws -> String? {
    try JSONDecoder().decode(G.self, from: Data(state.utf8)).swatch
  }

  private func decode(_ state: String, gameID: String, version: Int) throws -> G {
    if let (json, game) = decoded[gameID, version], json == state { return game }
    let game = try JSONDecoder().decode(G.self, from: Data(state.utf8))
    decoded[gameID, version] = (state, game)
    return game
  }

  /// `game` as a step, its state encoded unless the caller has the encoding already.
  public func step(_ game: G, events: [G.Event], at now: Instant, encoded: String? = nil)
    throws -> Step
  {
    let summary = game.isOver ? game.summary : nil
    return Step(
      state: try encoded ?? CompactJSON.string(game),
      view: game.view(at: now),
      events: events,
      isOver: game.isOver,
      score: game.score,
      summary: summary,
      encodedSummary: try summary.map { try CompactJSON.string($0) },
      action: nil,
      handback: game.handback)
  }
}

/// Decoded game states by game, each with its version and the JSON it was decoded from: a hit
/// counts only when that version and JSON are the ones asked about (the same string, usually,
/// so comparing is immediate). One entry per game (``LatestVersions``), the ones in use kept.
public final class DecodedStates<G: Game>: Sendable {
  public static var capacity: Int { 8192 }

  /// And at most this many bytes, as ``size`` counts them.
  public static var byteCapacity: Int { 16 << 20 }

  /// The game kept as `any Game`, so that the cache's type does not depend on `G`: in the
  /// engine's generic code (the only code before its moves were specialized for each game, and
  /// still a game's not listed there) a `LatestVersions` of `(String, G)` asked the runtime for
  /// its types on every look-up and store (perf, BENCHMARKS.md).
  private let states = LatestVersions<DecodedState>(
    capacity: capacity, byteCapacity: byteCapacity,
    weigh: { gameID, entry in 64 + gameID.utf8.count + 2 * entry.json.utf8.count })

  public init() {}

  /// Entries and bytes: the JSON kept, and as much again for the decoded game.
  public var size: CacheSize { states.size }

  public subscript(gameID: String, version: Int) -> (json: String, game: G)? {
    get {
      guard let entry = states[gameID, version], let game = entry.game as? G else { return nil }
      return (entry.json, game)
    }
    set {
      // Not `newValue.map`: generic code here, it asked the runtime for its types.
      if let newValue {
        states[gameID, version] = DecodedState(json: newValue.json, game: newValue.game)
      } else {
        states[gameID, version] = nil
      }
    }
  }
}

/// A game state kept decoded (``DecodedStates``), with the JSON it was decoded from. Not nested
/// in the generic class, where it would be generic too.
private struct DecodedState: Sendable {
  var json: String
  var game: any Game
}

/// Values decoded from JSON lately, by the JSON (bounded, ``RecentlyUsed``).
final class Decoded<Value: Sendable>: Sendable {
  private let values: Mutex<RecentlyUsed<String, Value>>

  /// At most `capacity` values, and about `byteCapacity` bytes (the JSON twice: as a key and
  /// as the value decoded from it).
  init(capacity: Int, byteCapacity: Int = 8 << 20) {
    values = Mutex(
      RecentlyUsed(
        capacity: capacity, byteCapacity: byteCapacity,
        weigh: { json, _ in 64 + 2 * json.utf8.count }
      ))
  }

  func value(for json: String, decode: () -> Value) -> Value {
    if let known = values.withLock({ $0[json] }) { return known }
    let value = decode()
    values.withLock { $0[json] = value }
    return value
  }
}

/// A game as the catalog lists it: what a client needs to offer it, set it up and show its
/// statistics.
public struct CatalogEntry: Codable, Sendable, Equatable {
  public var id: String
  /// The texts (title, blurb, the settings' and figures' labels) are catalog keys until
  /// ``rendered(_:)`` puts them in a language's words.
  public var title: String
  public var emoji: String
  public var blurb: String
  /// The page that plays it.
  public var page: String
  /// Whether a room can play it (the host menu offers only these).
  public var rooms: Bool
  public var content: ContentNeed
  public var settings: [SettingInfo]
  public var figures: [FigureInfo]
}

extension CatalogEntry {
  /// The entry in the words of `catalog`.
  public func rendered(_ catalog: Catalog) -> CatalogEntry {
    var entry = self
    entry.title = catalog(title)
    entry.blurb = catalog(blurb)
    entry.settings = settings.map { setting in
      var setting = setting
      setting.label = catalog(setting.label)
      setting.about = catalog(setting.about)
      setting.choices = setting.choices?.map {
        SettingInfo.Choice(value: $0.value, label: catalog($0.label))
      }
      return setting
    }
    entry.figures = figures.map { figure in
      var figure = figure
      figure.label = catalog(figure.label)
      return figure
    }
    return entry
  }
}

/// The engines of a list of games, by kind.
public struct GameEngines: Sendable {
  /// In the list's order.
  public let all: [any GameEngine]
  private let byKind: [GameKind: any GameEngine]

  /// The engines of `games` (by default every game Guesswork plays).
  public init(_ games: [any Game.Type] = Games.all) {
    all = games.map { Self.engine(for: $0) }
    byKind = Dictionary(uniqueKeysWithValues: all.map { ($0.kind, $0) })
  }

  private static func engine<G: Game>(for type: G.Type) -> any GameEngine { Engine<G>() }

  public subscript(kind: GameKind) -> (any GameEngine)? { byKind[kind] }
  public subscript(id: String) -> (any GameEngine)? { byKind[GameKind(rawValue: id)] }

  /// The identifiers, in order, for messages ("game must be one of ...").
  public var ids: [String] { all.map(\.kind.rawValue) }
}

/// The names of an object's members, whatever their values.
struct GivenNames: Decodable {
  var names: [String]

  private struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    names = try decoder.container(keyedBy: Name.self).allKeys.map { $0.stringValue }
  }
}
