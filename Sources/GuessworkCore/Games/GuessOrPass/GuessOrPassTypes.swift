public import GuessworkJSON

extension GuessOrPassGame {
  /// The settings of a round. Every key is optional in JSON; a missing one takes its default.
  /// The countdown is fixed at 5 s (`countdownMs`), not a setting.
  public struct Settings: GameSettings {
    /// Playing time in seconds after the countdown (default 60, 30...180).
    public var duration: Int
    /// The category's label, shown on screen and kept in the summary (informational; the server
    /// chooses the words). Absent when none was given; at most 60 characters.
    public var category: String?

    public init() {
      self.init(duration: 60)
    }

    public init(duration: Int = 60, category: String? = nil) {
      self.duration = duration
      self.category = category
    }

    /// The longest category label accepted.
    public static let categoryLimit = 60

    public static let fields: [SettingField<Self>] = [
      .integer(
        "duration", \.duration, in: 30...180)
    ]

    public func validate() throws(SettingError) {
      try validateFields()
      if let category, category.isEmpty || category.count > Self.categoryLimit {
        throw SettingError(
          setting: "category",
          allowed: Message("allowed.text", ["low": 1, "high": .int(Self.categoryLimit)]))
      }
    }

    private enum CodingKeys: String, CodingKey {
      case duration, category
    }

    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
      category = try decoder.container(keyedBy: CodingKeys.self)
        .decodeIfPresent(String.self, forKey: .category)
    }
  }

  /// What the player does.
  ///
  /// JSON: `{"type":"guessed"}`, `{"type":"pass"}` and `{"type":"end"}`.
  @WireUnion("Guess or Pass action")
  public enum Action: Sendable, Equatable, CaseIterable {
    /// The word on screen was guessed: it counts.
    case guessed
    /// Skip the word on screen.
    case pass
    /// "End game": ends the round early.
    case end
  }

  /// How a word left the screen.
  public enum WordResult: String, Codable, Sendable, CaseIterable {
    case guessed
    case passed
  }

  /// Why a round ended.
  public enum EndReason: String, Codable, Sendable, CaseIterable {
    /// The time ran out.
    case timeUp
    /// Every word was played.
    case wordsRanOut
    /// The player pressed "End game".
    case ended
  }

  /// What an action or the passing of time caused. Only words already on screen appear here.
  ///
  /// JSON: `{"type":"guessed","word":"Lion","score":3}`, `{"type":"passed","word":"Owl"}` and
  /// `{"type":"roundOver","reason":"timeUp","score":3}`.
  @WireUnion("Guess or Pass event")
  public enum Event: Sendable, Equatable {
    /// `word` was guessed; the score after it.
    case guessed(word: String, score: Int)
    /// `word` was passed.
    case passed(word: String)
    /// The round ended.
    case roundOver(reason: EndReason, score: Int)
  }

  /// Where the round stands.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// The 5-second countdown; no word yet.
    case countdown
    /// A word is on screen and the time runs.
    case playing
    /// The round has ended.
    case over
  }

  /// Everything a page needs to draw the screen at a moment.
  public struct View: Codable, Sendable, Equatable, JSONTextWritable {
    public var phase: Phase
    public var isOver: Bool
    /// Milliseconds left of the countdown (0 outside it).
    public var countdownRemainingMs: Int
    /// The countdown's number to show, 5 ... 1 (absent outside the countdown).
    public var countdownSeconds: Int?
    /// Milliseconds of play left (the whole duration during the countdown, 0 once the time is
    /// up, what was left when the round ended early).
    public var remainingMs: Int
    /// Whole seconds left, rounded up, for "Time left: N" (absent outside play).
    public var secondsLeft: Int?
    /// The playing time, in milliseconds.
    public var durationMs: Int
    /// The last 10 s are running: signal them.
    public var lastTenSeconds: Bool
    /// The category's label, if any.
    public var category: String?
    /// The word on screen (only while playing).
    public var word: String?
    /// Words guessed so far: the score.
    public var score: Int
    /// Words passed so far.
    public var passedCount: Int
    /// The number of the word on screen, from 1 (while playing; else words played so far).
    public var wordNumber: Int
    /// How the last word left the screen, for the green or red flash.
    public var lastResult: WordResult?
    /// Why the round ended, once over.
    public var endReason: EndReason?
    /// "You guessed N words!", once over.
    public var message: Message?
    /// The words guessed, in order, once over.
    public var guessed: [String]?
    /// The words passed, in order, once over.
    public var passed: [String]?
    /// The word that was on screen when the round ended, neither guessed nor passed, once over.
    public var missed: String?
  }

  /// The figures the end screen and the statistics need.
  public struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    /// Words guessed.
    public var score: Int
    /// The words guessed, in order.
    public var guessed: [String]
    /// The words passed, in order.
    public var passed: [String]
    /// The word on screen when the round ended, if any (known once over).
    public var missed: String?
    public var category: String?
    /// Why the round ended; absent while it runs.
    public var endReason: EndReason?
    /// Every word that was on screen, in order, so the server can mark them seen.
    public var wordsSeen: [String]
  }
}
