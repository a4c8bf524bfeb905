public import GuessworkJSON

extension ColorMatchGame {
  /// The settings of a round. Every key is optional in JSON; a missing one takes its default.
  public struct Settings: GameSettings {
    /// Round-clock budget in seconds, counted only while a trial waits (default 60, 30...120).
    public var duration: Int
    /// How long the ✓/✗ shows after an answer, in milliseconds (default 500, 0...2000).
    public var feedbackMs: Int
    /// Probability that a trial is a match (default 0.5, 0...1; the seed's 1/6 made "No" the
    /// answer nearly always).
    public var matchRate: Double
    /// Probability, independent of the match, that the bottom word names its own ink
    /// (default 0.5, 0...1).
    public var congruentRate: Double

    public init() {
      self.init(duration: 60)
    }

    public init(
      duration: Int = 60, feedbackMs: Int = 500, matchRate: Double = 0.5,
      congruentRate: Double = 0.5
    ) {
      self.duration = duration
      self.feedbackMs = feedbackMs
      self.matchRate = matchRate
      self.congruentRate = congruentRate
    }

    public static let fields: [SettingField<Self>] = [
      .integer(
        "duration", \.duration, in: 30...120),
      .integer(
        "feedbackMs", \.feedbackMs, in: 0...2000),
      .number(
        "matchRate", \.matchRate, in: 0...1, step: 0.05),
      .number(
        "congruentRate", \.congruentRate, in: 0...1, step: 0.05),
    ]

    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
    }
  }

  /// What a player does.
  ///
  /// JSON: `{"type":"answer","match":true,"reactionMs":612}` (`reactionMs` optional: the
  /// browser's `performance.now()` difference, fractions rounded) and `{"type":"quit"}`.
  @WireUnion("Color Match action")
  public enum Action: Sendable, Equatable {
    /// Yes (`match: true`) or No, with the reaction time the browser measured, if any.
    case answer(match: Bool, reactionMs: ReactionTime? = nil)
    /// Ends the round now; the score stands.
    case quit
  }

  /// A reaction time the browser measured, in whole milliseconds: read from any JSON number
  /// from 0 to a day (`612.4` from `performance.now()` is 612), so that a value that is no
  /// measurement is a decoding error (400) before any rule sees it; written as a whole number.
  public struct ReactionTime: Codable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    JSONTextWritable
  {
    public var ms: Int

    /// The largest reaction time a message may carry (a day); more is not a measurement.
    static let limitMs = 86_400_000.0

    public init(ms: Int) { self.ms = ms }
    public init(integerLiteral ms: Int) { self.ms = ms }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let measured = try container.decode(Double.self)
      guard measured >= 0, measured <= Self.limitMs else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "reactionMs must be a number of milliseconds from 0 to 86400000")
      }
      ms = Int(measured.rounded())
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(ms)
    }

    public func writeJSON(to text: JSONText) { text.writeJSON(integer: ms) }
  }

  /// Why a round ended.
  public enum EndReason: String, Codable, Sendable, CaseIterable {
    /// The round clock ran out.
    case timeUp
    /// The player quit.
    case quit
  }

  /// What an action or the passing of time caused.
  ///
  /// JSON: `{"type":"answered","trial":1,"correct":true,"score":100,"streak":1,"reactionMs":612}`
  /// and `{"type":"roundOver","reason":"timeUp","score":300}`.
  @WireUnion("Color Match event")
  public enum Event: Sendable, Equatable {
    /// Trial number `trial` was answered; the score and streak after it, and the reaction time
    /// kept.
    case answered(trial: Int, correct: Bool, score: Int, streak: Int, reactionMs: Int)
    /// The round ended.
    case roundOver(reason: EndReason, score: Int)
  }

  /// Where the round stands.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// 3-2-1 before the first trial; the clock does not run.
    case countdown
    /// A trial waits for Yes or No; the clock runs.
    case trial
    /// ✓ or ✗ shows after an answer; the clock does not run.
    case feedback
    /// The round has ended.
    case over
  }

  /// A card as a page draws it: the word, its ink and its background, as CSS colours.
  public struct Card: Codable, Sendable, Equatable {
    /// The colour word shown ("Red").
    public var word: Message
    /// The ink the word is printed in (`#b32f3c`).
    public var ink: String
    /// The card's background, chosen so that the ink reads at 4.5:1 or better.
    public var background: String
  }

  /// How the last answer went, for the ✓/✗.
  public struct Feedback: Codable, Sendable, Equatable {
    /// The trial's number, from 1.
    public var trial: Int
    /// What the player answered: `true` for Yes.
    public var answer: Bool
    public var correct: Bool
    /// "✓" or "✗".
    public var mark: String

    public init(trial: Int, answer: Bool, correct: Bool, mark: String) {
      self.trial = trial
      self.answer = answer
      self.correct = correct
      self.mark = mark
    }

    init(_ record: TrialRecord) {
      trial = record.index
      answer = record.answer
      correct = record.correct
      mark = record.correct ? "✓" : "✗"
    }
  }

  /// Everything a page needs to draw the screen at a moment.
  public struct View: Codable, Sendable, Equatable, JSONTextWritable {
    public var phase: Phase
    public var isOver: Bool
    /// Milliseconds left of the countdown (0 outside it).
    public var countdownRemainingMs: Int
    /// The countdown's number to show, 3, 2 or 1 (absent outside the countdown).
    public var countdownSeconds: Int?
    /// Milliseconds until the next trial appears (0 outside the feedback).
    public var feedbackRemainingMs: Int
    /// Round-clock time used, in milliseconds.
    public var elapsedMs: Int
    /// Round-clock time left, in milliseconds (never below 0).
    public var remainingMs: Int
    /// The round-clock budget, in milliseconds.
    public var durationMs: Int
    /// The time left as the clock shows it, `m:ss.t`.
    public var clock: String
    /// The trial on screen (or just answered), from 1; 0 before the first.
    public var trialNumber: Int
    /// The top card (its word's meaning is what counts), while a trial waits.
    public var top: Card?
    /// The bottom card (its ink is what counts), while a trial waits.
    public var bottom: Card?
    public var score: Int
    public var streak: Int
    public var bestStreak: Int
    /// Trials answered so far.
    public var answered: Int
    /// Of those, answered correctly.
    public var correct: Int
    /// The last answer, for the ✓/✗ (shown during `feedback`).
    public var lastAnswer: Feedback?
    /// Why the round ended, once over.
    public var endReason: EndReason?
    /// The end report, once over.
    public var report: Summary?
  }

  /// One answered trial, as the end report and the CSV list it.
  public struct TrialRecord: Codable, Sendable, Equatable {
    /// From 1.
    public var index: Int
    /// The top word's meaning.
    public var topWord: Colour
    /// The bottom word.
    public var bottomWord: Colour
    /// The bottom word's ink.
    public var bottomInk: Colour
    /// Whether the bottom word named its own ink.
    public var congruent: Bool
    /// Whether the top meaning was the bottom ink (the right answer was Yes).
    public var match: Bool
    /// What the player answered: `true` for Yes.
    public var answer: Bool
    public var correct: Bool
    /// The reaction time kept, in milliseconds.
    public var reactionMs: Int
  }

  /// The end report: what research Stroop tools report, plus the game's score.
  public struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    /// Trials answered.
    public var trials: Int
    /// Trials answered correctly.
    public var correct: Int
    /// `correct / trials`, 0...1 (0 when no trial was answered).
    public var accuracy: Double
    public var bestStreak: Int
    public var score: Int
    /// Round-clock time used, in milliseconds.
    public var elapsedMs: Int
    /// Why the round ended; absent while it runs.
    public var endReason: EndReason?
    /// Mean reaction time over congruent trials, in ms (absent when there were none).
    public var meanReactionMsCongruent: Double?
    /// Mean reaction time over incongruent trials, in ms (absent when there were none).
    public var meanReactionMsIncongruent: Double?
    /// The Stroop interference effect: incongruent mean − congruent mean, in ms (absent unless
    /// both exist).
    public var interferenceMs: Double?
    /// Every answered trial, in order.
    public var trialRecords: [TrialRecord]

    init(
      records: [TrialRecord], score: Int, bestStreak: Int, elapsedMs: Int, endReason: EndReason?
    ) {
      func mean(_ values: [Int]) -> Double? {
        values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
      }
      trials = records.count
      correct = records.count(where: { $0.correct })
      accuracy = records.isEmpty ? 0 : Double(correct) / Double(records.count)
      self.bestStreak = bestStreak
      self.score = score
      self.elapsedMs = elapsedMs
      self.endReason = endReason
      meanReactionMsCongruent = mean(records.filter(\.congruent).map(\.reactionMs))
      meanReactionMsIncongruent = mean(records.filter { !$0.congruent }.map(\.reactionMs))
      if let congruent = meanReactionMsCongruent, let incongruent = meanReactionMsIncongruent {
        interferenceMs = incongruent - congruent
      }
      trialRecords = records
    }

    /// The CSV header row.
    public static let csvHeader =
      "trial,top_word,bottom_word,bottom_ink,congruent,match,answer,correct,reaction_ms"

    /// The trials as CSV for download: a header row, then one row per trial, lines ended by
    /// CRLF as RFC 4180 says. Fields are colour identifiers (`red`), `true`/`false`, `yes`/`no`
    /// and whole milliseconds, none of which contains a comma, quote or line break, so no field
    /// is quoted.
    public func trialsCSV() -> String {
      var lines = [Self.csvHeader]
      for record in trialRecords {
        let fields: [String] = [
          String(record.index), record.topWord.rawValue, record.bottomWord.rawValue,
          record.bottomInk.rawValue, String(record.congruent), String(record.match),
          record.answer ? "yes" : "no", String(record.correct), String(record.reactionMs),
        ]
        lines.append(fields.joined(separator: ","))
      }
      return lines.map { $0 + "\r\n" }.joined()
    }
  }
}
