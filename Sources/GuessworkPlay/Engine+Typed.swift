public import Foundation
import GuessworkContent
public import GuessworkCore
public import GuessworkJSON
public import GuessworkStore
import Synchronization

extension Engine {
  // MARK: The step, typed (the terminal holds its game as a value)

  /// Starts a game of `G` on its content.
  public func start(
    _ settings: G.Settings, content supplied: SuppliedContent, seed: UInt64, at now: Instant
  )
    throws(PlayError) -> G
  {
    guard let content = G.content(from: supplied) else {
      preconditionFailure("\(G.kind) was given content it does not use.")
    }
    do {
      return try G(settings: G.fit(settings, to: supplied), content: content, seed: seed, at: now)
    } catch {
      throw .invalidSetting(error)
    }
  }

  /// Lets time pass to `now`, once; says what it caused and whether it changed the game.
  public func tick(_ game: inout G, at now: Instant) -> (events: [G.Event], changed: Bool) {
    let before = game
    let events = game.tick(at: now)
    return (events, game != before)
  }

  /// Refuses `action` if the game (already ticked to `now`) is over, else applies it; the
  /// result is encoded as it is stored and answered.
  public func apply(
    _ action: G.Action, to game: inout G, afterTick events: [G.Event], at now: Instant
  )
    throws -> Step
  {
    let caused: [G.Event]
    do {
      caused = try game.apply(action, afterTick: events, at: now)
    } catch .gameOver {
      throw PlayError.gameOver
    } catch .refused(let refusal) {
      throw PlayError.refused(refusal)
    }
    var step = try step(game, events: caused, at: now)
    step.action = try CompactJSON.string(action)
    return step
  }

  public func settingsBody(_ typed: [(name: String, value: String)]) throws -> Data {
    var object: [String: Any] = [:]
    for (name, text) in typed {
      guard let field = G.Settings.field(name) else {
        throw SettingError(
          setting: name,
          allowed: Message(
            "allowed.settingName",
            ["list": .text(G.Settings.fields.map(\.name).joined(separator: ", "))]))
      }
      object[name] =
        switch try field.parse(text) {
        case .integer(let value): value
        case .number(let value): value
        case .text(let value): value
        case .flag(let value): value
        }
    }
    return (try? JSONSerialization.data(withJSONObject: ["settings": object])) ?? Data("{}".utf8)
  }

  /// The settings in the `settings` key of a request body (defaults for missing keys). A key
  /// that is no setting of this game is refused, not ignored: a misspelt setting would
  /// otherwise start a game the player did not ask for.
  public func settings(from body: PlainJSON.Document) throws -> G.Settings {
    do {
      return try readSettings(from: body)
    } catch let error as SettingError {
      throw PlayError.invalidSetting(error)
    }
  }

  func readSettings(from body: PlainJSON.Document) throws -> G.Settings {
    // A plain body's settings through Codable, and the names given in them straight from
    // the parsed document (a second pass through Codable for the names, with a second parse
    // of the body for the server's own members, made reading it half as dear again: engine
    // benchmarks); any other body through JSONDecoder, whose errors the player is told.
    let settings: G.Settings?
    let given: [String]?
    if let plain = body.decode(SettingsOnly.self) {
      (settings, given) = (plain.settings, body.memberNames(of: "settings"))
    } else {
      let read = try JSONDecoder().decode(SettingsBody.self, from: body.bytes)
      (settings, given) = (read.settings, read.given?.names)
    }
    // A closure, not a key path: in generic code a key path is made at run time, each call
    // (a third of reading a new game's settings, perf).
    let names = G.Settings.fields.map { $0.name }
    if let unknown = given?.sorted().first(where: { !names.contains($0) }) {
      throw PlayError.invalidSetting(
        SettingError(
          setting: "settings",
          allowed: Message(
            "allowed.settingNames",
            ["list": .text(names.joined(separator: ", ")), "unknown": .text(unknown)]))
      )
    }
    return settings ?? .init()
  }

  /// The settings in the `settings` key of a request body, as read from the body parsed.
  public func settings(from body: Data) throws -> G.Settings {
    try settings(from: PlainJSON.Document(body))
  }

  public func checkSettings(_ body: Data) throws {
    do {
      try settings(from: body).validate()
    } catch let error as SettingError {
      throw PlayError.invalidSetting(error)
    }
  }

  public func tally(_ encoded: String?, adding games: [FinishedGame]) -> String {
    var tally = decodeTally(encoded)
    for game in games where game.kind == G.kind.rawValue {
      guard
        let summary = try? JSONDecoder().decode(G.Summary.self, from: Data(game.summary.utf8))
      else { continue }
      tally.add(FinishedRecord(summary: summary, score: game.score, variant: game.variant))
    }
    return (try? CompactJSON.string(tally)) ?? ""
  }

  public func statistics(_ encoded: String?) -> Statistics.PerGame {
    let tally = decodeTally(encoded)
    return Statistics.PerGame(
      game: G.kind.rawValue, title: G.title.key, played: tally.played, bestScore: tally.best,
      lastScores: tally.last, figures: Figures(G.figures(tally.game)))
  }

  public func best(_ encoded: String?, variant: String?) -> Int? {
    decodeTally(encoded).bests[variant ?? ""]
  }

  public func bestOfAll(_ encoded: String?) -> Int? {
    decodeTally(encoded).bests.values.max()
  }

  func decodeTally(_ encoded: String?) -> KindTally<G> {
    guard let encoded else { return KindTally() }
    return decodedTallies.value(for: encoded) {
      (try? JSONDecoder().decode(KindTally<G>.self, from: Data(encoded.utf8))) ?? KindTally()
    }
  }

  public func startDaily(
    content supplied: SuppliedContent, seed: UInt64, at now: Instant, gameID: String
  ) throws -> (Step, settings: String) {
    let game = try start(G.dailySettings, content: supplied, seed: seed, at: now)
    return try started(game, gameID: gameID, at: now)
  }

  public func dailyResult(score: Int) -> String { G.dailyResult(score: score) }

  public func shareLine(summary: String, score: Int) -> Message? {
    (try? JSONDecoder().decode(G.Summary.self, from: Data(summary.utf8))).map {
      G.shareLine($0, score: score)
    }
  }

  public func swatch(_ state: String) throws -> String? {
    try JSONDecoder().decode(G.self, from: Data(state.utf8)).swatch
  }

  func decode(_ state: String, gameID: String, version: Int) throws -> G {
    if let (json, game) = decoded[gameID, version], json == state { return game }
    let game = try JSONDecoder().decode(G.self, from: Data(state.utf8))
    decoded[gameID, version] = (state, game)
    return game
  }

  /// `game` as a step, its state encoded unless the caller has the encoding already.
  public func step(_ game: G, events: [G.Event], at now: Instant, encoded: String? = nil)
    throws -> Step
  {
    let summary = game.isOver ? game.summary : nil
    return Step(
      state: try encoded ?? CompactJSON.string(game),
      view: game.view(at: now),
      events: events,
      isOver: game.isOver,
      score: game.score,
      summary: summary,
      encodedSummary: try summary.map { try CompactJSON.string($0) },
      action: nil,
      handback: game.handback)
  }
}
