public import GuessworkJSON

extension BullseyeGame {
  /// The settings of a game. Every key is optional in JSON; a missing one takes its default.
  public struct Settings: GameSettings {
    /// Targets in a game, 1...10 (default 5). Ignored in free play, which has no set length.
    public var rounds: Int
    /// How a guess is scored (default `perceptual`).
    public var scoring: Scoring
    /// The seed's endless loop: check as often as you like, new colours on demand (default off).
    public var freePlay: Bool

    public static let roundsRange = 1...10

    public init(rounds: Int = 5, scoring: Scoring = .perceptual, freePlay: Bool = false) {
      self.rounds = rounds
      self.scoring = scoring
      self.freePlay = freePlay
    }

    public init() { self.init(rounds: 5) }

    public static let fields: [SettingField<Self>] = [
      .integer(
        "rounds", \.rounds, in: roundsRange),
      .choice(
        "scoring", \.scoring),
      .flag(
        "freePlay", \.freePlay),
    ]

    public init(from decoder: any Decoder) throws {
      self = try Self.decodeFields(from: decoder)
    }
  }

  /// What a player can do.
  ///
  /// JSON: `{"type":"check","guess":{"r":10,"g":20,"b":30}}`, `{"type":"next"}`, and in free
  /// play `{"type":"newColour"}` and `{"type":"finish"}`.
  @WireUnion("Bullseye action type")
  public enum Action: Sendable, Equatable {
    /// "Check my match": scores `guess` against the target. Channels outside 0...255 are
    /// refused (`out-of-range`).
    case check(guess: RGB)
    /// "Next colour": after a round is scored, draws a new target.
    case next
    /// Free play: gives up the colour in play, reveals it and draws a new one.
    case newColour
    /// Free play: ends the game.
    case finish
  }

  /// What an action caused. A target's values appear only in `scored` and `revealed`, that is
  /// once they are no longer secret. `deltaE` is rounded to one decimal, as shown.
  @WireUnion("Bullseye event type")
  public enum Event: Sendable, Equatable {
    /// A round of a normal game was scored: the target is revealed beside the guess.
    case scored(round: Int, target: RGB, guess: RGB, score: Int, deltaE: Double)
    /// Free play: a check was scored; the target stays secret.
    case checked(round: Int, guess: RGB, score: Int, deltaE: Double)
    /// A new target was drawn for `round` (its values are secret).
    case newTarget(round: Int)
    /// Free play: the colour of `round` was given up or the game finished; here it is.
    case revealed(round: Int, target: RGB)
    /// The game ended with this score (`total` of `maxTotal`).
    case gameOver(score: Int, total: Int, maxTotal: Int)
  }

  /// A colour as a page draws it: its channels and its hex code.
  public struct Swatch: Codable, Sendable, Equatable {
    public var r: Int
    public var g: Int
    public var b: Int
    /// `"#RRGGBB"`.
    public var hex: String

    public init(_ colour: RGB) {
      r = colour.r
      g = colour.g
      b = colour.b
      hex = colour.hex
    }
  }

  /// A scored guess as a player sees it: score, ΔE with its meaning, the guess and, once the
  /// round is scored, the target.
  public struct RoundResult: Codable, Sendable, Equatable {
    public var round: Int
    /// The target; absent while it is still secret (a free-play check).
    public var target: Swatch?
    public var guess: Swatch
    /// 0...100.
    public var score: Int
    /// ΔE00 between target and guess, to one decimal.
    public var deltaE: Double
    /// `deltaE` written with its one decimal ("3.0"), which JSON numbers would drop.
    public var deltaEText: String
    /// What the difference means to the eye ("visible at a glance"), judged on the shown ΔE.
    public var meaning: Message
    /// Times the colour was checked (1 outside free play).
    public var checks: Int

    public init(
      round: Int, target: RGB?, guess: RGB, score: Int, deltaE exact: Double, checks: Int
    ) {
      self.round = round
      self.target = target.map(Swatch.init)
      self.guess = Swatch(guess)
      self.score = score
      let tenths = Int((exact * 10).rounded())
      deltaE = Double(tenths) / 10
      deltaEText = "\(tenths / 10).\(tenths % 10)"
      meaning = PerceivedDifference(deltaE: deltaE).message
      self.checks = checks
    }

    /// The result of a scored round; its target is shown only when `showingTarget`.
    init(_ round: Round, showingTarget: Bool = true) {
      self.init(
        round: round.number, target: showingTarget ? round.target : nil, guess: round.guess,
        score: round.score, deltaE: round.deltaE, checks: round.checks)
    }
  }

  /// Everything a page needs to draw the screen. While a target is being guessed it carries no
  /// value of that target: the server draws its swatch from the game's `target`.
  public struct View: Codable, Sendable, Equatable, JSONTextWritable {
    public var phase: Phase
    public var isOver: Bool
    public var freePlay: Bool
    public var scoring: Scoring
    /// The current (or last) target's number, from 1.
    public var round: Int
    /// Rounds in the game; absent in free play.
    public var rounds: Int?
    /// The game's score: the total, or in free play the best check.
    public var score: Int
    /// The sum of the scored rounds.
    public var total: Int
    /// 100 × rounds (free play: 100 × colours scored).
    public var maxTotal: Int
    /// Free play: the best check so far, if any.
    public var bestScore: Int?
    /// Where the sliders start: the middle, or in free play the last check on this colour.
    public var startGuess: RGB
    /// The action types accepted now: "check", "next", "newColour", "finish".
    public var actions: [String]
    /// A line for the player.
    public var message: Message
    /// The round just scored (with target), or in free play the last check (without).
    public var result: RoundResult?
    /// Free play: the colour given up last, revealed, with its best check if it had one.
    public var revealed: Reveal?
    /// Once over: every scored round.
    public var history: [RoundResult]?

    /// A colour that was left in free play and may now be shown.
    public struct Reveal: Codable, Sendable, Equatable {
      public var round: Int
      public var target: Swatch
      /// Its best check; absent when it was never checked.
      public var best: RoundResult?
    }
  }

  /// The figures of the end screen and the statistics.
  public struct Summary: Codable, Sendable, Equatable, JSONTextWritable {
    public var freePlay: Bool
    public var scoring: Scoring
    /// Every scored round with target, guess, score and ΔE.
    public var rounds: [RoundResult]
    public var total: Int
    public var maxTotal: Int
    /// The mean round score, to one decimal (0 with no rounds).
    public var average: Double
    /// The best round's score; absent with no rounds.
    public var bestRoundScore: Int?
    /// Checks made in all (equals the rounds outside free play).
    public var checks: Int
  }
}
