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
