public import GuessworkJSON

/// Picture Quiz (SPEC 1.5, seed 000): each question names one item of a deck and shows the
/// pictures of `choices` items, one of them right; the player taps one.
///
/// Items are identified by an opaque `id` chosen by the caller (the server maps it to a picture
/// address that does not give the answer away), so a view can show the pictures without showing
/// which one is right. An item is the answer at most once per game, and every answer is drawn
/// from the whole shuffled deck (the seed's "play again" reset to the unshuffled list and so
/// favoured the first names alphabetically). Score: +1 right, −1 wrong, never below 0.
public struct PictureQuizGame: Game {
  public static let kind: GameKind = "picture-quiz"
  public typealias Content = [Item]

  /// One card of a deck: an opaque id (for the picture) and the name the question asks for.
  public typealias Item = DeckItem

  // MARK: Settings

  /// How many pictures a question shows and how many questions a game has.
  public struct Settings: GameSettings {
    /// Pictures per question, 2...6 and at most the deck's size.
    public var choices: Int
    /// Questions per game, 1...50 and at most the deck's size.
    public var questions: Int
    /// How the deck speaks of a tapped item, before its name: "Wrong! That's <noun> <name>."
    /// ("Eagles legend", "the"); empty for the name alone. Set from the deck, not by players.
    public var noun: String = ""

    public static let allowedChoices = 2...6
    public static let allowedQuestions = 1...50

    /// The rule book's defaults: three pictures, eight questions.
    public init() {
      self.init(choices: 3, questions: 8)
    }

    public init(choices: Int = 3, questions: Int = 8) {
      self.choices = choices
      self.questions = questions
    }

    public static let fields: [SettingField<Self>] = [
      .integer(
        "questions", \.questions, in: allowedQuestions),
      .integer(
        "choices", \.choices, in: allowedChoices),
    ]

    public func validate() throws(SettingError) {
      try validateFields()
      if noun.count > 40 {
        throw SettingError(
          setting: "noun", allowed: Message("allowed.text", ["low": 0, "high": 40]))
      }
    }

    /// Checks the settings against a deck of `deckSize` items.
    func validate(deckSize: Int) throws(SettingError) {
      try validate()
      if choices > deckSize {
        throw SettingError(
          setting: "choices",
          allowed: Message(
            "allowed.deckSize",
            ["low": .int(Self.allowedChoices.lowerBound), "count": .int(deckSize)]))
      }
      if questions > deckSize {
        throw SettingError(
          setting: "questions",
          allowed: Message(
            "allowed.deckSize",
            ["low": .int(Self.allowedQuestions.lowerBound), "count": .int(deckSize)]))
      }
    }

    private enum CodingKeys: String, CodingKey {
      case choices, questions, noun
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(choices, forKey: .choices)
      try container.encode(questions, forKey: .questions)
      if !noun.isEmpty { try container.encode(noun, forKey: .noun) }
    }

    /// Decodes a partial object: missing keys take their defaults.
    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
      noun =
        try decoder.container(keyedBy: CodingKeys.self)
        .decodeIfPresent(String.self, forKey: .noun) ?? ""
    }
  }

  // MARK: Wire types

  /// The screen the game is on.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// A question waits for a tap.
    case question
    /// The dialog after a tap; `next` continues.
    case answered
    /// The last question is answered.
    case over
  }

  /// What a player does. JSON: `{"type":"choose","choice":1}` (0-based index into the shown
  /// choices), `{"type":"next"}`.
  @WireUnion("picture quiz action")
  public enum Action: Sendable, Equatable {
    /// Taps the picture at this index of the question's `choices`.
    case choose(_ choice: Int)
    /// Closes the dialog after an answer and asks the next question.
    case next
  }

  /// What an action caused. JSON:
  /// `{"type":"answered","correct":false,"choice":1,"rightChoice":2,"score":0}`,
  /// `{"type":"nextQuestion","questionNumber":2}`, `{"type":"gameOver","score":5}`.
  @WireUnion("picture quiz event")
  public enum Event: Sendable, Equatable {
    /// A tap was judged; `rightChoice` is the index of the right picture.
    case answered(correct: Bool, choice: Int, rightChoice: Int, score: Int)
    /// Question `questionNumber` (1-based) is now shown.
    case nextQuestion(questionNumber: Int)
    /// The last question was answered.
    case gameOver(score: Int)
  }

  /// The outcome of the last tap, for the dialog and the animation.
  public struct AnswerView: Codable, Sendable, Equatable {
    public var correct: Bool
    /// The tapped picture's index in `choices`, its id and its name.
    public var choice: Int
    public var chosenId: String
    public var chosenName: String
    /// The right picture's index in `choices` and its id.
    public var rightChoice: Int
    public var rightId: String
    /// "Correct" or "Wrong! That's <noun> <tapped name>."
    public var title: Message
  }

  /// A question answered wrongly, for the end screen (with the right picture).
  public struct Miss: Codable, Sendable, Equatable {
    public var questionNumber: Int
    public var answerId: String
    public var answerName: String
    public var chosenId: String
    public var chosenName: String
  }

  /// Everything the screen shows. While a question waits for a tap it holds only the question
  /// (the name asked for), the pictures' ids in displayed order and the counters: nothing tells
  /// which picture is right.
  public struct View: Codable, Sendable, Equatable, JSONTextWritable {
    public var phase: Phase
    public var isOver: Bool
    public var score: Int
    /// The current (or last) question, 1-based.
    public var questionNumber: Int
    /// Questions in the game.
    public var questions: Int
    /// The name the question asks for.
    public var answerName: String
    /// The pictures' ids, in the order shown.
    public var choices: [String]
    /// After a tap (phases `answered` and `over`): the verdict.
    public var answer: AnswerView?
    /// After a tap: "Your score is S with Q questions remaining!" or, at the end,
    /// "Game over! Your final score was S."
    public var message: Message?
    /// At the end: the questions missed.
    public var missed: [Miss]?
  }

  /// The end screen's and the statistics' figures.
  public struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    public var isOver: Bool
    public var score: Int
    /// Questions answered rightly.
    public var correct: Int
    /// Questions answered so far.
    public var answered: Int
    /// Questions in the game.
    public var questions: Int
    public var missed: [Miss]
  }

  // MARK: State

  /// One question: deck indices of the answer and of the pictures in displayed order.
  struct Question: Codable, Sendable, Equatable {
    var answer: Int
    var choices: [Int]
    var rightChoice: Int { choices.firstIndex(of: answer)! }
  }

  public let settings: Settings
  let deck: [Item]
  /// Kept so a stored game keeps its random sequence (every question is drawn at the start).
  var random: SeededRandom
  /// All the game's questions, drawn at the start.
  var questions: [Question]
  /// The tapped index of each question answered so far.
  var taps: [Int]
  public private(set) var phase: Phase
  public private(set) var score: Int

  /// Starts a game on `content`, a deck whose ids and names are all different.
  public init(settings: Settings, content: [Item], seed: UInt64, at now: Instant)
    throws(SettingError)
  {
    try settings.validate()
    try Self.validate(deck: content)
    try settings.validate(deckSize: content.count)
    self.settings = settings
    deck = content
    random = SeededRandom(seed: seed)
    // Answers: the first `questions` items of the whole deck shuffled, so no item is the answer
    // twice and every item is equally likely in every place.
    let answers = random.shuffled(Array(content.indices)).prefix(settings.questions)
    var drawn: [Question] = []
    for answer in answers {
      let others = random.shuffled(content.indices.filter { $0 != answer })
      var choices = Array(others.prefix(settings.choices - 1))
      choices.insert(answer, at: random.index(below: settings.choices))
      drawn.append(Question(answer: answer, choices: choices))
    }
    questions = drawn
    taps = []
    phase = .question
    score = 0
  }

  private static func validate(deck: [Item]) throws(SettingError) {
    guard deck.count >= Settings.allowedChoices.lowerBound else {
      throw SettingError(
        setting: "items",
        allowed: Message(
          "allowed.deckItems",
          ["low": .int(Settings.allowedChoices.lowerBound), "count": .int(deck.count)]))
    }
    var ids = Set<String>()
    var names = Set<String>()
    for item in deck {
      guard !item.id.isEmpty, ids.insert(item.id).inserted else {
        throw SettingError(
          setting: "items", allowed: Message("allowed.itemIds", ["id": .text(item.id)]))
      }
      // Two items with one name would make a question with two right pictures.
      guard !item.name.isEmpty, names.insert(item.name).inserted else {
        throw SettingError(
          setting: "items",
          allowed: Message("allowed.itemNames", ["name": .text(item.name)]))
      }
    }
  }

  public var isOver: Bool { phase == .over }

  /// The index of the question shown (or last answered).
  private var current: Int { phase == .question ? taps.count : taps.count - 1 }

  private var correctCount: Int {
    zip(questions, taps).filter { $0.rightChoice == $1 }.count
  }

  // MARK: Transition

  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    guard phase != .over else { throw .gameOver }
    switch action {
    case .choose(let choice):
      guard phase == .question else {
        throw Refusal(.wrongPhase, "picture-quiz.refusal.answered")
      }
      guard (0..<settings.choices).contains(choice) else {
        throw Refusal(
          .outOfRange, "picture-quiz.refusal.choice",
          [
            "count": .int(settings.choices), "last": .int(settings.choices - 1),
            "choice": .int(choice),
          ])
      }
      let question = questions[taps.count]
      let correct = choice == question.rightChoice
      taps.append(choice)
      score = correct ? score + 1 : max(0, score - 1)
      var events: [Event] = [
        .answered(correct: correct, choice: choice, rightChoice: question.rightChoice, score: score)
      ]
      if taps.count == questions.count {
        phase = .over
        events.append(.gameOver(score: score))
      } else {
        phase = .answered
      }
      return events
    case .next:
      guard phase == .answered else {
        throw Refusal(.wrongPhase, "picture-quiz.refusal.unanswered")
      }
      phase = .question
      return [.nextQuestion(questionNumber: taps.count + 1)]
    }
  }

  // MARK: View

  public func view(at now: Instant) -> View {
    let question = questions[current]
    var view = View(
      phase: phase,
      isOver: isOver,
      score: score,
      questionNumber: current + 1,
      questions: questions.count,
      answerName: deck[question.answer].name,
      choices: question.choices.map { deck[$0].id })
    guard phase != .question else { return view }
    let choice = taps[current]
    let chosen = deck[question.choices[choice]]
    let correct = choice == question.rightChoice
    view.answer = AnswerView(
      correct: correct,
      choice: choice,
      chosenId: chosen.id,
      chosenName: chosen.name,
      rightChoice: question.rightChoice,
      rightId: deck[question.answer].id,
      title: correct
        ? Message("picture-quiz.correct")
        : settings.noun.isEmpty
          ? Message("picture-quiz.wrong", ["name": .text(chosen.name)])
          : Message(
            "picture-quiz.wrong.noun", ["noun": .text(settings.noun), "name": .text(chosen.name)]))
    if phase == .over {
      view.message = Message("picture-quiz.over", ["score": .int(score)])
      view.missed = missed
    } else {
      let remaining = questions.count - taps.count
      view.message = Message(
        "picture-quiz.progress", ["score": .int(score), "count": .int(remaining)])
    }
    return view
  }

  private var missed: [Miss] {
    zip(questions, taps).enumerated().compactMap { number, pair in
      let (question, tap) = pair
      guard tap != question.rightChoice else { return nil }
      let answer = deck[question.answer]
      let chosen = deck[question.choices[tap]]
      return Miss(
        questionNumber: number + 1, answerId: answer.id, answerName: answer.name,
        chosenId: chosen.id, chosenName: chosen.name)
    }
  }

  // MARK: Summary

  public var summary: Summary {
    Summary(
      isOver: isOver, score: score, correct: correctCount, answered: taps.count,
      questions: questions.count, missed: missed)
  }
}

extension PictureQuizGame.View {
  init(
    phase: PictureQuizGame.Phase, isOver: Bool, score: Int, questionNumber: Int, questions: Int,
    answerName: String, choices: [String]
  ) {
    self.phase = phase
    self.isOver = isOver
    self.score = score
    self.questionNumber = questionNumber
    self.questions = questions
    self.answerName = answerName
    self.choices = choices
  }
}
