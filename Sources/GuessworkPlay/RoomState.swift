public import Foundation
public import GuessworkCore
import GuessworkJSON

// MARK: Acting

/// What an accepted action changed, besides the room itself.
public struct RoomOutcome: Sendable {
  /// Games that ended with this action: to count in the players' statistics.
  public var finished: [FinishedRoomGame] = []
  /// The kind of the finished games.
  public var kind: GameKind?
  /// The variant (deck, category) they were played on.
  public var variant: String?

  public init() {}
}

extension RoomState {
  /// The players in the room now.
  public var active: Set<String> { Set(room.present.map(\.id)) }

  /// Applies `action` of `actor` (who must be in the room, or be its host), `body` being the
  /// whole request (a game's action is read from it). A host's action must name the current
  /// version. `start` needs `content` (found by the caller for the chosen game) and a seed.
  public mutating func apply(
    _ action: RoomAction, by actor: String, version: Int?, body: Data,
    content: SuppliedContent? = nil, seed: UInt64 = 0, at now: Instant
  ) throws -> RoomOutcome {
    if action.isHosts {
      try room.requireHost(actor)
      guard version == self.version else { throw RoomStale(current: self.version) }
    }
    var outcome = RoomOutcome()
    switch action {
    case .play(let round):
      guard room.member(actor)?.isPresent == true else { throw RoomRefusal(.notMember) }
      guard room.phase == .playing, var match else { throw RoomRefusal(.notPlaying) }
      _ = match.tick(at: now, active: active)
      try match.play(actor, round: round, action: body, at: now)
      _ = match.tick(at: now, active: active)
      self.match = match
      room.touch(at: now)
    case .leave:
      try room.leave(actor, at: now)
      if var match {
        _ = match.tick(at: now, active: active)
        self.match = match
      }
    case .choose(let choice):
      guard let kind = kinds.kind(choice.kind) else { throw RoomUnknownGame() }
      var normalized = choice
      normalized.settings = try kind.normalizedSettings(choice.settings)
      try room.choose(normalized, by: actor, at: now)
    case .start:
      let teams = room.choice.flatMap { kinds.kind($0.kind)?.playsInTeams == true ? $0.teams : nil }
      let (choice, players) = try room.start(by: actor, needing: teams ?? 1, at: now)
      guard let kind = kinds.kind(choice.kind), let content else {
        throw RoomUnknownGame()
      }
      do {
        match = try kind.startMatch(
          choice, content: content, seed: seed, players: players.map(\.id), at: now)
      } catch {
        room.cancelStart()
        throw error
      }
    case .next:
      guard room.phase == .playing, var match else { throw RoomRefusal(.wrongPhase) }
      _ = match.tick(at: now, active: active)
      try match.next(at: now)
      self.match = match
      room.touch(at: now)
      if match.isOver {
        room.finishGame(at: now)
        outcome.finished = try match.finishedGames()
        outcome.kind = match.kind
        outcome.variant = room.choice?.variant
      }
    case .kick(let player):
      try room.kick(player, by: actor, at: now)
      if var match {
        _ = match.tick(at: now, active: active)
        self.match = match
      }
    case .readmit(let player):
      try room.readmit(player, by: actor, at: now)
    case .lobby:
      try room.backToLobby(by: actor, at: now)
      match = nil
    case .close:
      room.close(at: now)
    case .reclaim:
      try room.takeBackHosting(by: actor, at: now)
    case .lock(let locked):
      try room.lock(locked, by: actor, at: now)
    case .hideCode(let hidden):
      try room.hideCode(hidden, by: actor, at: now)
    }
    self.version += 1
    return outcome
  }

  // MARK: When the host is away

  /// Whether the room waits for its host to move on: a round's or a turn's results are shown.
  public func waitsForHost(at now: Instant) -> Bool {
    guard room.phase == .playing, let match else { return false }
    return ["reveal", "turnOver"].contains(match.view(for: nil, at: now).phase)
  }

  /// The host is away: the room moves on from the results shown as the host would.
  public mutating func goOnWithoutHost(at now: Instant) throws -> RoomOutcome {
    try apply(.next, by: room.host, version: version, body: Data(), at: now)
  }

  /// The host has been away too long: `id` hosts in their place (``Room/handOver(to:)``).
  public mutating func handOver(to id: String) throws {
    try room.handOver(to: id)
    version += 1
  }

  /// Lets time pass with no action: rounds and turns run out. Returns whether anything
  /// changed (then the caller stores it as a new version).
  public mutating func tick(at now: Instant) -> Bool {
    guard room.phase == .playing, var match else { return false }
    let changed = match.tick(at: now, active: active)
    guard changed else { return false }
    self.match = match
    version += 1
    return true
  }

  /// When time alone next changes the room.
  public func nextChange(after now: Instant) -> Instant? {
    room.phase == .playing ? match?.nextChange(after: now) : nil
  }
}

/// A host's action named an old version: someone else changed the room first.
public struct RoomStale: Error, Sendable {
  public let current: Int
}

/// The chosen game is not one rooms play.
public struct RoomUnknownGame: Error, Sendable {}

// MARK: Storing

extension RoomState {
  enum CodingKeys: String, CodingKey { case room, matchKind, match }

  /// The room as stored (JSON text).
  public func encoded() throws -> String {
    try CompactJSON.string(Stored(state: self))
  }

  /// A room read back from ``encoded()``, as version `version`.
  public init(encoded: String, version: Int, kinds: RoomKinds = .standard) throws {
    let decoder = JSONDecoder()
    decoder.userInfo[Stored.kindsKey] = kinds
    let stored = try decoder.decode(Stored.self, from: Data(encoded.utf8)).state
    self.init(room: stored.room, match: stored.match, version: version, kinds: kinds)
  }

  private struct Stored: Codable {
    var state: RoomState

    init(state: RoomState) { self.state = state }

    /// Where the decoder is told the games the room can play.
    static let kindsKey = CodingUserInfoKey(rawValue: "roomKinds")!

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let room = try container.decode(Room.self, forKey: .room)
      let kinds = decoder.userInfo[Self.kindsKey] as? RoomKinds ?? .standard
      var match: (any MatchDriver)?
      if let kind = try container.decodeIfPresent(String.self, forKey: .matchKind) {
        guard let driver = kinds.kind(GameKind(rawValue: kind)) else {
          throw DecodingError.dataCorruptedError(
            forKey: .matchKind, in: container, debugDescription: "No room game \(kind)")
        }
        match = try driver.decodeMatch(from: container.superDecoder(forKey: .match))
      }
      state = RoomState(room: room, match: match, kinds: kinds)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(state.room, forKey: .room)
      if let match = state.match {
        try container.encode(match.kind.rawValue, forKey: .matchKind)
        try match.encode(to: container.superEncoder(forKey: .match))
      }
    }
  }
}

// MARK: Seeing

/// Who a view is for.
public enum RoomViewer: Sendable, Equatable {
  case player(String)
  /// The shared screen (the host's).
  case screen
}

/// What one connection sees of a room (docs/rooms.md, "The view").
public struct RoomView: Encodable, Sendable {
  public var type = "room"
  public var code: String
  public var link: String
  public var version: Int
  public var `as`: String
  public var you: You?
  public var phase: String
  public var limit: Int
  public var players: [Player]
  public var game: GameInfo?
  public var round: MatchView.RoundView?
  public var reveal: MatchView.RevealView?
  public var turn: MatchView.TurnView?
  public var teams: [MatchView.TeamView]?
  public var standings: [Entry]?
  public var podium: [Entry]?
  /// On a team game's podium: the teams, best first (ties share a rank).
  public var teamPodium: [MatchView.TeamView]?
  /// The host has had no connection to the room for a few seconds: the room goes on by itself.
  public var hostAway: Bool?
  /// While a player stands in as host: the first host's id (they may take the role back).
  public var firstHost: String?
  /// Only while the host has locked the room: nobody new may join.
  public var locked: Bool?
  /// Only while the host hides the join code from the shared screen.
  public var codeHidden: Bool?

  public struct You: Encodable, Sendable {
    public var id: String
    public var name: String
    public var host: Bool
    public var member: Bool
    public var kicked: Bool
    public var team: Int?
    public var holding: Bool
    public var answered: Bool
  }

  public struct Player: Encodable, Sendable {
    public var id: String
    public var name: String
    /// The player's picture, when they have one.
    public var avatar: String?
    public var host: Bool
    public var connected: Bool
    public var kicked: Bool
    public var team: Int?
    public var answered: Bool
    public var score: Int
  }

  public struct GameInfo: Encodable, Sendable {
    public var kind: String
    public var title: Message
    public var settings: (any Encodable & Sendable)?
    public var variant: String?
    public var teams: Int?
    public var wordsOn: String?

    enum CodingKeys: String, CodingKey { case kind, title, settings, variant, teams, wordsOn }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(kind, forKey: .kind)
      try container.encode(title, forKey: .title)
      if let settings { try settings.encode(to: container.superEncoder(forKey: .settings)) }
      try container.encodeIfPresent(variant, forKey: .variant)
      try container.encodeIfPresent(teams, forKey: .teams)
      try container.encodeIfPresent(wordsOn, forKey: .wordsOn)
    }
  }

  public struct Entry: Encodable, Sendable {
    public var id: String
    public var name: String
    public var score: Int
    public var rank: Int
  }
}

extension RoomState {
  /// What `viewer` sees at `now`. `connected`: the players with a live connection; `link`: the
  /// room's join link.
  public func view(
    for viewer: RoomViewer, at now: Instant, connected: Set<String>, link: String,
    hostAway: Bool = false, playerName: (String) -> String? = { _ in nil }
  ) -> RoomView {
    let viewerID: String? = if case .player(let id) = viewer { id } else { nil }
    let matchView = match.map { $0.view(for: viewerID, at: now) }
    let scores = Dictionary(
      (matchView?.standings ?? []).map { ($0.id, $0.score) }, uniquingKeysWith: { a, _ in a })
    var teamOf: [String: Int] = [:]
    for team in matchView?.teams ?? [] { for id in team.players { teamOf[id] = team.number } }
    // In the lobby of a team game, the teams it would start with now.
    var lobbyTeams: [MatchView.TeamView]?
    let chosenKind = room.choice.flatMap { kinds.kind($0.kind) }
    if room.phase == .lobby, let choice = room.choice, chosenKind?.playsInTeams == true {
      let dealt = Teams.deal(room.present.map(\.id), into: choice.teams)
      for (number, members) in dealt.enumerated() { for id in members { teamOf[id] = number } }
      lobbyTeams = dealt.enumerated().map { .init(number: $0, players: $1, score: 0, rank: 1) }
    }
    let names = Dictionary(
      room.members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    func name(_ id: String) -> String { names[id] ?? playerName(id) ?? "?" }
    let players = room.members.filter { !$0.left }.map { member in
      RoomView.Player(
        id: member.id, name: member.name,
        avatar: member.hasAvatar ? "/api/rooms/\(room.code)/players/\(member.id)/avatar" : nil,
        host: room.isHost(member.id), connected: connected.contains(member.id),
        kicked: member.kicked, team: teamOf[member.id],
        answered: matchView?.answered.contains(member.id) ?? false,
        score: scores[member.id] ?? 0)
    }
    let entries = matchView?.standings.map {
      RoomView.Entry(id: $0.id, name: name($0.id), score: $0.score, rank: $0.rank)
    }
    var you: RoomView.You?
    if let viewerID {
      let member = room.member(viewerID)
      you = RoomView.You(
        id: viewerID, name: member?.name ?? playerName(viewerID) ?? "",
        host: room.isHost(viewerID), member: member?.isPresent ?? false,
        kicked: member?.kicked ?? false, team: teamOf[viewerID],
        holding: matchView?.turn?.holder == viewerID && matchView?.phase == "turn",
        answered: matchView?.answered.contains(viewerID) ?? false)
    }
    var game: RoomView.GameInfo?
    if let choice = room.choice {
      let isTeams = chosenKind?.playsInTeams == true
      game = RoomView.GameInfo(
        kind: choice.kind.rawValue, title: Message("\(choice.kind.rawValue).title"),
        settings: try? chosenKind?.settingsValue(choice.settings),
        variant: choice.variant, teams: isTeams ? choice.teams : nil,
        wordsOn: isTeams ? (choice.wordsOnScreen ? "screen" : "phones") : nil)
    }
    let phase: String =
      switch room.phase {
      case .lobby: "lobby"
      case .closed: "closed"
      case .podium: "podium"
      case .playing: matchView?.phase ?? "lobby"
      }
    let onPodium = room.phase == .podium || phase == "over"
    return RoomView(
      code: room.code, link: link, version: version,
      as: viewerID == nil ? "screen" : "player", you: you,
      phase: phase == "over" ? "podium" : phase, limit: room.limit, players: players, game: game,
      round: room.phase == .playing ? matchView?.round : nil,
      reveal: room.phase == .playing ? matchView?.reveal : nil,
      turn: room.phase == .playing ? matchView?.turn : nil,
      teams: matchView?.teams ?? lobbyTeams, standings: entries, podium: onPodium ? entries : nil,
      teamPodium: onPodium
        ? matchView?.teams?.sorted { ($0.rank, $0.number) < ($1.rank, $1.number) } : nil,
      hostAway: hostAway && room.phase != .closed ? true : nil, firstHost: room.standingInFor,
      locked: room.locked ? true : nil, codeHidden: room.codeHidden ? true : nil)
  }
}
