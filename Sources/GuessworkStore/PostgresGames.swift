import CoreMetrics
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import PostgresKit
import PostgresNIO

/// The hot path of PostgreSQL: reading a game, and writing every new game and every move,
/// through PostgresNIO's own client (its pool, prepared statements, rows decoded by position)
/// instead of SQLKit, and the writes waiting at one moment committed together.
///
/// Why not SQLKit, as everywhere else: through it a read of a game took four round trips
/// between threads and a move five statements, each on one of four connections that all live
/// on one event loop, so reads reached 0.17 of the HTTP ceiling and moves 0.05
/// (BENCHMARKS.md). Here the reads asked for at one moment are one prepared statement on a
/// pool sized for the machine, and the new games and moves waiting at one moment are written
/// by one statement (``WriteBatch``): one round trip, one commit, one flush of the log, for
/// all of them.
///
/// Another instance may change a game at any time, so every read asks the database. Only the
/// next move may start from the game as this instance last wrote it (``gameToMove(id:)``),
/// since every move's update names the version it expects: two instances racing on one game
/// are ordered by PostgreSQL's row lock, the second update finds the new version and changes
/// nothing, and its move is refused as stale.
final class PostgresGames: Sendable {
  /// Internal for the plan tests, which borrow a connection of it.
  let client: PostgresClient
  private let running: Task<Void, Never>
  /// Two batches committed at once, each on its own connection: one fills while another
  /// waits for its answers. (1, 4 and 8 moved as many moves a second here: BENCHMARKS.md.)
  private let writes = Batched<WriteJob, Bool>(drainers: 2)
  /// The reads waiting for a query, one query at a time: the reads that come meanwhile wait
  /// for the next. (One cost the server less per read than two or four: BENCHMARKS.md.)
  private let reads = Batched<String, GameRecord?>(drainers: 1)
  /// Live games as this instance last committed them (see ``gameToMove(id:)``).
  private let written = NIOLockedValueBox(
    RecentlyUsed<String, GameRecord>.liveGames())
  /// PostgresNIO sets metadata on its logger for every statement, which a real handler
  /// formats whether or not it logs: a read spent 3% of its time there (perf). Failures reach
  /// the caller as errors, which the server logs.
  private let logger = Logger(
    label: "guesswork.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
  private let batchSizes = WriteJob.batchSizes(database: "postgres")

  /// Connections in the pool: every read and the writer's batches share them. PostgreSQL
  /// runs a process per connection; more than a few per core only adds switching.
  static func poolSize(cores: Int) -> Int { max(4, 4 * cores) }

  /// `holdConnections`: open every connection of the pool at once and keep them, with no
  /// keep-alive queries (a server); otherwise they are opened as asked for and closed after
  /// a minute idle (tests, which open many stores at once, and the admin commands).
  init(url: String, logger: Logger, holdConnections: Bool = false) throws {
    let core = try SQLPostgresConfiguration(url: url).coreConfiguration
    let tls: PostgresClient.Configuration.TLS =
      !core.tls.isAllowed
      ? .disable
      : core.tls.isEnforced
        ? .require(.makeClientConfiguration()) : .prefer(.makeClientConfiguration())
    var configuration: PostgresClient.Configuration
    if let path = core.unixSocketPath {
      configuration = .init(
        unixSocketPath: path, username: core.username, password: core.password,
        database: core.database)
    } else {
      configuration = .init(
        host: core.host ?? "localhost", port: core.port ?? 5432, username: core.username,
        password: core.password, database: core.database, tls: tls)
    }
    configuration.options.connectTimeout = .seconds(5)
    configuration.options.maximumConnections = Self.poolSize(cores: System.coreCount)
    if holdConnections {
      // The pool gives a connection that falls idle a timer for each of these (a task group,
      // two child tasks and a Dispatch timer, cancelled when it is leased again), and under
      // load its connections fall idle and are leased again thousands of times a second: 8%
      // of the server's CPU a move, 7% a read (BENCHMARKS.md). A connection PostgreSQL
      // closes is still noticed when its socket closes, and made again.
      configuration.options.minimumConnections = configuration.options.maximumConnections
      configuration.options.keepAliveBehavior = nil
    }
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.client = client
    running = Task { await client.run() }
  }

  /// The payloads of `NOTIFY`s on `channel`, on a connection of the pool kept for it; the
  /// connection is made again if it drops.
  func notifications(channel: String) -> AsyncStream<String> {
    let client = client
    return AsyncStream { continuation in
      let listening = Task {
        while !Task.isCancelled {
          do {
            try await client.withConnection { connection in
              try await connection.listen(on: channel) { notifications in
                for try await notification in notifications {
                  continuation.yield(notification.payload)
                }
              }
            }
          } catch {
            try? await Task.sleep(for: .seconds(1))
          }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in listening.cancel() }
    }
  }

  func close() async {
    running.cancel()
    await running.value
  }

  // MARK: Reading

  /// The game `id` as stored. The reads asked for at one moment share one query
  /// (``SelectGames``): a read waits only for a query that starts after it was asked, so it
  /// sees every write committed before it, as a query of its own would. Under load a query
  /// through the pool cost the server more than the rest of a read (BENCHMARKS.md).
  func game(id: String) async throws -> GameRecord? {
    try await reads.call(id) { ids in await self.read(ids) }
  }

  /// The games `ids` (each `nil` when there is none), in one query.
  private func read(_ ids: [String]) async -> [Result<GameRecord?, any Error>] {
    do {
      var found: [String: GameRecord] = [:]
      let games = try await client.execute(SelectGames(ids: Array(Set(ids))), logger: logger)
      for try await game in games { found[game.id] = game }
      return ids.map { .success(found[$0]) }
    } catch {
      return ids.map { _ in .failure(error) }
    }
  }

  /// The live game `id` as this instance last wrote it, else as stored. It may be behind the
  /// database when another instance moved it since: only good for starting a move, whose
  /// update then changes nothing (see ``GuessworkStore/gameToMove(id:)``).
  func gameToMove(id: String) async throws -> GameRecord? {
    if let game = written.withLockedValue({ $0[id] }) { return game }
    return try await game(id: id)
  }

  func cached() -> CacheSize {
    written.withLockedValue { $0.size }
  }

  // MARK: A new game's and a finished game's questions

  /// ``GuessworkStore/statsTally(playerID:)``, prepared: asked at every finished game.
  func statsTally(playerID: String) async throws -> StoredTally? {
    try await client.execute(SelectTally(playerID: playerID), logger: logger).first { _ in true }
  }

  /// ``GuessworkStore/recentBests(playerID:kind:after:finishedBy:excluding:)``, prepared.
  func recentBests(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) async throws -> [String?: Int] {
    var bests: [String?: Int] = [:]
    let rows = try await client.execute(
      RecentBests(
        playerID: playerID, kind: kind, mark: mark, finishedBy: finishedBy, excluding: gameID),
      logger: logger)
    for try await (variant, best) in rows { bests[variant] = best }
    return bests
  }

  // MARK: Writing

  /// Commits `job`, answering after the commit: `false` when a move found its game at another
  /// version (or finished), and nothing was written.
  func perform(_ job: WriteJob) async throws -> Bool {
    try await writes.call(job) { jobs in
      self.batchSizes.record(jobs.count)
      let results = await self.commit(jobs)
      self.written.withLockedValue { $0.remember(zip(jobs, results)) }
      return results
    }
  }

  /// Runs `jobs` as one statement (``WriteBatch``): every new game, each within its limit,
  /// and every move, with no transaction around it; one more statement, in a transaction
  /// with the first, for each further move of a game already moved in the batch. When a
  /// statement fails (an unknown player, say), the batch is rolled back and every job is run
  /// again on its own: the others still succeed, and the failing one fails alone.
  ///
  /// The jobs are taken in the order of their games' ids (those of one game in the order they
  /// came), so that two instances' batches tend to lock rows in the same order; should they
  /// deadlock all the same, PostgreSQL fails one, which is then run job by job.
  private func commit(_ jobs: [WriteJob]) async -> [Result<Bool, any Error>] {
    var rounds: [[Int]] = [[]]
    var moves: [String: Int] = [:]
    for index in jobs.indices.sorted(by: { (jobs[$0].gameID, $0) < (jobs[$1].gameID, $1) }) {
      guard case .saveMove(let move, _) = jobs[index] else {
        rounds[0].append(index)
        continue
      }
      let round = moves[move.gameID, default: 0]
      moves[move.gameID] = round + 1
      if round == rounds.count { rounds.append([]) }
      rounds[round].append(index)
    }
    do {
      let written = try await client.withConnection { connection in
        try await transaction(on: connection, if: rounds.count > 1) {
          var written = [Bool](repeating: false, count: jobs.count)
          for round in rounds {
            let batch = WriteBatch(round.map { jobs[$0] })
            for position in try await batch.run(on: connection, logger: logger) {
              written[round[position]] = true
            }
          }
          return written
        }
      }
      return written.map { .success($0) }
    } catch {
      guard jobs.count > 1 else { return [.failure(error)] }
      var results: [Result<Bool, any Error>] = []
      for job in jobs {
        do {
          let batch = WriteBatch([job])
          let written = try await client.withConnection {
            try await batch.run(on: $0, logger: logger)
          }
          results.append(.success(!written.isEmpty))
        } catch {
          results.append(.failure(error))
        }
      }
      return results
    }
  }

  /// Runs `body` on `connection` in a transaction when `needed` (committed when it returns,
  /// rolled back when it throws), else as it is.
  private func transaction<R>(
    on connection: PostgresConnection, if needed: Bool, _ body: () async throws -> R
  ) async throws -> R {
    guard needed else { return try await body() }
    try await connection.query("BEGIN", logger: logger)
    do {
      let result = try await body()
      try await connection.query("COMMIT", logger: logger)
      return result
    } catch {
      _ = try? await connection.query("ROLLBACK", logger: logger)
      throw error
    }
  }
}

// MARK: Statements

/// Games by id (those that exist, in any order), their columns in the order ``GameRecord``
/// is built from.
private struct SelectGames: PostgresPreparedStatement {
  static let name = "guesswork_select_games"
  static let sql = """
    SELECT id, player_id, kind, variant, settings, seed, state, version, created_at,
      updated_at, finished_at, score, summary, daily_day, daily_counted
    FROM games WHERE id = ANY($1)
    """
  static let bindingDataTypes: [PostgresDataType] = [.textArray]
  typealias Row = GameRecord
  let ids: [String]

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(ids)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> GameRecord {
    let (
      id, playerID, kind, variant, settings, seed, state, version, createdAt, updatedAt,
      finishedAt, score, summary, dailyDay, dailyCounted
    ) = try row.decode(
      (
        String, String, String, String?, String, Int64, String, Int, Int64, Int64, Int64?, Int?,
        String?, Int?, Int?
      ).self)
    return GameRecord(
      id: id, playerID: playerID, kind: kind, variant: variant, settings: settings,
      seed: UInt64(bitPattern: seed), state: state, version: version, createdAt: createdAt,
      updatedAt: updatedAt,
      finished: finishedAt.map {
        GameRecord.Finished(at: $0, score: score ?? 0, summary: summary ?? "")
      },
      daily: dailyDay.map { DailyTag(day: $0, counted: dailyCounted == 1) })
  }
}

/// The same question as ``SQLStore/statsTally(playerID:)``.
private struct SelectTally: PostgresPreparedStatement {
  static let name = "guesswork_select_tally"
  static let sql = """
    SELECT through_at, through_id, tallies FROM player_tallies WHERE player_id = $1
    """
  static let bindingDataTypes: [PostgresDataType] = [.text]
  typealias Row = StoredTally
  let playerID: String

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(playerID)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> StoredTally {
    let (at, id, tallies) = try row.decode((Int64, String, String).self)
    return StoredTally(mark: TallyMark(finishedAt: at, gameID: id), tallies: tallies)
  }
}

/// The same question as ``SQLStore/recentBests(playerID:kind:after:finishedBy:excluding:)``;
/// with no mark, every finished game counts (`finished_at >= 0`, and any id after `''`).
private struct RecentBests: PostgresPreparedStatement {
  static let name = "guesswork_recent_bests"
  static let sql = """
    SELECT variant, MAX(score) FROM games
    WHERE player_id = $1 AND finished_at IS NOT NULL
      AND finished_at >= $3 AND (finished_at > $3 OR id > $4)
      AND finished_at <= $5 AND kind = $2 AND id <> $6
    GROUP BY variant
    """
  static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8, .text, .int8, .text]
  typealias Row = (String?, Int)
  let playerID: String
  let kind: String
  let mark: TallyMark?
  let finishedBy: Int64
  let excluding: String

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 6)
    bindings.append(playerID)
    bindings.append(kind)
    bindings.append(mark?.finishedAt ?? 0)
    bindings.append(mark?.gameID ?? "")
    bindings.append(finishedBy)
    bindings.append(excluding)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws -> (String?, Int) {
    let (variant, best) = try row.decode((String?, Int64).self)
    return (variant, Int(best))
  }
}
