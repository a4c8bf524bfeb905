import Foundation
import Testing

@testable import GuessworkCore

@Suite("Party rooms: joining, points, simultaneous rounds, teams")
struct RoomTests {
  let t0 = Instant(milliseconds: 1_000_000)

  func at(_ ms: Int64) -> Instant { t0.advanced(by: ms) }

  // MARK: Codes

  @Test("Join codes use no look-alikes and are read in any case")
  func codes() {
    var random = SeededRandom(seed: 7)
    for length in Room.codeLengths {
      for _ in 0..<200 {
        let code = Room.makeCode(length: length, using: &random)
        #expect(code.count == length)
        #expect(code.allSatisfy { !"0O1IL".contains($0) })
        #expect(Room.normalizedCode(code.lowercased()) == code)
      }
    }
    #expect(Room.normalizedCode(" k7qm ") == "K7QM")
    for bad in ["K7Q", "K7QMABC", "K0QM", "KOQM", "K1QM", "KIQM", "KLQM", "K-QM", ""] {
      #expect(Room.normalizedCode(bad) == nil, "\(bad)")
    }
  }

  // MARK: Membership

  @Test("A room holds up to its limit; a player who comes back keeps their place")
  func limit() throws {
    var room = Room(code: "ABCD", host: "h", limit: 2, at: t0)
    try room.join("a", name: "Ana", at: t0)
    try room.join("b", name: "Ben", at: t0)
    #expect(throws: RoomRefusal(.full, ["limit": .int(2)])) {
      try room.join("c", name: "Cy", at: t0)
    }
    // Joining again (a second device, a reload) is not a second place.
    try room.join("a", name: "Ana B.", at: t0)
    #expect(room.present.map(\.name) == ["Ana B.", "Ben"])
    try room.leave("b", at: t0)
    try room.join("c", name: "Cy", at: t0)
    #expect(throws: RoomRefusal(.full, ["limit": .int(2)])) {
      try room.join("b", name: "Ben", at: t0)
    }
    #expect(room.present.map(\.id) == ["a", "c"])
  }

  @Test("Only the host kicks; a kicked player cannot join until readmitted")
  func kicking() throws {
    var room = Room(code: "ABCD", host: "h", at: t0)
    try room.join("a", name: "Ana", at: t0)
    try room.join("b", name: "Ben", at: t0)
    #expect(throws: RoomRefusal(.notHost)) { try room.kick("b", by: "a", at: t0) }
    try room.kick("b", by: "h", at: t0)
    #expect(room.present.map(\.id) == ["a"])
    #expect(throws: RoomRefusal(.kicked)) { try room.join("b", name: "Ben", at: t0) }
    #expect(throws: RoomRefusal(.notKicked)) { try room.readmit("a", by: "h", at: t0) }
    try room.readmit("b", by: "h", at: t0)
    #expect(room.present.map(\.id) == ["a", "b"])
    room.close(at: t0)
    #expect(throws: RoomRefusal(.closed)) { try room.join("c", name: "Cy", at: t0) }
  }

  @Test(
    "The host's role passes to a player while the host is away; only the first host takes it back")
  func handingOver() throws {
    var room = Room(code: "ABCD", host: "h", handoverSeconds: 20, at: t0)
    #expect(room.handoverMs == 20_000)
    try room.join("a", name: "Ana", at: t0)
    try room.join("b", name: "Ben", at: t0)
    #expect(throws: RoomRefusal(.notMember)) { try room.handOver(to: "stranger") }
    #expect(throws: RoomRefusal(.notFirstHost)) { try room.takeBackHosting(by: "h", at: t0) }
    try room.handOver(to: "a")
    #expect(room.host == "a" && room.firstHost == "h" && room.standingInFor == "h")
    // The stand-in hosts, but cannot remove the first host; the others cannot take the role.
    #expect(throws: RoomRefusal(.hostStays)) { try room.kick("h", by: "a", at: t0) }
    #expect(throws: RoomRefusal(.notHost)) { try room.kick("b", by: "h", at: t0) }
    #expect(throws: RoomRefusal(.notFirstHost)) { try room.takeBackHosting(by: "b", at: t0) }
    // A stand-in who goes away passes it on; the first host is still the first.
    try room.handOver(to: "b")
    #expect(room.host == "b" && room.firstHost == "h")
    try room.takeBackHosting(by: "h", at: t0)
    #expect(room.host == "h" && room.standingInFor == nil && room.firstHost == "h")
    // A room stored before hand-overs existed reads with the default time and no stand-in.
    var stored =
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(room)) as! [String: Any]
    #expect(stored["handoverSeconds"] as? Int == 20)
    stored["handoverSeconds"] = nil
    let old = try JSONDecoder().decode(
      Room.self, from: JSONSerialization.data(withJSONObject: stored))
    #expect(old.handoverMs == 60_000 && old.standingInFor == nil && old.host == "h")
  }

  @Test("A locked room takes nobody new, but whoever was in it may come back; only the host locks")
  func locking() throws {
    var room = Room(code: "ABCD", host: "h", at: t0)
    try room.join("a", name: "Ana", at: t0)
    try room.join("b", name: "Ben", at: t0)
    #expect(throws: RoomRefusal(.notHost)) { try room.lock(true, by: "a", at: t0) }
    try room.lock(true, by: "h", at: t0)
    #expect(room.locked)
    #expect(throws: RoomRefusal(.locked)) { try room.join("c", name: "Cy", at: t0) }
    try room.leave("b", at: t0)
    try room.join("b", name: "Ben", at: t0)
    try room.lock(false, by: "h", at: t0)
    try room.join("c", name: "Cy", at: t0)
    #expect(room.present.map(\.id) == ["a", "b", "c"])
    #expect(throws: RoomRefusal(.notHost)) { try room.hideCode(true, by: "b", at: t0) }
    try room.hideCode(true, by: "h", at: t0)
    #expect(room.codeHidden && !Room(code: "ABCD", host: "h", at: t0).codeHidden)
  }

  @Test("Starting needs a chosen game and enough players (a team game: a player per team)")
  func starting() throws {
    var room = Room(code: "ABCD", host: "h", at: t0)
    #expect(throws: RoomRefusal(.noGame)) { _ = try room.start(by: "h", at: t0) }
    try room.choose(
      Room.Choice(kind: GuessOrPassGame.kind, settings: "{}", teams: 3), by: "h", at: t0)
    try room.join("a", name: "Ana", at: t0)
    try room.join("b", name: "Ben", at: t0)
    #expect(throws: RoomRefusal(.tooFewPlayers, ["count": .int(3)])) {
      _ = try room.start(by: "h", needing: 3, at: t0)
    }
    #expect(throws: RoomRefusal(.badChoice, ["low": .int(2), "high": .int(6)])) {
      try room.choose(
        Room.Choice(kind: GuessOrPassGame.kind, settings: "{}", teams: 9), by: "h", at: t0)
    }
    try room.choose(Room.Choice(kind: NumberGame.kind, settings: "{}"), by: "h", at: t0)
    let (choice, players) = try room.start(by: "h", at: t0)
    #expect(choice.kind == NumberGame.kind && players.map(\.id) == ["a", "b"])
    #expect(throws: RoomRefusal(.wrongPhase)) { _ = try room.start(by: "h", at: t0) }
    room.finishGame(at: t0)
    #expect(room.phase == .podium)
    try room.backToLobby(by: "h", at: t0)
    #expect(room.phase == .lobby)
  }

  @Test("A room idle for its time is idle; any change is activity")
  func idle() throws {
    var room = Room(code: "ABCD", host: "h", at: t0)
    #expect(!room.isIdle(at: at(59_999), idleMs: 60_000))
    #expect(room.isIdle(at: at(60_000), idleMs: 60_000))
    try room.join("a", name: "Ana", at: at(50_000))
    #expect(!room.isIdle(at: at(60_000), idleMs: 60_000))
  }

  // MARK: Points

  @Test(
    "A right answer scores 1000 × (1 − t / 2T): 1000 at once, 500 at the limit",
    arguments: [(0, 1000), (10_000, 750), (20_000, 500), (30_000, 500), (-5, 1000), (1, 1000)])
  func speedPoints(elapsed: Int, points: Int) {
    #expect(RoomScoring.speedPoints(elapsedMs: elapsed, limitMs: 20_000) == points)
  }

  @Test("Standings: best first, ties share a rank and the next skips (1, 1, 3)")
  func standings() {
    let ranked = Standing.ranked([("a", 5), ("b", 9), ("c", 5), ("d", 1)])
    #expect(ranked.map(\.id) == ["b", "a", "c", "d"])
    #expect(ranked.map(\.rank) == [1, 2, 2, 4])
  }

  // MARK: Simultaneous rounds

  var deck: [DeckItem] {
    ["cat", "dog", "owl", "fox", "bee", "ant"].map { DeckItem(id: "id-\($0)", name: $0) }
  }

  func quiz(players: [String]) throws -> RoundsMatch<PictureQuizGame> {
    try RoundsMatch<PictureQuizGame>(
      settings: .init(choices: 3, questions: 3), content: deck, seed: 42, players: players,
      at: t0)
  }

  @Test("Everyone gets the same question; the right answer scores by speed, a wrong one 0")
  func quizRound() throws {
    var match = try quiz(players: ["a", "b", "c"])
    let views = match.players.map { match.games[$0]!.view(at: t0) }
    #expect(Set(views.map(\.choices)).count == 1)
    #expect(views[0] == match.screen.view(at: t0))
    let right = match.games["a"]!.questions[0].rightChoice
    let wrong = (right + 1) % 3
    try match.play("a", round: 0, .choose(right), at: at(5_000))
    // Done, "a" cannot answer again; an answer to another round is refused.
    #expect(throws: RoomRefusal(.answered)) {
      try match.play("a", round: 0, .choose(wrong), at: at(5_001))
    }
    #expect(throws: RoomRefusal(.roundClosed)) {
      try match.play("b", round: 1, .choose(wrong), at: at(5_001))
    }
    #expect(throws: RoomRefusal(.notPlaying)) {
      try match.play("z", round: 0, .choose(wrong), at: at(5_001))
    }
    try match.play("b", round: 0, .choose(wrong), at: at(6_000))
    #expect(match.phase == .question)
    // "c" gives no answer: the round closes when its time runs out.
    let early = match.tick(at: at(19_999), active: ["a", "b", "c"])
    #expect(!early)
    let late = match.tick(at: at(20_000), active: ["a", "b", "c"])
    #expect(late)
    #expect(match.phase == .reveal)
    let results = try #require(match.results.last)
    #expect(results["a"] == .init(points: 875, answered: true, elapsedMs: 5_000))
    #expect(results["b"]?.points == 0)
    #expect(results["c"] == .init(points: 0, answered: false, elapsedMs: nil))
    // The screen's copy shows the answer now.
    #expect(match.screen.view(at: at(20_000)).answer?.rightChoice == right)
    #expect(match.standings.map(\.id) == ["a", "b", "c"])
    #expect(match.standings.map(\.rank) == [1, 2, 2])
    try match.next(at: at(21_000))
    #expect(match.phase == .question && match.round == 1)
    #expect(Set(match.players.map { match.games[$0]!.view(at: at(21_000)).choices }).count == 1)
  }

  @Test("A round closes as soon as everyone still in the room has answered")
  func everyoneAnswered() throws {
    var match = try quiz(players: ["a", "b"])
    try match.play("a", round: 0, .choose(0), at: at(1_000))
    // "b" left the room: nobody else is waited for.
    let closed = match.tick(at: at(1_001), active: ["a"])
    #expect(closed)
    #expect(match.phase == .reveal)
  }

  @Test("After the last round the match is over; every game is finished for the statistics")
  func quizToTheEnd() throws {
    var match = try quiz(players: ["a", "b"])
    for round in 0..<3 {
      try match.play("a", round: round, .choose(0), at: at(Int64(round) * 30_000 + 100))
      _ = match.tick(at: at(Int64(round) * 30_000 + 20_000), active: ["a", "b"])
      #expect(match.phase == .reveal)
      try match.next(at: at(Int64(round) * 30_000 + 21_000))
    }
    #expect(match.phase == .over)
    let finished = match.games.values.filter(\.isOver).count
    #expect(finished == 2)
    #expect(throws: RoomRefusal(.wrongPhase)) { try match.next(at: at(200_000)) }
  }

  @Test("Number in a room: a win scores 1000 × (attempts left + 1) / attempts")
  func numberRoom() throws {
    var match = try RoundsMatch<NumberGame>(
      settings: .init(low: 0, high: 99, attempts: 5), content: (), seed: 3, players: ["a"],
      at: t0)
    var low = 0
    var high = 99
    var guesses = 0
    while match.phase == .question {
      let guess = (low + high) / 2
      try match.play("a", round: 0, .guess(guess), at: at(1_000))
      guesses += 1
      _ = match.tick(at: at(1_000), active: ["a"])
      if let hint = match.games["a"]!.view(at: at(1_000)).hint?.key {
        if hint.hasSuffix("higher") { low = guess + 1 } else { high = guess - 1 }
      }
    }
    let game = match.games["a"]!
    let expected = game.phase == .won ? 1000 * (5 - guesses + 1) / 5 : 0
    #expect(match.results[0]["a"]?.points == expected)
  }

  @Test("A timed game's own changes wake the room: Color Match's countdown, then its clock")
  func colorMatchWakes() throws {
    var match = try RoundsMatch<ColorMatchGame>(
      settings: .init(), content: (), seed: 5, players: ["a"], at: t0)
    #expect(match.nextChange(after: t0) == at(ColorMatchGame.countdownMs))
    // Once the first card shows, the next change is the run running out (or the round's end).
    let next = try #require(match.nextChange(after: at(3_000)))
    #expect(next > at(3_000) && next <= match.endsAt)
    _ = match.tick(at: at(3_000), active: ["a"])
    #expect(match.phase == .question)
  }

  @Test(
    "Color Match in a room: one wall clock; fast right answers all score, the run ends for all at once"
  )
  func colorMatchWallClock() throws {
    let players = ["a", "b", "c", "d"]
    var match = try RoundsMatch<ColorMatchGame>(
      settings: .init(duration: 60), content: (), seed: 11, players: players, at: t0)
    let end = at(ColorMatchGame.countdownMs + 60_000)
    #expect(match.endsAt == end)
    var random = SeededRandom(seed: 4)
    // Each player answers every card right, 0.6 to 0.9 s after it shows, until the run is out.
    var next = Dictionary(
      uniqueKeysWithValues: players.map { ($0, at(ColorMatchGame.countdownMs)) })
    var answered: [String: Int] = [:]
    while match.phase == .question {
      let (player, shown) = try #require(
        next.filter { match.doneAt[$0.key] == nil }.min { $0.value < $1.value })
      let now = shown.advanced(by: Int64(600 + random.index(below: 301)))
      _ = match.tick(at: now, active: Set(players))
      guard match.phase == .question, match.doneAt[player] == nil else { break }
      let right = match.games[player]!.current.isMatch
      try match.play(player, round: 0, .answer(match: right, reactionMs: nil), at: now)
      answered[player, default: 0] += 1
      next[player] = now.advanced(by: Int64(ColorMatchGame.Settings().feedbackMs))
    }
    if match.phase == .question { _ = match.tick(at: end, active: Set(players)) }
    #expect(match.phase == .reveal)
    for player in players {
      let result = try #require(match.results[0][player])
      #expect(result.answered)
      #expect(result.points >= 500 * answered[player]!, "every right card scores 500 to 1000")
      #expect(match.doneAt[player] == end, "the run ends at one moment for everyone")
      #expect(match.games[player]!.records.count == answered[player]!)
    }
    // About 60 s / (0.75 s + 0.5 s of feedback): the feedback counts on the wall clock.
    #expect((40...60).contains(answered["a"]!))
  }

  @Test("Color Match in a room: a player who leaves mid-run keeps the cards they answered")
  func colorMatchLeaver() throws {
    var match = try RoundsMatch<ColorMatchGame>(
      settings: .init(duration: 30), content: (), seed: 12, players: ["a", "b"], at: t0)
    let now = at(ColorMatchGame.countdownMs + 800)
    let right = match.games["a"]!.current.isMatch
    try match.play("a", round: 0, .answer(match: right, reactionMs: 700), at: now)
    // "a" leaves; "b" plays on to the end.
    _ = match.tick(at: at(ColorMatchGame.countdownMs + 30_000), active: ["b"])
    #expect(match.phase == .reveal)
    let result = try #require(match.results[0]["a"])
    #expect(result.points == RoomScoring.speedPoints(elapsedMs: 700, limitMs: 2000))
    #expect(match.results[0]["b"]?.points == 0)
  }

  @Test("Bullseye in a room: a colour beyond ΔE 10 scores its points but is not called right")
  func bullseyeRight() throws {
    var match = try RoundsMatch<BullseyeGame>(
      settings: .init(rounds: 1), content: (), seed: 2, players: ["near", "far"], at: t0)
    let target = match.games["near"]!.target
    try match.play("near", round: 0, .check(guess: target), at: at(2_000))
    let far = RGB(r: 255 - target.r, g: 255 - target.g, b: 255 - target.b)
    try match.play("far", round: 0, .check(guess: far), at: at(3_000))
    _ = match.tick(at: at(3_000), active: ["near", "far"])
    #expect(match.games["near"]!.isRoundRight(points: match.results[0]["near"]!.points))
    let farGame = match.games["far"]!
    #expect(farGame.rounds[0].deltaE > 10)
    #expect(!farGame.isRoundRight(points: match.results[0]["far"]!.points))
  }

  // MARK: Teams

  func teams(_ players: [String], teams: Int = 2, onScreen: Bool = false) throws -> TeamMatch<
    GuessOrPassGame
  > {
    try TeamMatch(
      settings: .init(duration: 30), content: WordList(fresh: (1...40).map { "word\($0)" }),
      seed: 9, players: players, teamCount: teams, wordsOnScreen: onScreen, at: t0)
  }

  @Test("Teams are dealt in turn; each player holds the phone once; the holder rotates")
  func teamTurns() throws {
    var match = try teams(["a", "b", "c", "d", "e"])
    #expect(match.teams == [["a", "c", "e"], ["b", "d"]])
    #expect(match.turns == 6)
    var holders: [String] = []
    for turn in 0..<6 {
      holders.append(match.holder)
      _ = match.tick(at: at(Int64(turn + 1) * 100_000))
      #expect(match.phase == .turnOver)
      try match.next(at: at(Int64(turn + 1) * 100_000 + 1))
    }
    #expect(holders == ["a", "b", "c", "d", "e", "b"])
    #expect(match.phase == .over)
  }

  @Test("Only the holder plays; the word goes to the teammates or the screen, never the holder")
  func whoSeesTheWord() throws {
    var match = try teams(["a", "b", "c", "d"])
    #expect(match.holder == "a" && match.team(of: "c") == 0)
    #expect(!match.seesWord("a"))
    #expect(match.seesWord("c"))
    #expect(!match.seesWord("b") && !match.seesWord("d"))
    #expect(!match.seesWord(nil))
    let onScreen = try teams(["a", "b", "c", "d"], onScreen: true)
    #expect(onScreen.seesWord(nil) && !onScreen.seesWord("a") && !onScreen.seesWord("c"))
    #expect(throws: RoomRefusal(.notYourTurn)) { try match.play("c", .guessed, at: at(6_000)) }
    #expect(throws: RoomRefusal(.notPlaying)) { try match.play("z", .guessed, at: at(6_000)) }
    // The countdown first: the game's own refusal.
    #expect(throws: RoomRefusal.self) { try match.play("a", .guessed, at: at(1_000)) }
    try match.play("a", .guessed, at: at(6_000))
    try match.play("a", .pass, at: at(7_000))
    try match.play("a", .guessed, at: at(8_000))
    #expect(match.teamScores == [2, 0])
    try match.play("a", .end, at: at(9_000))
    #expect(match.phase == .turnOver)
    // Once the turn is over, everyone may see its words.
    #expect(match.seesWord("a") && match.seesWord("b"))
    let shown = Set(match.played[0].game.handback.seenWords)
    try match.next(at: at(10_000))
    // The next turn deals the words not yet shown first.
    let first = try #require(match.game.view(at: at(16_000)).word)
    #expect(!shown.contains(first))
    #expect(match.standings.map(\.score) == [2, 2, 0, 0])
    #expect(match.standings.map(\.rank) == [1, 1, 3, 3])
  }

  @Test("Between turns the next team and holder are known; teams rank with ties shared")
  func teamPodium() throws {
    var match = try teams(["a", "b", "c", "d"])
    #expect(match.upNext == nil, "nothing is next during a turn")
    try match.play("a", .guessed, at: at(6_000))
    try match.play("a", .end, at: at(7_000))
    let next = try #require(match.upNext)
    #expect(next.team == 1 && next.holder == "b")
    #expect(match.teamStandings.map(\.id) == ["0", "1"])
    #expect(match.teamStandings.map(\.rank) == [1, 2])
    try match.next(at: at(8_000))
    try match.play("b", .guessed, at: at(14_000))
    try match.play("b", .end, at: at(15_000))
    #expect(match.upNext?.team == 0 && match.upNext?.holder == "c")
    #expect(match.teamStandings.map(\.rank) == [1, 1], "a tie shares first place")
  }
}
