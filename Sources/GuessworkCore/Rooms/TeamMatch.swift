/// A game a room plays in teams, taking turns: in each turn one player of a team (the holder)
/// plays a round of the game of their own while their teammates help (Guess or Pass: the holder
/// guesses the word the team describes). ``TeamMatch`` deals the teams and the turns; the game
/// says what the holder may not see and when time changes a turn.
public protocol TeamPlayable: Game where Content == WordList {
  /// The view with what the holder must not see taken out (the word in play).
  static func hidingSecret(_ view: View) -> View
  /// When time alone next changes the turn (its countdown ends, its clock runs out).
  func nextTurnChange(after now: Instant) -> Instant?
}

/// A ``TeamPlayable`` game as a room plays it. Teams take turns; each turn is a round of the
/// game of its own, by the game's rules; a word a turn has shown is dealt last in the turns
/// after it. A team scores what its turns score.
///
/// Who may see the secret (the room's views follow this): never the holder while it is in
/// play; the shared screen when ``wordsOnScreen``, else the holder's teammates.
public struct TeamMatch<G: TeamPlayable>: Codable, Sendable, Equatable {
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// A team's turn is being played.
    case turn
    /// The turn has ended: its words are shown to everyone.
    case turnOver
    /// The last turn is over and the host moved on: the podium.
    case over
  }

  /// A finished turn.
  public struct Turn: Codable, Sendable, Equatable {
    public var team: Int
    public var holder: String
    public var game: G
  }

  public let settings: G.Settings
  public let wordsOnScreen: Bool
  /// The teams' players, in the order they hold the phone.
  public let teams: [[String]]
  /// How many turns the match has: every player holds the phone once (a smaller team's players
  /// hold it again).
  public let turns: Int
  /// The words the match deals from (the first turn's content).
  let words: [String]
  let seed: UInt64
  /// The turn being played or just over, from 0.
  public private(set) var turn: Int
  public private(set) var phase: Phase
  /// The current turn's round.
  public private(set) var game: G
  /// The turns played so far (the current one once it is over).
  public private(set) var played: [Turn]

  /// Splits `players` into `teamCount` teams (dealt in turn: first, second, … first, …) and
  /// starts the first turn.
  public init(
    settings: G.Settings, content: WordList, seed: UInt64, players: [String],
    teamCount: Int, wordsOnScreen: Bool, at now: Instant
  ) throws(SettingError) {
    let teams = Teams.deal(players, into: teamCount)
    let count = teams.count
    self.settings = settings
    self.wordsOnScreen = wordsOnScreen
    self.teams = teams
    turns = count * (teams.map(\.count).max() ?? 1)
    words = content.fresh + content.seen
    self.seed = seed
    turn = 0
    phase = .turn
    played = []
    game = try G(settings: settings, content: content, seed: seed, at: now)
  }

  /// The team whose turn it is.
  public var team: Int { turn % teams.count }

  /// Who holds the phone this turn.
  public var holder: String { holder(ofTurn: turn) }

  /// Who holds the phone in turn `number` (from 0).
  func holder(ofTurn number: Int) -> String {
    let members = teams[number % teams.count]
    return members[(number / teams.count) % members.count]
  }

  /// Between turns, the team and holder of the turn that comes next; nil during a turn and
  /// after the last.
  public var upNext: (team: Int, holder: String)? {
    guard phase == .turnOver, turn + 1 < turns else { return nil }
    return ((turn + 1) % teams.count, holder(ofTurn: turn + 1))
  }

  /// The team a player is in, if any.
  public func team(of player: String) -> Int? { teams.firstIndex { $0.contains(player) } }

  /// Whether `player` may see the word in play now. The screen is asked with nil.
  public func seesWord(_ player: String?) -> Bool {
    guard phase == .turn else { return true }
    guard let player else { return wordsOnScreen }
    return !wordsOnScreen && player != holder && team(of: player) == team
  }

  /// The holder plays (Guess or Pass: says "guessed" or "pass", or ends the turn).
  public mutating func play(_ player: String, _ action: G.Action, at now: Instant)
    throws(RoomRefusal)
  {
    guard team(of: player) != nil else { throw RoomRefusal(.notPlaying) }
    guard phase == .turn else { throw RoomRefusal(.roundClosed) }
    guard player == holder else { throw RoomRefusal(.notYourTurn) }
    let ticked = game.tick(at: now)
    do {
      _ = try game.apply(action, afterTick: ticked, at: now)
    } catch {
      switch error {
      case .gameOver: throw RoomRefusal(.roundClosed)
      case .refused(let refusal): throw RoomRefusal(refusal)
      }
    }
    if game.isOver { endTurn() }
  }

  /// Lets time pass: a turn ends when its clock runs out. Returns whether anything changed.
  public mutating func tick(at now: Instant) -> Bool {
    guard phase == .turn else { return false }
    let events = game.tick(at: now)
    if game.isOver { endTurn() }
    return !events.isEmpty
  }

  private mutating func endTurn() {
    played.append(Turn(team: team, holder: holder, game: game))
    phase = .turnOver
  }

  /// From the end of a turn to the next team's turn, or to the end after the last.
  public mutating func next(at now: Instant) throws(RoomRefusal) {
    guard phase == .turnOver else { throw RoomRefusal(.wrongPhase) }
    guard turn + 1 < turns else {
      phase = .over
      return
    }
    turn += 1
    // Words shown in earlier turns come last.
    let shown = Set(played.flatMap { $0.game.handback.seenWords.map { $0.lowercased() } })
    let dealt = WordList(
      fresh: words.filter { !shown.contains($0.lowercased()) },
      seen: words.filter { shown.contains($0.lowercased()) })
    // The content made the first turn, and turns only move words from fresh to seen.
    game = try! G(
      settings: settings, content: dealt, seed: seed &+ UInt64(turn), at: now)
    phase = .turn
  }

  /// The teams' scores: what their turns scored.
  public var teamScores: [Int] {
    var scores = Array(repeating: 0, count: teams.count)
    for turn in played { scores[turn.team] += turn.game.score }
    if phase == .turn { scores[team] += game.score }
    return scores
  }

  /// The teams, best first: each team's number (from 0) as the standing's id, with its
  /// score; teams with equal scores share a rank.
  public var teamStandings: [Standing] {
    Standing.ranked(teamScores.enumerated().map { ("\($0.offset)", $0.element) })
  }

  /// Every player with their team's score, best team first (a team shares its rank).
  public var standings: [Standing] {
    let scores = teamScores
    return Standing.ranked(
      teams.enumerated().flatMap { index, members in members.map { ($0, scores[index]) } })
  }
}

extension TeamMatch {
  /// When time alone next changes the turn (its countdown ends, its clock runs out); nil when
  /// no turn is being played.
  public func nextChange(after now: Instant) -> Instant? {
    guard phase == .turn else { return nil }
    return game.nextTurnChange(after: now)
  }
}

/// How a room's players make teams.
public enum Teams {
  /// `players` dealt into `teamCount` teams in turn (first, second, … first, …): the teams a
  /// match starts with, and what a lobby shows before it starts.
  public static func deal(_ players: [String], into teamCount: Int) -> [[String]] {
    let count = max(1, min(teamCount, players.count))
    var teams = Array(repeating: [String](), count: count)
    for (index, player) in players.enumerated() { teams[index % count].append(player) }
    return teams
  }
}
