/// The five games, by the identifiers the API, the command line and the browser use.
public enum GameKind: String, Codable, CaseIterable, Sendable {
  case number
  case colorMatch = "color-match"
  case bullseye
  case guessOrPass = "guess-or-pass"
  case pictureQuiz = "picture-quiz"

  /// The name a player reads.
  public var title: String {
    switch self {
    case .number: "Guess the Number"
    case .colorMatch: "Color Match"
    case .bullseye: "Bullseye"
    case .guessOrPass: "Guess or Pass"
    case .pictureQuiz: "Picture Quiz"
    }
  }
}

/// A game's settings: decodable from a partial object (missing keys take their defaults),
/// and validated before a game starts.
public protocol GameSettings: Codable, Sendable, Equatable {
  /// The defaults from the rule book.
  init()
  /// Throws the first setting that is out of its allowed range.
  func validate() throws(SettingError)
}

/// Every game has this shape: a state value that is `Codable` (so it can be stored mid-play and
/// resumed exactly), `Action`s applied by a pure transition that either accepts the action and
/// returns the `Event`s it caused or refuses it and changes nothing, and a `View` of what a
/// player may see now, which never carries a secret.
///
/// Time is an input: the transition and the view take `now`, and `tick(at:)` advances time with
/// no action so that a timed round ends when its clock runs out, even if nobody acts.
public protocol Game: Codable, Sendable, Equatable {
  associatedtype Settings: GameSettings
  associatedtype Action: Codable, Sendable, Equatable
  associatedtype Event: Codable, Sendable, Equatable
  associatedtype View: Codable, Sendable, Equatable
  associatedtype Summary: Codable, Sendable, Equatable
  /// What a game needs besides its settings and seed: nothing, a word list, a deck's items.
  associatedtype Content: Sendable = Void

  static var kind: GameKind { get }

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

  /// What the player may see at `now`. Never contains a secret.
  func view(at now: Instant) -> View

  var isOver: Bool { get }

  /// The score as it stands (the final score once `isOver`).
  var score: Int { get }

  /// The figures the end screen and the statistics need. Like the view, it holds no secret
  /// while the game goes on (the secret fields are optional and filled in once it is over).
  var summary: Summary { get }
}

extension Game {
  /// Untimed games ignore the passing of time.
  public mutating func tick(at now: Instant) -> [Event] { [] }
}

extension Game where Content == Void {
  public init(settings: Settings, seed: UInt64, at now: Instant = .zero) throws(SettingError) {
    try self.init(settings: settings, content: (), seed: seed, at: now)
  }
}

/// A setting out of its allowed range: names the setting and what is allowed.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The setting's name as it appears in the settings object ("attempts").
  public let setting: String
  /// What is allowed, in words a person can act on ("a whole number from 1 to 20").
  public let allowed: String

  public init(setting: String, allowed: String) {
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
        allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
  }

  /// A setting that must be a number in `range`, checked (NaN is never allowed).
  public static func check(_ value: Double, _ setting: String, in range: ClosedRange<Double>)
    throws(SettingError)
  {
    guard range.contains(value) else {
      throw SettingError(
        setting: setting, allowed: "a number from \(range.lowerBound) to \(range.upperBound)")
    }
  }

  public var message: String { "\(setting) must be \(allowed)" }
  public var description: String { message }
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
  /// For people: what is wrong, and when it helps, what to do instead.
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public static let gameOver = Refusal(.gameOver, "The game is over.")

  public var description: String { message }
}
