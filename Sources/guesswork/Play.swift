import ArgumentParser
import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore

/// The terminal's screens, one per game: adding a game to the terminal is a line here.
var terminalScreens: [any GameScreen.Type] {
  [
    NumberScreen.self, ColorMatchScreen.self, BullseyeScreen.self, GuessOrPassScreen.self,
    PictureQuizScreen.self,
  ]
}

extension GameScreen {
  static var kind: GameKind { G.kind }
}

/// The terminal's screen for a game, if it has one.
func terminalScreen(for kind: GameKind) -> (any GameScreen.Type)? {
  for screen in terminalScreens where screen.kind == kind { return screen }
  return nil
}

/// `guesswork play`: any game of the list in a terminal, on the same engines and the same step
/// as the server, counted in the same statistics.
struct Play: AsyncParsableCommand {
  static let engines = GameEngines()

  static let configuration = CommandConfiguration(
    abstract: "Play the games in this terminal (a menu, or one game by its identifier).",
    discussion: """
      Full-screen with colours in a terminal; plain text with NO_COLOR or when the output is not \
      a terminal. Finished games count in the statistics of a local player (named on first play \
      or with --name), kept in ./guesswork.sqlite like `guesswork serve` (see --data-dir); \
      `guesswork stats` shows them.

      Settings: --set name=value (repeat it), or --name value (a flag alone means true); the \
      same names, ranges and messages as the API.
      \(settingsHelp)

      Controls (Q or Esc leaves, Ctrl-C quits at once):
      \(controlsHelp)
      After a game: Enter plays again (a new seed), M goes to the menu, Q quits.
      """)

  /// Each game's settings, from the settings data: one line a game.
  static var settingsHelp: String {
    engines.all.map { engine in
      "  \(engine.kind.rawValue.padded(to: 15)) "
        + engine.entry.settings.map { setting in
          setting.kind == .flag
            ? "\(optionName(setting.name)) (a flag, off by default)"
            : "\(optionName(setting.name)) \(allowed(setting)) (default \(setting.defaultValue))"
        }.joined(separator: "; ")
    }.joined(separator: "\n")
  }

  static var controlsHelp: String {
    terminalScreens.map { "  \($0.kind.rawValue.padded(to: 15)) \($0.help)" }
      .joined(separator: "\n")
  }

  private static func allowed(_ setting: SettingInfo) -> String {
    switch setting.kind {
    case .integer, .number: "\(setting.min!)…\(setting.max!)"
    case .choice: (setting.choices ?? []).map(\.value).joined(separator: "|")
    case .flag: "true|false"
    }
  }

  /// "feedbackMs" → "feedback-ms", the option a setting also answers to.
  static func optionName(_ setting: String) -> String {
    setting.reduce(into: "") { result, character in
      if character.isUppercase {
        result += "-" + character.lowercased()
      } else {
        result.append(character)
      }
    }
  }

  @Argument(help: "The game to play (a menu when missing): see `guesswork games`.")
  var game: String?

  @Option(name: .customLong("set"), help: "A setting as name=value (repeatable).")
  var settings: [String] = []

  @Option(help: "Games played on words: the category (asked when missing).")
  var category: String?

  @Option(help: "Games played on a deck: the deck (asked when missing).")
  var deck: String?

  @Flag(
    help: """
      Today's daily puzzle (UTC): the same for every player of this database, with fixed \
      settings; it counts once, like the browser's, and ends with a text to share.
      """)
  var daily = false

  @OptionGroup var common: CommonPlayOptions

  /// Settings given as options of their own (`--attempts 7`, `--free-play`).
  @Argument(parsing: .allUnrecognized, help: .hidden)
  var settingOptions: [String] = []

  func run() async throws {
    if let lang = common.lang { Speech.use(lang) }
    guard let game else {
      guard settingOptions.isEmpty, settings.isEmpty else {
        throw PlayFlow.invalid("name a game before its settings")
      }
      return try await PlayFlow(common: common).run(nil)
    }
    guard let engine = Self.engines[game], terminalScreen(for: engine.kind) != nil else {
      throw PlayFlow.invalid(
        "game must be one of " + terminalScreens.map { $0.kind.rawValue }.joined(separator: ", "))
    }
    if daily {
      guard settings.isEmpty, settingOptions.isEmpty, category == nil, deck == nil,
        common.seed == nil
      else {
        throw PlayFlow.invalid(
          "the daily puzzle has its own settings, content and seed: give only the game")
      }
      return try await PlayFlow(common: common).run(
        GameSetup(engine: engine, body: Data("{}".utf8), content: nil, daily: true))
    }
    let setup: GameSetup
    do {
      setup = try makeSetup(engine)
    } catch {
      throw PlayFlow.invalid(error.said)
    }
    try await PlayFlow(common: common).run(setup)
  }

  /// The game with its settings and content as typed, checked as the server checks them.
  private func makeSetup(_ engine: any GameEngine) throws -> GameSetup {
    let body = try engine.settingsBody(try typedSettings(engine))
    try engine.checkSettings(body)
    let content = try chosenContent(engine)
    if let content {
      // The content limits the settings too: let the engine judge.
      let _: (Step, settings: String) = try engine.start(
        settingsIn: body, content: content.supplied, seed: 0, at: .zero, gameID: nil)
    }
    return GameSetup(engine: engine, body: body, content: content)
  }

  /// The settings typed, as `--set name=value` and as `--name value` options.
  private func typedSettings(_ engine: any GameEngine) throws -> [(name: String, value: String)] {
    var typed: [(name: String, value: String)] = try settings.map { pair in
      guard let equals = pair.firstIndex(of: "=") else {
        throw PlayError.invalidSetting(
          SettingError(setting: pair, allowed: Message("allowed.pair")))
      }
      let name = String(pair[..<equals])
      // The option's spelling (feedback-ms) names the setting too.
      let setting = engine.entry.settings.first { Self.optionName($0.name) == name }
      return (setting?.name ?? name, String(pair[pair.index(after: equals)...]))
    }
    var rest = settingOptions[...]
    while let option = rest.popFirst() {
      guard option.hasPrefix("--"), option.count > 2 else {
        throw TerminalError("unexpected argument \(option)")
      }
      var name = String(option.dropFirst(2))
      var value: String?
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let setting = engine.entry.settings.first(where: { Self.optionName($0.name) == name })
      else {
        throw TerminalError(
          "unknown option --\(name) for \(engine.kind); its settings are "
            + engine.entry.settings.map { "--" + Self.optionName($0.name) }
            .joined(separator: ", "))
      }
      if value == nil {
        if setting.kind == .flag {
          value = ["true", "false"].contains(rest.first ?? "") ? rest.popFirst() : "true"
        } else {
          guard let next = rest.popFirst() else {
            throw TerminalError("--\(name) needs a value")
          }
          value = next
        }
      }
      typed.append((setting.name, value!))
    }
    return typed
  }

  /// The category or deck named on the command line, checked; nil when it is to be asked.
  private func chosenContent(_ engine: any GameEngine) throws -> ChosenContent? {
    switch engine.contentNeed {
    case .none:
      return ChosenContent.none
    case .words:
      guard let category else { return nil }
      guard let found = Speech.category(category) else {
        throw TerminalError(
          "category must be one of "
            + ContentLibrary.bundled.categories.map(\.id).joined(separator: ", "))
      }
      return .category(found)
    case .deck:
      guard let deck else { return nil }
      guard let found = PlayFlow.emojiDecks.first(where: { $0.id == deck }) else {
        throw TerminalError(
          "deck must be one of " + PlayFlow.emojiDecks.map(\.id).joined(separator: ", "))
      }
      return .deck(found)
    }
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

  @Option(help: "The language: en, es or ru (default: from LANG, else English).")
  var lang: Language?
}

/// What a game is played on in the terminal.
enum ChosenContent {
  case none
  case category(WordCategory)
  case deck(Deck)

  var supplied: SuppliedContent {
    switch self {
    case .none: .none
    case .category(let category): .words(WordList(fresh: category.words), category: category.id)
    case .deck(let deck): .deck(PlayFlow.items(deck), id: deck.id, noun: deck.noun)
    }
  }

  /// The category's or deck's title.
  var title: String {
    switch self {
    case .none: ""
    case .category(let category): category.title
    case .deck(let deck): deck.title
    }
  }
}

/// A game to play: its engine, its settings as a request body, and its content (nil: ask).
struct GameSetup {
  var engine: any GameEngine
  var body: Data
  var content: ChosenContent?
  /// Today's daily puzzle: its day is set once it is found.
  var daily = false
  var dailyTag: DailyTag?
}

/// The play session: finds the local player, then menu → game → end screen until the player
/// leaves.
struct PlayFlow {
  let common: CommonPlayOptions

  /// The decks whose pictures are emoji (a deck of photos needs a browser).
  static var emojiDecks: [Deck] {
    ContentLibrary.bundled.decks.filter { $0.playableItems.count >= 2 }
      .map { $0.localized(Speech.catalog.language) }
  }

  /// An invalid setting: its message on stderr and exit status 64 (EX_USAGE).
  static func invalid(_ message: String) -> any Error {
    FileHandle.standardError.write(Data("guesswork play: \(message)\n".utf8))
    return ExitCode(64)
  }

  static func items(_ deck: Deck) -> [DeckItem] {
    deck.playableItems.map { .init(id: $0.emoji ?? $0.name, name: $0.name) }
  }

  func run(_ setup: GameSetup?) async throws {
    let terminal = Terminal()
    let data = LocalData(dataDirectory: common.dataDir)
    let recorder = await Recorder.open(data: data, name: common.name) {
      askName(terminal: terminal)
    }
    if let problem = recorder.problem {
      FileHandle.standardError.write(
        Data("guesswork play: statistics are off for this session: \(problem)\n".utf8))
    }
    var next = setup
    var seed = common.seed
    if let setup, setup.daily {
      // Found before the full screen, so that a refusal is a plain line.
      let found: ((ChosenContent, seed: UInt64), DailyTag)
      do {
        found = try await dailyPuzzle(setup.engine, recorder: recorder)
      } catch {
        await recorder.close()
        throw error
      }
      let (puzzle, tag) = found
      next?.content = puzzle.0
      next?.dailyTag = tag
      seed = puzzle.seed
    }
    let runner = Runner(terminal: terminal, recorder: recorder)
    terminal.enter()
    var choice = Choice.menu
    loop: while true {
      if next == nil {
        runner.fromMenu = true
        let screens = terminalScreens
        guard
          let index = runner.pick(
            title: "Guesswork", subtitle: Speech.say("terminal.pick.game"),
            items: screens.map { screen in
              Play.engines[screen.kind].map { Speech.say($0.title) } ?? screen.kind.rawValue
            })
        else {
          choice = .quit
          break
        }
        next = Play.engines[screens[index].kind].map {
          GameSetup(engine: $0, body: Data(#"{}"#.utf8), content: nil)
        }
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
      case .again where resolved.daily: break loop
      case .again: next = resolved
      case .menu: next = nil
      case .quit, .interrupted: break loop
      }
    }
    terminal.leave()
    await recorder.close()
    if let share = recorder.shareText { print(share + "\n") }
    if choice == .interrupted { throw ExitCode(130) }
    if recorder.player != nil {
      print(Speech.say("terminal.thanks"))
    }
  }

  /// Today's puzzle of `engine` for the local player: its content and seed, and the tag that
  /// makes it counted. Refused (exit status 1) when the player has played it already.
  private func dailyPuzzle(_ engine: any GameEngine, recorder: Recorder) async throws -> (
    (ChosenContent, seed: UInt64), DailyTag
  ) {
    guard let store = recorder.store, let player = recorder.player else {
      throw Self.refuse(
        "the daily puzzle is counted in the local database, which cannot be used: "
          + (recorder.problem ?? "unknown"), recorder: recorder)
    }
    let day = DailyCalendar.day(of: GameClock().now())
    let number = DailyCalendar.number(day)
    if let played = try await store.dailyPlays(playerID: player.id, day: day).first(where: {
      $0.kind == engine.kind.rawValue
    }) {
      throw Self.refuse(
        Speech.say(
          played.score == nil ? "terminal.dailyPlayed" : "terminal.dailyPlayedScore",
          [
            "game": .key(engine.title.key), "number": .text("\(number)"),
            "score": .int(played.score ?? 0),
          ]),
        recorder: recorder)
    }
    let puzzle = try await DailySet(store: store, engines: Play.engines).puzzle(engine, day: day)
    let content: ChosenContent
    switch puzzle.content {
    case .none: content = .none
    case .words(_, let category):
      guard let found = Speech.category(category) else {
        throw Self.refuse("no category \(category)", recorder: recorder)
      }
      content = .category(found)
    case .deck(_, let id, _):
      guard let found = Self.emojiDecks.first(where: { $0.id == id }) else {
        throw Self.refuse("no deck \(id)", recorder: recorder)
      }
      content = .deck(found)
    }
    return ((content, puzzle.seed), DailyTag(day: day, counted: true))
  }

  private static func refuse(_ message: String, recorder: Recorder) -> any Error {
    FileHandle.standardError.write(Data("guesswork play --daily: \(message)\n".utf8))
    return ExitCode(1)
  }

  static func randomSeed() -> UInt64 {
    var generator = SystemRandomNumberGenerator()
    return generator.next() >> 1
  }

  /// Plays one game; nil when the player left a category or deck picker.
  private func play(_ setup: GameSetup, seed: UInt64, runner: Runner) async -> (Choice, GameSetup)?
  {
    guard let content = setup.content ?? pickContent(setup.engine, runner: runner) else {
      return nil
    }
    var resolved = setup
    resolved.content = content
    guard let screen = terminalScreen(for: setup.engine.kind) else {
      return (.menu, setup)
    }
    do {
      return (
        try await run(
          screen, body: setup.body, content: content, seed: seed, daily: setup.dailyTag,
          runner: runner),
        resolved
      )
    } catch {
      // Settings were checked before; a deck picked in the menu may still be too small.
      runner.show { canvas in
        canvas.paragraph(error.said, .fg(.bad, bold: true))
        canvas.add(Speech.say("terminal.pressAnyKey"), .dim)
      }
      while runner.terminal.readKey(timeoutMs: 250) == nil {}
      return (.menu, setup)
    }
  }

  private func run<S: GameScreen>(
    _ screen: S.Type, body: Data, content: ChosenContent, seed: UInt64, daily: DailyTag?,
    runner: Runner
  ) async throws -> Choice {
    let engine = Engine<S.G>()
    let session = try LocalSession<S.G>(
      settings: daily == nil ? try engine.settings(from: body) : S.G.dailySettings,
      content: content.supplied, seed: seed, at: runner.clock.now())
    session.daily = daily
    return await runner.run(S(session: session, content: content))
  }

  /// Asks for the category or deck a game is played on; nil when the player leaves.
  private func pickContent(_ engine: any GameEngine, runner: Runner) -> ChosenContent? {
    switch engine.contentNeed {
    case .none:
      return ChosenContent.none
    case .words:
      let categories = Speech.categories
      return runner.pick(
        title: Speech.say(engine.title), subtitle: Speech.say("terminal.pick.category"),
        items: categories.map(\.title)
      ).map { .category(categories[$0]) }
    case .deck:
      let decks = Self.emojiDecks
      return runner.pick(
        title: Speech.say(engine.title), subtitle: Speech.say("terminal.pick.deck"),
        items: decks.map(\.title)
      )
      .map { .deck(decks[$0]) }
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
