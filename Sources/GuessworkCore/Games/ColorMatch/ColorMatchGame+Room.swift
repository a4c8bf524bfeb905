/// Color Match in a room: one run on the room's wall clock, each card answered right scored.
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
