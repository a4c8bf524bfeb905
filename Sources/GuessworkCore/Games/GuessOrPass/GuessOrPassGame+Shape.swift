// What the layers around the engine need of Guess or Pass: its name, the words it plays, its
// figures, what a round hands back, and the names of its wire unions.

extension GuessOrPassGame {
  public static let emoji = "🙌"
  public static let contentNeed = ContentNeed.words

  public static func content(from supplied: SuppliedContent) -> Words? {
    if case .words(let words, _) = supplied { words } else { nil }
  }

  /// The round is played on the category the words came from.
  public static func fit(_ settings: Settings, to supplied: SuppliedContent) -> Settings {
    var settings = settings
    if settings.category == nil { settings.category = supplied.variant }
    return settings
  }

  /// The best round overall and per category.
  public static func tally(_ tally: inout Figure.Bests, adding game: FinishedRecord<Summary>) {
    tally.add(game)
  }

  public static func figures(_ tally: Figure.Bests) -> [Figure] { Figure.bests(tally) }

  /// How many words were guessed and passed, never which.
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    Message(
      "guess-or-pass.share",
      ["guessed": .int(summary.guessed.count), "passed": .int(summary.passed.count)])
  }

  /// The words the round has shown, dealt last in this player's next rounds.
  public var handback: Handback { isOver ? Handback(seenWords: summary.wordsSeen) : Handback() }
}

extension GameKind {
  public static let guessOrPass = GuessOrPassGame.kind
}
