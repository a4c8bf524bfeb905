/// Guess the Number in a room: everyone hunts the same secret, the whole hunt one round.
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
