/// A Picture Quiz in a room: a round is a question, scored by how fast it was answered right.
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
