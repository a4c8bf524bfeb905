// What the layers around the engine need of Color Match: its name, figures and the names of
// its wire unions.

extension ColorMatchGame {
  public static let emoji = "🎨"

  /// Trials, accuracy and the reaction times with and without interference.
  public struct Tally: GameTally {
    public var trials = 0
    public var correct = 0
    public var congruentTrials = 0
    public var congruentMs = 0
    public var incongruentTrials = 0
    public var incongruentMs = 0

    public init() {}
  }

  public static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {
    for trial in game.summary.trialRecords {
      tally.trials += 1
      if trial.correct { tally.correct += 1 }
      if trial.congruent {
        tally.congruentTrials += 1
        tally.congruentMs += trial.reactionMs
      } else {
        tally.incongruentTrials += 1
        tally.incongruentMs += trial.reactionMs
      }
    }
  }

  public static func figures(_ tally: Tally) -> [Figure] {
    func mean(_ total: Int, _ count: Int) -> Double? {
      count == 0 ? nil : Double(total) / Double(count)
    }
    let congruent = mean(tally.congruentMs, tally.congruentTrials)
    let incongruent = mean(tally.incongruentMs, tally.incongruentTrials)
    return [
      Figure("trials", .count(tally.trials)),
      Figure("correct", .count(tally.correct)),
      Figure(
        "accuracy", .percent(tally.trials == 0 ? nil : Double(tally.correct) / Double(tally.trials))
      ),
      Figure("meanReactionMsCongruent", .milliseconds(congruent)),
      Figure("meanReactionMsIncongruent", .milliseconds(incongruent)),
      Figure(
        "interferenceMs", .milliseconds(congruent.flatMap { c in incongruent.map { $0 - c } })),
    ]
  }

  /// The runs of right (🟩) and wrong (🟥) answers with their lengths, then the score and
  /// the right answers: "🟩7 🟥1 🟩5 · 1100 · 12/13".
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    var runs: [(correct: Bool, length: Int)] = []
    for trial in summary.trialRecords {
      if let last = runs.last, last.correct == trial.correct {
        runs[runs.count - 1].length += 1
      } else {
        runs.append((trial.correct, 1))
      }
    }
    let shown = runs.prefix(8).map { "\($0.correct ? "🟩" : "🟥")\($0.length)" }
    let more = runs.count > 8 ? " …" : ""
    let line = shown.isEmpty ? "–" : shown.joined(separator: " ") + more
    return Message(
      "color-match.share",
      [
        "runs": .text(line), "score": .int(score), "correct": .int(summary.correct),
        "trials": .int(summary.trials),
      ])
  }
}

extension GameKind {
  public static let colorMatch = ColorMatchGame.kind
}
