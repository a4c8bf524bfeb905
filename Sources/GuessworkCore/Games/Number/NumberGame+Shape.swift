// What the layers around the engine need of Guess the Number: its name, content, figures and
// the names of its wire unions.

extension NumberGame {
  public static let emoji = "🔢"

  /// Wins, losses, streaks and the attempts winning games took.
  public struct Tally: GameTally {
    public var wins = 0
    public var losses = 0
    public var currentStreak = 0
    public var bestStreak = 0
    /// Wins by attempts used: `winsByAttempts[n]` won with n attempts.
    public var winsByAttempts: [Int] = []

    public init() {}
  }

  public static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {
    let result = game.summary
    if result.won {
      tally.wins += 1
      tally.currentStreak += 1
      tally.bestStreak = max(tally.bestStreak, tally.currentStreak)
      let used = max(0, result.attemptsUsed)
      if tally.winsByAttempts.count <= used {
        tally.winsByAttempts += Array(repeating: 0, count: used + 1 - tally.winsByAttempts.count)
      }
      tally.winsByAttempts[used] += 1
    } else {
      tally.losses += 1
      tally.currentStreak = 0
    }
  }

  public static func figures(_ tally: Tally) -> [Figure] {
    let played = tally.wins + tally.losses
    let histogram = tally.winsByAttempts.enumerated().filter { $0.element > 0 }
      .map { Figure.Bar(label: $0.offset, value: $0.element) }
    return [
      Figure("wins", .count(tally.wins)),
      Figure("losses", .count(tally.losses)),
      Figure("winRate", .percent(played == 0 ? nil : Double(tally.wins) / Double(played))),
      Figure("currentStreak", .count(tally.currentStreak)),
      Figure("bestStreak", .count(tally.bestStreak)),
      Figure("attemptsHistogram", .bars(histogram, labelKey: "attempts", valueKey: "wins")),
    ]
  }

  /// Each guess as the hint it got (⬆️ higher, ⬇️ lower, ✅ found), then the attempts used
  /// of those allowed ("X" for a loss): never a number.
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    let hints = summary.guesses.map { guess in
      switch guess.hint {
      case .higher: "⬆️"
      case .lower: "⬇️"
      case .correct: "✅"
      }
    }.joined()
    return Message(
      "number.share",
      [
        "hints": .text(hints), "result": .text(resultText(summary)),
      ])
  }

  /// Attempts used of those allowed, "4/7", or "X/7" for a loss: how a daily result reads.
  public static func resultText(_ summary: Summary) -> String {
    "\(summary.won ? "\(summary.attemptsUsed)" : "X")/\(summary.attemptsAllowed)"
  }

  /// The daily puzzle gives seven attempts for 0...99: halving always wins (⌈log2 100⌉ = 7),
  /// so it rewards skill, not luck. The solo default stays the original app's five.
  public static var dailySettings: Settings { Settings(low: 0, high: 99, attempts: 7) }

  /// A score as a daily result reads: attempts used of the daily's seven ("X/7" for a loss).
  public static func dailyResult(score: Int) -> String {
    let allowed = dailySettings.attempts
    return score > 0 ? "\(allowed - score + 1)/\(allowed)" : "X/\(allowed)"
  }
}

extension GameKind {
  public static let number = NumberGame.kind
}
