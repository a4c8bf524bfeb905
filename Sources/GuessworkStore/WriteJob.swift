import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A write on the hot path: a new game or a move. Each database's writer (``SQLiteWriter``,
/// ``PostgresGames``) commits the jobs waiting at one moment in one transaction.
enum WriteJob: Sendable {
  case insertGame(GameRecord, within: UnfinishedLimit?)
  case saveMove(Move, expectedVersion: Int)

  var gameID: String {
    switch self {
    case .insertGame(let game, _): game.id
    case .saveMove(let move, _): move.gameID
    }
  }

  /// How many jobs each transaction committed, for the metrics.
  static func batchSizes(database: String) -> Recorder {
    Recorder(label: "guesswork_write_batch_size", dimensions: [("database", database)])
  }
}

/// The writes (or reads) waiting for a batch, each with whoever waits for its answer, and how
/// many batches are being run: each writer keeps one under its lock.
struct WriteQueue<Waiting: Sendable>: Sendable {
  private var waiting: [Waiting] = []
  private var draining = 0
  /// Batches committed at once, at most.
  let drainers: Int

  init(drainers: Int) {
    self.drainers = drainers
  }

  /// Adds a write; `true` when the caller must start a drainer (fewer than `drainers` run).
  mutating func add(_ write: Waiting) -> Bool {
    waiting.append(write)
    guard draining < drainers else { return false }
    draining += 1
    return true
  }

  /// For a drainer between batches: stops it (`true`) when no write is waiting, and otherwise
  /// keeps it counted, for the caller to go on draining.
  mutating func releaseIfIdle() -> Bool {
    guard waiting.isEmpty else { return false }
    draining -= 1
    return true
  }

  /// Counts the caller as a drainer (`true`) when none is running and no write waits: nothing
  /// else drains until it releases.
  mutating func claimIfIdle() -> Bool {
    guard waiting.isEmpty, draining < drainers else { return false }
    draining += 1
    return true
  }

  /// Every write waiting now. Empty when there is none left: the drainer that asked then
  /// stops, and is no longer counted.
  mutating func take() -> [Waiting] {
    defer { waiting.removeAll(keepingCapacity: true) }
    if waiting.isEmpty { draining -= 1 }
    return waiting
  }
}

extension RecentlyUsed<String, GameRecord> {
  /// The live games a writer keeps: bounded in count and in bytes.
  static func liveGames() -> Self {
    RecentlyUsed(
      capacity: SQLiteWriter.cacheCapacity, byteCapacity: SQLiteWriter.cacheBytes,
      weigh: { $1.approximateBytes })
  }

  /// Brings the live games up to date with `committed`, in commit order: a new game and a
  /// move of a known game are kept, a finished game or a refused or failed write forgotten.
  mutating func remember(_ committed: some Sequence<(WriteJob, Result<Bool, any Error>)>) {
    for (job, result) in committed {
      switch (job, result) {
      case (.insertGame(let game, _), .success(true)) where game.finished == nil:
        self[game.id] = game
      case (.saveMove(let move, _), .success(true)):
        guard var game = self[move.gameID], move.finished == nil else {
          self[move.gameID] = nil
          continue
        }
        game.state = move.state
        game.version = move.version
        game.updatedAt = move.at
        self[move.gameID] = game
      case (.saveMove(let move, _), _):
        self[move.gameID] = nil
      case (.insertGame, _):
        continue
      }
    }
  }
}

/// Someone waiting for an answer, and the event loop they asked from, if it was one.
struct Asker<Output: Sendable>: Sendable {
  let done: CheckedContinuation<Output, any Error>
  let eventLoop: (any EventLoop)?

  init(_ done: CheckedContinuation<Output, any Error>) {
    self.done = done
    eventLoop = MultiThreadedEventLoopGroup.currentEventLoop
  }

  /// Resumes every asker with their answer. Those who asked from an event loop are resumed
  /// on it, all of one loop's at once: one wake-up per loop instead of one per asker, and each
  /// task goes on where its connection is, to write its answer there, instead of on whichever
  /// loop the batch finished on (BENCHMARKS.md).
  static func answer(_ answers: some Sequence<(Asker, Result<Output, any Error>)>) {
    var byLoop:
      [ObjectIdentifier: (loop: any EventLoop, answers: [(Asker, Result<Output, any Error>)])] = [:]
    for (asker, result) in answers {
      guard let loop = asker.eventLoop, !loop.inEventLoop else {
        asker.done.resume(with: result)
        continue
      }
      byLoop[ObjectIdentifier(loop), default: (loop, [])].answers.append((asker, result))
    }
    for (loop, answers) in byLoop.values {
      loop.execute {
        for (asker, result) in answers { asker.done.resume(with: result) }
      }
    }
  }
}

/// Calls made at one moment, answered together: each call joins the batch that waits for the
/// next run (never one already running), and at most `drainers` batches run at once.
/// PostgreSQL's reads and writes are both made this way (``PostgresGames``).
final class Batched<Input: Sendable, Output: Sendable>: Sendable {
  private struct Waiting: Sendable {
    let input: Input
    let asker: Asker<Output>
  }

  private let queue: NIOLockedValueBox<WriteQueue<Waiting>>

  init(drainers: Int) {
    queue = NIOLockedValueBox(WriteQueue(drainers: drainers))
  }

  /// The answer to `input`, once its batch has run. `run` answers a batch's inputs in their
  /// order; every caller gives the same one, and whoever starts a drainer hands it theirs.
  func call(
    _ input: Input,
    run: @escaping @Sendable ([Input]) async -> [Result<Output, any Error>]
  ) async throws -> Output {
    try await withCheckedThrowingContinuation { done in
      let start = queue.withLockedValue { $0.add(Waiting(input: input, asker: Asker(done))) }
      if start { Task { await self.drain(run) } }
    }
  }

  /// Runs batches until nobody is waiting.
  private func drain(_ run: @Sendable ([Input]) async -> [Result<Output, any Error>]) async {
    while true {
      let batch = queue.withLockedValue { $0.take() }
      if batch.isEmpty { return }
      // Closures, not key paths: in generic code a key path is made at run time, each call
      // (perf).
      let results = await run(batch.map { $0.input })
      Asker.answer(zip(batch.lazy.map { $0.asker }, results))
    }
  }
}
