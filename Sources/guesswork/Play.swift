import ArgumentParser
import Foundation
import GuessworkContent
import GuessworkCore

/// `guesswork play`: the five games in a terminal, on the same engines as the server, counted in
/// the same statistics.
struct Play: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play the games in this terminal (a menu, or one game by its identifier).",
    discussion: """
      Full-screen with colours in a terminal; plain text with NO_COLOR or when the output is not \
      a terminal. Finished games count in the statistics of a local player (named on first play \
      or with --name), kept in ./guesswork.sqlite like `guesswork serve` (see --data-dir); \
      `guesswork stats` shows them.

      Controls (Q or Esc leaves, Ctrl-C quits at once):
        number         0–9 type (the display shifts left), Backspace deletes, Enter guesses
        color-match    ← or N: No, → or Y: Yes (does the top word's meaning match the ink below?)
        bullseye       R/G/B or ↑/↓ pick a channel; ←/→ change it by 1, Shift+←/→ or PgUp/PgDn \
      by 16, or type its value; Enter checks, then Enter for the next colour
        guess-or-pass  → or Space: guessed, ←: pass, Q: end the round
        picture-quiz   1…n choose a picture, Enter continues
      After a game: Enter plays again (a new seed), M goes to the menu, Q quits.
      """,
    subcommands: [
      PlayNumber.self, PlayColorMatch.self, PlayBullseye.self, PlayGuessOrPass.self,
      PlayPictureQuiz.self,
    ])

  @OptionGroup var common: CommonPlayOptions

  func run() async throws {
    try await PlayFlow(common: common).run(nil)
  }
}

/// Options every game takes.
struct CommonPlayOptions: ParsableArguments {
  @Option(help: "Replay a game exactly: the same seed deals the same game.")
  var seed: UInt64?

  @Option(help: "The local player's name (asked on first play otherwise).")
  var name: String?

  @Option(
    help:
      "The folder of guesswork.sqlite, as for `guesswork serve` (GUESSWORK_DATA_DIR; default .)."
  )
  var dataDir: String?
}

struct PlayNumber: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "number", abstract: "Guess the Number.",
    discussion: "0–9 type (the display shifts left), Backspace deletes, Enter guesses.")
  @OptionGroup var common: CommonPlayOptions
  @Option(help: "The smallest number (0...999991; default 0).") var low: Int?
  @Option(help: "The largest number (the range holds 10 to 10,000 numbers; default 99).")
  var high: Int?
  @Option(help: "Guesses allowed (1...20; default 5).") var attempts: Int?

  func run() async throws {
    var settings = NumberGame.Settings()
    if let low { settings.low = low }
    if let high { settings.high = high }
    if let attempts { settings.attempts = attempts }
    try await PlayFlow(common: common).run(.number(settings))
  }
}

struct PlayColorMatch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "color-match", abstract: "Color Match, the Stroop game.",
    discussion: "← or N: No, → or Y: Yes. Q ends the round early.")
  @OptionGroup var common: CommonPlayOptions
  @Option(help: "Seconds of play (30...120; default 60).") var duration: Int?
  @Option(help: "Milliseconds the ✓/✗ shows (0...2000; default 500).") var feedbackMs: Int?
  @Option(help: "Probability of a match (0...1; default 0.5).") var matchRate: Double?
  @Option(help: "Probability the bottom word names its ink (0...1; default 0.5).")
  var congruentRate: Double?

  func run() async throws {
    var settings = ColorMatchGame.Settings()
    if let duration { settings.duration = duration }
    if let feedbackMs { settings.feedbackMs = feedbackMs }
    if let matchRate { settings.matchRate = matchRate }
    if let congruentRate { settings.congruentRate = congruentRate }
    try await PlayFlow(common: common).run(.colorMatch(settings))
  }
}

struct PlayBullseye: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bullseye", abstract: "Bullseye: match a colour with red, green and blue.",
    discussion: """
      R/G/B or ↑/↓ pick a channel; ←/→ change it by 1, Shift+←/→ or PgUp/PgDn by 16, or type \
      its value; Enter checks, then Enter for the next colour. Free play: N new colour, F finish.
      """)
  @OptionGroup var common: CommonPlayOptions
  @Option(help: "Targets in a game (1...10; default 5).") var rounds: Int?
  @Option(help: "perceptual (CIEDE2000, default) or classic.") var scoring: String?
  @Flag(help: "Check as often as you like; new colours on demand.") var freePlay = false

  func run() async throws {
    var settings = BullseyeGame.Settings()
    if let rounds { settings.rounds = rounds }
    if let scoring {
      guard let value = BullseyeGame.Scoring(rawValue: scoring) else {
        throw PlayFlow.invalid(
          "scoring must be one of "
            + BullseyeGame.Scoring.allCases.map(\.rawValue).joined(separator: ", "))
      }
      settings.scoring = value
    }
    settings.freePlay = freePlay
    try await PlayFlow(common: common).run(.bullseye(settings))
  }
}

struct PlayGuessOrPass: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "guess-or-pass", abstract: "Guess or Pass, the word game for a group.",
    discussion: "→ or Space: guessed, ←: pass, Q: end the round.")
  @OptionGroup var common: CommonPlayOptions
  @Option(help: "Seconds of play after the countdown (30...180; default 60).") var duration: Int?
  @Option(
    help: "animals, food, sports, technology, music or nature (asked when missing).")
  var category: String?

  func run() async throws {
    var settings = GuessOrPassGame.Settings()
    if let duration { settings.duration = duration }
    var chosen: WordCategory?
    if let category {
      guard let found = ContentLibrary.bundled.category(category) else {
        throw PlayFlow.invalid(
          "category must be one of "
            + ContentLibrary.bundled.categories.map(\.id).joined(separator: ", "))
      }
      chosen = found
    }
    try await PlayFlow(common: common).run(.guessOrPass(settings, chosen))
  }
}

struct PlayPictureQuiz: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "picture-quiz", abstract: "Picture Quiz on an emoji deck.",
    discussion: "1…n choose a picture, Enter continues.")
  @OptionGroup var common: CommonPlayOptions
  @Option(help: "Questions per game (1...50, at most the deck's size; default 8).")
  var questions: Int?
  @Option(help: "Pictures per question (2...6; default 3).") var choices: Int?
  @Option(
    help: "The deck (asked when missing): \(PlayFlow.emojiDecks.map(\.id).joined(separator: ", "))."
  )
  var deck: String?

  func run() async throws {
    var settings = PictureQuizGame.Settings()
    if let questions { settings.questions = questions }
    if let choices { settings.choices = choices }
    var chosen: Deck?
    if let deck {
      guard let found = PlayFlow.emojiDecks.first(where: { $0.id == deck }) else {
        throw PlayFlow.invalid(
          "deck must be one of " + PlayFlow.emojiDecks.map(\.id).joined(separator: ", "))
      }
      chosen = found
    }
    try await PlayFlow(common: common).run(.pictureQuiz(settings, chosen))
  }
}

/// A game to play, with its settings and, where it has one, its category or deck (nil: ask).
enum GameSetup {
  case number(NumberGame.Settings)
  case colorMatch(ColorMatchGame.Settings)
  case bullseye(BullseyeGame.Settings)
  case guessOrPass(GuessOrPassGame.Settings, WordCategory?)
  case pictureQuiz(PictureQuizGame.Settings, Deck?)

  static func defaults(_ kind: GameKind) -> GameSetup {
    switch kind {
    case .number: .number(.init())
    case .colorMatch: .colorMatch(.init())
    case .bullseye: .bullseye(.init())
    case .guessOrPass: .guessOrPass(.init(), nil)
    case .pictureQuiz: .pictureQuiz(.init(), nil)
    }
  }
}

/// The play session: checks the settings, finds the local player, then menu → game → end
/// screen until the player leaves.
struct PlayFlow {
  let common: CommonPlayOptions

  /// The decks whose pictures are emoji (a deck of photos needs a browser).
  static var emojiDecks: [Deck] {
    ContentLibrary.bundled.decks.filter { $0.playableItems.count >= 2 }
  }

  /// An invalid setting: its message on stderr and exit status 64 (EX_USAGE).
  static func invalid(_ message: String) -> any Error {
    FileHandle.standardError.write(Data("guesswork play: \(message)\n".utf8))
    return ExitCode(64)
  }

  /// Validates with the core, so the terminal says exactly what the API says.
  private func check(_ setup: GameSetup) throws {
    do {
      switch setup {
      case .number(let settings): try settings.validate()
      case .colorMatch(let settings): try settings.validate()
      case .bullseye(let settings): try settings.validate()
      case .guessOrPass(let settings, _): try settings.validate()
      case .pictureQuiz(let settings, let deck):
        try settings.validate()
        // The deck's size limits the settings too: let the engine judge.
        for candidate in deck.map({ [$0] }) ?? Self.emojiDecks {
          _ = try PictureQuizGame(
            settings: settings, content: Self.items(candidate), seed: 0, at: .zero)
        }
      }
    } catch {
      throw Self.invalid(error.message)
    }
  }

  static func items(_ deck: Deck) -> [PictureQuizGame.Item] {
    deck.playableItems.map { .init(id: $0.emoji ?? $0.name, name: $0.name) }
  }

  func run(_ setup: GameSetup?) async throws {
    if let setup { try check(setup) }
    let terminal = Terminal()
    let data = LocalData(dataDirectory: common.dataDir)
    let recorder = await Recorder.open(data: data, name: common.name) {
      askName(terminal: terminal)
    }
    if let problem = recorder.problem {
      FileHandle.standardError.write(
        Data("guesswork play: statistics are off for this session: \(problem)\n".utf8))
    }
    let runner = Runner(terminal: terminal, recorder: recorder)
    terminal.enter()
    var choice = Choice.menu
    var next = setup
    var seed = common.seed
    loop: while true {
      if next == nil {
        runner.fromMenu = true
        let kinds = GameKind.allCases
        guard
          let index = runner.pick(
            title: "Guesswork", subtitle: "Pick a game:", items: kinds.map(\.title))
        else {
          choice = .quit
          break
        }
        next = .defaults(kinds[index])
      }
      guard let current = next else { break }
      let played = await play(current, seed: seed ?? Self.randomSeed(), runner: runner)
      seed = nil
      guard let (outcome, resolved) = played else {
        // Left a picker: back to the menu, or out.
        if runner.fromMenu {
          next = nil
          continue
        }
        choice = .quit
        break
      }
      choice = outcome
      switch outcome {
      case .again: next = resolved
      case .menu: next = nil
      case .quit, .interrupted: break loop
      }
    }
    terminal.leave()
    await recorder.close()
    if choice == .interrupted { throw ExitCode(130) }
    if recorder.player != nil {
      print("Thanks for playing! `guesswork stats` shows your statistics.")
    }
  }

  static func randomSeed() -> UInt64 {
    var generator = SystemRandomNumberGenerator()
    return generator.next() >> 1
  }

  /// Plays one game; nil when the player left a category or deck picker.
  private func play(_ setup: GameSetup, seed: UInt64, runner: Runner) async -> (Choice, GameSetup)?
  {
    let now = runner.clock.now()
    do {
      switch setup {
      case .number(let settings):
        let game = try NumberGame(settings: settings, seed: seed, at: now)
        let screen = NumberScreen(session: Session(game: game, seed: seed, variant: nil, at: now))
        return (await runner.run(screen), setup)
      case .colorMatch(let settings):
        let game = try ColorMatchGame(settings: settings, seed: seed, at: now)
        let screen = ColorMatchScreen(
          session: Session(game: game, seed: seed, variant: nil, at: now))
        return (await runner.run(screen), setup)
      case .bullseye(let settings):
        let game = try BullseyeGame(settings: settings, seed: seed, at: now)
        let screen = BullseyeScreen(session: Session(game: game, seed: seed, variant: nil, at: now))
        return (await runner.run(screen), setup)
      case .guessOrPass(var settings, let chosen):
        let categories = ContentLibrary.bundled.categories
        guard
          let category = chosen
            ?? runner.pick(
              title: "Guess or Pass", subtitle: "Pick a category:", items: categories.map(\.title)
            ).map({ categories[$0] })
        else { return nil }
        settings.category = category.id
        let start = runner.clock.now()
        let game = try GuessOrPassGame(
          settings: settings, content: .init(fresh: category.words), seed: seed, at: start)
        let screen = GuessOrPassScreen(
          session: Session(game: game, seed: seed, variant: category.id, at: start),
          categoryTitle: category.title)
        return (await runner.run(screen), .guessOrPass(settings, category))
      case .pictureQuiz(let settings, let chosen):
        let decks = Self.emojiDecks
        guard
          let deck = chosen
            ?? runner.pick(
              title: "Picture Quiz", subtitle: "Pick a deck:", items: decks.map(\.title)
            ).map({ decks[$0] })
        else { return nil }
        let start = runner.clock.now()
        let game = try PictureQuizGame(
          settings: settings, content: Self.items(deck), seed: seed, at: start)
        let screen = PictureQuizScreen(
          session: Session(game: game, seed: seed, variant: deck.id, at: start), deck: deck)
        return (await runner.run(screen), .pictureQuiz(settings, deck))
      }
    } catch {
      // Settings were checked before; a deck picked in the menu may still be too small.
      runner.show { canvas in
        canvas.paragraph(error.message, .fg(.bad, bold: true))
        canvas.add("Press any key.", .dim)
      }
      while runner.terminal.readKey(timeoutMs: 250) == nil {}
      return (.menu, setup)
    }
  }

  /// Asks the local player's name on the first play (a plain line, before the full screen).
  private func askName(terminal: Terminal) -> String {
    let fallback =
      ProcessInfo.processInfo.environment["USER"].flatMap {
        $0.isEmpty ? nil : $0
      } ?? "Player"
    guard terminal.inputIsTerminal else { return fallback }
    FileHandle.standardOutput.write(
      Data("Welcome to Guesswork! Your name for the statistics [\(fallback)]: ".utf8))
    let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
    return answer.isEmpty ? fallback : answer
  }
}
