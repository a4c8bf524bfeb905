import Foundation
import SQLKit

// MARK: Statistics tallies

extension SQLStore {
  public func statsTally(playerID: String) async throws -> StoredTally? {
    if case .postgres(let games) = games { return try await games.statsTally(playerID: playerID) }
    return try await session { db in try await Self.statsTally(playerID: playerID, db) }
  }

  public func statisticsSources(playerID: String) async throws -> (
    tally: StoredTally?, newer: [FinishedGame], streaks: [String: DailyStreak]
  ) {
    try await session { db in
      let tally = try await Self.statsTally(playerID: playerID, db)
      return (
        tally, try await Self.finishedGames(playerID: playerID, after: tally?.mark, db),
        try await Self.dailyStreaks(playerID: playerID, db)
      )
    }
  }

  private static func statsTally(playerID: String, _ db: any SQLDatabase) async throws
    -> StoredTally?
  {
    try await db.raw(
      """
      SELECT through_at, through_id, tallies FROM player_tallies
      WHERE player_id = \(bind: playerID)
      """
    ).first().map {
      StoredTally(
        mark: TallyMark(
          finishedAt: try $0.decode(column: "through_at", as: Int64.self),
          gameID: try $0.decode(column: "through_id", as: String.self)),
        tallies: try $0.decode(column: "tallies", as: String.self))
    }
  }

  public func saveStatsTally(playerID: String, _ tally: StoredTally, at: Int64) async throws {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO player_tallies (player_id, through_at, through_id, tallies, updated_at)
        VALUES (\(bind: playerID), \(bind: tally.mark.finishedAt), \(bind: tally.mark.gameID),
          \(bind: tally.tallies), \(bind: at))
        ON CONFLICT (player_id) DO UPDATE SET through_at = excluded.through_at,
          through_id = excluded.through_id, tallies = excluded.tallies,
          updated_at = excluded.updated_at
        WHERE player_tallies.through_at < excluded.through_at
          OR (player_tallies.through_at = excluded.through_at
            AND player_tallies.through_id < excluded.through_id)
        """
      ).run()
    }
  }
}

// MARK: The daily set

extension SQLStore {
  public func secret(named name: String, proposed: String) async throws -> String {
    try await writing { db in
      try await db.raw(
        """
        INSERT INTO secrets (name, value, created_at)
        VALUES (\(bind: name), \(bind: proposed), \(bind: Self.now()))
        ON CONFLICT (name) DO NOTHING
        """
      ).run()
      guard
        let value = try await db.raw("SELECT value FROM secrets WHERE name = \(bind: name)")
          .first()?.decode(column: "value", as: String.self)
      else { throw StoreError.duplicate("secret \(name)") }
      return value
    }
  }

  public func insertDailyGame(_ game: GameRecord, day: Int) async throws {
    try await writing { db in
      try await db.transaction {
        // The game first (the claim refers to it); when the claim is taken, throwing rolls
        // the game back too.
        try await Self.insert(game, into: db)
        let claimed = try await db.raw(
          """
          INSERT INTO daily_plays (kind, day, player_id, game_id, started_at)
          VALUES (\(bind: game.kind), \(bind: day), \(bind: game.playerID), \(bind: game.id),
            \(bind: game.createdAt))
          ON CONFLICT (kind, day, player_id) DO NOTHING
          RETURNING game_id
          """
        ).first()
        guard claimed != nil else {
          throw StoreError.duplicate("today's \(game.kind) of this player")
        }
      }
    }
  }

  private static let playColumns: SQLQueryString = "kind, day, game_id, score, finished_at"

  private static func play(from row: any SQLRow) throws -> DailyPlay {
    DailyPlay(
      kind: try row.decode(column: "kind", as: String.self),
      day: try row.decode(column: "day", as: Int.self),
      gameID: try row.decode(column: "game_id", as: String.self),
      score: try row.decode(column: "score", as: Int?.self),
      finishedAt: try row.decode(column: "finished_at", as: Int64?.self))
  }

  public func dailyPlays(playerID: String, day: Int) async throws -> [DailyPlay] {
    try await session { db in
      try await db.raw(
        """
        SELECT \(Self.playColumns) FROM daily_plays
        WHERE player_id = \(bind: playerID) AND day = \(bind: day)
        """
      ).all().map(Self.play(from:))
    }
  }

  public func dailyPlays(playerID: String, kind: String) async throws -> [DailyPlay] {
    try await session { db in
      try await db.raw(
        """
        SELECT \(Self.playColumns) FROM daily_plays
        WHERE player_id = \(bind: playerID) AND kind = \(bind: kind)
        ORDER BY day DESC
        """
      ).all().map(Self.play(from:))
    }
  }

  public func unrecordedDailies(playerID: String) async throws -> [DailyPlay] {
    try await session { db in
      try await db.raw(
        """
        SELECT d.kind, d.day, d.game_id, g.score, g.finished_at
        FROM daily_plays d JOIN games g ON g.id = d.game_id
        WHERE d.player_id = \(bind: playerID) AND d.score IS NULL
          AND g.finished_at IS NOT NULL
        """
      ).all().map(Self.play(from:))
    }
  }

  @discardableResult
  public func recordDaily(
    gameID: String, score: Int, at: Int64, periods: DailyPeriods, sets: Int
  ) async throws -> Bool {
    try await writing { db in
      try await db.transaction {
        let recorded = try await db.raw(
          """
          UPDATE daily_plays SET score = \(bind: score), finished_at = \(bind: at)
          WHERE game_id = \(bind: gameID) AND score IS NULL
          RETURNING kind, day, player_id
          """
        ).first()
        guard let recorded else { return false }
        let kind = try recorded.decode(column: "kind", as: String.self)
        let day = try recorded.decode(column: "day", as: Int.self)
        let playerID = try recorded.decode(column: "player_id", as: String.self)
        if db.dialect.name == "postgresql" {
          // One player's results are recorded one at a time, whichever instance records them.
          try await db.raw("SELECT id FROM players WHERE id = \(bind: playerID) FOR UPDATE").run()
        }
        let boards: [(String, (Int?) -> Int)] = [
          (periods.day, { _ in score }),
          (periods.week, { ($0 ?? 0) + score }),
          (periods.allTime, { max($0 ?? score, score) }),
        ]
        for (period, combine) in boards {
          try await Self.post(
            kind: kind, period: period, playerID: playerID, combine: combine, at: at, in: db)
        }
        try await Self.extendStreak(playerID: playerID, kind: kind, day: day, in: db)
        let finishedThatDay = try await db.raw(
          """
          SELECT COUNT(*) AS finished FROM daily_plays
          WHERE player_id = \(bind: playerID) AND day = \(bind: day) AND score IS NOT NULL
          """
        ).first()?.decode(column: "finished", as: Int.self)
        if finishedThatDay == sets {
          try await Self.extendStreak(
            playerID: playerID, kind: DailyStreak.wholeSet, day: day, in: db)
        }
        return true
      }
    }
  }

  /// Puts a player's new score on one board and keeps the board's score counts in step.
  private static func post(
    kind: String, period: String, playerID: String, combine: (Int?) -> Int, at: Int64,
    in db: any SQLDatabase
  ) async throws {
    let old = try await db.raw(
      """
      SELECT score FROM daily_boards
      WHERE kind = \(bind: kind) AND period = \(bind: period) AND player_id = \(bind: playerID)
      """
    ).first()?.decode(column: "score", as: Int.self)
    let new = combine(old)
    guard new != old else { return }
    try await db.raw(
      """
      INSERT INTO daily_boards (kind, period, player_id, score, updated_at)
      VALUES (\(bind: kind), \(bind: period), \(bind: playerID), \(bind: new), \(bind: at))
      ON CONFLICT (kind, period, player_id) DO UPDATE SET score = excluded.score,
        updated_at = excluded.updated_at
      """
    ).run()
    if let old {
      try await db.raw(
        """
        UPDATE daily_board_scores SET players = players - 1
        WHERE kind = \(bind: kind) AND period = \(bind: period) AND score = \(bind: old)
        """
      ).run()
    }
    try await db.raw(
      """
      INSERT INTO daily_board_scores (kind, period, score, players)
      VALUES (\(bind: kind), \(bind: period), \(bind: new), 1)
      ON CONFLICT (kind, period, score) DO UPDATE
        SET players = daily_board_scores.players + 1
      """
    ).run()
  }

  private static func extendStreak(
    playerID: String, kind: String, day: Int, in db: any SQLDatabase
  ) async throws {
    let old = try await db.raw(
      """
      SELECT current, best, last_day, played FROM daily_streaks
      WHERE player_id = \(bind: playerID) AND kind = \(bind: kind)
      """
    ).first().map(streak(from:))
    let new =
      old?.adding(day: day) ?? DailyStreak(current: 1, best: 1, lastDay: day, played: 1)
    try await db.raw(
      """
      INSERT INTO daily_streaks (player_id, kind, current, best, last_day, played)
      VALUES (\(bind: playerID), \(bind: kind), \(bind: new.current), \(bind: new.best),
        \(bind: new.lastDay), \(bind: new.played))
      ON CONFLICT (player_id, kind) DO UPDATE SET current = excluded.current,
        best = excluded.best, last_day = excluded.last_day, played = excluded.played
      """
    ).run()
  }

  private static func streak(from row: any SQLRow) throws -> DailyStreak {
    DailyStreak(
      current: try row.decode(column: "current", as: Int.self),
      best: try row.decode(column: "best", as: Int.self),
      lastDay: try row.decode(column: "last_day", as: Int.self),
      played: try row.decode(column: "played", as: Int.self))
  }

  public func leaderboard(kind: String, period: String, playerID: String?, limit: Int)
    async throws -> Leaderboard
  {
    try await session { db in
      let rows = try await db.raw(
        """
        SELECT b.player_id, b.score, p.name,
          (SELECT COUNT(*) FROM avatars a WHERE a.player_id = b.player_id) AS avatars
        FROM daily_boards b JOIN players p ON p.id = b.player_id
        WHERE b.kind = \(bind: kind) AND b.period = \(bind: period)
        ORDER BY b.score DESC, b.updated_at, b.player_id
        LIMIT \(bind: limit)
        """
      ).all()
      var entries: [Leaderboard.Entry] = []
      for (index, row) in rows.enumerated() {
        let score = try row.decode(column: "score", as: Int.self)
        // Ties share the rank of the first of them: 1, 1, 3.
        let rank = entries.last.map { $0.score == score ? $0.rank : index + 1 } ?? 1
        entries.append(
          Leaderboard.Entry(
            rank: rank, playerID: try row.decode(column: "player_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            hasAvatar: try row.decode(column: "avatars", as: Int64.self) > 0, score: score))
      }
      var scores: [Int: Int] = [:]
      for row in try await db.raw(
        """
        SELECT score, players FROM daily_board_scores
        WHERE kind = \(bind: kind) AND period = \(bind: period) AND players > 0
        """
      ).all() {
        scores[try row.decode(column: "score", as: Int.self)] = try row.decode(
          column: "players", as: Int.self)
      }
      var board = Leaderboard(entries: entries, scores: scores, mine: nil)
      if let playerID,
        let mine = try await Self.boardScore(kind: kind, period: period, playerID: playerID, db)
      {
        board.mine = board.standing(of: mine)
      }
      return board
    }
  }

  public func boardScore(kind: String, period: String, playerID: String) async throws -> Int? {
    try await session { db in
      try await Self.boardScore(kind: kind, period: period, playerID: playerID, db)
    }
  }

  private static func boardScore(
    kind: String, period: String, playerID: String, _ db: any SQLDatabase
  ) async throws -> Int? {
    try await db.raw(
      """
      SELECT score FROM daily_boards WHERE kind = \(bind: kind) AND period = \(bind: period)
        AND player_id = \(bind: playerID)
      """
    ).first()?.decode(column: "score", as: Int.self)
  }

  public func dailyStreaks(playerID: String) async throws -> [String: DailyStreak] {
    try await session { db in try await Self.dailyStreaks(playerID: playerID, db) }
  }

  private static func dailyStreaks(playerID: String, _ db: any SQLDatabase) async throws
    -> [String: DailyStreak]
  {
    var streaks: [String: DailyStreak] = [:]
    for row in try await db.raw(
      """
      SELECT kind, current, best, last_day, played FROM daily_streaks
      WHERE player_id = \(bind: playerID)
      """
    ).all() {
      streaks[try row.decode(column: "kind", as: String.self)] = try streak(from: row)
    }
    return streaks
  }

  public func isOnLeaderboard(playerID: String) async throws -> Bool {
    try await session { db in
      try await db.raw(
        "SELECT 1 AS one FROM daily_streaks WHERE player_id = \(bind: playerID) LIMIT 1"
      ).first() != nil
    }
  }
}
