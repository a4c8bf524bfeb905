import Foundation
public import GuessworkCore
import GuessworkJSON
public import GuessworkStore

/// One game played on this machine (the terminal's): the engine's value and every accepted
/// step as the server would store it, made by the same ``Engine`` step the server uses.
public final class LocalSession<G: Game> {
  public let engine = Engine<G>()
  public private(set) var game: G
  public let seed: UInt64
  /// The category or deck it is played on.
  public let variant: String?
  public let id = UUID().uuidString.lowercased()
  public let createdAt: Instant
  /// The state as first stored.
  public let initialState: String
  /// The accepted steps after the start, each as the store keeps it.
  public private(set) var moves: [Move] = []
  /// The last refusal, for the player to read.
  public var notice: [Message]?
  /// Set on a daily puzzle.
  public var daily: DailyTag?

  /// Starts a game with `settings` on `content`.
  public init(settings: G.Settings, content: SuppliedContent, seed: UInt64, at now: Instant)
    throws
  {
    game = try engine.start(settings, content: content, seed: seed, at: now)
    self.seed = seed
    variant = content.variant
    createdAt = now
    initialState = try CompactJSON.string(game)
  }

  public var isOver: Bool { game.isOver }

  /// Lets time pass; a round that ends by itself is kept like the server stores a timeout.
  @discardableResult
  public func tick(at now: Instant) -> [G.Event] {
    guard !game.isOver else { return [] }
    let (events, changed) = engine.tick(&game, at: now)
    if changed, game.isOver, let step = try? engine.step(game, events: events, at: now) {
      keep(step, at: now)
    }
    return events
  }

  /// The one step: ticks, refuses if the game is over, applies `action`. A refusal is kept in
  /// `notice` and returns nil.
  @discardableResult
  public func apply(_ action: G.Action, at now: Instant) -> [G.Event]? {
    let ticked = tick(at: now)
    do {
      let step = try engine.apply(action, to: &game, afterTick: [], at: now)
      notice = nil
      keep(step, at: now)
      return ticked + step.events.map { $0 as! G.Event }
    } catch PlayError.refused(let refusal) {
      notice = refusal.reason
    } catch PlayError.gameOver {
      notice = Refusal.gameOver.reason
    } catch {
      notice = [Message("error.detail", ["detail": .text("\(error)")])]
    }
    return nil
  }

  private func keep(_ step: Step, at now: Instant) {
    moves.append(step.move(gameID: id, version: moves.count + 1, at: now))
  }

  /// The game as first stored, before any move.
  public func initialRecord(playerID: String) -> GameRecord {
    GameRecord(
      id: id, playerID: playerID, kind: G.kind.rawValue, variant: variant,
      settings: (try? CompactJSON.string(game.settings)) ?? "{}", seed: seed,
      state: initialState, version: 0, createdAt: createdAt.milliseconds, daily: daily)
  }

  /// Stores the game as first stored. A counted daily puzzle claims its day; if that day's
  /// game was played meanwhile (in a browser), this one is stored as not counted.
  public func insert(in store: any GuessworkStore, playerID: String) async throws {
    if let daily, daily.counted {
      do {
        return try await store.insertDailyGame(initialRecord(playerID: playerID), day: daily.day)
      } catch StoreError.duplicate {
        self.daily?.counted = false
      }
    }
    try await store.insertGame(initialRecord(playerID: playerID))
  }

  /// Stores the game and its moves, in order, under `playerID` (once it is over: the terminal
  /// counts finished games).
  public func record(in store: any GuessworkStore, playerID: String) async throws {
    try await insert(in: store, playerID: playerID)
    for move in moves {
      _ = try await store.saveMove(move, expectedVersion: move.version - 1)
    }
  }
}
