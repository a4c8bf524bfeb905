import GuessworkCore
import GuessworkPlay
import GuessworkStore
import Logging
import ServiceLifecycle

/// Rounds on a clock end when their time runs out, whether or not anyone is looking: a round
/// whose tab was closed counts in the statistics, at the time it ended.
extension API {
  /// The kinds of game that time alone can end.
  var timedKinds: [String] { engines.all.filter(\.isTimed).map(\.kind.rawValue) }

  /// Finishes and stores the timed games (of `playerID`, or of everyone) whose time has run
  /// out, created since `since`; returns how many. Several instances may sweep at once: a game
  /// is stored once, by the first (the others find its version moved on).
  @discardableResult
  func finishExpiredGames(playerID: String? = nil, since: Int64? = nil) async throws -> Int {
    let now = clock()
    // A round lasts minutes; one still unfinished after a day was ended by a sweep at start.
    let window = since ?? (now.milliseconds - 24 * 3600 * 1000)
    var finished = 0
    for id in try await store.unfinishedGameIDs(
      kinds: timedKinds, since: window, playerID: playerID, limit: 1000)
    {
      guard let record = try await store.game(id: id), record.finished == nil,
        let engine = engines[record.kind]
      else { continue }
      let advanced = try engine.advance(
        record.state, gameID: record.id, version: record.version, at: now)
      guard advanced.changed, advanced.isOver else { continue }
      _ = try await saveTimeout(record, try engine.step(advanced, at: now), now: now)
      finished += 1
    }
    return finished
  }
}

/// Sweeps for expired rounds every `every` while the server runs (everything once at start,
/// for the rounds that ran out while it was down).
struct ExpiryService: Service {
  let api: API
  let logger: Logger

  let every: Duration

  func run() async throws {
    let (api, logger, every) = (api, logger, every)
    await cancelWhenGracefulShutdown {
      var since: Int64? = 0
      while !Task.isCancelled {
        do {
          try await api.finishExpiredGames(since: since)
          since = nil
        } catch {
          logger.warning("finishing expired rounds: \(error)")
        }
        try? await Task.sleep(for: every)
      }
    }
  }
}
