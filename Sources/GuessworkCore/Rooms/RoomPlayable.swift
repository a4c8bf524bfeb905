/// A game a party room plays as simultaneous rounds: every player plays a copy of the game of
/// their own, all dealt from one seed, so everyone gets the same question at the same time and
/// each copy judges its own player's answers by the game's own rules.
///
/// A round is what everyone answers before the reveal: a Picture Quiz question, a Bullseye
/// colour, a whole Number hunt or a whole Color Match run.
public protocol RoomPlayable: Game {
  /// How many rounds a room plays with these settings.
  static func roomRounds(_ settings: Settings) -> Int
  /// How long a round may last, in milliseconds: `T` of the room's scoring.
  static func roundLimitMs(_ settings: Settings) -> Int
  /// Settings a room cannot play are set to ones it can (Bullseye's free play has no rounds).
  static func roomSettings(_ settings: Settings) -> Settings
  /// Whether the player is done with the round they are in: answered it, or finished the game.
  var isRoundDone: Bool { get }
  /// What the player scored in the round just done, `elapsedMs` into a round of `limitMs`.
  func roundPoints(elapsedMs: Int, limitMs: Int) -> Int
  /// Whether the round just done may be called right (a reveal's "Right!"), given its points.
  func isRoundRight(points: Int) -> Bool
  /// Ends the round for a player who gave no answer in time (the game counts it as missed).
  mutating func forfeitRound(at now: Instant)
  /// Goes on to the next round.
  mutating func nextRound(at now: Instant)
  /// A copy for the shared screen, which nobody plays: shows the round's answer.
  mutating func revealRound(at now: Instant)
  /// When the view next changes by time alone (a countdown ends, the next card shows, the run
  /// runs out), so that a room pushes it then; nil when only an action changes it.
  func nextViewChange(after now: Instant) -> Instant?
  /// Readies a copy just dealt for a room (Color Match runs on the room's wall clock).
  mutating func enterRoom()
  /// Whether a round with many answers scores what a player answered even when they were not
  /// done when it closed (a Color Match run left early); else such a round scores nothing.
  static var scoresUnfinishedRounds: Bool { get }
  /// How far the player is into a round of many answers (cards answered), for the shared
  /// screen while the round is open; nil for a round of one answer.
  var roundProgress: Int? { get }
}

extension RoomPlayable {
  public static func roomSettings(_ settings: Settings) -> Settings { settings }
  public func nextViewChange(after now: Instant) -> Instant? { nil }
  public mutating func enterRoom() {}
  public func isRoundRight(points: Int) -> Bool { points > 0 }
  public static var scoresUnfinishedRounds: Bool { false }
  public var roundProgress: Int? { nil }
}

/// The room's points (SPEC 4.3).
public enum RoomScoring {
  /// A right answer scores 1000 × (1 − t / 2T), rounded: from 1000 at once down to 500 at the
  /// limit. `t` is the server's time from the question to the answer.
  public static func speedPoints(elapsedMs: Int, limitMs: Int) -> Int {
    let limit = max(limitMs, 1)
    let t = min(max(elapsedMs, 0), limit)
    return Int((1000 * (1 - Double(t) / Double(2 * limit))).rounded())
  }
}

extension PictureQuizGame: RoomPlayable {
  public static func roomRounds(_ settings: Settings) -> Int { settings.questions }
  public static func roundLimitMs(_ settings: Settings) -> Int { 20_000 }

  public var isRoundDone: Bool { phase != .question }

  public func roundPoints(elapsedMs: Int, limitMs: Int) -> Int {
    guard let tap = taps.last, taps.count <= questions.count,
      questions[taps.count - 1].rightChoice == tap
    else { return 0 }
    return RoomScoring.speedPoints(elapsedMs: elapsedMs, limitMs: limitMs)
  }

  public mutating func forfeitRound(at now: Instant) {
    guard phase == .question else { return }
    // No answer is a miss: the game records the first picture that is not the right one.
    let right = questions[taps.count].rightChoice
    let wrong = right == 0 ? 1 : 0
    _ = try? apply(.choose(wrong), at: now)
  }

  public mutating func nextRound(at now: Instant) {
    if phase == .answered { _ = try? apply(.next, at: now) }
  }

  public mutating func revealRound(at now: Instant) {
    guard phase == .question else { return }
    _ = try? apply(.choose(questions[taps.count].rightChoice), at: now)
  }
}

extension NumberGame: RoomPlayable {
  /// Everyone hunts the same secret: the whole game is one round.
  public static func roomRounds(_ settings: Settings) -> Int { 1 }
  /// Fifteen seconds an attempt.
  public static func roundLimitMs(_ settings: Settings) -> Int { 15_000 * settings.attempts }

  public var isRoundDone: Bool { isOver }

  /// A win scores 1000 × (attempts left + 1) / attempts; a loss nothing.
  public func roundPoints(elapsedMs: Int, limitMs: Int) -> Int {
    guard phase == .won else { return 0 }
    return 1000 * (attemptsLeft + 1) / settings.attempts
  }

  public mutating func forfeitRound(at now: Instant) {}
  public mutating func nextRound(at now: Instant) {}

  /// The screen's copy halves the known range until the game ends, which tells its number.
  public mutating func revealRound(at now: Instant) {
    while !isOver {
      let view = view(at: now)
      guard (try? apply(.guess((view.knownLow + view.knownHigh) / 2), at: now)) != nil else {
        return
      }
    }
  }
}

extension BullseyeGame: RoomPlayable {
  public static func roomRounds(_ settings: Settings) -> Int { settings.rounds }
  public static func roundLimitMs(_ settings: Settings) -> Int { 30_000 }
  public static func roomSettings(_ settings: Settings) -> Settings {
    var settings = settings
    settings.freePlay = false
    return settings
  }

  public var isRoundDone: Bool { phase != .guessing }

  /// Ten times the round's score (0 to 1000).
  public func roundPoints(elapsedMs: Int, limitMs: Int) -> Int {
    10 * (rounds.last?.score ?? 0)
  }

  /// Right only when the difference is at most "visible at a glance" (ΔE00 ≤ 10), the bands the
  /// solo game words its results by; a colour merely scored is not right.
  public func isRoundRight(points: Int) -> Bool {
    guard let last = rounds.last else { return false }
    return Self.displayed(last.deltaE) <= 10
  }

  public mutating func forfeitRound(at now: Instant) {
    guard phase == .guessing else { return }
    // The round counts with the colour the sliders start on (the room gives it no points).
    _ = try? apply(.check(guess: RGB(r: 128, g: 128, b: 128)), at: now)
  }

  public mutating func nextRound(at now: Instant) {
    if phase == .scored { _ = try? apply(.next, at: now) }
  }

  public mutating func revealRound(at now: Instant) { forfeitRound(at: now) }
}

extension ColorMatchGame: RoomPlayable {
  /// One run of the clock is the round.
  public static func roomRounds(_ settings: Settings) -> Int { 1 }
  /// In a room the run is on the wall clock (`enterRoom`): its countdown and its duration, the
  /// same moment for every phone.
  public static func roundLimitMs(_ settings: Settings) -> Int {
    1000 * settings.duration + Int(countdownMs)
  }

  public mutating func enterRoom() { runOnWallClock() }

  public var isRoundDone: Bool { isOver }

  /// Each right answer scores as a quiz answer would, its limit two seconds.
  public func roundPoints(elapsedMs: Int, limitMs: Int) -> Int {
    records.filter(\.correct).reduce(0) {
      $0 + RoomScoring.speedPoints(elapsedMs: $1.reactionMs, limitMs: 2000)
    }
  }

  /// A player who left the run early keeps the cards they answered.
  public static var scoresUnfinishedRounds: Bool { true }

  public var roundProgress: Int? { records.count }

  public mutating func forfeitRound(at now: Instant) {
    if !isOver { _ = try? apply(.quit, at: now) }
  }
  public mutating func nextRound(at now: Instant) {}
  public mutating func revealRound(at now: Instant) { forfeitRound(at: now) }

  /// The end of the countdown or of an answer's feedback, else the moment the run's clock
  /// runs out.
  public func nextViewChange(after now: Instant) -> Instant? {
    guard ending == nil else { return nil }
    if let end = wallClockEnd { return now < shownAt ? min(shownAt, end) : end }
    if now < shownAt { return shownAt }
    return shownAt.advanced(by: durationMs - usedMs)
  }
}
