import Logging
import PostgresNIO

/// New games and moves of different games in one call of `guesswork_write_batch` (migration
/// 11), so in one round trip and one transaction of their own: each new game within its
/// limit, each game's update when it is still at the version its move expects and not
/// finished, and the action's row for each game updated. ``run(on:logger:)`` answers the
/// positions (in `jobs`) of the jobs that wrote.
///
/// A batch used to be a transaction of six statements when it started a game (begin, lock
/// the player, count their games, insert, the moves, commit), each a round trip and two hops
/// between threads. As one statement, the move loop moves about a tenth more moves a second,
/// and the server and the database spend less CPU a move (BENCHMARKS.md).
///
/// A new game's limit is checked by `guesswork_unfinished_games` (migration 9), which locks
/// the player's row and then counts their unfinished games. It must be a function: a
/// statement sees the database as it was when the statement began, so a count in the
/// statement itself would miss a game that another batch (of this instance or another)
/// committed while this one waited for the player's lock. A function marked volatile takes a
/// new snapshot for each of its queries, so its count comes after the lock and sees it.
///
/// The values travel as arrays, a nullable value as a flag and a value. The batch was sent
/// as an unnamed statement until 11-27, planned at every call: a plan PostgreSQL keeps is
/// made once, and one made while `games` was young walked every unfinished game for each
/// batch once the table had grown (BENCHMARKS.md). Planning cost a fifth of PostgreSQL's CPU
/// a move. The function's statements are planned once, with settings that leave that plan
/// no shape but finding each game by its id (migration 11); the plan test holds it.
struct WriteBatch: Sendable {
  /// The new games, in the order given, each with how many new games of its player come
  /// before it in the batch (counted against its limit as if they were stored).
  private let games: [(game: GameRecord, limit: UnfinishedLimit?, earlier: Int, job: Int)]
  private let moves: [(move: Move, expectedVersion: Int, job: Int)]

  /// `jobs`: at most one move of each game, and no move of a game started in the same batch
  /// (a game's id reaches its player only once its insert is committed).
  init(_ jobs: [WriteJob]) {
    var games: [(GameRecord, UnfinishedLimit?, Int, Int)] = []
    var moves: [(Move, Int, Int)] = []
    var started: [String: [GameRecord]] = [:]
    for (position, job) in jobs.enumerated() {
      switch job {
      case .insertGame(let game, let limit):
        let earlier = started[game.playerID, default: []].count {
          $0.finished == nil && $0.createdAt > (limit?.since ?? .max)
        }
        games.append((game, limit, earlier, position))
        started[game.playerID, default: []].append(game)
      case .saveMove(let move, let expectedVersion):
        moves.append((move, expectedVersion, position))
      }
    }
    self.games = games
    self.moves = moves
  }

  /// Runs the batch on `connection`; answers the positions of the jobs that wrote: a game
  /// stored, a move that updated its game.
  func run(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
    guard !games.isEmpty || !moves.isEmpty else { return [] }
    var started: Set<String> = []
    var moved: Set<String> = []
    for try await (isGame, id) in try await connection.execute(
      Statement(batch: self), logger: logger)
    {
      if isGame { started.insert(id) } else { moved.insert(id) }
    }
    return
      (games.filter { started.contains($0.game.id) }.map(\.job)
      + moves.filter { moved.contains($0.move.gameID) }.map(\.job)).sorted()
  }

  /// The call of `guesswork_write_batch` (migration 11) with the batch's 32 arrays: the new
  /// games' 21 (empty when there are none), then the moves' 11.
  private struct Statement: PostgresPreparedStatement {
    static let name = "guesswork_write_batch"
    static let sql =
      "SELECT is_new, written FROM guesswork_write_batch("
      + (1...32).map { "$\($0)" }.joined(separator: ", ") + ")"
    typealias Row = (Bool, String)
    let batch: WriteBatch

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 32)
      batch.appendGames(to: &bindings)
      batch.appendMoves(to: &bindings)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (Bool, String) {
      try row.decode((Bool, String).self)
    }
  }

  private func appendGames(to bindings: inout PostgresBindings) {
    let records = games.map(\.game)
    bindings.append(records.map(\.id))
    bindings.append(records.map(\.playerID))
    bindings.append(records.map(\.kind))
    bindings.append(records.map { $0.variant != nil })
    bindings.append(records.map { $0.variant ?? "" })
    bindings.append(records.map(\.settings))
    bindings.append(records.map { Int64(bitPattern: $0.seed) })
    bindings.append(records.map(\.state))
    bindings.append(records.map { Int64($0.version) })
    bindings.append(records.map(\.createdAt))
    bindings.append(records.map(\.updatedAt))
    Self.append(records.map(\.finished), to: &bindings)
    bindings.append(records.map { $0.daily != nil })
    bindings.append(records.map { Int64($0.daily?.day ?? 0) })
    bindings.append(records.map { Int64($0.daily.map { $0.counted ? 1 : 0 } ?? 0) })
    bindings.append(games.map { Int64($0.limit?.count ?? -1) })
    bindings.append(games.map { $0.limit?.since ?? 0 })
    bindings.append(games.map { Int64($0.earlier) })
  }

  private func appendMoves(to bindings: inout PostgresBindings) {
    let records = moves.map(\.move)
    bindings.append(records.map(\.gameID))
    bindings.append(moves.map { Int64($0.expectedVersion) })
    bindings.append(records.map(\.state))
    bindings.append(records.map { Int64($0.version) })
    bindings.append(records.map(\.at))
    Self.append(records.map(\.finished), to: &bindings)
    bindings.append(records.map { $0.action != nil })
    bindings.append(records.map { $0.action ?? "" })
  }

  /// What finished games recorded, or nothing, as four arrays: a flag, the moment, the score
  /// and the summary (a new game and a move carry them alike).
  private static func append(
    _ finished: [GameRecord.Finished?], to bindings: inout PostgresBindings
  ) {
    bindings.append(finished.map { $0 != nil })
    bindings.append(finished.map { $0?.at ?? 0 })
    bindings.append(finished.map { Int64($0?.score ?? 0) })
    bindings.append(finished.map { $0?.summary ?? "" })
  }
}
