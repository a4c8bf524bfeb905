import Foundation
import GuessworkCore
import GuessworkPlay
import GuessworkServer
import GuessworkStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Testing

/// A clock on a day of its own, at `secondsIntoDay` seconds after midnight UTC: tests share
/// one PostgreSQL database, and so its leaderboards, so each test plays a day no other plays.
func clockOnFreshDay(secondsIntoDay: Int64 = 36_000) -> ManualClock {
  let day = Int64(DailyCalendar.launch) + Int64.random(in: 2_000...2_000_000)
  return ManualClock(milliseconds: day * 86_400_000 + secondsIntoDay * 1000)
}

/// Runs `body` against two server instances on one database (one SQLite file, or the test
/// PostgreSQL), each with its own store and caches, sharing a clock.
func withTwoServers(
  _ database: Database, clock: ManualClock,
  _ body: @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void
) async throws {
  var logger = Logger(label: "server-tests")
  logger.logLevel = .warning
  let location = database.location()
  let first = try await SQLStore.open(location, logger: logger)
  let second = try await SQLStore.open(location, logger: logger)
  let one = try buildApplication(.drivenClock, store: first, logger: logger) { clock.now }
  let two = try buildApplication(.drivenClock, store: second, logger: logger) { clock.now }
  try await one.test(.live) { a in
    try await two.test(.live) { b in try await body(a, b) }
  }
}

extension Player {
  /// Starts a daily puzzle (today's, or a past `date`'s) that must be accepted.
  func daily(_ game: GameKind, date: String? = nil) async throws -> GameReply {
    let body = date.map { #"{"date":"\#($0)"}"# } ?? "{}"
    let response = try await send(.post, "/api/daily/\(game.rawValue)", json: body)
    try #require(
      response.status == .created, "\(response.status): \(String(buffer: response.body))")
    return try decode(response)
  }

  func get<T: Decodable>(_ uri: String, as type: T.Type = JSON.self) async throws -> T {
    let response = try await send(.get, uri)
    try #require(response.status == .ok, "\(uri): \(String(buffer: response.body))")
    return try decode(response, as: T.self)
  }

  /// Plays a game to its end in a few moves (the clock runs out the timed ones).
  func finish(_ game: inout GameReply, clock: ManualClock) async throws {
    switch game.game {
    case "number":
      while !game.isOver {
        let low = try #require(game.view["knownLow"]?.int)
        let high = try #require(game.view["knownHigh"]?.int)
        try await act(&game, #"{"type":"guess","number":\#((low + high) / 2)}"#)
      }
    case "color-match":
      clock.advance(seconds: 5)  // the countdown
      for _ in 0..<3 {
        clock.advance(seconds: 1)
        try await act(&game, #"{"type":"answer","match":true,"reactionMs":600}"#)
      }
      clock.advance(seconds: 300)
      game = try await self.game(game.id)
    case "bullseye":
      while !game.isOver {
        try await act(&game, #"{"type":"check","guess":{"r":128,"g":128,"b":128}}"#)
        if !game.isOver { try await act(&game, #"{"type":"next"}"#) }
      }
    case "guess-or-pass":
      clock.advance(seconds: 5)
      try await act(&game, #"{"type":"guessed"}"#)
      try await act(&game, #"{"type":"pass"}"#)
      try await act(&game, #"{"type":"guessed"}"#)
      try await act(&game, #"{"type":"end"}"#)
    default:
      while !game.isOver {
        try await act(&game, #"{"type":"choose","choice":0}"#)
        if !game.isOver { try await act(&game, #"{"type":"next"}"#) }
      }
    }
    #expect(game.isOver, "\(game.game) did not end")
  }

  /// Wins today's Number daily with the given number of wrong guesses first, knowing its
  /// secret (so its score is 5 − wrong), or loses it (`wrong` ≥ 5: score 0).
  func playNumber(secret: Int, wrong: Int) async throws -> GameReply {
    var game = try await daily(.number)
    for _ in 0..<min(wrong, 7) where !game.isOver {
      let low = try #require(game.view["knownLow"]?.int)
      let high = try #require(game.view["knownHigh"]?.int)
      // The end of the open range that is not the secret.
      try await act(&game, #"{"type":"guess","number":\#(low == secret ? high : low)}"#)
    }
    if !game.isOver { try await act(&game, #"{"type":"guess","number":\#(secret)}"#) }
    return game
  }
}

@Suite("The daily set")
struct DailyTests {
  static let kinds: [GameKind] = [.number, .colorMatch, .bullseye, .guessOrPass, .pictureQuiz]

  @Test(
    "Two players on two instances get the same puzzle of the day; the next day's differs",
    arguments: Database.available)
  func samePuzzle(database: Database) async throws {
    let clock = clockOnFreshDay()
    try await withTwoServers(database, clock: clock) { one, two in
      let ana = try await Player.join(one, name: "Ana")
      let bo = try await Player.join(two, name: "Bo")
      var views: [JSON] = []
      for kind in Self.kinds {
        let a = try await ana.daily(kind)
        let b = try await bo.daily(kind)
        #expect(a.view == b.view, "\(kind)")
        #expect(a.variant == b.variant, "\(kind)")
        #expect(a.daily?["counted"]?.bool == true)
        views.append(a.view)
      }
      // Number: the same hints all the way, and the same secret at the end.
      let numberA = try #require(
        try await ana.get("/api/daily", as: JSON.self)["games"]?.array.first?["gameId"]?.string)
      let numberB = try #require(
        try await bo.get("/api/daily", as: JSON.self)["games"]?.array.first?["gameId"]?.string)
      var a = try await ana.game(numberA)
      var b = try await bo.game(numberB)
      try await ana.finish(&a, clock: clock)
      try await bo.finish(&b, clock: clock)
      #expect(a.summary?["secret"] != nil && a.summary?["secret"] == b.summary?["secret"])
      #expect(a.summary?["guesses"] == b.summary?["guesses"])
      // The next day is another set of puzzles.
      clock.advance(seconds: 86_400)
      var tomorrow: [JSON] = []
      for kind in Self.kinds { tomorrow.append(try await ana.daily(kind).view) }
      #expect(tomorrow != views)
    }
  }

  @Test(
    "A second counted attempt is refused with 409, even sent at once to two instances",
    arguments: Database.available)
  func oneCountedAttempt(database: Database) async throws {
    let clock = clockOnFreshDay()
    try await withTwoServers(database, clock: clock) { one, two in
      let ana = try await Player.join(one)
      let anaThere = Player(client: two, cookie: ana.cookie, id: ana.id)
      let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
        for index in 0..<8 {
          let player = index.isMultiple(of: 2) ? ana : anaThere
          group.addTask { try await player.send(.post, "/api/daily/bullseye", json: "{}") }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let created = responses.filter { $0.status == .created }
      #expect(created.count == 1)
      let startedID = try #require(try created.first.map { try ana.decode($0).id })
      for refused in responses where refused.status != .created {
        #expect(refused.status == .conflict)
        let error = try ana.decode(refused, as: ErrorReply.self)
        #expect(error.error.code == "daily-played")
        #expect(error.error.message.contains("already played today's Bullseye"))
        #expect(error.error.gameId == startedID)
      }
      // Finishing it does not open a second chance either.
      var game = try await ana.game(startedID)
      try await ana.finish(&game, clock: clock)
      let again = try await anaThere.send(.post, "/api/daily/bullseye", json: "{}")
      #expect(again.status == .conflict)
      let overview = try await ana.get("/api/daily")
      let bullseye = overview["games"]?.array.first { $0["game"]?.string == "bullseye" }
      #expect(bullseye?["state"]?.string == "done")
      #expect(bullseye?["score"]?.int == game.score)
    }
  }

  @Test(
    "A past day plays from the archive, as often as wanted, and counts nowhere",
    arguments: Database.available)
  func archive(database: Database) async throws {
    try await withServer(database, clock: clockOnFreshDay()) { client, clock in
      let ana = try await Player.join(client)
      let today = DailyCalendar.day(of: clock.now)
      let yesterday = DailyCalendar.date(today - 1)
      var game = try await ana.daily(.number, date: yesterday)
      #expect(game.daily?["counted"]?.bool == false)
      #expect(game.daily?["date"]?.string == yesterday)
      try await ana.finish(&game, clock: clock)
      let share = try #require(game.daily?["share"]?["text"]?.string)
      #expect(
        share.hasPrefix(
          "Guesswork · Guess the Number #\(DailyCalendar.number(today - 1)) (archive)"))
      // Again: an archive day is never "already played".
      _ = try await ana.daily(.number, date: yesterday)
      for period in ["day", "week", "all"] {
        let board = try await ana.get(
          "/api/daily/number/leaderboard?period=\(period)&date=\(yesterday)")
        // (All time holds every test's players on a shared PostgreSQL.)
        if period != "all" { #expect(board["players"]?.int == 0, "\(period)") }
        #expect(board["you"] == nil, "\(period)")
      }
      let overview = try await ana.get("/api/daily?date=\(yesterday)")
      #expect(overview["games"]?.array.first?["state"]?.string == "new")
      #expect(try await ana.get("/api/me/stats")["daily"] == nil)
      // Days that do not exist yet, or never did, are refused with the reason.
      for (date, code) in [
        (DailyCalendar.date(today + 1), "not-yet"), ("2020-01-01", "before-launch"),
        ("2026-02-30", "invalid-date"), ("yesterday", "invalid-date"),
      ] {
        let response = try await ana.send(.post, "/api/daily/number", json: #"{"date":"\#(date)"}"#)
        #expect(response.status == .badRequest, "\(date)")
        #expect(try ana.decode(response, as: ErrorReply.self).error.code == code, "\(date)")
      }
      let unknown = try await ana.send(.post, "/api/daily/chess", json: "{}")
      #expect(unknown.status == .notFound)
    }
  }

  @Test(
    "The day changes at midnight UTC; streaks count days in a row",
    arguments: Database.available)
  func midnight(database: Database) async throws {
    // One second before midnight.
    try await withServer(database, clock: clockOnFreshDay(secondsIntoDay: 86_399)) {
      client, clock in
      let ana = try await Player.join(client)
      let day = DailyCalendar.day(of: clock.now)
      let before = try await ana.get("/api/daily")
      #expect(before["number"]?.int == DailyCalendar.number(day))
      #expect(before["nextInSeconds"]?.int == 1)
      var game = try await ana.daily(.number)
      clock.advance(seconds: 2)
      // The game started yesterday still counts for yesterday.
      try await ana.finish(&game, clock: clock)
      #expect(game.daily?["date"]?.string == DailyCalendar.date(day))
      let after = try await ana.get("/api/daily")
      #expect(after["date"]?.string == DailyCalendar.date(day + 1))
      #expect(after["number"]?.int == DailyCalendar.number(day) + 1)
      #expect(after["games"]?.array.first?["state"]?.string == "new")
      #expect(after["games"]?.array.first?["streak"]?["current"]?.int == 1)
      var next = try await ana.daily(.number)
      #expect(next.daily?["counted"]?.bool == true)
      try await ana.finish(&next, clock: clock)
      let stats = try await ana.get("/api/me/stats")
      let number = stats["games"]?.array.first
      #expect(number?["daily"]?["current"]?.int == 2)
      #expect(number?["daily"]?["best"]?.int == 2)
      #expect(number?["daily"]?["played"]?.int == 2)
      // The whole set: every game of the day finished.
      #expect(stats["daily"] == nil)
      for kind in Self.kinds.dropFirst() {
        var game = try await ana.daily(kind)
        try await ana.finish(&game, clock: clock)
      }
      #expect(try await ana.get("/api/me/stats")["daily"]?["current"]?.int == 1)
      #expect(try await ana.get("/api/daily")["streak"]?["current"]?.int == 1)
      // A day missed breaks the run; the best stays.
      clock.advance(seconds: 2 * 86_400)
      let later = try await ana.get("/api/me/stats")["games"]?.array.first?["daily"]
      #expect(later?["current"]?.int == 0)
      #expect(later?["best"]?.int == 2)
    }
  }

  @Test(
    "Leaderboards: ties share a rank, and a player always sees their own",
    arguments: Database.available)
  func leaderboards(database: Database) async throws {
    try await withServer(database, clock: clockOnFreshDay()) { client, clock in
      // The first player learns the secret by playing.
      let scout = try await Player.join(client, name: "Scout")
      var first = try await scout.daily(.number)
      try await scout.finish(&first, clock: clock)
      let secret = try #require(first.summary?["secret"]?.int)
      var players: [(Player, Int)] = [(scout, first.score)]
      var names = ["Scout"]
      // Then: two perfect games (7: the daily gives seven attempts), one with a miss (6), and
      // 20 losses (0).
      for (name, wrong) in [("Ana", 0), ("Bo", 0), ("Cy", 1)] + (1...20).map({ ("P\($0)", 7) }) {
        // Ties are listed by who got there first.
        clock.advance(seconds: 1)
        let player = try await Player.join(client, name: name)
        players.append((player, try await player.playNumber(secret: secret, wrong: wrong).score))
        names.append(name)
      }
      #expect(players.map(\.1)[1...3] == [7, 7, 6])
      let scores = players.map(\.1)
      func rank(_ score: Int) -> Int { 1 + scores.filter { $0 > score }.count }
      for (player, score) in players {
        let board = try await player.get("/api/daily/number/leaderboard?period=day")
        #expect(board["players"]?.int == players.count)
        #expect(board["entries"]?.array.count == 20)
        let you = try #require(board["you"])
        #expect(you["score"]?.int == score)
        // Attempts used of the seven, not a bare score.
        #expect(you["result"]?.string == (score > 0 ? "\(8 - score)/7" : "X/7"))
        #expect(you["rank"]?.int == rank(score))
        #expect(you["of"]?.int == players.count)
      }
      let board = try await scout.get("/api/daily/number/leaderboard?period=day")
      let entries = board["entries"]?.array ?? []
      // The best score's players share rank 1, listed in the order they finished: Ana and
      // Bo, and the scout before them in the run (about one in a hundred) in which the
      // scout's first guess was the secret.
      let leaders = zip(names, scores).filter { $0.1 == scores.max() }.map(\.0)
      #expect(leaders.suffix(2) == ["Ana", "Bo"])
      #expect(entries.prefix(leaders.count).map { $0["rank"]?.int } == leaders.map { _ in 1 })
      #expect(entries.prefix(leaders.count).compactMap { $0["name"]?.string } == leaders)
      #expect(entries.map { $0["rank"]?.int ?? 0 } == entries.map { rank($0["score"]?.int ?? 0) })
      // A loser far down still sees where they stand, outside the top 20.
      let last = try await players.last!.0.get("/api/daily/number/leaderboard?period=day")
      #expect(last["entries"]?.array.contains { $0["you"]?.bool == true } == false)
      #expect(last["you"]?["rank"]?.int == rank(0))
      // The week adds days; all time keeps the best day.
      clock.advance(seconds: 86_400)
      let cy = players[3].0
      var second = try await cy.daily(.number)
      try await cy.finish(&second, clock: clock)
      let week = try await cy.get("/api/daily/number/leaderboard?period=week")
      let sameWeek =
        DailyCalendar.week(DailyCalendar.day(of: clock.now))
        == DailyCalendar.week(DailyCalendar.day(of: clock.now) - 1)
      #expect(week["you"]?["score"]?.int == (sameWeek ? 6 : 0) + second.score)
      let allTime = try await cy.get("/api/daily/number/leaderboard?period=all")
      #expect(allTime["you"]?["score"]?.int == max(6, second.score))
      let bad = try await cy.send(.get, "/api/daily/number/leaderboard?period=year")
      #expect(bad.status == .badRequest)
    }
  }

  @Test("Every game's share text tells the result and no answer", arguments: Database.available)
  func shareTexts(database: Database) async throws {
    try await withServer(database, clock: clockOnFreshDay()) { client, clock in
      let ana = try await Player.join(client)
      let number = DailyCalendar.number(DailyCalendar.day(of: clock.now))
      let lines: [GameKind: String] = [
        .number: #"^(⬆️|⬇️|✅)+ (\d|X)/7$"#,
        .colorMatch: #"^(🟩\d+|🟥\d+)( (🟩\d+|🟥\d+))*( …)? · \d+ of \d+ right · score -?\d+$"#,
        .bullseye: #"^[🎯🟩🟨🟧🟥]{5} \d+/500$"#,
        .guessOrPass: #"^✅ 2 guessed · ⏭️ 1 passed$"#,
        .pictureQuiz: #"^[🟩🟥]+ \d+ of (\d+) right · score \d+ of \1$"#,
      ]
      for kind in Self.kinds {
        var game = try await ana.daily(kind)
        #expect(game.daily?["share"] == nil, "no share before the end")
        try await ana.finish(&game, clock: clock)
        let share = try #require(game.daily?["share"])
        let text = try #require(share["text"]?.string)
        let parts = text.split(separator: "\n").map(String.init)
        try #require(parts.count == 3, "\(text)")
        #expect(parts[0].hasPrefix("Guesswork · ") && parts[0].hasSuffix(" #\(number)"))
        #expect(parts[1].wholeMatch(of: try Regex(lines[kind]!)) != nil, "\(kind): \(parts[1])")
        #expect(parts[2] == share["url"]?.string)
        #expect(
          parts[2].hasSuffix(
            "/daily.html?game=\(kind.rawValue)&date=\(game.daily?["date"]?.string ?? "")"))
        // The answers the summary holds appear nowhere in the text.
        let summary = try #require(game.summary)
        var secrets: [String] = []
        for word in (summary["guessed"]?.array ?? []) + (summary["passed"]?.array ?? []) {
          secrets.append(try #require(word.string))
        }
        for miss in summary["missed"]?.array ?? [] {
          secrets += [miss["answerName"]?.string, miss["chosenName"]?.string].compactMap { $0 }
        }
        for round in summary["rounds"]?.array ?? [] {
          if let hex = round["target"]?["hex"]?.string { secrets.append(hex) }
        }
        for secret in secrets where !secret.isEmpty {
          #expect(!text.localizedCaseInsensitiveContains(secret), "\(kind) tells \(secret)")
        }
      }
    }
  }
}
