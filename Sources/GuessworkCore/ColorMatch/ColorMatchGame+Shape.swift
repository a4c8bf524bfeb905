// What the layers around the engine need of Color Match: its name, figures and the names of
// its wire unions.

extension ColorMatchGame {
  public static let title = "Color Match"
  public static let emoji = "🎨"
  public static let blurb = "Does the meaning match the ink?"

  /// Trials, accuracy and the reaction times with and without interference.
  public static func figures(_ finished: [FinishedRecord<Summary>]) -> [Figure] {
    let trials = finished.flatMap(\.summary.trialRecords)
    let congruent = Figure.mean(trials.filter(\.congruent).map { Double($0.reactionMs) })
    let incongruent = Figure.mean(trials.filter { !$0.congruent }.map { Double($0.reactionMs) })
    let correct = trials.filter(\.correct).count
    return [
      Figure("trials", "Answers", .count(trials.count)),
      Figure("correct", "Right answers", .count(correct)),
      Figure(
        "accuracy", "Accuracy",
        .percent(trials.isEmpty ? nil : Double(correct) / Double(trials.count))),
      Figure("meanReactionMsCongruent", "Time when word and ink agree", .milliseconds(congruent)),
      Figure(
        "meanReactionMsIncongruent", "Time when they disagree", .milliseconds(incongruent)),
      Figure(
        "interferenceMs", "Slowed by the mismatch",
        .milliseconds(congruent.flatMap { c in incongruent.map { $0 - c } })),
    ]
  }
}

extension GameKind {
  public static let colorMatch = ColorMatchGame.kind
}

extension ColorMatchGame.Action: WireUnion {
  public static let wireTags = ["answer", "quit"]
  public static let wireName = "Color Match action"
}

extension ColorMatchGame.Event: WireUnion {
  public static let wireTags = ["answered", "roundOver"]
  public static let wireName = "Color Match event"
}
