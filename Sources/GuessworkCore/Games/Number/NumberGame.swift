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

  // MARK: Wire types

  /// Where the secret lies compared with a guess.
  public enum Hint: String, Codable, Sendable, CaseIterable {
    /// The secret is higher than the guess.
    case higher
    /// The secret is lower than the guess.
    case lower
    /// The guess is the secret.
    case correct
  }

  /// Whether the game goes on, and how it ended.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    case playing, won, lost
  }

  /// What a player does. JSON: `{"type":"digit","digit":7}`, `{"type":"backspace"}`,
  /// `{"type":"clear"}`, `{"type":"enter"}`, `{"type":"guess","number":42}`.
  public enum Action: Sendable, Equatable {
    /// Types a digit (0...9) on the pad; the oldest digit falls off a full display.
    case digit(Int)
    /// Drops the last digit typed.
    case backspace
    /// Empties the display.
    case clear
    /// Submits the display as a guess (refused with `not-ready` when it is empty).
    case enter
    /// Submits a number directly, bypassing the pad (for the API and tests).
    case guess(Int)
  }

  /// What an action caused. JSON: `{"type":"displayChanged","display":"42"}`,
  /// `{"type":"guessed","number":42,"hint":"higher","attemptsLeft":4,"knownLow":43,
  /// "knownHigh":99}`, `{"type":"won","secret":42,"score":5}`, `{"type":"lost","secret":42}`.
  public enum Event: Sendable, Equatable {
    /// The pad's display now shows `display` (possibly empty).
    case displayChanged(display: String)
    /// A guess was accepted and spent an attempt; the known range is now
    /// `knownLow...knownHigh`.
    case guessed(number: Int, hint: Hint, attemptsLeft: Int, knownLow: Int, knownHigh: Int)
    /// The guess was the secret.
    case won(secret: Int, score: Int)
    /// The last attempt was spent on a wrong guess.
    case lost(secret: Int)
  }

  /// One accepted guess, with the range known when it was made.
  public struct Guess: Codable, Sendable, Equatable {
    public var number: Int
    public var hint: Hint
    /// The known range just before this guess.
    public var knownLow: Int
    public var knownHigh: Int

    /// Whether this guess halved the range known at that moment: it was a middle value of
    /// `knownLow...knownHigh`, i.e. the numbers of candidates below it and above it (within that
    /// range) differ by at most one. For an odd count that is the one middle value; for an even
    /// count either of the two middle values. A perfect binary search makes only such guesses.
    public var halvedRange: Bool {
      abs((number - knownLow) - (knownHigh - number)) <= 1
    }
  }

  /// A guess as the screen lists it.
  public struct GuessView: Codable, Sendable, Equatable {
    public var number: Int
    public var hint: Hint
    /// "Higher than 42", "Lower than 42" or "42 is right!".
    public var text: Message
  }

  /// Everything the screen shows. `secret` is present only once the game is over.
  public struct View: Codable, Sendable, Equatable {
    public var phase: Phase
    public var isOver: Bool
    public var score: Int
    /// The whole range of the secret.
    public var low: Int
    public var high: Int
    /// The range the hints leave open.
    public var knownLow: Int
    public var knownHigh: Int
    /// "The number is between 42 and 99."
    public var knownRangeText: Message
    /// The digits typed on the pad, oldest first; may be empty.
    public var display: String
    /// How many digits the display holds.
    public var displayWidth: Int
    public var attemptsAllowed: Int
    public var attemptsLeft: Int
    /// "five attempts left", ..., "two attempts left", "last attempt!", "no attempts left".
    public var attemptsLeftText: Message
    /// One attempt is left: the page highlights it.
    public var isLastAttempt: Bool
    /// The hint for the last wrong guess ("Higher than 42"); absent before any, and after a win.
    public var hint: Message?
    /// The accepted guesses, oldest first.
    public var guesses: [GuessView]
    /// The banner: the intro, the last hint, the congratulation or the reveal.
    public var message: Message
    /// The secret, once the game is over.
    public var secret: Int?
  }

  /// A guess on the end screen, marked when it halved the range known at the time.
  public struct SummaryGuess: Codable, Sendable, Equatable {
    public var number: Int
    public var hint: Hint
    /// The known range just before the guess.
    public var knownLow: Int
    public var knownHigh: Int
    /// See `Guess.halvedRange`.
    public var halved: Bool
  }

  /// The end analysis and the figures for statistics.
  public struct Summary: Codable, Sendable, Equatable {
    public var isOver: Bool
    public var won: Bool
    public var score: Int
    /// Accepted guesses, the winning one included.
    public var attemptsUsed: Int
    public var attemptsAllowed: Int
    public var low: Int
    public var high: Int
    /// The secret; absent while the game goes on.
    public var secret: Int?
    public var guesses: [SummaryGuess]
    /// How many guesses halved the known range.
    public var halvedCount: Int
    /// The numbers in the range, n.
    public var rangeSize: Int
    /// The most tries a perfect halving strategy needs: ⌈log2(n+1)⌉ (7 for 0...99).
    public var optimalTries: Int
    /// How many numbers `attemptsAllowed` tries can guarantee to find: min(n, 2^attempts − 1).
    public var guaranteedNumbers: Int
    /// The above in sentences, with how the player's guesses did.
    public var strategy: [Message]

    init(
      isOver: Bool, won: Bool, score: Int, attemptsUsed: Int, attemptsAllowed: Int, low: Int,
      high: Int, secret: Int?, guesses: [SummaryGuess], halvedCount: Int, rangeSize: Int,
      optimalTries: Int, guaranteedNumbers: Int
    ) {
      self.isOver = isOver
      self.won = won
      self.score = score
      self.attemptsUsed = attemptsUsed
      self.attemptsAllowed = attemptsAllowed
      self.low = low
      self.high = high
      self.secret = secret
      self.guesses = guesses
      self.halvedCount = halvedCount
      self.rangeSize = rangeSize
      self.optimalTries = optimalTries
      self.guaranteedNumbers = guaranteedNumbers
      strategy = [
        Message("number.strategy.needs", ["count": .int(optimalTries), "size": .int(rangeSize)]),
        attemptsAllowed >= optimalTries
          ? Message("number.strategy.always", ["count": .int(attemptsAllowed)])
          : Message(
            "number.strategy.only",
            ["count": .int(attemptsAllowed), "guaranteed": .int(guaranteedNumbers)]),
      ]
      if !guesses.isEmpty {
        strategy.append(
          Message(
            "number.strategy.halved", ["count": .int(guesses.count), "halved": .int(halvedCount)]))
      }
    }

    private enum CodingKeys: String, CodingKey {
      case isOver, won, score, attemptsUsed, attemptsAllowed, low, high, secret, guesses
      case halvedCount, rangeSize, optimalTries, guaranteedNumbers, strategy
    }

    /// Reads a stored summary; the strategy is made again from the figures (summaries stored
    /// before the languages had it in English words).
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      // Read, so that a schema read off this decoder lists it, and made again below.
      _ = try c.decodeIfPresent([Message].self, forKey: .strategy)
      self.init(
        isOver: try c.decode(Bool.self, forKey: .isOver),
        won: try c.decode(Bool.self, forKey: .won),
        score: try c.decode(Int.self, forKey: .score),
        attemptsUsed: try c.decode(Int.self, forKey: .attemptsUsed),
        attemptsAllowed: try c.decode(Int.self, forKey: .attemptsAllowed),
        low: try c.decode(Int.self, forKey: .low), high: try c.decode(Int.self, forKey: .high),
        secret: try c.decodeIfPresent(Int.self, forKey: .secret),
        guesses: try c.decode([SummaryGuess].self, forKey: .guesses),
        halvedCount: try c.decode(Int.self, forKey: .halvedCount),
        rangeSize: try c.decode(Int.self, forKey: .rangeSize),
        optimalTries: try c.decode(Int.self, forKey: .optimalTries),
        guaranteedNumbers: try c.decode(Int.self, forKey: .guaranteedNumbers))
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
