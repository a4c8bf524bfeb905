import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

// MARK: Games, their moves and actions, and the finished games statistics read

extension SQLStore {
  public func unfinishedGameIDs(kinds: [String], since: Int64, playerID: String?, limit: Int)
    async throws -> [String]
  {
    guard !kinds.isEmpty else { return [] }
    return try await session { db in
      let player: SQLQueryString = playerID.map { "AND player_id = \(bind: $0)" } ?? ""
      return try await db.raw(
        """
        SELECT id FROM games
        WHERE finished_at IS NULL AND created_at > \(bind: since)
          AND kind IN (\(binds: kinds)) \(player)
        ORDER BY created_at LIMIT \(literal: limit)
        """
      ).all().map { try $0.decode(column: "id", as: String.self) }
    }
  }

  public func insertGame(_ game: GameRecord, within limit: UnfinishedLimit?) async throws -> Bool {
    try await perform(.insertGame(game, within: limit))
  }

  public func liveGamesCached() -> CacheSize {
    switch games {
    case .sqlite(let writer): writer.cached()
    case .postgres(let games): games.cached()
    }
  }

  public func gameToMove(id: String) async throws -> GameRecord? {
    if case .postgres(let games) = games { return try await games.gameToMove(id: id) }
    return try await game(id: id)
  }

  public func roomChanges() -> AsyncStream<String>? {
    guard case .postgres(let games) = games else { return nil }
    return games.notifications(channel: Self.roomsChannel)
  }

  public func saveMove(_ move: Move, expectedVersion: Int) async throws -> Bool {
    try await perform(.saveMove(move, expectedVersion: expectedVersion))
  }

  func perform(_ job: WriteJob) async throws -> Bool {
    switch games {
    case .sqlite(let writer): try await writer.perform(job)
    case .postgres(let games): try await games.perform(job)
    }
  }

  static func insert(_ game: GameRecord, into db: any SQLDatabase) async throws {
    try await db.raw(
      """
      INSERT INTO games (id, player_id, kind, variant, settings, seed, state, version,
        created_at, updated_at, finished_at, score, summary, daily_day, daily_counted)
      VALUES (\(bind: game.id), \(bind: game.playerID), \(bind: game.kind),
        \(bind: game.variant), \(bind: game.settings), \(bind: Int64(bitPattern: game.seed)),
        \(bind: game.state), \(bind: game.version), \(bind: game.createdAt),
        \(bind: game.updatedAt), \(bind: game.finished?.at), \(bind: game.finished?.score),
        \(bind: game.finished?.summary), \(bind: game.daily?.day),
        \(bind: game.daily.map { $0.counted ? 1 : 0 }))
      """
    ).run()
  }

  public func game(id: String) async throws -> GameRecord? {
    switch games {
    case .sqlite(let writer): if let live = writer.cachedGame(id: id) { return live }
    case .postgres(let games): return try await games.game(id: id)
    }
    return try await session { db in
      try await db.raw("SELECT * FROM games WHERE id = \(bind: id)").first().map { row in
        let finishedAt = try row.decode(column: "finished_at", as: Int64?.self)
        let dailyDay = try row.decode(column: "daily_day", as: Int?.self)
        let counted = try row.decode(column: "daily_counted", as: Int?.self) == 1
        return GameRecord(
          id: try row.decode(column: "id", as: String.self),
          playerID: try row.decode(column: "player_id", as: String.self),
          kind: try row.decode(column: "kind", as: String.self),
          variant: try row.decode(column: "variant", as: String?.self),
          settings: try row.decode(column: "settings", as: String.self),
          seed: UInt64(bitPattern: try row.decode(column: "seed", as: Int64.self)),
          state: try row.decode(column: "state", as: String.self),
          version: try row.decode(column: "version", as: Int.self),
          createdAt: try row.decode(column: "created_at", as: Int64.self),
          updatedAt: try row.decode(column: "updated_at", as: Int64.self),
          finished: try finishedAt.map {
            GameRecord.Finished(
              at: $0, score: try row.decode(column: "score", as: Int.self),
              summary: try row.decode(column: "summary", as: String.self))
          },
          daily: dailyDay.map { DailyTag(day: $0, counted: counted) })
      }
    }
  }

  public func actions(gameID: String) async throws -> [ActionRecord] {
    try await session { db in
      try await db.raw(
        "SELECT * FROM actions WHERE game_id = \(bind: gameID) ORDER BY version"
      ).all().map {
        ActionRecord(
          gameID: try $0.decode(column: "game_id", as: String.self),
          version: try $0.decode(column: "version", as: Int.self),
          action: try $0.decode(column: "action", as: String.self),
          at: try $0.decode(column: "at", as: Int64.self))
      }
    }
  }

  public func finishedGames(playerID: String, after mark: TallyMark?) async throws
    -> [FinishedGame]
  {
    try await session { db in
      try await Self.finishedGames(playerID: playerID, after: mark, db)
    }
  }

  /// The condition that keeps only the games finished after `mark` (all when there is none).
  static func finished(after mark: TallyMark?) -> SQLQueryString {
    guard let mark else { return "" }
    return """
      AND finished_at >= \(bind: mark.finishedAt)
      AND (finished_at > \(bind: mark.finishedAt) OR id > \(bind: mark.gameID))
      """
  }

  static func finishedGames(playerID: String, after mark: TallyMark?, _ db: any SQLDatabase)
    async throws -> [FinishedGame]
  {
    let after = finished(after: mark)
    // SQLite sorts here, not in the query: with `ORDER BY`, it prepares the statement again
    // each time a new player id is bound (it weighs the plan against the value), which was a
    // tenth of a statistics read. Its ids compare byte by byte, as Swift compares these ASCII
    // ids; PostgreSQL keeps `ORDER BY`, as its collation decides `id >` above.
    let sortsHere = db.dialect.name == "sqlite"
    let games = try await db.raw(
      """
      SELECT id, kind, variant, score, summary, finished_at FROM games
      WHERE player_id = \(bind: playerID) AND finished_at IS NOT NULL \(after)
      \(unsafeRaw: sortsHere ? "" : "ORDER BY finished_at, id")
      """
    ).all().map {
      FinishedGame(
        gameID: try $0.decode(column: "id", as: String.self),
        kind: try $0.decode(column: "kind", as: String.self),
        variant: try $0.decode(column: "variant", as: String?.self),
        score: try $0.decode(column: "score", as: Int.self),
        summary: try $0.decode(column: "summary", as: String.self),
        finishedAt: try $0.decode(column: "finished_at", as: Int64.self))
    }
    return sortsHere
      ? games.sorted { ($0.finishedAt, $0.gameID) < ($1.finishedAt, $1.gameID) } : games
  }

  /// What ``recentBests(playerID:kind:after:finishedBy:excluding:)`` asks SQLite (answered
  /// from the index `games_by_player_finished` alone).
  static func recentBestsQuery(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) -> SQLQueryString {
    """
    SELECT variant, MAX(score) AS best FROM games
    WHERE player_id = \(bind: playerID) AND finished_at IS NOT NULL \(finished(after: mark))
      AND finished_at <= \(bind: finishedBy) AND kind = \(bind: kind) AND id <> \(bind: gameID)
    GROUP BY variant
    """
  }

  public func recentBests(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) async throws -> [String?: Int] {
    if case .postgres(let games) = games {
      return try await games.recentBests(
        playerID: playerID, kind: kind, after: mark, finishedBy: finishedBy, excluding: gameID)
    }
    let query = Self.recentBestsQuery(
      playerID: playerID, kind: kind, after: mark, finishedBy: finishedBy, excluding: gameID)
    return try await session { db in
      var bests: [String?: Int] = [:]
      for row in try await db.raw(query).all() {
        bests[try row.decode(column: "variant", as: String?.self)] = try row.decode(
          column: "best", as: Int.self)
      }
      return bests
    }
  }
}
