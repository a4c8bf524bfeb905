// The wire format of the number game's actions and events: flat objects with a "type"
// discriminator (the case name) and lowerCamelCase fields, pinned by NumberGameWireTests.

extension NumberGame.Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, digit, number
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try Self.wireTag(from: decoder)
    switch type {
    case "digit": self = .digit(try container.decode(Int.self, forKey: .digit))
    case "backspace": self = .backspace
    case "clear": self = .clear
    case "enter": self = .enter
    case "guess": self = .guess(try container.decode(Int.self, forKey: .number))
    default:
      throw Self.unreadTag(type)

    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .digit(let digit):
      try container.encode("digit", forKey: .type)
      try container.encode(digit, forKey: .digit)
    case .backspace: try container.encode("backspace", forKey: .type)
    case .clear: try container.encode("clear", forKey: .type)
    case .enter: try container.encode("enter", forKey: .type)
    case .guess(let number):
      try container.encode("guess", forKey: .type)
      try container.encode(number, forKey: .number)
    }
  }
}

extension NumberGame.Event: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, display, number, hint, attemptsLeft, knownLow, knownHigh, secret, score
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try Self.wireTag(from: decoder)
    switch type {
    case "displayChanged":
      self = .displayChanged(display: try container.decode(String.self, forKey: .display))
    case "guessed":
      self = .guessed(
        number: try container.decode(Int.self, forKey: .number),
        hint: try container.decode(NumberGame.Hint.self, forKey: .hint),
        attemptsLeft: try container.decode(Int.self, forKey: .attemptsLeft),
        knownLow: try container.decode(Int.self, forKey: .knownLow),
        knownHigh: try container.decode(Int.self, forKey: .knownHigh))
    case "won":
      self = .won(
        secret: try container.decode(Int.self, forKey: .secret),
        score: try container.decode(Int.self, forKey: .score))
    case "lost":
      self = .lost(secret: try container.decode(Int.self, forKey: .secret))
    default:
      throw Self.unreadTag(type)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .displayChanged(let display):
      try container.encode("displayChanged", forKey: .type)
      try container.encode(display, forKey: .display)
    case .guessed(let number, let hint, let attemptsLeft, let knownLow, let knownHigh):
      try container.encode("guessed", forKey: .type)
      try container.encode(number, forKey: .number)
      try container.encode(hint, forKey: .hint)
      try container.encode(attemptsLeft, forKey: .attemptsLeft)
      try container.encode(knownLow, forKey: .knownLow)
      try container.encode(knownHigh, forKey: .knownHigh)
    case .won(let secret, let score):
      try container.encode("won", forKey: .type)
      try container.encode(secret, forKey: .secret)
      try container.encode(score, forKey: .score)
    case .lost(let secret):
      try container.encode("lost", forKey: .type)
      try container.encode(secret, forKey: .secret)
    }
  }
}
