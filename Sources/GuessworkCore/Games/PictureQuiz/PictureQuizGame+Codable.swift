// The wire format of the picture quiz's actions and events: flat objects with a "type"
// discriminator (the case name) and lowerCamelCase fields, pinned by PictureQuizGameWireTests.

extension PictureQuizGame.Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, choice
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try Self.wireTag(from: decoder)
    switch type {
    case "choose": self = .choose(try container.decode(Int.self, forKey: .choice))
    case "next": self = .next
    default:
      throw Self.unreadTag(type)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .choose(let choice):
      try container.encode("choose", forKey: .type)
      try container.encode(choice, forKey: .choice)
    case .next:
      try container.encode("next", forKey: .type)
    }
  }
}

extension PictureQuizGame.Event: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, correct, choice, rightChoice, score, questionNumber
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try Self.wireTag(from: decoder)
    switch type {
    case "answered":
      self = .answered(
        correct: try container.decode(Bool.self, forKey: .correct),
        choice: try container.decode(Int.self, forKey: .choice),
        rightChoice: try container.decode(Int.self, forKey: .rightChoice),
        score: try container.decode(Int.self, forKey: .score))
    case "nextQuestion":
      self = .nextQuestion(questionNumber: try container.decode(Int.self, forKey: .questionNumber))
    case "gameOver":
      self = .gameOver(score: try container.decode(Int.self, forKey: .score))
    default:
      throw Self.unreadTag(type)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .answered(let correct, let choice, let rightChoice, let score):
      try container.encode("answered", forKey: .type)
      try container.encode(correct, forKey: .correct)
      try container.encode(choice, forKey: .choice)
      try container.encode(rightChoice, forKey: .rightChoice)
      try container.encode(score, forKey: .score)
    case .nextQuestion(let questionNumber):
      try container.encode("nextQuestion", forKey: .type)
      try container.encode(questionNumber, forKey: .questionNumber)
    case .gameOver(let score):
      try container.encode("gameOver", forKey: .type)
      try container.encode(score, forKey: .score)
    }
  }
}
