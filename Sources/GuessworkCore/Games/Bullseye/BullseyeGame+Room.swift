/// Bullseye in a room: a round is a colour, scored by how close the match is.
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
