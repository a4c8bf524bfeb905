public import GuessworkJSON

/// A game's settings: decodable from a partial object (missing keys take their defaults),
/// and validated before a game starts.
public protocol GameSettings: Codable, Sendable, Equatable {
  /// The defaults from the rule book.
  init()
  /// The settings a player can choose, as data (names, ranges, defaults, sentences).
  static var fields: [SettingField<Self>] { get }
  /// Throws the first setting that is out of its allowed range.
  func validate() throws(SettingError)
}

extension GameSettings {
  /// Each field in its range.
  public func validate() throws(SettingError) { try validateFields() }
}

/// Every game has this shape: a state value that is `Codable` (so it can be stored mid-play and
/// resumed exactly), `Action`s applied by a pure transition that either accepts the action and
/// returns the `Event`s it caused or refuses it and changes nothing, and a `View` of what a
/// player may see now, which never carries a secret.
///
/// Time is an input: the transition and the view take `now`, and `tick(at:)` advances time with
/// no action so that a timed round ends when its clock runs out, even if nobody acts.
public protocol Game: Codable, Sendable, Equatable, JSONTextWritable {
  associatedtype Settings: GameSettings
  associatedtype Action: Codable, Sendable, Equatable, JSONTextWritable
  associatedtype Event: Codable, Sendable, Equatable, JSONTextWritable
  associatedtype View: Codable, Sendable, Equatable, JSONTextWritable
  associatedtype Summary: Codable, Sendable, Equatable, JSONTextWritable
  /// What a game needs besides its settings and seed: nothing, a word list, a deck's items.
  associatedtype Content: Sendable = Void
  /// What the statistics keep of a player's finished games: added to one game at a time, so
  /// that statistics never need a player's whole history again.
  associatedtype Tally: GameTally = NoTally

  /// The identifier the API, the command line and the browser use.
  static var kind: GameKind { get }
  /// A picture for menus.
  static var emoji: String { get }
  /// What the game needs besides its settings: nothing, words or a deck.
  static var contentNeed: ContentNeed { get }
  /// The game's content from what was found for it; nil when it is not what the game needs.
  static func content(from supplied: SuppliedContent) -> Content?
  /// Settings adjusted to the content (a quiz asks no more questions than its deck has).
  static func fit(_ settings: Settings, to supplied: SuppliedContent) -> Settings
  /// Adds a finished game (games are added oldest first) to a tally.
  static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>)
  /// The figures the statistics show, from the tally of the game's finished games. Called
  /// with an empty tally, it lists every figure with no value yet (the labels a client needs).
  static func figures(_ tally: Tally) -> [Figure]

  /// The settings of the daily puzzle, the same for everyone.
  static var dailySettings: Settings { get }
  /// How a finished game went, in a line or two of emoji and numbers that tell no answer (no
  /// secret number, word, colour value or picture name): what a daily result shares.
  static func shareLine(_ summary: Summary, score: Int) -> Message
  /// A daily score as results, shares and leaderboards show it ("4/7" for Number's attempts
  /// used); by default the score itself.
  static func dailyResult(score: Int) -> String

  /// Starts a game. Throws when a setting is invalid or the content cannot make a game.
  init(settings: Settings, content: Content, seed: UInt64, at now: Instant) throws(SettingError)

  var settings: Settings { get }

  /// Applies `action` at `now`, or refuses it with the reason and leaves the game unchanged.
  ///
  /// A refusal changes nothing, not even the time: an action arriving after a timed round ran
  /// out is refused without recording the end. So callers `tick(at: now)` first (and store
  /// what it changed), then apply.
  mutating func apply(_ action: Action, at now: Instant) throws(Refusal) -> [Event]

  /// Lets time pass with no action; returns what that caused (a round ending, say).
  /// Ticking to `a` and then to `b` leaves the same game as ticking to `b` at once.
  mutating func tick(at now: Instant) -> [Event]
  /// Whether time alone can end a game (a round on a clock), so that a server finishes it
  /// when its time runs out, whether or not anyone is looking.
  static var isTimed: Bool { get }

  /// What the player may see at `now`. Never contains a secret.
  func view(at now: Instant) -> View

  var isOver: Bool { get }

  /// The score as it stands (the final score once `isOver`).
  var score: Int { get }

  /// The figures the end screen and the statistics need. Like the view, it holds no secret
  /// while the game goes on (the secret fields are optional and filled in once it is over).
  var summary: Summary { get }

  /// What a finished game hands back (the words a round has shown).
  var handback: Handback { get }

  /// A colour the player must see but whose value never travels in a view (Bullseye's target
  /// while it is being guessed), as `#rrggbb`; served as a picture.
  var swatch: String? { get }
}

extension Game {
  /// Untimed games ignore the passing of time.
  public mutating func tick(at now: Instant) -> [Event] { [] }
  public static var isTimed: Bool { false }

  public static func fit(_ settings: Settings, to supplied: SuppliedContent) -> Settings {
    settings
  }
  public var handback: Handback { Handback() }
  public var swatch: String? { nil }
  public static var dailySettings: Settings { Settings() }
  public static func dailyResult(score: Int) -> String { "\(score)" }
  public static func shareLine(_ summary: Summary, score: Int) -> Message {
    Message("share.score", ["score": .int(score)])
  }

  /// The figures of `finished` (oldest first), tallied.
  public static func figures(_ finished: [FinishedRecord<Summary>]) -> [Figure] {
    var tally = Tally()
    for game in finished { Self.tally(&tally, adding: game) }
    return figures(tally)
  }

  /// The name a player reads ("Guess the Number"): the catalog key `<kind>.title`.
  public static var title: Message { Message("\(kind.rawValue).title") }
  /// One line that says what the game is: the catalog key `<kind>.blurb`.
  public static var blurb: Message { Message("\(kind.rawValue).blurb") }
  /// The settings as data, for clients (their texts are catalog keys).
  public static var settingInfos: [SettingInfo] { Settings.infos(keyPrefix: kind.rawValue) }
  /// The figures as data, for clients (their labels are catalog keys).
  public static var figureInfos: [FigureInfo] {
    figures(Tally()).map { $0.info(keyPrefix: kind.rawValue) }
  }

  /// The step after a tick (which callers make first, to store a timeout before deciding
  /// anything else): refuses if the game is over, then applies `action`; returns what the
  /// tick (`events`) and the action caused.
  public mutating func apply(_ action: Action, afterTick events: [Event], at now: Instant)
    throws(StepError) -> [Event]
  {
    if isOver { throw .gameOver }
    do {
      return try events + apply(action, at: now)
    } catch {
      throw .refused(error)
    }
  }
}

/// What a game's statistics keep between finished games; starts empty.
public protocol GameTally: Codable, Sendable, Equatable {
  init()
}

/// The tally of a game whose statistics show no figures of their own.
public struct NoTally: GameTally {
  public init() {}
}

extension Game where Tally == NoTally {
  public static func tally(_ tally: inout Tally, adding game: FinishedRecord<Summary>) {}
  public static func figures(_ tally: Tally) -> [Figure] { [] }
}

/// Why a step did not apply its action.
public enum StepError: Error, Equatable, Sendable {
  /// The game was over (perhaps ended by the tick of this very step).
  case gameOver
  /// The rules refused the action.
  case refused(Refusal)
}

extension Game where Content == Void {
  public static var contentNeed: ContentNeed { .none }
  public static func content(from supplied: SuppliedContent) -> Void? { () }

  public init(settings: Settings, seed: UInt64, at now: Instant = .zero) throws(SettingError) {
    try self.init(settings: settings, content: (), seed: seed, at: now)
  }
}

/// A setting out of its allowed range: names the setting and what is allowed.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The setting's name as it appears in the settings object ("attempts").
  public let setting: String
  /// What is allowed, said so a person can act on it ("a whole number from 1 to 20").
  public let allowed: Message

  public init(setting: String, allowed: Message) {
    self.setting = setting
    self.allowed = allowed
  }

  /// A setting that must be a whole number in `range`, checked.
  public static func check(_ value: Int, _ setting: String, in range: ClosedRange<Int>)
    throws(SettingError)
  {
    guard range.contains(value) else {
      throw SettingError(
        setting: setting,
        allowed: Message(
          "allowed.integer", ["low": .int(range.lowerBound), "high": .int(range.upperBound)]))
    }
  }

  /// A setting that must be a number in `range`, checked (NaN is never allowed).
  public static func check(_ value: Double, _ setting: String, in range: ClosedRange<Double>)
    throws(SettingError)
  {
    guard range.contains(value) else {
      throw SettingError(
        setting: setting,
        allowed: Message(
          "allowed.number",
          ["low": .decimal(range.lowerBound), "high": .decimal(range.upperBound)]))
    }
  }

  /// "<setting> must be <allowed>."
  public var message: Message {
    var args = allowed.args
    args["setting"] = .text(setting)
    return Message("setting.invalid.\(allowed.key)", args)
  }

  public var description: String { "\(setting) must be \(allowed)" }
}

/// An action the game refused, with a reason a player can read. The game is unchanged.
public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why, for programs.
  public enum Code: String, Codable, Sendable {
    /// The game has ended.
    case gameOver = "game-over"
    /// The action comes too early: during a countdown, or before what it answers exists.
    case notReady = "not-ready"
    /// A value outside what the game allows.
    case outOfRange = "out-of-range"
    /// A guess the hints have already ruled out.
    case alreadyExcluded = "already-excluded"
    /// The same guess again.
    case repeated = "repeated"
    /// The action does not fit the game's current phase.
    case wrongPhase = "wrong-phase"
  }

  public let code: Code
  /// For people, in sentences: what is wrong, and when it helps, what to do instead.
  public let reason: [Message]

  public init(_ code: Code, _ reason: Message...) {
    self.code = code
    self.reason = reason
  }

  /// A refusal said in one sentence: `key` with `args`.
  public init(_ code: Code, _ key: String, _ args: Message.Arguments = [:]) {
    self.init(code, Message(key, args))
  }

  public static let gameOver = Refusal(.gameOver, "refusal.gameOver")

  public var description: String { reason.map(\.description).joined(separator: " ") }
}
