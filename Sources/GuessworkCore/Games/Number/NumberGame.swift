import GuessworkJSON

/// Guess the Number (SPEC 1.1, seed 004): the game picks a secret in `low...high` and the player
/// has `attempts` tries; each wrong guess says higher or lower and narrows the known range.
///
/// Numbers are entered on a digit pad held by the game (`digit`, `backspace`, `clear`, `enter`)
/// or directly (`guess`). A guess outside the range, one the hints already rule out, or a repeat
/// is refused and costs no attempt. The known range only ever narrows (the seed widened it when a
/// guess lay outside it).
///
/// Scoring: every accepted guess spends one attempt, the winning one included, and a won game
/// scores the attempts left after it plus one, so that a win on the first of five attempts
/// scores 5 and a win on the last attempt scores 1; a lost game scores 0.
public struct NumberGame: Game {
  public static let kind: GameKind = "number"

  // MARK: Settings

  /// The range of the secret and the number of attempts.
  public struct Settings: GameSettings {
    /// The smallest number the secret may be, from 0 to 999,991 (so a range of ten still fits
    /// below `highestAllowed`). Negative numbers are not allowed because the digit pad has no
    /// minus key.
    public var low: Int
    /// The largest number the secret may be, at most 1,000,000; the range `low...high` must
    /// hold from 10 to 10,000 numbers.
    public var high: Int
    /// How many guesses the player has, 1...20.
    public var attempts: Int

    public static let allowedLow = 0...999_991
    public static let highestAllowed = 1_000_000
    public static let allowedRangeSize = 10...10_000
    public static let allowedAttempts = 1...20

    /// The rule book's defaults: 0...99 and five attempts.
    public init() {
      self.init(low: 0, high: 99, attempts: 5)
    }

    public init(low: Int = 0, high: Int = 99, attempts: Int = 5) {
      self.low = low
      self.high = high
      self.attempts = attempts
    }

    /// The number of numbers in `low...high`.
    public var rangeSize: Int { high - low + 1 }

    public static let fields: [SettingField<Self>] = [
      .integer(
        "low", \.low, in: allowedLow),
      .integer(
        "high", \.high,
        in: (allowedLow.lowerBound + allowedRangeSize.lowerBound - 1)...highestAllowed),
      .integer(
        "attempts", \.attempts, in: allowedAttempts),
    ]

    public func validate() throws(SettingError) {
      try validateFields(except: ["high"])
      let highest = min(low + Self.allowedRangeSize.upperBound - 1, Self.highestAllowed)
      let lowest = low + Self.allowedRangeSize.lowerBound - 1
      guard (lowest...highest).contains(high) else {
        throw SettingError(
          setting: "high",
          allowed: Message(
            "allowed.numberHigh",
            [
              "low": .int(lowest), "high": .int(highest),
              "smallest": .int(Self.allowedRangeSize.lowerBound),
              "largest": .int(Self.allowedRangeSize.upperBound), "top": .int(Self.highestAllowed),
            ]))
      }
    }

    /// Decodes a partial object: missing keys take their defaults.
    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
    }
  }

  // MARK: State

  public let settings: Settings
  /// The number to guess. Never in a view or event before the game is over.
  var secret: Int
  /// Kept so that a stored game resumes its random sequence exactly (the secret is drawn at the
  /// start, so nothing else draws yet).
  var random: SeededRandom
  public private(set) var pad: DigitPad
  public private(set) var knownLow: Int
  public private(set) var knownHigh: Int
  public private(set) var guesses: [Guess]
  public private(set) var phase: Phase

  public init(settings: Settings, content: Void, seed: UInt64, at now: Instant) throws(SettingError)
  {
    try settings.validate()
    self.settings = settings
    random = SeededRandom(seed: seed)
    secret = random.int(in: settings.low...settings.high)
    pad = DigitPad(fitting: settings.high)
    knownLow = settings.low
    knownHigh = settings.high
    guesses = []
    phase = .playing
  }

  public var isOver: Bool { phase != .playing }

  /// Attempts not yet spent; every accepted guess spends one.
  public var attemptsLeft: Int { settings.attempts - guesses.count }

  /// A win scores the attempts left after the winning guess plus one; otherwise 0.
  public var score: Int { phase == .won ? attemptsLeft + 1 : 0 }

  // MARK: Transition

  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    guard phase == .playing else { throw .gameOver }
    switch action {
    case .digit(let digit):
      guard (0...9).contains(digit) else {
        throw Refusal(.outOfRange, "number.refusal.digit", ["digit": .int(digit)])
      }
      pad.press(digit)
      return [.displayChanged(display: pad.display)]
    case .backspace:
      guard !pad.isEmpty else { return [] }
      pad.backspace()
      return [.displayChanged(display: pad.display)]
    case .clear:
      guard !pad.isEmpty else { return [] }
      pad.clear()
      return [.displayChanged(display: pad.display)]
    case .enter:
      guard let number = pad.value else {
        throw Refusal(.notReady, "number.refusal.emptyPad")
      }
      return try submit(number)
    case .guess(let number):
      return try submit(number)
    }
  }

  /// Checks `number` and, if it is a fair guess, spends an attempt on it.
  private mutating func submit(_ number: Int) throws(Refusal) -> [Event] {
    guard (settings.low...settings.high).contains(number) else {
      throw Refusal(
        .outOfRange, "number.refusal.outOfRange",
        ["number": .int(number), "low": .int(settings.low), "high": .int(settings.high)])
    }
    if let earlier = guesses.first(where: { $0.number == number }) {
      throw Refusal(
        .repeated,
        Message(
          earlier.hint == .higher
            ? "number.refusal.repeated.higher" : "number.refusal.repeated.lower",
          ["number": .int(number)]),
        Self.rangeSentence(knownLow, knownHigh))
    }
    guard (knownLow...knownHigh).contains(number) else {
      throw Refusal(
        .alreadyExcluded, Message("number.refusal.excluded", ["number": .int(number)]),
        Self.rangeSentence(knownLow, knownHigh))
    }

    // Accepted from here on: nothing below can fail.
    let hint: Hint = number < secret ? .higher : number > secret ? .lower : .correct
    guesses.append(Guess(number: number, hint: hint, knownLow: knownLow, knownHigh: knownHigh))
    switch hint {
    case .higher: knownLow = max(knownLow, number + 1)
    case .lower: knownHigh = min(knownHigh, number - 1)
    case .correct:
      knownLow = number
      knownHigh = number
    }
    var events: [Event] = [
      .guessed(
        number: number, hint: hint, attemptsLeft: attemptsLeft, knownLow: knownLow,
        knownHigh: knownHigh)
    ]
    if hint == .correct {
      phase = .won
      events.append(.won(secret: secret, score: score))
    } else if attemptsLeft == 0 {
      phase = .lost
      events.append(.lost(secret: secret))
    }
    if !pad.isEmpty {
      pad.clear()
      events.append(.displayChanged(display: pad.display))
    }
    return events
  }

  // MARK: View

  public func view(at now: Instant) -> View {
    let hintText = guesses.last.flatMap { $0.hint == .correct ? nil : Self.hintText($0) }
    return View(
      phase: phase,
      isOver: isOver,
      score: score,
      low: settings.low,
      high: settings.high,
      knownLow: knownLow,
      knownHigh: knownHigh,
      knownRangeText: Self.rangeSentence(knownLow, knownHigh),
      display: pad.display,
      displayWidth: pad.width,
      attemptsAllowed: settings.attempts,
      attemptsLeft: attemptsLeft,
      attemptsLeftText: Self.attemptsLeftText(attemptsLeft),
      isLastAttempt: attemptsLeft == 1,
      hint: hintText,
      guesses: guesses.map { GuessView(number: $0.number, hint: $0.hint, text: Self.hintText($0)) },
      message: message,
      secret: isOver ? secret : nil)
  }

  private var message: Message {
    switch phase {
    case .won:
      return Message("number.won", ["count": .int(guesses.count), "secret": .int(secret)])
    case .lost:
      return Message("number.lost", ["secret": .int(secret)])
    case .playing:
      guard let last = guesses.last else {
        return Message(
          "number.intro",
          [
            "count": .int(settings.attempts), "low": .int(settings.low),
            "high": .int(settings.high),
          ])
      }
      return Message(
        last.hint == .higher ? "number.said.higher" : "number.said.lower",
        ["number": .int(last.number)])
    }
  }

  // MARK: Summary

  public var summary: Summary {
    let n = settings.rangeSize
    let optimal = Self.optimalTries(forRangeSize: n)
    let guaranteed = Self.guaranteedNumbers(attempts: settings.attempts, rangeSize: n)
    let marked = guesses.map {
      SummaryGuess(
        number: $0.number, hint: $0.hint, knownLow: $0.knownLow, knownHigh: $0.knownHigh,
        halved: $0.halvedRange)
    }
    let halved = marked.filter(\.halved).count
    return Summary(
      isOver: isOver,
      won: phase == .won,
      score: score,
      attemptsUsed: guesses.count,
      attemptsAllowed: settings.attempts,
      low: settings.low,
      high: settings.high,
      secret: isOver ? secret : nil,
      guesses: marked,
      halvedCount: halved,
      rangeSize: n,
      optimalTries: optimal,
      guaranteedNumbers: guaranteed)
  }

  // MARK: Words and figures

  /// The fewest tries that always find a number among `n` by halving: ⌈log2(n+1)⌉.
  public static func optimalTries(forRangeSize n: Int) -> Int {
    var tries = 0
    var covered = 0  // 2^tries − 1
    while covered < n {
      tries += 1
      covered = covered * 2 + 1
    }
    return tries
  }

  /// How many of `n` numbers `attempts` tries can guarantee to find: min(n, 2^attempts − 1).
  public static func guaranteedNumbers(attempts: Int, rangeSize n: Int) -> Int {
    guard attempts < 62 else { return n }
    return min(n, (1 << attempts) - 1)
  }

  /// "five attempts left", ..., "two attempts left", "last attempt!", "no attempts left".
  public static func attemptsLeftText(_ left: Int) -> Message {
    Message("number.attemptsLeft", ["count": .int(max(left, 0))])
  }

  private static func hintText(_ guess: Guess) -> Message {
    let key =
      switch guess.hint {
      case .higher: "number.hint.higher"
      case .lower: "number.hint.lower"
      case .correct: "number.hint.correct"
      }
    return Message(key, ["number": .int(guess.number)])
  }

  /// "The number is between 42 and 99." or, once only one is left, "The number is 42."
  private static func rangeSentence(_ low: Int, _ high: Int) -> Message {
    low == high
      ? Message("number.range.one", ["number": .int(low)])
      : Message("number.range", ["low": .int(low), "high": .int(high)])
  }
}
