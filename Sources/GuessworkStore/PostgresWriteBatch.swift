import Logging
import PostgresNIO

/// New games and moves of different games in one statement, so in one round trip and one
/// transaction of their own: each new game within its limit, each game's update when it is
/// still at the version its move expects and not finished, and the action's row for each
/// game updated. ``run(on:logger:)`` answers the positions (in `jobs`) of the jobs that wrote.
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
/// The values travel as arrays, a nullable value as a flag and a value. The statement is sent
/// unnamed, so that PostgreSQL plans it at every call, for its values and the tables as they
/// are, instead of keeping one plan for it as it does for a prepared statement after five
/// calls. A plan kept from while `games` was young stays while the table grows, until
/// autovacuum next analyzes it (a minute or more away): for a batch of moves it walked the
/// partial index of every unfinished game and compared each with each move (125 games times
/// 23 moves in a benchmark batch), so a batch cost more with every game left unfinished, by
/// any player (BENCHMARKS.md).
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
    var bindings = PostgresBindings(capacity: 34)
    var parts: [String] = []
    var answers: [String] = []
    if !games.isEmpty {
      parts.append(Self.startGames(from: bindings.count + 1))
      answers.append("SELECT true, id FROM started")
      appendGames(to: &bindings)
    }
    if !moves.isEmpty {
      parts.append(Self.moveGames(from: bindings.count + 1))
      answers.append("SELECT false, id FROM moved")
      appendMoves(to: &bindings)
    }
    let sql =
      "WITH " + parts.joined(separator: ", ") + "\n"
      + answers.joined(separator: " UNION ALL ")
    let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
    var started: Set<String> = []
    var moved: Set<String> = []
    for try await (isGame, id) in try await connection.query(query, logger: logger).decode(
      (Bool, String).self)
    {
      if isGame { started.insert(id) } else { moved.insert(id) }
    }
    return
      (games.filter { started.contains($0.game.id) }.map(\.job)
      + moves.filter { moved.contains($0.move.gameID) }.map(\.job)).sorted()
  }

  /// The new games (the 21 arrays from `first` on), each stored when it has no limit or its
  /// player's unfinished games, counted once for each player and moment, leave it a place.
  private static func startGames(from first: Int) -> String {
    let p = (first..<first + 21).map { "$\($0)" }
    return """
      limits AS MATERIALIZED (
        SELECT player, since, guesswork_unfinished_games(player, since) AS unfinished
        FROM (SELECT DISTINCT player, since FROM unnest(\(p[1])::text[], \(p[19])::int8[],
          \(p[18])::int8[]) AS l(player, since, limit_count)
          WHERE limit_count >= 0 ORDER BY player, since) AS l
      ), started AS (
        INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
          created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
        SELECT n.id, n.player, n.kind, CASE WHEN n.has_variant THEN n.variant END, n.settings,
          n.seed, n.state, n.version, n.created_at, n.updated_at,
          CASE WHEN n.finished THEN n.finished_at END, CASE WHEN n.finished THEN n.score END,
          CASE WHEN n.finished THEN n.summary END, CASE WHEN n.daily THEN n.daily_day END,
          CASE WHEN n.daily THEN n.daily_counted END
        FROM unnest(\(p[0])::text[], \(p[1])::text[], \(p[2])::text[], \(p[3])::bool[],
          \(p[4])::text[], \(p[5])::text[], \(p[6])::int8[], \(p[7])::text[], \(p[8])::int8[],
          \(p[9])::int8[], \(p[10])::int8[], \(p[11])::bool[], \(p[12])::int8[],
          \(p[13])::int8[], \(p[14])::text[], \(p[15])::bool[], \(p[16])::int8[],
          \(p[17])::int8[], \(p[18])::int8[], \(p[19])::int8[], \(p[20])::int8[])
          AS n(id, player, kind, has_variant, variant, settings, seed, state, version,
            created_at, updated_at, finished, finished_at, score, summary, daily, daily_day,
            daily_counted, limit_count, since, earlier)
        LEFT JOIN limits l ON l.player = n.player AND l.since = n.since
        WHERE n.limit_count < 0 OR l.unfinished + n.earlier < n.limit_count
        RETURNING id
      )
      """
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

  /// The moves (the 11 arrays from `first` on).
  private static func moveGames(from first: Int) -> String {
    let p = (first..<first + 11).map { "$\($0)" }
    return """
      input AS (
        SELECT * FROM unnest(\(p[0])::text[], \(p[1])::int8[], \(p[2])::text[],
          \(p[3])::int8[], \(p[4])::int8[], \(p[5])::bool[], \(p[6])::int8[], \(p[7])::int8[],
          \(p[8])::text[], \(p[9])::bool[], \(p[10])::text[])
          AS t(id, expected, state, version, at, finished, finished_at, score, summary, acted,
            action)
      ), moved AS (
        UPDATE games g SET state = i.state, version = i.version, updated_at = i.at,
          finished_at = CASE WHEN i.finished THEN i.finished_at END,
          score = CASE WHEN i.finished THEN i.score END,
          summary = CASE WHEN i.finished THEN i.summary END
        FROM input i
        WHERE g.id = i.id AND g.version = i.expected AND g.finished_at IS NULL
        RETURNING g.id
      ), acted AS (
        INSERT INTO actions (game_id, version, action, at)
        SELECT i.id, i.version, i.action, i.at FROM input i JOIN moved m USING (id)
        WHERE i.acted
      )
      """
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
