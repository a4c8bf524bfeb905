import GuessworkJSON

/// Color Match, the Stroop game (SPEC 1.2, seed 001).
///
/// Each trial shows two cards: the top card a colour word (only its meaning counts), the bottom
/// card a colour word printed in an ink. The player answers whether the top word's meaning is the
/// bottom word's INK: Yes exactly when they are the same colour, whatever the bottom word says.
///
/// The round is timed: after a 3-2-1 countdown, the round clock (`duration`, default 60 s) runs
/// only while a trial waits for an answer, not during the countdown nor during the ✓/✗ feedback
/// that follows each answer (`feedbackMs`). The next trial appears by itself when the feedback
/// ends: everything on the timeline is derived from `now`, so no action is needed to move on,
/// and the round ends at the exact moment its budget runs out (`tick(at:)` records it; `view(at:)`
/// already shows it).
///
/// Scoring: +100 for a correct answer, −100 for a wrong one, from 0 (the seed started at 500,
/// which only hid how many answers were wrong; 0 makes the score read as "net correct × 100").
/// The score may go below zero.
///
/// Secret: the right answer of the waiting trial. The view carries only the words and inks a
/// player sees, never whether the trial is a match; the next trial (already drawn when an
/// answer is accepted) stays hidden until it appears.
public struct ColorMatchGame: Game {
  public static let kind: GameKind = "color-match"

  /// The 3-2-1 countdown before the first trial, in milliseconds.
  public static let countdownMs: Int64 = 3000
  /// Points for a correct answer (and taken for a wrong one).
  public static let pointsPerAnswer = 100
  /// The fastest reaction time kept, in milliseconds: a visual choice reaction below about
  /// 100 ms is not humanly possible, so a faster claim is an anticipation or a lie.
  public static let reactionFloorMs = 100

  public let settings: Settings
  /// When the game was created: the countdown starts here.
  let createdAt: Instant
  var random: SeededRandom
  /// The trial that waits for an answer, or that will appear at `shownAt`.
  var current: Trial
  /// When `current` appears (the end of the countdown or of the feedback).
  var shownAt: Instant
  /// Round-clock time spent on trials already answered, in milliseconds.
  var usedMs: Int64
  var records: [TrialRecord]
  /// The score as it stands: +100 per correct answer, −100 per wrong one, from 0.
  public private(set) var score: Int
  var streak: Int
  var bestStreak: Int
  var ending: Ending?
  /// In a room the run's clock is the wall clock, the same for every phone: it starts when the
  /// countdown ends and runs through each answer's feedback, so that every run ends at one
  /// moment (nil: the solo clock, which runs only while a trial waits).
  var wallClock: Bool?

  /// How and when a round ended.
  struct Ending: Codable, Equatable, Sendable {
    var at: Instant
    var reason: EndReason
  }

  /// One trial's cards. `top` is the meaning of the top word; `word` and `ink` are the bottom
  /// word and the ink it is printed in.
  struct Trial: Codable, Equatable, Sendable {
    var top: Colour
    var word: Colour
    var ink: Colour
    /// The right answer: does the top word's meaning equal the bottom word's ink?
    var isMatch: Bool { top == ink }
    var isCongruent: Bool { word == ink }
  }

  public init(settings: Settings, content: Void, seed: UInt64, at now: Instant)
    throws(SettingError)
  {
    try settings.validate()
    self.settings = settings
    createdAt = now
    random = SeededRandom(seed: seed)
    current = Self.drawTrial(using: &random, settings: settings)
    shownAt = now.advanced(by: Self.countdownMs)
    usedMs = 0
    records = []
    score = 0
    streak = 0
    bestStreak = 0
    ending = nil
  }

  /// Draws a trial: the top meaning uniformly; the ink equal to it with probability
  /// `matchRate` (else one of the five others, uniformly); independently the bottom word equal
  /// to the ink with probability `congruentRate` (else one of the five others, uniformly — which
  /// may be the top meaning: the trial that exposed the seed's bug).
  static func drawTrial(using random: inout SeededRandom, settings: Settings) -> Trial {
    let colours = Colour.allCases
    let top = colours[random.index(below: colours.count)]
    let ink =
      random.chance(settings.matchRate) ? top : other(than: top, using: &random)
    let word =
      random.chance(settings.congruentRate) ? ink : other(than: ink, using: &random)
    return Trial(top: top, word: word, ink: ink)
  }

  private static func other(than colour: Colour, using random: inout SeededRandom) -> Colour {
    let others = Colour.allCases.filter { $0 != colour }
    return others[random.index(below: others.count)]
  }

  var durationMs: Int64 { Int64(settings.duration) * 1000 }

  /// Runs the clock on the wall from now on (see `wallClock`); a room's rounds call it as the
  /// game is dealt.
  mutating func runOnWallClock() { wallClock = true }

  /// When a wall-clock run's time is up: its countdown, then its whole duration.
  var wallClockEnd: Instant? {
    wallClock == true ? createdAt.advanced(by: Self.countdownMs + durationMs) : nil
  }

  /// Round-clock time spent by `now` on the wall clock.
  private func wallSpentMs(at now: Instant) -> Int64 {
    max(0, now.milliseconds(since: createdAt.advanced(by: Self.countdownMs)))
  }

  /// Where the timeline stands at `now`, derived without changing anything.
  enum Moment: Equatable {
    case countdown(remainingMs: Int64)
    case feedback(remainingMs: Int64)
    /// A trial waits; `spentMs` is the round-clock time used so far, including this trial's.
    case waiting(spentMs: Int64)
    /// Over: recorded, or the budget ran out at `at` and `tick` has not recorded it yet.
    case over(at: Instant)
  }

  func moment(at now: Instant) -> Moment {
    if let ending { return .over(at: ending.at) }
    if let end = wallClockEnd {
      if now >= end { return .over(at: end) }
      if now >= shownAt { return .waiting(spentMs: wallSpentMs(at: now)) }
    }
    if now < shownAt {
      let remaining = shownAt.milliseconds(since: now)
      return records.isEmpty
        ? .countdown(remainingMs: remaining) : .feedback(remainingMs: remaining)
    }
    let spent = usedMs + now.milliseconds(since: shownAt)
    if spent >= durationMs { return .over(at: shownAt.advanced(by: durationMs - usedMs)) }
    return .waiting(spentMs: spent)
  }

  /// Applies an answer or a quit at `now`.
  ///
  /// Refuses with `game-over`, changing nothing, once the round is over — including when `now`
  /// is past the moment the round clock ran out but `tick(at:)` has not recorded it yet; the
  /// server calls `tick(at: now)` before every `apply`, so the round's end is recorded and
  /// reported first. An answer during the countdown or the feedback is refused with `not-ready`.
  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    let moment = moment(at: now)
    if case .over = moment { throw Refusal.gameOver }
    switch action {
    case .quit:
      if case .waiting(let spent) = moment { usedMs = spent }
      ending = Ending(at: max(now, createdAt), reason: .quit)
      return [.roundOver(reason: .quit, score: score)]
    case .answer(let match, let claimed):
      let claimedMs = claimed?.ms
      switch moment {
      case .countdown:
        throw Refusal(.notReady, "refusal.countdown")
      case .feedback:
        throw Refusal(.notReady, "color-match.refusal.feedback")
      case .over:
        throw Refusal.gameOver
      case .waiting(let spent):
        if let claimedMs, claimedMs < 0 {
          throw Refusal(.outOfRange, "color-match.refusal.negativeTime")
        }
        let observed = Int(now.milliseconds(since: shownAt))
        let reactionMs = Self.keptReactionMs(claimed: claimedMs, observed: observed)
        let correct = match == current.isMatch
        score += correct ? Self.pointsPerAnswer : -Self.pointsPerAnswer
        streak = correct ? streak + 1 : 0
        bestStreak = max(bestStreak, streak)
        records.append(
          TrialRecord(
            index: records.count + 1, topWord: current.top, bottomWord: current.word,
            bottomInk: current.ink, congruent: current.isCongruent, match: current.isMatch,
            answer: match, correct: correct, reactionMs: reactionMs))
        usedMs = spent
        current = Self.drawTrial(using: &random, settings: settings)
        shownAt = now.advanced(by: Int64(settings.feedbackMs))
        return [
          .answered(
            trial: records.count, correct: correct, score: score, streak: streak,
            reactionMs: reactionMs)
        ]
      }
    }
  }

  /// The reaction time kept for an answer: what the browser measured, clamped to what the
  /// server saw. It is never more than the time the server saw pass since the trial appeared
  /// (network delay only adds to that), and never less than `reactionFloorMs`; without a
  /// measurement, the server's own. When the server saw less than the floor, the floor wins.
  static func keptReactionMs(claimed: Int?, observed: Int) -> Int {
    let ceiling = max(observed, reactionFloorMs)
    return min(max(claimed ?? observed, reactionFloorMs), ceiling)
  }

  /// Ends the round at the exact moment its clock ran out, if it has by `now`.
  public static var isTimed: Bool { true }

  public mutating func tick(at now: Instant) -> [Event] {
    guard ending == nil, case .over(let at) = moment(at: now) else { return [] }
    usedMs = durationMs
    ending = Ending(at: at, reason: .timeUp)
    return [.roundOver(reason: .timeUp, score: score)]
  }

  /// Over once the time ran out (as recorded by `tick`) or the player quit.
  public var isOver: Bool { ending != nil }

  /// What the player sees at `now`. Robust to a missed `tick`: when the clock has run out by
  /// `now`, the view already shows the game as over, with the clock at zero.
  public func view(at now: Instant) -> View {
    let moment = moment(at: now)
    var view = View(
      phase: .trial, isOver: false, countdownRemainingMs: 0, feedbackRemainingMs: 0,
      elapsedMs: 0, remainingMs: 0, durationMs: Int(durationMs), clock: "",
      trialNumber: records.count, score: score, streak: streak, bestStreak: bestStreak,
      answered: records.count, correct: records.count(where: { $0.correct }),
      lastAnswer: records.last.map(Feedback.init))
    var spent = usedMs
    switch moment {
    case .countdown(let remaining):
      view.phase = .countdown
      view.countdownRemainingMs = Int(remaining)
      view.countdownSeconds = Int((remaining + 999) / 1000)
    case .feedback(let remaining):
      view.phase = .feedback
      view.feedbackRemainingMs = Int(remaining)
      if wallClock == true { spent = wallSpentMs(at: now) }
    case .waiting(let spentMs):
      spent = spentMs
      view.phase = .trial
      view.trialNumber = records.count + 1
      view.top = Card(word: current.top.word, ink: Self.neutralInk.hex, background: Self.paper.hex)
      view.bottom = Card(
        word: current.word.word, ink: current.ink.hex, background: current.ink.cardBackground.hex)
    case .over:
      view.phase = .over
      view.isOver = true
      spent = ending?.reason == .quit ? usedMs : durationMs
      view.endReason = ending?.reason ?? .timeUp
      var report = summary
      report.elapsedMs = Int(spent)
      report.endReason = view.endReason
      view.report = report
    }
    view.elapsedMs = Int(spent)
    view.remainingMs = Int(max(0, durationMs - spent))
    // Rounded up to the tenth, so the clock reads 0:00.0 only when the time is really up.
    view.clock = Self.formatClock((view.remainingMs + 99) / 100 * 100)
    return view
  }

  /// `ms` as the game clock shows it, `m:ss.t` (minutes, seconds, tenths; truncated to the
  /// tenth; negative values show as `0:00.0`).
  public static func formatClock(_ ms: Int) -> String {
    let tenths = max(0, ms) / 100
    let seconds = tenths / 10 % 60
    return "\(tenths / 600):\(seconds < 10 ? "0" : "")\(seconds).\(tenths % 10)"
  }

  /// The end report as it stands.
  public var summary: Summary {
    Summary(
      records: records, score: score, bestStreak: bestStreak, elapsedMs: Int(usedMs),
      endReason: ending?.reason)
  }

  /// The trials as CSV (see `Summary.trialsCSV()`).
  public func trialsCSV() -> String { summary.trialsCSV() }
}
