// What the layers around the engine need of Bullseye: its name, figures, the target as a
// picture, and the names of its wire unions.

extension BullseyeGame {
  public static let emoji = "🎯"

  /// Rounds played, the average and the best round.
  public struct Tally: GameTally {
    public var rounds = 0
    public var total = 0
    public var best: Int?

    public init() {}
  }

  public static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {
    for round in game.summary.rounds {
      tally.rounds += 1
      tally.total += round.score
      tally.best = max(tally.best ?? round.score, round.score)
    }
  }

  public static func figures(_ tally: Tally) -> [Figure] {
    [
      Figure("rounds", .count(tally.rounds)),
      Figure(
        "averageRound",
        .decimal(tally.rounds == 0 ? nil : Double(tally.total) / Double(tally.rounds))),
      Figure("bestRound", .score(tally.best)),
    ]
  }

  /// A square per colour by its score (🎯 100, 🟩 90 and up, 🟨 75, 🟧 50, 🟥 below), then
  /// the total: never a colour's values.
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    let squares = summary.rounds.map { round in
      switch round.score {
      case 100...: "🎯"
      case 90...: "🟩"
      case 75...: "🟨"
      case 50...: "🟧"
      default: "🟥"
      }
    }.joined()
    return Message(
      "bullseye.share",
      ["squares": .text(squares), "total": .int(summary.total), "max": .int(summary.maxTotal)])
  }

  /// The target, which the player must see; its values never travel in a view, so a client
  /// cannot simply copy them into its guess.
  public var swatch: String? { target.hex }
}

extension GameKind {
  public static let bullseye = BullseyeGame.kind
}
