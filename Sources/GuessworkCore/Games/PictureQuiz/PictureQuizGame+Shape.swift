// What the layers around the engine need of Picture Quiz: its name, the deck it plays, its
// figures and the names of its wire unions.

extension PictureQuizGame {
  public static let emoji = "🖼️"
  public static let contentNeed = ContentNeed.deck

  public static func content(from supplied: SuppliedContent) -> [Item]? {
    if case .deck(let items, _, _) = supplied { items } else { nil }
  }

  /// No more questions than the deck has items; the questions name the deck's noun.
  public static func fit(_ settings: Settings, to supplied: SuppliedContent) -> Settings {
    guard case .deck(let items, _, let noun) = supplied else { return settings }
    var settings = settings
    settings.questions = min(settings.questions, items.count)
    settings.noun = noun
    return settings
  }

  /// The best game overall and per deck.
  public static func tally(_ tally: inout Figure.Bests, adding game: FinishedRecord<Summary>) {
    tally.add(game)
  }

  public static func figures(_ tally: Figure.Bests) -> [Figure] { Figure.bests(tally) }

  /// A square per question answered, 🟩 right and 🟥 wrong, then the right answers and the
  /// score (which a wrong answer lowers): never a picture's name.
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    let wrong = Set(summary.missed.map(\.questionNumber))
    let squares = (1...max(1, summary.answered)).prefix(summary.answered).map {
      wrong.contains($0) ? "🟥" : "🟩"
    }.joined()
    return Message(
      "picture-quiz.share",
      [
        "squares": .text(squares), "correct": .int(summary.correct),
        "questions": .int(summary.questions), "score": .int(score),
      ])
  }
}

extension GameKind {
  public static let pictureQuiz = PictureQuizGame.kind
}
