public import Foundation
public import GuessworkCore
import GuessworkJSON

/// A party room as it is stored and played: its membership (``Room``), the game being played
/// (a ``MatchDriver``: simultaneous rounds, or a team game in turns) and a version that counts
/// every accepted change. Rules live in GuessworkCore; this type reads actions from JSON, picks
/// the game by its kind among `kinds` and says what each connection may see.
public struct RoomState: Sendable {
  public var room: Room
  public var match: (any MatchDriver)?
  public var version: Int
  /// The games this room can play (the server's list).
  public let kinds: RoomKinds

  public init(
    room: Room, match: (any MatchDriver)? = nil, version: Int = 0, kinds: RoomKinds = .standard
  ) {
    self.room = room
    self.match = match
    self.version = version
    self.kinds = kinds
  }
}

// MARK: Games a room plays

/// One game kind as a room plays it: how its settings read, how a match starts and how a
/// stored one is read back. Made generically from the games' own types.
public protocol RoomKind: Sendable {
  associatedtype Settings: GameSettings
  var kind: GameKind { get }
  var contentNeed: ContentNeed { get }
  /// The settings a room plays, read from JSON and checked.
  func settings(_ json: String) throws -> Settings
  func startMatch(
    _ choice: Room.Choice, content: SuppliedContent, seed: UInt64, players: [String],
    at now: Instant
  ) throws -> any MatchDriver
  func decodeMatch(from decoder: any Decoder) throws -> any MatchDriver
  /// Whether it is played in teams (``TeamPlayable``): the choice's team count and where the
  /// secret shows apply.
  var playsInTeams: Bool { get }
}

extension RoomKind {
  /// The settings, read and checked, written back as the game reads them.
  public func normalizedSettings(_ json: String) throws -> String {
    String(decoding: try JSONEncoder().encode(try settings(json)), as: UTF8.self)
  }

  /// The settings as a value to put in a view.
  public func settingsValue(_ json: String) throws -> any Encodable & Sendable {
    try settings(json)
  }

  /// `json` read as settings of type `S`; a value out of its range is an invalid setting.
  static func checkedSettings<S: GameSettings>(_ type: S.Type, _ json: String) throws -> S {
    do {
      let settings = try JSONDecoder().decode(S.self, from: Data(json.utf8))
      try settings.validate()
      return settings
    } catch let error as SettingError {
      throw RoomPlayError.invalidSetting(error)
    }
  }
}

/// The kinds rooms play: every game of a list (the server's) that a room can play, a
/// ``RoomPlayable`` or a ``TeamPlayable`` one.
public struct RoomKinds: Sendable {
  public let all: [any RoomKind]

  public init(_ games: [any Game.Type]) {
    all = games.compactMap(Self.kind(of:))
  }

  /// The kinds of ``Games/all``.
  public static let standard = RoomKinds(Games.all)

  public func kind(_ kind: GameKind) -> (any RoomKind)? {
    all.first { $0.kind == kind }
  }

  /// How a room plays `type`; nil when it cannot.
  public static func kind(of type: any Game.Type) -> (any RoomKind)? {
    if let teams = type as? any TeamPlayable.Type { return teamsKind(teams) }
    guard let playable = type as? any RoomPlayable.Type else { return nil }
    return roundsKind(playable)
  }

  private static func roundsKind<G: RoomPlayable>(_ type: G.Type) -> any RoomKind {
    RoundsKind<G>()
  }

  private static func teamsKind<G: TeamPlayable>(_ type: G.Type) -> any RoomKind {
    TeamsKind<G>()
  }
}

/// Why a room's action could not be read or done, besides the room's own refusals.
public enum RoomPlayError: Error, Sendable {
  /// The settings of a chosen game are out of range.
  case invalidSetting(SettingError)
  /// The game cannot be played on this content (a deck too small, no words).
  case unplayable(SettingError)
}

struct RoundsKind<G: RoomPlayable>: RoomKind {
  var kind: GameKind { G.kind }
  var playsInTeams: Bool { false }
  var contentNeed: ContentNeed { G.contentNeed }

  func settings(_ json: String) throws -> G.Settings {
    G.roomSettings(try Self.checkedSettings(G.Settings.self, json))
  }

  func startMatch(
    _ choice: Room.Choice, content: SuppliedContent, seed: UInt64, players: [String],
    at now: Instant
  ) throws -> any MatchDriver {
    guard let content = G.content(from: content) else {
      throw RoomPlayError.unplayable(
        SettingError(setting: "content", allowed: Message("allowed.words")))
    }
    let settings = G.fit(try settings(choice.settings), to: .none)
    do {
      return RoundsDriver(
        match: try RoundsMatch<G>(
          settings: settings, content: content, seed: seed, players: players, at: now))
    } catch {
      throw RoomPlayError.unplayable(error)
    }
  }

  func decodeMatch(from decoder: any Decoder) throws -> any MatchDriver {
    RoundsDriver(match: try RoundsMatch<G>(from: decoder))
  }
}

struct TeamsKind<G: TeamPlayable>: RoomKind {
  var kind: GameKind { G.kind }
  var playsInTeams: Bool { true }
  var contentNeed: ContentNeed { G.contentNeed }

  func settings(_ json: String) throws -> G.Settings {
    try Self.checkedSettings(G.Settings.self, json)
  }

  func startMatch(
    _ choice: Room.Choice, content: SuppliedContent, seed: UInt64, players: [String],
    at now: Instant
  ) throws -> any MatchDriver {
    guard case .words(let words, _) = content else {
      throw RoomPlayError.unplayable(
        SettingError(setting: "words", allowed: Message("allowed.words")))
    }
    do {
      return TeamsDriver(
        match: try TeamMatch<G>(
          settings: try settings(choice.settings), content: words, seed: seed, players: players,
          teamCount: choice.teams, wordsOnScreen: choice.wordsOnScreen, at: now))
    } catch let error as SettingError {
      throw RoomPlayError.unplayable(error)
    }
  }

  func decodeMatch(from decoder: any Decoder) throws -> any MatchDriver {
    TeamsDriver(match: try TeamMatch<G>(from: decoder))
  }
}

// MARK: Matches

/// A game being played in a room, whatever its kind.
public protocol MatchDriver: Sendable {
  var kind: GameKind { get }
  /// The host has moved on past the last round.
  var isOver: Bool { get }
  /// The players of the match.
  var players: [String] { get }
  /// A player's (or, for `nil`, the shared screen's) part of the view at `now`.
  func view(for viewer: String?, at now: Instant) -> MatchView
  /// When time alone next changes the match (a round's or turn's clock), if ever.
  func nextChange(after now: Instant) -> Instant?
  /// A player's action, as JSON (`round`: the round it answers, for simultaneous rounds).
  mutating func play(_ player: String, round: Int?, action: Data, at now: Instant) throws
  /// Lets time pass; `active`: the players still in the room. Returns whether it changed.
  mutating func tick(at now: Instant, active: Set<String>) -> Bool
  mutating func next(at now: Instant) throws(RoomRefusal)
  var standings: [Standing] { get }
  /// The players' games that are over, to count in their statistics.
  func finishedGames() throws -> [FinishedRoomGame]
  /// The colour everyone must see but no view carries (Bullseye's target), as `#rrggbb`.
  var swatch: String? { get }
  func encode(to encoder: any Encoder) throws
}

/// A player's finished game in a room, to store like any finished game.
public struct FinishedRoomGame: Sendable {
  public var playerID: String
  public var settings: String
  public var state: String
  public var score: Int
  public var summary: String
}

/// What a view shows of the match.
public struct MatchView: Encodable, Sendable {
  public var phase: String
  public var round: RoundView?
  public var reveal: RevealView?
  public var turn: TurnView?
  public var teams: [TeamView]?
  public var standings: [Standing]
  /// For each player: done with the open round (simultaneous rounds).
  public var answered: Set<String>

  public struct RoundView: Encodable, Sendable {
    public var number: Int
    public var of: Int
    public var startedAt: Int64
    public var endsAt: Int64
    public var remainingMs: Int64
    public var view: (any Encodable & Sendable)?
    public var answered: Int
    public var players: Int
    /// In the reveal, on a phone: what this player scored in the round. During a round of many
    /// answers (a Color Match run), what they have scored so far.
    public var points: Int?
    /// During a round of many answers, on the shared screen: how many each player has
    /// answered, by player id.
    public var progress: [String: Int]?

    enum CodingKeys: String, CodingKey {
      case number, of, startedAt, endsAt, remainingMs, view, answered, players, points, progress
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(number, forKey: .number)
      try container.encode(of, forKey: .of)
      try container.encode(startedAt, forKey: .startedAt)
      try container.encode(endsAt, forKey: .endsAt)
      try container.encode(remainingMs, forKey: .remainingMs)
      if let view { try view.encode(to: container.superEncoder(forKey: .view)) }
      try container.encode(answered, forKey: .answered)
      try container.encode(players, forKey: .players)
      try container.encodeIfPresent(points, forKey: .points)
      try container.encodeIfPresent(progress, forKey: .progress)
    }
  }

  public struct RevealView: Encodable, Sendable {
    public var results: [Result]
    public struct Result: Encodable, Sendable {
      public var id: String
      public var points: Int
      public var answered: Bool
      public var correct: Bool
    }
  }

  public struct TurnView: Encodable, Sendable {
    public var team: Int
    public var holder: String
    public var number: Int
    public var of: Int
    public var view: any Encodable & Sendable
    public var teamScores: [Int]
    public var endsAt: Int64?
    /// Between turns, the next turn's team and holder.
    public var next: NextTurn?

    enum CodingKeys: String, CodingKey {
      case team, holder, number, of, view, teamScores, endsAt, next
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(team, forKey: .team)
      try container.encode(holder, forKey: .holder)
      try container.encode(number, forKey: .number)
      try container.encode(of, forKey: .of)
      try view.encode(to: container.superEncoder(forKey: .view))
      try container.encode(teamScores, forKey: .teamScores)
      try container.encodeIfPresent(endsAt, forKey: .endsAt)
      try container.encodeIfPresent(next, forKey: .next)
    }
  }

  public struct TeamView: Encodable, Sendable {
    public var number: Int
    public var players: [String]
    public var score: Int
    /// The team's place, best first; teams with equal scores share it.
    public var rank: Int
  }

  /// Between turns: who holds the phone next.
  public struct NextTurn: Encodable, Sendable {
    public var team: Int
    public var holder: String
  }

  enum CodingKeys: String, CodingKey { case phase, round, reveal, turn, teams }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(phase, forKey: .phase)
    try container.encodeIfPresent(round, forKey: .round)
    try container.encodeIfPresent(reveal, forKey: .reveal)
    try container.encodeIfPresent(turn, forKey: .turn)
    try container.encodeIfPresent(teams, forKey: .teams)
  }
}

/// A player's game action inside a room's request:
/// `{"version": 3, "action": {"type": "play", "round": 0, "action": <the game's action>}}`.
struct PlayedAction<A: Decodable>: Decodable {
  struct Play: Decodable { var action: A }
  var action: Play
}

struct RoundsDriver<G: RoomPlayable>: MatchDriver {
  var match: RoundsMatch<G>

  var kind: GameKind { G.kind }
  var isOver: Bool { match.phase == .over }
  var players: [String] { match.players }
  var standings: [Standing] { match.standings }

  func view(for viewer: String?, at now: Instant) -> MatchView {
    let shown: G?
    if let viewer {
      // A player done with an open round sees nothing of it until it is revealed: their own
      // game would show the answer while the others are still answering.
      let waiting = match.phase == .question && match.doneAt[viewer] != nil
      shown = waiting ? nil : match.games[viewer]
    } else {
      shown = match.screen
    }
    let answered = Set(match.doneAt.keys)
    var round = MatchView.RoundView(
      number: match.round + 1, of: match.rounds, startedAt: match.startedAt.milliseconds,
      endsAt: match.endsAt.milliseconds,
      remainingMs: max(0, match.endsAt.milliseconds(since: now)),
      view: shown.map { $0.view(at: now) }, answered: answered.count,
      players: match.players.count)
    if match.phase == .question, G.scoresUnfinishedRounds {
      if let viewer, let game = match.games[viewer] {
        round.points = game.roundPoints(elapsedMs: 0, limitMs: match.limitMs)
      } else if viewer == nil {
        round.progress = match.games.compactMapValues(\.roundProgress)
      }
    }
    var reveal: MatchView.RevealView?
    if match.phase == .reveal, let last = match.results.last {
      round.remainingMs = 0
      if let viewer { round.points = last[viewer]?.points }
      reveal = MatchView.RevealView(
        results: match.players.compactMap { id in
          last[id].map {
            .init(
              id: id, points: $0.points, answered: $0.answered,
              correct: match.games[id]?.isRoundRight(points: $0.points) ?? false)
          }
        })
    }
    return MatchView(
      phase: match.phase == .question ? "question" : match.phase == .reveal ? "reveal" : "over",
      round: match.phase == .over ? nil : round, reveal: reveal, standings: match.standings,
      answered: match.phase == .question ? answered : [])
  }

  func nextChange(after now: Instant) -> Instant? { match.nextChange(after: now) }

  mutating func play(_ player: String, round: Int?, action: Data, at now: Instant) throws {
    let read = try PlainJSON.read(PlayedAction<G.Action>.self, from: action)
    try match.play(player, round: round ?? -1, read.action.action, at: now)
  }

  mutating func tick(at now: Instant, active: Set<String>) -> Bool {
    match.tick(at: now, active: active)
  }

  mutating func next(at now: Instant) throws(RoomRefusal) { try match.next(at: now) }

  func finishedGames() throws -> [FinishedRoomGame] {
    let settings = try CompactJSON.string(match.settings)
    return try match.players.compactMap { id in
      guard let game = match.games[id], game.isOver else { return nil }
      return FinishedRoomGame(
        playerID: id, settings: settings, state: try CompactJSON.string(game),
        score: game.score, summary: try CompactJSON.string(game.summary))
    }
  }

  func encode(to encoder: any Encoder) throws { try match.encode(to: encoder) }

  /// Every copy draws the same targets: the screen's is the round's.
  var swatch: String? { match.phase == .over ? nil : match.screen.swatch }
}

struct TeamsDriver<G: TeamPlayable>: MatchDriver {
  var match: TeamMatch<G>

  var kind: GameKind { G.kind }
  var isOver: Bool { match.phase == .over }
  var players: [String] { match.teams.flatMap { $0 } }
  var standings: [Standing] { match.standings }

  func view(for viewer: String?, at now: Instant) -> MatchView {
    var shown = match.game.view(at: now)
    if !match.seesWord(viewer) { shown = G.hidingSecret(shown) }
    let scores = match.teamScores
    let turn = MatchView.TurnView(
      team: match.team, holder: match.holder, number: match.turn + 1, of: match.turns,
      view: shown, teamScores: scores, endsAt: match.nextChange(after: now)?.milliseconds,
      next: match.upNext.map { .init(team: $0.team, holder: $0.holder) })
    let ranks = Dictionary(
      match.teamStandings.map { (Int($0.id) ?? 0, $0.rank) }, uniquingKeysWith: { a, _ in a })
    return MatchView(
      phase: match.phase == .turn ? "turn" : match.phase == .turnOver ? "turnOver" : "over",
      turn: match.phase == .over ? nil : turn,
      teams: match.teams.enumerated().map {
        .init(number: $0, players: $1, score: scores[$0], rank: ranks[$0] ?? 1)
      },
      standings: match.standings, answered: [])
  }

  func nextChange(after now: Instant) -> Instant? { match.nextChange(after: now) }

  mutating func play(_ player: String, round: Int?, action: Data, at now: Instant) throws {
    let read = try PlainJSON.read(PlayedAction<G.Action>.self, from: action)
    try match.play(player, read.action.action, at: now)
  }

  mutating func tick(at now: Instant, active: Set<String>) -> Bool { match.tick(at: now) }

  mutating func next(at now: Instant) throws(RoomRefusal) { try match.next(at: now) }

  func finishedGames() throws -> [FinishedRoomGame] {
    let settings = try CompactJSON.string(match.settings)
    // Each holder's last turn counts in their statistics, as a round they played.
    var last: [String: G] = [:]
    for turn in match.played { last[turn.holder] = turn.game }
    return try last.sorted { $0.key < $1.key }.map { id, game in
      FinishedRoomGame(
        playerID: id, settings: settings, state: try CompactJSON.string(game),
        score: game.score, summary: try CompactJSON.string(game.summary))
    }
  }

  func encode(to encoder: any Encoder) throws { try match.encode(to: encoder) }

  var swatch: String? { nil }
}
