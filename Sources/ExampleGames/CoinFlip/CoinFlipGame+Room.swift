public import GuessworkCore

/// Coin Flip in a room: each flip is a round, the same flip for everyone; a right call scores
/// by how fast it came.
extension CoinFlipGame: RoomPlayable {
  public static func roomRounds(_ settings: Settings) -> Int { settings.flips }
  public static func roundLimitMs(_ settings: Settings) -> Int { 10_000 }

  public mutating func enterRoom() { roomRound = 0 }

  public var isRoundDone: Bool { isOver || calls.count > (roomRound ?? calls.count) }

  public func roundPoints(elapsedMs: Int, limitMs: Int) -> Int {
    calls.last == true ? RoomScoring.speedPoints(elapsedMs: elapsedMs, limitMs: limitMs) : 0
  }

  /// No call in time: the coin is flipped all the same, and the call counts as wrong.
  public mutating func forfeitRound(at now: Instant) {
    guard !isRoundDone else { return }
    _ = flip()
    calls.append(false)
  }

  public mutating func nextRound(at now: Instant) {
    if let round = roomRound { roomRound = round + 1 }
  }

  /// The screen's copy flips the coin, which shows the side.
  public mutating func revealRound(at now: Instant) { forfeitRound(at: now) }
}
