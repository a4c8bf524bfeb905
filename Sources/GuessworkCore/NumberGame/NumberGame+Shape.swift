// What the layers around the engine need of Guess the Number: its name, content, figures and
// the names of its wire unions.

extension NumberGame {
  public static let title = "Guess the Number"
  public static let emoji = "🔢"
  public static let blurb = "Find my number with the hints."

  /// Wins, losses, streaks and the attempts winning games took.
  public static func figures(_ finished: [FinishedRecord<Summary>]) -> [Figure] {
    let results = finished.map(\.summary)
    var current = 0
    var best = 0
    for result in results {
      current = result.won ? current + 1 : 0
      best = max(best, current)
    }
    let wins = results.filter(\.won)
    let histogram = Dictionary(grouping: wins, by: \.attemptsUsed)
      .map { Figure.Bar(label: $0.key, value: $0.value.count) }
      .sorted { $0.label < $1.label }
    return [
      Figure("wins", "Wins", .count(wins.count)),
      Figure("losses", "Losses", .count(results.count - wins.count)),
      Figure(
        "winRate", "Win rate",
        .percent(results.isEmpty ? nil : Double(wins.count) / Double(results.count))),
      Figure("currentStreak", "Current streak", .count(current)),
      Figure("bestStreak", "Best streak", .count(best)),
      Figure(
        "attemptsHistogram", "Wins by attempts used",
        .bars(histogram, labelKey: "attempts", valueKey: "wins")),
    ]
  }
}

extension GameKind {
  public static let number = NumberGame.kind
}

extension NumberGame.Action: WireUnion {
  public static let wireTags = ["digit", "backspace", "clear", "enter", "guess"]
  public static let wireName = "number game action"
}

extension NumberGame.Event: WireUnion {
  public static let wireTags = ["displayChanged", "guessed", "won", "lost"]
  public static let wireName = "number game event"
}
