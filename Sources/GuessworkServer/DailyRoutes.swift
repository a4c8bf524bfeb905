import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import Synchronization

/// The daily set over HTTP: today's puzzles and the player's progress, starting a puzzle
/// (counted today, from the archive otherwise), leaderboards and the archive.
extension API {
  func addDailyRoutes(to router: Router<some RequestContext>) {
    router.get("/api/daily") { request, _ in try await dailySet(request) }
    router.post("/api/daily/{game}") { request, context in
      try await startDaily(request, game: context.parameters.require("game"))
    }
    router.get("/api/daily/{game}/leaderboard") { request, context in
      try await leaderboard(request, game: context.parameters.require("game"))
    }
    router.get("/api/daily/{game}/archive") { request, context in
      try await archive(request, game: context.parameters.require("game"))
    }
  }

  /// A daily game as its replies describe it; `share` once it is over. Written through
  /// Codable (`JSONTextWritable`'s default), but typed as writing itself, so the reply that
  /// holds it (``GameReply``) hands it over without asking the runtime.
  struct DailyReply: Encodable, Sendable, JSONTextWritable {
    struct Share: Encodable, Sendable {
      var text: String
      var url: String?
    }
    var date: String
    var number: Int
    var counted: Bool
    var share: Share?
  }

  func dailyReply(_ tag: DailyTag, record: GameRecord, step: Step, request: Request)
    -> DailyReply
  {
    var reply = DailyReply(
      date: DailyCalendar.date(tag.day), number: DailyCalendar.number(tag.day),
      counted: tag.counted)
    if step.isOver, let summary = step.encodedSummary, let engine = engines[record.kind] {
      let url = link(to: "/daily.html?game=\(record.kind)&date=\(reply.date)", request: request)
      reply.share = .init(
        text: daily.shareText(
          engine, daily: tag, summary: summary, score: step.score, link: url,
          in: catalog(request.language)),
        url: url)
    }
    return reply
  }

  /// An absolute link to `path` on the host the request was sent to, when its `Host` header
  /// is a plain host name or address (and port).
  func link(to path: String, request: Request) -> String? {
    guard let host = request.head.authority, !host.isEmpty,
      host.utf8.count <= 255,
      host.unicodeScalars.allSatisfy({
        CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".-:[]".unicodeScalars.contains($0)
      })
    else { return nil }
    return "\(secureLinks ? "https" : "http")://\(host)\(path)"
  }

  struct StreakView: Encodable {
    var current: Int
    var best: Int
  }

  struct DailyEntry: Encodable {
    var game: String
    var title: String
    var emoji: String
    var page: String
    var number: Int
    /// "new", "playing" or "done".
    var state: String
    var gameId: String?
    var score: Int?
    /// The score as the result reads ("4/7": Number's attempts used).
    var result: String?
    var streak: StreakView?
  }

  struct DailyOverview: Encodable {
    var date: String
    var number: Int
    var launch: String
    var today: String
    var nextInSeconds: Int
    var streak: StreakView?
    var games: [DailyEntry]
  }

  /// The day asked for in `?date=` (today without one), or a 400 that says what is wrong.
  private func day(_ text: String?, today: Int) throws -> Int {
    guard let text else { return today }
    guard let day = DailyCalendar.day(ofDate: text) else {
      throw APIError(.badRequest, "invalid-date", "error.invalidDate")
    }
    if day > today {
      throw APIError(.badRequest, "not-yet", "error.notYet", ["text": .text("\(text)")])
    }
    if day < DailyCalendar.launch {
      throw APIError(
        .badRequest, "before-launch", "error.beforeLaunch",
        ["date": .text("\(DailyCalendar.date(DailyCalendar.launch))")])
    }
    return day
  }

  private func dailyEngine(_ id: String) throws -> any GameEngine {
    guard let engine = engines[id] else {
      throw APIError(
        .notFound, "unknown-game", "error.unknownGame",
        ["list": .text(engines.ids.joined(separator: ", "))])
    }
    return engine
  }

  private func dailySet(_ request: Request) async throws -> Response {
    let now = clock().milliseconds
    let today = DailyCalendar.day(of: now)
    let day = try day(request.uri.queryParameters.get("date").map { String($0) }, today: today)
    let player = try await identity.player(of: request)
    var plays: [String: DailyPlay] = [:]
    var streaks: [String: DailyStreak] = [:]
    if let player {
      try await daily.catchUp(playerID: player.id)
      for play in try await store.dailyPlays(playerID: player.id, day: day) {
        plays[play.kind] = play
      }
      streaks = try await store.dailyStreaks(playerID: player.id)
    }
    func view(_ streak: DailyStreak?) -> StreakView? {
      player == nil
        ? nil : StreakView(current: streak?.current(on: today) ?? 0, best: streak?.best ?? 0)
    }
    let games = engines.all.map { engine in
      let play = plays[engine.kind.rawValue]
      return DailyEntry(
        game: engine.kind.rawValue,
        title: catalog(request.language).render(engine.title),
        emoji: engine.entry.emoji,
        page: engine.entry.page, number: DailyCalendar.number(day),
        state: play == nil ? "new" : play?.score == nil ? "playing" : "done",
        gameId: play?.gameID, score: play?.score,
        result: play?.score.map { engine.dailyResult(score: $0) },
        streak: view(streaks[engine.kind.rawValue]))
    }
    return json(
      DailyOverview(
        date: DailyCalendar.date(day), number: DailyCalendar.number(day),
        launch: DailyCalendar.date(DailyCalendar.launch), today: DailyCalendar.date(today),
        nextInSeconds: Int(DailyCalendar.untilNextDay(now) / 1000),
        streak: view(streaks[DailyStreak.wholeSet]), games: games))
  }

  /// `{}` or `{"date": "YYYY-MM-DD"}`. Any other key is refused: a client that says `day`
  /// and means a past day must not start today's counted game by mistake.
  private struct DailyStart: Decodable {
    var date: String?

    init() {}

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: FieldKey.self)
      if let unknown = container.allKeys.first(where: { $0.stringValue != "date" }) {
        throw APIError(
          .badRequest, "bad-request", "error.dailyField",
          ["stringValue": .text("\(unknown.stringValue)")])
      }
      date = try container.decodeIfPresent(String.self, forKey: FieldKey("date"))
    }
  }

  private func startDaily(_ request: Request, game: String) async throws -> Response {
    let player = try await identity.requirePlayer(of: request)
    try limiter.admit(.games, key: player.id)
    let engine = try dailyEngine(game)
    let body = try await body(of: request)
    let input =
      body.isEmpty ? DailyStart() : try JSONDecoder().decode(DailyStart.self, from: body)
    let now = clock()
    let day = try day(input.date, today: DailyCalendar.day(of: now))
    do {
      let (record, step) = try await daily.start(
        engine, playerID: player.id, day: day, at: now)
      play.started(record.kind)
      return json(
        try await reply(record, step, version: 0, events: nil, request: request),
        status: .created)
    } catch DailyError.alreadyPlayed(let gameID) {
      var error = APIError(
        .conflict, "daily-played", "error.dailyPlayed",
        ["title": .key(engine.title.key), "number": .text(String(DailyCalendar.number(day)))])
      error.gameId = gameID
      throw error
    } catch DailyError.notYet, DailyError.beforeLaunch {
      throw APIError(.badRequest, "invalid-date", "error.noPuzzle")
    }
  }

  struct LeaderboardView: Encodable {
    struct Entry: Encodable {
      var rank: Int
      var name: String
      var avatarURL: String?
      var score: Int
      var result: String
      var you: Bool?
    }
    struct You: Encodable {
      var rank: Int
      var score: Int
      var result: String
      var of: Int
    }
    var game: String
    var period: String
    var date: String
    var title: String
    var players: Int
    var entries: [Entry]
    var you: You?
  }

  static let leaderboardSize = 20

  private func leaderboard(_ request: Request, game: String) async throws -> Response {
    let engine = try dailyEngine(game)
    let today = DailyCalendar.day(of: clock())
    let day = try day(request.uri.queryParameters.get("date").map { String($0) }, today: today)
    let period = request.uri.queryParameters.get("period").map { String($0) } ?? "day"
    let periods = DailyCalendar.periods(of: day)
    let words = catalog(request.language)
    let (key, title): (String, String) =
      switch period {
      case "day":
        (
          periods.day,
          words(
            "daily.board.day",
            ["game": .key(engine.title.key), "number": .text("\(DailyCalendar.number(day))")])
        )
      case "week":
        (
          periods.week,
          words(
            "daily.board.week",
            [
              "date": .text(
                DailyCalendar.date(DailyCalendar.monday(ofWeek: DailyCalendar.week(day))))
            ])
        )
      case "all": (periods.allTime, words("daily.board.all"))
      default:
        throw APIError(.badRequest, "invalid-period", "error.invalidPeriod")
      }
    // A day's and the best day's results read as the game words them ("4/7"); a week adds
    // scores up, so it reads in points.
    let result = { (score: Int) in period == "week" ? "\(score)" : engine.dailyResult(score: score)
    }
    let playerID = try await identity.playerID(of: request)
    var board = try await boards.board(kind: engine.kind.rawValue, period: key, now: clock()) {
      try await store.leaderboard(
        kind: engine.kind.rawValue, period: key, playerID: nil, limit: Self.leaderboardSize)
    }
    // The player's own score is always read; their rank comes from the board's score counts.
    if let playerID,
      let score = try await store.boardScore(
        kind: engine.kind.rawValue, period: key, playerID: playerID)
    {
      board.mine = board.standing(of: score)
    }
    return json(
      LeaderboardView(
        game: engine.kind.rawValue, period: period, date: DailyCalendar.date(day), title: title,
        players: board.players,
        entries: board.entries.map {
          .init(
            rank: $0.rank, name: $0.name,
            avatarURL: $0.hasAvatar ? "/api/players/\($0.playerID)/avatar" : nil,
            score: $0.score, result: result($0.score),
            you: $0.playerID == playerID ? true : nil)
        },
        you: board.mine.map {
          .init(
            rank: $0.rank, score: $0.score, result: result($0.score),
            of: board.players)
        }))
  }

  struct ArchiveView: Encodable {
    struct Day: Encodable {
      var date: String
      var number: Int
      var today: Bool?
      var score: Int?
      var result: String?
    }
    var game: String
    var days: [Day]
  }

  private func archive(_ request: Request, game: String) async throws -> Response {
    let engine = try dailyEngine(game)
    let today = DailyCalendar.day(of: clock())
    var scores: [Int: Int] = [:]
    if let playerID = try await identity.playerID(of: request) {
      for play in try await store.dailyPlays(playerID: playerID, kind: engine.kind.rawValue) {
        scores[play.day] = play.score
      }
    }
    let days = stride(from: today, through: DailyCalendar.launch, by: -1).map { day in
      ArchiveView.Day(
        date: DailyCalendar.date(day), number: DailyCalendar.number(day),
        today: day == today ? true : nil, score: scores[day],
        result: scores[day].map { engine.dailyResult(score: $0) })
    }
    return json(ArchiveView(game: engine.kind.rawValue, days: days))
  }
}

/// Leaderboards as lately read, each kept for a second: a board is the same for everyone who
/// asks, and a popular one is asked for many times a second. Results recorded on this instance
/// drop the boards they change at once; another instance's show within the second. A player's
/// own score is never cached (the route reads it each time), so a player always sees their own
/// result.
final class BoardCache: Sendable {
  static let lifetimeMs: Int64 = 1000
  private let boards = Mutex<[String: (loadedAt: Int64, board: Leaderboard)]>([:])

  func board(
    kind: String, period: String, now: Instant, load: () async throws -> Leaderboard
  ) async throws -> Leaderboard {
    let key = kind + "/" + period
    if let kept = boards.withLock({ $0[key] }),
      now.milliseconds - kept.loadedAt < Self.lifetimeMs, now.milliseconds >= kept.loadedAt
    {
      return kept.board
    }
    let board = try await load()
    boards.withLock { boards in
      // A bound: boards of past days and weeks are not asked for again.
      if boards.count > 1000 { boards.removeAll(keepingCapacity: true) }
      boards[key] = (now.milliseconds, board)
    }
    return board
  }

  /// Forgets the boards of a game (after a result changed them).
  func drop(kind: String) {
    boards.withLock { boards in
      boards = boards.filter { !$0.key.hasPrefix(kind + "/") }
    }
  }
}
