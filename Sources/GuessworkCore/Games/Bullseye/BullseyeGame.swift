import GuessworkJSON

/// Bullseye (SPEC 1.3, seed 002): match a target colour by mixing red, green and blue with three
/// sliders; each checked guess scores 0...100.
///
/// A game is `rounds` targets. In each round the player checks one guess; the round is then
/// scored and shows target and guess side by side, and `next` draws a new target (the seed never
/// changed its target). After the last round the game is over, with a total out of
/// 100 × rounds.
///
/// Free play keeps the seed's loop instead: `check` as often as you like (each check shows the
/// score and the difference but never the target's values), `newColour` gives up the colour,
/// reveals it and draws another, and `finish` ends the game. In free play a colour counts as a
/// round once it has been checked at least once, with its best check; the game's score is the
/// best check of the whole game.
///
/// The target's values are the secret: the player sees the target only as a swatch, which the
/// server draws from `target`. They appear in views and events only once their round is scored
/// (free play: once the colour is given up or the game finished).
public struct BullseyeGame: Game {
  public static let kind: GameKind = "bullseye"

  public let settings: Settings

  /// The colour to match now (after the game is over, the last one).
  ///
  /// Server-side only: never put it in a view or send it to a player before its round is
  /// scored. It exists so that the server can render the target swatch as an image.
  public private(set) var target: RGB

  /// Where the game stands.
  public private(set) var phase: Phase

  /// The number of the current target, from 1 (in free play, the colours drawn so far).
  public private(set) var round: Int

  /// The rounds scored so far, in order. In free play, the colours left after at least one
  /// check, each with its best check.
  public private(set) var rounds: [Round]

  /// Free play: the checks made on the current colour, if any.
  private var current: CurrentColour?

  /// Free play: the colour given up last (or the last colour, once finished), now revealed.
  private var revealed: Revealed?

  /// Draws every target; stored so that an encoded game resumes exactly.
  private var random: SeededRandom

  public init(settings: Settings, content: Void, seed: UInt64, at now: Instant) throws(SettingError)
  {
    try settings.validate()
    self.settings = settings
    var random = SeededRandom(seed: seed)
    target = Self.drawTarget(using: &random)
    self.random = random
    phase = .guessing
    round = 1
    rounds = []
  }

  // MARK: - Types

  /// The phase of a game.
  public enum Phase: String, Codable, Sendable, CaseIterable {
    /// A target waits for a guess (in free play, for as many guesses as the player likes).
    case guessing
    /// The round's guess is scored; `next` draws the next target. Not used in free play.
    case scored
    /// The game has ended.
    case over
  }

  /// A round that has been scored: its target, the guess that counted and its score.
  public struct Round: Codable, Sendable, Equatable {
    /// The round's number, from 1.
    public var number: Int
    public var target: RGB
    /// The guess that was scored (in free play, the best of the colour's checks).
    public var guess: RGB
    /// 0...100.
    public var score: Int
    /// How many times the player checked this colour (always 1 outside free play).
    public var checks: Int

    public init(number: Int, target: RGB, guess: RGB, score: Int, checks: Int) {
      self.number = number
      self.target = target
      self.guess = guess
      self.score = score
      self.checks = checks
    }

    /// The CIEDE2000 difference between target and guess.
    public var deltaE: Double { target.deltaE2000(to: guess) }
  }

  /// Free play: the checks on the colour in play.
  struct CurrentColour: Codable, Sendable, Equatable {
    var checks: Int
    var lastGuess: RGB
    var lastScore: Int
    /// The best check so far (the first of equals).
    var bestGuess: RGB
    var bestScore: Int
  }

  /// Free play: a colour that has been left, now public.
  struct Revealed: Codable, Sendable, Equatable {
    var number: Int
    var target: RGB
    /// Its round, when it was checked at least once.
    var best: Round?
  }

  // MARK: - Rules

  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    guard phase != .over else { throw Refusal.gameOver }
    switch action {
    case .check(let guess):
      guard phase == .guessing else {
        throw Refusal(.wrongPhase, "bullseye.refusal.scored")
      }
      try Self.checkChannels(of: guess)
      return settings.freePlay ? checkInFreePlay(guess) : scoreRound(guess)

    case .next:
      guard !settings.freePlay else {
        throw Refusal(.wrongPhase, "bullseye.refusal.noRounds")
      }
      guard phase == .scored else {
        throw Refusal(.wrongPhase, "bullseye.refusal.notScored")
      }
      round += 1
      target = Self.drawTarget(using: &random)
      phase = .guessing
      return [.newTarget(round: round)]

    case .newColour:
      guard settings.freePlay else {
        throw Refusal(.wrongPhase, "bullseye.refusal.newColour")
      }
      var events = leaveColour()
      round += 1
      target = Self.drawTarget(using: &random)
      current = nil
      events.append(.newTarget(round: round))
      return events

    case .finish:
      guard settings.freePlay else {
        throw Refusal(.wrongPhase, "bullseye.refusal.finish")
      }
      var events = leaveColour()
      current = nil
      phase = .over
      events.append(.gameOver(score: score, total: total, maxTotal: maxTotal))
      return events
    }
  }

  /// Refuses a guess with a channel outside 0...255, naming the first such channel.
  private static func checkChannels(of guess: RGB) throws(Refusal) {
    for (name, value) in [("red", guess.r), ("green", guess.g), ("blue", guess.b)]
    where !RGB.channelRange.contains(value) {
      throw Refusal(
        .outOfRange, "bullseye.refusal.channel", ["channel": .text(name), "value": .int(value)])
    }
  }

  /// A game of rounds: scores this round once and reveals it; after the last round, ends.
  private mutating func scoreRound(_ guess: RGB) -> [Event] {
    let scored = Round(
      number: round, target: target, guess: guess,
      score: settings.scoring.score(target: target, guess: guess), checks: 1)
    rounds.append(scored)
    var events: [Event] = [
      .scored(
        round: round, target: target, guess: guess, score: scored.score,
        deltaE: Self.displayed(scored.deltaE))
    ]
    if rounds.count >= settings.rounds {
      phase = .over
      events.append(.gameOver(score: score, total: total, maxTotal: maxTotal))
    } else {
      phase = .scored
    }
    return events
  }

  /// Free play: scores a check without revealing the target; the colour stays in play.
  private mutating func checkInFreePlay(_ guess: RGB) -> [Event] {
    let points = settings.scoring.score(target: target, guess: guess)
    if var colour = current {
      colour.checks += 1
      colour.lastGuess = guess
      colour.lastScore = points
      if points > colour.bestScore {
        colour.bestGuess = guess
        colour.bestScore = points
      }
      current = colour
    } else {
      current = CurrentColour(
        checks: 1, lastGuess: guess, lastScore: points, bestGuess: guess, bestScore: points)
    }
    return [
      .checked(
        round: round, guess: guess, score: points,
        deltaE: Self.displayed(target.deltaE2000(to: guess)))
    ]
  }

  /// Free play: records the colour in play (if it was checked) and reveals it.
  private mutating func leaveColour() -> [Event] {
    var best: Round?
    if let colour = current {
      let left = Round(
        number: round, target: target, guess: colour.bestGuess, score: colour.bestScore,
        checks: colour.checks)
      rounds.append(left)
      best = left
    }
    revealed = Revealed(number: round, target: target, best: best)
    return [.revealed(round: round, target: target)]
  }

  private static func drawTarget(using random: inout SeededRandom) -> RGB {
    let r = random.int(in: RGB.channelRange)
    let g = random.int(in: RGB.channelRange)
    let b = random.int(in: RGB.channelRange)
    return RGB(r: r, g: g, b: b)
  }

  /// ΔE as players see it: to one decimal. Its meaning is taken from this shown value, so that
  /// the number and the words never disagree ("1.0" is "not perceptible").
  static func displayed(_ deltaE: Double) -> Double {
    (deltaE * 10).rounded() / 10
  }

  // MARK: - Score

  public var isOver: Bool { phase == .over }

  /// The sum of the rounds' scores.
  public var total: Int { rounds.reduce(0) { $0 + $1.score } }

  /// What `total` could have been: 100 × rounds (in free play, 100 × the colours scored).
  public var maxTotal: Int { 100 * (settings.freePlay ? rounds.count : settings.rounds) }

  /// Free play: the best check of the game so far, including the colour in play.
  public var bestCheck: Int? {
    let best = ([current?.bestScore] + rounds.map(\.score)).compactMap { $0 }.max()
    return best
  }

  /// A game of rounds scores its total (out of 100 × rounds); free play scores its best check.
  public var score: Int {
    settings.freePlay ? (bestCheck ?? 0) : total
  }

  public var summary: Summary {
    let results = rounds.map { RoundResult($0, showingTarget: true) }
    let average = rounds.isEmpty ? 0 : Double(total) / Double(rounds.count)
    return Summary(
      freePlay: settings.freePlay, scoring: settings.scoring, rounds: results, total: total,
      maxTotal: maxTotal, average: (average * 10).rounded() / 10,
      bestRoundScore: rounds.map(\.score).max(), checks: rounds.reduce(0) { $0 + $1.checks })
  }

  // MARK: - View

  public func view(at now: Instant) -> View {
    View(
      phase: phase, isOver: isOver, freePlay: settings.freePlay, scoring: settings.scoring,
      round: round, rounds: settings.freePlay ? nil : settings.rounds, score: score, total: total,
      maxTotal: maxTotal, bestScore: settings.freePlay ? bestCheck : nil,
      startGuess: startGuess, actions: actions, message: message, result: result,
      revealed: revealed.map {
        View.Reveal(
          round: $0.number, target: Swatch($0.target),
          best: $0.best.map { RoundResult($0, showingTarget: true) })
      },
      history: isOver ? rounds.map { RoundResult($0, showingTarget: true) } : nil)
  }

  /// Where the sliders start: the middle, or in free play the colour's last check.
  private var startGuess: RGB {
    current?.lastGuess ?? .middle
  }

  /// The action types the player can send now.
  private var actions: [String] {
    switch (phase, settings.freePlay) {
    case (.over, _): []
    case (_, true): ["check", "newColour", "finish"]
    case (.guessing, false): ["check"]
    case (.scored, false): ["next"]
    }
  }

  /// The result to show: the round just scored (with its target), or in free play the last
  /// check on the colour in play (without it).
  private var result: RoundResult? {
    if settings.freePlay {
      guard let colour = current else { return nil }
      return RoundResult(
        round: round, target: nil, guess: colour.lastGuess, score: colour.lastScore,
        deltaE: target.deltaE2000(to: colour.lastGuess), checks: colour.checks)
    }
    guard phase != .guessing, let last = rounds.last else { return nil }
    return RoundResult(last, showingTarget: true)
  }

  private var message: Message {
    if settings.freePlay {
      if isOver {
        guard let best = bestCheck else { return Message("bullseye.freePlay.over") }
        return Message("bullseye.freePlay.best", ["score": .int(best)])
      }
      guard let result else { return Message("bullseye.freePlay.start") }
      return Message(
        "bullseye.freePlay.checked",
        ["score": .int(result.score), "deltaE": .decimal(result.deltaE)])
    }
    switch phase {
    case .guessing:
      return Message("bullseye.round", ["round": .int(round), "rounds": .int(settings.rounds)])
    case .scored:
      guard let result else {
        return Message("bullseye.round", ["round": .int(round), "rounds": .int(settings.rounds)])
      }
      return Message(
        "bullseye.scored", ["score": .int(result.score), "deltaE": .decimal(result.deltaE)])
    case .over:
      return Message("bullseye.over", ["total": .int(total), "max": .int(maxTotal)])
    }
  }
}
