import GuessworkJSON

/// Guess or Pass, the Heads-Up word game (SPEC 1.4, seed 003).
///
/// One player holds the device and guesses the word on it while the others give clues. A round
/// is a 5-second countdown, then `duration` seconds (default 60) of play. Words come one at a
/// time and never repeat within a round; "guessed" counts the word, "pass" skips it, and "end"
/// ends the round early. The round also ends when its time is up (`tick(at:)` records it at the
/// exact moment; `view(at:)` already shows it) or when the words run out.
///
/// Secret: the words not dealt yet. Only the word on screen is ever in a view or an event; the
/// deck (shuffled fresh words first, then words the player has seen before) stays in the state.
public struct GuessOrPassGame: Game {
  public static let kind: GameKind = "guess-or-pass"

  /// The countdown before the first word, in milliseconds (fixed, as in the seed).
  public static let countdownMs: Int64 = 5000
  /// The closing stretch that is signalled ("the last 10 s"), in milliseconds.
  public static let lastStretchMs: Int64 = 10_000

  /// The words a round can deal. The server puts words this player has already seen in this
  /// category into `seen`, so that each round starts with words they have not met yet.
  public typealias Words = WordList

  public typealias Content = Words

  public let settings: Settings
  let createdAt: Instant
  var random: SeededRandom
  /// The whole round's words in dealing order: the secret beyond `position`.
  var deck: [String]
  /// The index in `deck` of the word on screen once play starts.
  var position: Int
  /// Every word guessed or passed, in order.
  var results: [Played]
  var ending: Ending?

  /// A word that left the screen, and how.
  struct Played: Codable, Equatable, Sendable {
    var word: String
    var result: WordResult
  }

  /// How and when a round ended.
  struct Ending: Codable, Equatable, Sendable {
    var at: Instant
    var reason: EndReason
  }

  /// Starts a round at `now`: the countdown begins. Throws `SettingError` for a setting out of
  /// range, or with setting `words` when there is no word to play.
  ///
  /// Words are trimmed; blank ones are dropped, and a word that repeats another (ignoring case)
  /// is dropped, the first one kept (a fresh word wins over a seen one). Each group is shuffled
  /// with the game's `SeededRandom`; all fresh words are dealt before any seen one.
  public init(settings: Settings, content: Words, seed: UInt64, at now: Instant)
    throws(SettingError)
  {
    try settings.validate()
    var kept = Set<String>()
    func clean(_ words: [String]) -> [String] {
      var result: [String] = []
      for word in words {
        let trimmed = Self.trimmed(word)
        guard !trimmed.isEmpty, kept.insert(trimmed.lowercased()).inserted else { continue }
        result.append(trimmed)
      }
      return result
    }
    let fresh = clean(content.fresh)
    let seen = clean(content.seen)
    guard !fresh.isEmpty || !seen.isEmpty else {
      throw SettingError(setting: "words", allowed: Message("allowed.words"))
    }
    self.settings = settings
    createdAt = now
    random = SeededRandom(seed: seed)
    deck = random.shuffled(fresh) + random.shuffled(seen)
    position = 0
    results = []
    ending = nil
  }

  static func trimmed(_ word: String) -> String {
    let characters = Array(word)
    guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
      let last = characters.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(characters[first...last])
  }

  /// When play starts (the countdown's end).
  var playStartsAt: Instant { createdAt.advanced(by: Self.countdownMs) }
  /// When the time is up.
  var timeUpAt: Instant { playStartsAt.advanced(by: durationMs) }
  var durationMs: Int64 { Int64(settings.duration) * 1000 }

  /// Where the round stands at `now`, derived without changing anything.
  enum Moment: Equatable {
    case countdown(remainingMs: Int64)
    case playing(remainingMs: Int64)
    /// Over: recorded, or the time ran out at `at` and `tick` has not recorded it yet.
    case over(at: Instant)
  }

  func moment(at now: Instant) -> Moment {
    if let ending { return .over(at: ending.at) }
    if now < playStartsAt { return .countdown(remainingMs: playStartsAt.milliseconds(since: now)) }
    if now >= timeUpAt { return .over(at: timeUpAt) }
    return .playing(remainingMs: timeUpAt.milliseconds(since: now))
  }

  /// Applies guessed, pass or end at `now`.
  ///
  /// Refuses with `game-over`, changing nothing, once the round is over — including when `now`
  /// is at or past the end of the time but `tick(at:)` has not recorded it yet; the server calls
  /// `tick(at: now)` before every `apply`, so the end is recorded and reported first. Guessed
  /// and pass during the countdown are refused with `not-ready`.
  public mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event] {
    let moment = moment(at: now)
    switch (moment, action) {
    case (.over, _):
      throw Refusal.gameOver
    case (_, .end):
      ending = Ending(at: max(now, createdAt), reason: .ended)
      return [.roundOver(reason: .ended, score: score)]
    case (.countdown, _):
      throw Refusal(.notReady, "refusal.countdown")
    case (.playing, .guessed), (.playing, .pass):
      let word = deck[position]
      let result: WordResult = action == .guessed ? .guessed : .passed
      results.append(Played(word: word, result: result))
      var events: [Event] = [
        result == .guessed ? .guessed(word: word, score: score) : .passed(word: word)
      ]
      if position + 1 < deck.count {
        position += 1
      } else {
        ending = Ending(at: now, reason: .wordsRanOut)
        events.append(.roundOver(reason: .wordsRanOut, score: score))
      }
      return events
    }
  }

  /// Ends the round at the exact moment its time ran out, if it has by `now`.
  public static var isTimed: Bool { true }

  public mutating func tick(at now: Instant) -> [Event] {
    guard ending == nil, case .over(let at) = moment(at: now) else { return [] }
    ending = Ending(at: at, reason: .timeUp)
    return [.roundOver(reason: .timeUp, score: score)]
  }

  public var isOver: Bool { ending != nil }

  /// The number of words guessed.
  public var score: Int { results.count(where: { $0.result == .guessed }) }

  /// Whether the word at `position` was ever on screen: play started before the round ended,
  /// and it was not already played (the words ran out).
  func currentWordWasDealt(endedAt: Instant?) -> Bool {
    guard results.count == position else { return false }
    guard let endedAt else { return true }
    return endedAt >= playStartsAt
  }

  /// What the player sees at `now`. Robust to a missed `tick`: when the time has run out by
  /// `now`, the view already shows the round as over.
  public func view(at now: Instant) -> View {
    let guessed = results.filter { $0.result == .guessed }.map(\.word)
    var view = View(
      phase: .playing, isOver: false, countdownRemainingMs: 0, remainingMs: Int(durationMs),
      durationMs: Int(durationMs), lastTenSeconds: false, category: settings.category,
      score: guessed.count, passedCount: results.count - guessed.count,
      wordNumber: results.count, lastResult: results.last?.result)
    switch moment(at: now) {
    case .countdown(let remaining):
      view.phase = .countdown
      view.countdownRemainingMs = Int(remaining)
      view.countdownSeconds = Int((remaining + 999) / 1000)
    case .playing(let remaining):
      view.remainingMs = Int(remaining)
      view.secondsLeft = Int((remaining + 999) / 1000)
      view.lastTenSeconds = remaining <= Self.lastStretchMs
      view.word = deck[position]
      view.wordNumber = position + 1
    case .over(let at):
      view.phase = .over
      view.isOver = true
      view.remainingMs = Int(max(0, timeUpAt.milliseconds(since: max(at, playStartsAt))))
      view.endReason = ending?.reason ?? .timeUp
      view.guessed = guessed
      view.passed = results.filter { $0.result == .passed }.map(\.word)
      if currentWordWasDealt(endedAt: at) { view.missed = deck[position] }
      view.message = Self.resultMessage(guessed.count)
    }
    return view
  }

  /// "You guessed N words!", with "1 word" in the singular.
  public static func resultMessage(_ count: Int) -> Message {
    Message("guess-or-pass.result", ["count": .int(count)])
  }

  /// The end report as it stands.
  public var summary: Summary {
    let dealt = results.map(\.word)
    let missed = currentWordWasDealt(endedAt: ending?.at) && ending != nil ? deck[position] : nil
    return Summary(
      score: score, guessed: results.filter { $0.result == .guessed }.map(\.word),
      passed: results.filter { $0.result == .passed }.map(\.word), missed: missed,
      category: settings.category, endReason: ending?.reason,
      wordsSeen: dealt + (missed.map { [$0] } ?? []))
  }
}
