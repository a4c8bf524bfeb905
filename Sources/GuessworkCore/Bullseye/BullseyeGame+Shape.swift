// What the layers around the engine need of Bullseye: its name, figures, the target as a
// picture, and the names of its wire unions.

extension BullseyeGame {
  public static let title = "Bullseye"
  public static let emoji = "🎯"
  public static let blurb = "Mix the colour you see."

  /// Rounds played, the average and the best round.
  public static func figures(_ finished: [FinishedRecord<Summary>]) -> [Figure] {
    let rounds = finished.flatMap(\.summary.rounds)
    return [
      Figure("rounds", "Colours matched", .count(rounds.count)),
      Figure(
        "averageRound", "Average colour", .decimal(Figure.mean(rounds.map { Double($0.score) }))),
      Figure("bestRound", "Best colour", .score(rounds.map(\.score).max())),
    ]
  }

  /// The target, which the player must see; its values never travel in a view, so a client
  /// cannot simply copy them into its guess.
  public var swatch: String? { target.hex }
}

extension BullseyeGame.Scoring {
  /// The name a player reads.
  public var label: String {
    switch self {
    case .perceptual: "As people see colours"
    case .classic: "Classic (by the numbers)"
    }
  }
}

extension GameKind {
  public static let bullseye = BullseyeGame.kind
}

extension BullseyeGame.Action: WireUnion {
  public static let wireTags = ["check", "next", "newColour", "finish"]
  public static let wireName = "Bullseye action type"
}

extension BullseyeGame.Event: WireUnion {
  public static let wireTags = ["scored", "checked", "newTarget", "revealed", "gameOver"]
  public static let wireName = "Bullseye event type"
}
