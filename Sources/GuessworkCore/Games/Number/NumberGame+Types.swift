public import GuessworkJSON

extension NumberGame {
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
  @WireUnion("number game action")
  public enum Action: Sendable, Equatable, JSONTextWritable {
    /// Types a digit (0...9) on the pad; the oldest digit falls off a full display.
    case digit(_ digit: Int)
    /// Drops the last digit typed.
    case backspace
    /// Empties the display.
    case clear
    /// Submits the display as a guess (refused with `not-ready` when it is empty).
    case enter
    /// Submits a number directly, bypassing the pad (for the API and tests).
    case guess(_ number: Int)
  }

  /// What an action caused. JSON: `{"type":"displayChanged","display":"42"}`,
  /// `{"type":"guessed","number":42,"hint":"higher","attemptsLeft":4,"knownLow":43,
  /// "knownHigh":99}`, `{"type":"won","secret":42,"score":5}`, `{"type":"lost","secret":42}`.
  @WireUnion("number game event")
  public enum Event: Sendable, Equatable, JSONTextWritable {
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
}
