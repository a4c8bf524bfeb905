/// A game a room plays in simultaneous rounds (Picture Quiz, Color Match, Number, Bullseye).
///
/// Every player has a copy of the game of their own, all dealt from one seed, so everyone faces
/// the same question; the shared screen has one more copy that nobody plays. A round is open
/// until every player is done with it or its time runs out; then it is revealed with each
/// player's points, and the host moves on. Points are the room's (SPEC 4.3), measured by the
/// server's clock; the games keep their own scores for the players' statistics.
public struct RoundsMatch<G: RoomPlayable>: Codable, Sendable, Equatable {
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// The round is open: players answer.
    case question
    /// The round is closed: its answer and points are shown.
    case reveal
    /// The last round has been revealed and the host moved on: the podium.
    case over
  }

  /// One player's part in a round that has closed.
  public struct Result: Codable, Sendable, Equatable {
    public var points: Int
    /// Answered before the time ran out.
    public var answered: Bool
    /// Milliseconds from the question to the answer.
    public var elapsedMs: Int?
  }

  public let settings: G.Settings
  /// `T`: how long a round may last.
  public let limitMs: Int
  /// How many rounds the match has.
  public let rounds: Int
  /// The players of the match (those present when it began), in the order they joined.
  public let players: [String]
  /// Each player's game, by player id.
  public private(set) var games: [String: G]
  /// The shared screen's copy.
  public private(set) var screen: G
  /// The round being played or revealed, from 0.
  public private(set) var round: Int
  public private(set) var phase: Phase
  /// When the round began.
  public private(set) var startedAt: Instant
  /// When each player was done with the round (players who have not answered are absent).
  public private(set) var doneAt: [String: Instant]
  /// The results of the rounds closed so far, by player id.
  public private(set) var results: [[String: Result]]

  /// Deals the game once for everyone.
  public init(
    settings: G.Settings, content: G.Content, seed: UInt64, players: [String], at now: Instant
  ) throws(SettingError) {
    let settings = G.roomSettings(settings)
    var game = try G(settings: settings, content: content, seed: seed, at: now)
    game.enterRoom()
    self.settings = settings
    limitMs = G.roundLimitMs(settings)
    rounds = G.roomRounds(settings)
    self.players = players
    games = Dictionary(uniqueKeysWithValues: players.map { ($0, game) })
    screen = game
    round = 0
    phase = .question
    startedAt = now
    doneAt = [:]
    results = []
  }

  /// When the open round's time runs out.
  public var endsAt: Instant { startedAt.advanced(by: Int64(limitMs)) }

  /// When time alone next changes what someone sees: the round runs out, or a player's timed
  /// game moves on by itself.
  public func nextChange(after now: Instant) -> Instant? {
    guard phase == .question else { return nil }
    let games = players.filter { doneAt[$0] == nil }.compactMap {
      self.games[$0]?.nextViewChange(after: now)
    }
    return (games + [endsAt]).min()
  }

  /// A player's answer (or any other action of their game) in round `round`.
  public mutating func play(_ player: String, round: Int, _ action: G.Action, at now: Instant)
    throws(RoomRefusal)
  {
    guard var game = games[player] else { throw RoomRefusal(.notPlaying) }
    guard phase == .question, round == self.round, now < endsAt else {
      throw RoomRefusal(.roundClosed)
    }
    guard doneAt[player] == nil else { throw RoomRefusal(.answered) }
    let ticked = game.tick(at: now)
    do {
      _ = try game.apply(action, afterTick: ticked, at: now)
    } catch {
      switch error {
      case .gameOver: throw RoomRefusal(.answered)
      case .refused(let refusal): throw RoomRefusal(refusal)
      }
    }
    games[player] = game
    if game.isRoundDone { doneAt[player] = now }
  }

  /// Lets time pass: timed games run out, and the round closes when everyone in `active` is
  /// done or its time is up. Returns whether anything changed.
  public mutating func tick(at now: Instant, active: Set<String>) -> Bool {
    guard phase == .question else { return false }
    var changed = false
    if G.isTimed {
      for (player, var game) in games where doneAt[player] == nil {
        if !game.tick(at: now).isEmpty {
          changed = true
          if game.isRoundDone { doneAt[player] = min(now, endsAt) }
          games[player] = game
        }
      }
    }
    let waiting = active.filter { games[$0] != nil && doneAt[$0] == nil }
    if waiting.isEmpty || now >= endsAt {
      closeRound(at: now)
      return true
    }
    return changed
  }

  /// Closes the open round: scores it, ends it for whoever gave no answer, shows its answer.
  private mutating func closeRound(at now: Instant) {
    var closed: [String: Result] = [:]
    for (player, var game) in games {
      if let done = doneAt[player] {
        let elapsed = Int(done.milliseconds(since: startedAt))
        closed[player] = Result(
          points: game.roundPoints(elapsedMs: elapsed, limitMs: limitMs), answered: true,
          elapsedMs: elapsed)
      } else {
        game.forfeitRound(at: now)
        games[player] = game
        let points =
          G.scoresUnfinishedRounds ? game.roundPoints(elapsedMs: limitMs, limitMs: limitMs) : 0
        closed[player] = Result(points: points, answered: false, elapsedMs: nil)
      }
    }
    results.append(closed)
    screen.revealRound(at: now)
    phase = .reveal
  }

  /// From a reveal to the next round, or to the end after the last.
  public mutating func next(at now: Instant) throws(RoomRefusal) {
    guard phase == .reveal else { throw RoomRefusal(.wrongPhase) }
    guard round + 1 < rounds else {
      phase = .over
      return
    }
    round += 1
    for player in games.keys { games[player]!.nextRound(at: now) }
    screen.nextRound(at: now)
    phase = .question
    startedAt = now
    doneAt = [:]
  }

  /// A player's points so far.
  public func total(of player: String) -> Int {
    results.reduce(0) { $0 + ($1[player]?.points ?? 0) }
  }

  /// Every player with their total, best first (ties share a rank: 1, 1, 3).
  public var standings: [Standing] { Standing.ranked(players.map { ($0, total(of: $0)) }) }
}

/// A place in a room's standings.
public struct Standing: Codable, Sendable, Equatable {
  public var id: String
  public var score: Int
  public var rank: Int

  /// Ranks `scores`, best first; equal scores share a rank and the next rank skips (1, 1, 3).
  /// Ties keep the order given.
  public static func ranked(_ scores: [(id: String, score: Int)]) -> [Standing] {
    let sorted = scores.enumerated().sorted {
      $0.element.score != $1.element.score
        ? $0.element.score > $1.element.score : $0.offset < $1.offset
    }.map(\.element)
    var standings: [Standing] = []
    for (index, entry) in sorted.enumerated() {
      let rank =
        index > 0 && sorted[index - 1].score == entry.score ? standings[index - 1].rank : index + 1
      standings.append(Standing(id: entry.id, score: entry.score, rank: rank))
    }
    return standings
  }
}
