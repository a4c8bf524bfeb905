import Foundation
import Logging
import NIOPosix
import SQLKit
import Testing

@testable import GuessworkStore

/// The databases the contract runs against: always SQLite in a temporary file, and the
/// PostgreSQL that `scripts/test` starts (its URL in `GUESSWORK_TEST_POSTGRES_URL`).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite
  case postgres

  static var postgresURL: String? {
    ProcessInfo.processInfo.environment["GUESSWORK_TEST_POSTGRES_URL"].flatMap {
      $0.isEmpty ? nil : $0
    }
  }

  /// The backends available here. PostgreSQL missing is said loudly, and is a failure when
  /// `GUESSWORK_REQUIRE_POSTGRES=1` (as `scripts/test` sets it).
  static var available: [Backend] {
    if postgresURL == nil {
      FileHandle.standardError.write(
        Data(
          """
          ************************************************************************
          PostgreSQL contract tests SKIPPED: GUESSWORK_TEST_POSTGRES_URL is not set.
          Run scripts/test, which starts a throwaway PostgreSQL cluster.
          ************************************************************************

          """.utf8))
      return [.sqlite]
    }
    return allCases
  }

  var testDescription: String { rawValue }

  /// Opens a store with a fresh database (SQLite) or the shared test database (PostgreSQL;
  /// tests use fresh ids so they never collide).
  func open() async throws -> SQLStore {
    try await SQLStore.open(newLocation(), logger: Self.logger)
  }

  /// A fresh SQLite file, or the shared test PostgreSQL.
  func newLocation() -> StoreLocation {
    switch self {
    case .sqlite:
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("guesswork-store-\(UUID().uuidString)")
      return .sqlite(path: folder.appendingPathComponent("test.sqlite").path)
    case .postgres:
      return .postgres(url: Self.postgresURL!)
    }
  }

  static let logger = Logger(label: "store-tests")
}

/// Runs `body` with a store opened on `backend`, closing it afterwards.
func withStore(
  _ backend: Backend, _ body: (SQLStore) async throws -> Void
) async throws {
  let store = try await backend.open()
  do {
    try await body(store)
  } catch {
    try await store.close()
    throw error
  }
  try await store.close()
}

func newPlayer(_ store: SQLStore, name: String = "Ana") async throws -> PlayerRecord {
  let player = PlayerRecord(id: UUID().uuidString, name: name, createdAt: 1_000)
  try await store.insertPlayer(player, tokenHash: UUID().uuidString)
  return player
}

func newGame(_ store: SQLStore, player: PlayerRecord, seed: UInt64 = 7) async throws -> GameRecord {
  let game = gameRecord(player: player, seed: seed)
  try await store.insertGame(game)
  return game
}

/// A new Number game of `player`'s, not yet stored.
func gameRecord(player: PlayerRecord, seed: UInt64 = 7) -> GameRecord {
  GameRecord(
    id: UUID().uuidString, playerID: player.id, kind: "number", settings: #"{"attempts":5}"#,
    seed: seed, state: #"{"v":0}"#, createdAt: 2_000)
}

@Suite("Store contract")
struct StoreContractTests {
  @Test("PostgreSQL is there when the test script requires it")
  func postgresPresentWhenRequired() {
    if ProcessInfo.processInfo.environment["GUESSWORK_REQUIRE_POSTGRES"] == "1" {
      #expect(Backend.postgresURL != nil, "scripts/test should have started PostgreSQL")
    }
  }

  @Test(
    "Migrations run once, are recorded, and opening again changes nothing",
    arguments: Backend.available)
  func migrationsAreIdempotent(backend: Backend) async throws {
    try await withStore(backend) { store in
      let applied = try await store.appliedMigrations()
      #expect(applied == Array(1...13))
    }
    try await withStore(backend) { store in
      let applied = try await store.appliedMigrations()
      #expect(applied == Array(1...13))
    }
  }

  @Test(
    "A player is found by token hash and by id, and nothing else finds it",
    arguments: Backend.available)
  func playersByTokenHash(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = PlayerRecord(id: UUID().uuidString, name: "Ana", createdAt: 5)
      let hash = UUID().uuidString
      try await store.insertPlayer(player, tokenHash: hash)
      #expect(try await store.player(tokenHash: hash) == player)
      #expect(try await store.player(id: player.id) == player)
      #expect(try await store.player(tokenHash: "no such hash") == nil)
      #expect(try await store.player(id: UUID().uuidString) == nil)
    }
  }

  @Test("Two players cannot share a token hash", arguments: Backend.available)
  func tokenHashIsUnique(backend: Backend) async throws {
    try await withStore(backend) { store in
      let hash = UUID().uuidString
      try await store.insertPlayer(
        PlayerRecord(id: UUID().uuidString, name: "A", createdAt: 1), tokenHash: hash)
      await #expect(throws: (any Error).self) {
        try await store.insertPlayer(
          PlayerRecord(id: UUID().uuidString, name: "B", createdAt: 1), tokenHash: hash)
      }
    }
  }

  @Test(
    "A player has a token per device: added, replaced and removed one by one",
    arguments: Backend.available)
  func tokensPerDevice(backend: Backend) async throws {
    try await withStore(backend) { store in
      let first = UUID().uuidString
      let player = PlayerRecord(id: UUID().uuidString, name: "Tess", createdAt: 1)
      try await store.insertPlayer(player, tokenHash: first)
      let second = UUID().uuidString
      try await store.addToken(playerID: player.id, tokenHash: second, at: 2)
      #expect(try await store.player(tokenHash: first)?.id == player.id)
      #expect(try await store.player(tokenHash: second)?.id == player.id)
      let third = UUID().uuidString
      #expect(try await store.replaceToken(second, with: third, at: 3))
      #expect(try await store.player(tokenHash: second) == nil)
      #expect(try await store.player(tokenHash: third)?.id == player.id)
      #expect(try await store.replaceToken(second, with: UUID().uuidString, at: 4) == false)
      try await store.removeToken(first)
      #expect(try await store.player(tokenHash: first) == nil)
      #expect(try await store.player(tokenHash: third)?.id == player.id)
    }
  }

  @Test(
    "A sign-in code is read without being used, used once, and never after it expires",
    arguments: Backend.available)
  func linkCodes(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let code = UUID().uuidString
      try await store.insertLinkCode(hash: code, playerID: player.id, expiresAt: 1_000)
      #expect(try await store.linkCodePlayer(hash: code, at: 10) == player.id)
      #expect(try await store.linkCodePlayer(hash: code, at: 10) == player.id)
      #expect(try await store.useLinkCode(hash: "no such code", at: 10) == nil)
      // Ten uses at once: exactly one gets the player.
      let uses = try await withThrowingTaskGroup(of: String?.self) { group in
        for _ in 0..<10 { group.addTask { try await store.useLinkCode(hash: code, at: 20) } }
        return try await group.reduce(into: [String?]()) { $0.append($1) }
      }
      #expect(uses.compactMap { $0 } == [player.id])
      #expect(try await store.linkCodePlayer(hash: code, at: 30) == nil)
      let late = UUID().uuidString
      try await store.insertLinkCode(hash: late, playerID: player.id, expiresAt: 1_000)
      #expect(try await store.linkCodePlayer(hash: late, at: 1_000) == nil)
      #expect(try await store.useLinkCode(hash: late, at: 1_000) == nil)
      #expect(try await store.useLinkCode(hash: late, at: 999) == player.id)
    }
  }

  @Test(
    "Updating a player changes name and preferences; an unknown id changes nothing",
    arguments: Backend.available)
  func updatePlayer(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      #expect(
        try await store.updatePlayer(
          id: player.id, name: "Bea", preferences: #"{"inputMode":"tilts"}"#, at: 9))
      let updated = try #require(try await store.player(id: player.id))
      #expect(updated.name == "Bea")
      #expect(updated.preferences == #"{"inputMode":"tilts"}"#)
      #expect(
        try await store.updatePlayer(id: UUID().uuidString, name: "X", preferences: "{}", at: 9)
          == false)
    }
  }

  @Test("An avatar is stored, replaced, and read back byte for byte", arguments: Backend.available)
  func avatars(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      #expect(try await store.avatar(playerID: player.id) == nil)
      let first = Avatar(contentType: "image/png", data: Data([0x89, 0x50, 0x4E, 0x47, 0, 255]))
      try await store.setAvatar(playerID: player.id, first, at: 1)
      #expect(try await store.avatar(playerID: player.id) == first)
      #expect(try await store.player(id: player.id)?.hasAvatar == true)
      let second = Avatar(contentType: "image/jpeg", data: Data(repeating: 0xAB, count: 200_000))
      try await store.setAvatar(playerID: player.id, second, at: 2)
      #expect(try await store.avatar(playerID: player.id) == second)
    }
  }

  @Test(
    "A game reads back exactly as stored, even a seed above Int64.max", arguments: Backend.available
  )
  func gameRoundTrip(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let game = try await newGame(store, player: player, seed: UInt64.max - 3)
      #expect(try await store.game(id: game.id) == game)
      #expect(try await store.game(id: UUID().uuidString) == nil)
    }
  }

  @Test("A game needs an existing player", arguments: Backend.available)
  func gameNeedsPlayer(backend: Backend) async throws {
    try await withStore(backend) { store in
      await #expect(throws: (any Error).self) {
        try await store.insertGame(
          GameRecord(
            id: UUID().uuidString, playerID: UUID().uuidString, kind: "number", settings: "{}",
            seed: 1, state: "{}", createdAt: 1))
      }
    }
  }

  @Test("A move stores the new state and its action together", arguments: Backend.available)
  func moveStoresStateAndAction(backend: Backend) async throws {
    try await withStore(backend) { store in
      let game = try await newGame(store, player: try await newPlayer(store))
      let move = Move(
        gameID: game.id, version: 1, state: #"{"v":1}"#, at: 3_000, action: #"{"type":"clear"}"#)
      #expect(try await store.saveMove(move, expectedVersion: 0))
      let stored = try #require(try await store.game(id: game.id))
      #expect(stored.version == 1)
      #expect(stored.state == #"{"v":1}"#)
      #expect(stored.updatedAt == 3_000)
      #expect(
        try await store.actions(gameID: game.id) == [
          ActionRecord(gameID: game.id, version: 1, action: #"{"type":"clear"}"#, at: 3_000)
        ])
    }
  }

  @Test(
    "A game's actions go with it, whether the game or its player is deleted",
    arguments: Backend.available)
  func actionsGoWithTheirGame(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let games = [
        try await newGame(store, player: player, seed: 1),
        try await newGame(store, player: player, seed: 2),
        try await newGame(store, player: player, seed: 3),
      ]
      let kept = try await newGame(store, player: try await newPlayer(store, name: "Bo"))
      for game in games + [kept] {
        for version in 1...2 {
          let move = Move(
            gameID: game.id, version: version, state: #"{"v":\#(version)}"#, at: 3_000,
            action: #"{"type":"clear"}"#)
          #expect(try await store.saveMove(move, expectedVersion: version - 1))
        }
        #expect(try await store.actions(gameID: game.id).count == 2)
      }
      // Nothing the server does deletes a game; an operator may, in SQL.
      try await store.writing { db in
        try await db.raw("DELETE FROM games WHERE id = \(bind: games[0].id)").run()
      }
      #expect(try await store.actions(gameID: games[0].id).isEmpty)
      #expect(try await store.actions(gameID: games[1].id).count == 2)
      try await store.writing { db in
        try await db.raw("DELETE FROM players WHERE id = \(bind: player.id)").run()
      }
      // (Counted in SQL: a SQLite store keeps the games it wrote last, and a delete made
      // beside it is not one of its writes.)
      let left = try await store.session { db in
        try await db.raw("SELECT COUNT(*) AS n FROM games WHERE player_id = \(bind: player.id)")
          .first(decodingColumn: "n", as: Int.self)
      }
      #expect(left == 0)
      for game in games { #expect(try await store.actions(gameID: game.id).isEmpty) }
      #expect(try await store.actions(gameID: kept.id).count == 2)
    }
  }

  @Test("A move on a stale version is refused and changes nothing", arguments: Backend.available)
  func staleMoveChangesNothing(backend: Backend) async throws {
    try await withStore(backend) { store in
      let game = try await newGame(store, player: try await newPlayer(store))
      #expect(
        try await store.saveMove(
          Move(gameID: game.id, version: 1, state: "a", at: 1, action: "x"), expectedVersion: 0))
      #expect(
        try await store.saveMove(
          Move(gameID: game.id, version: 1, state: "b", at: 2, action: "y"), expectedVersion: 0)
          == false)
      #expect(try await store.game(id: game.id)?.state == "a")
      #expect(try await store.actions(gameID: game.id).map(\.action) == ["x"])
    }
  }

  @Test(
    "Of many concurrent moves on one version, exactly one is stored", arguments: Backend.available)
  func concurrentMovesOneWins(backend: Backend) async throws {
    try await withStore(backend) { store in
      let game = try await newGame(store, player: try await newPlayer(store))
      let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
        for attempt in 0..<8 {
          group.addTask {
            try await store.saveMove(
              Move(gameID: game.id, version: 1, state: "s\(attempt)", at: 1, action: "a\(attempt)"),
              expectedVersion: 0)
          }
        }
        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
      #expect(wins == 1)
      #expect(try await store.actions(gameID: game.id).count == 1)
    }
  }

  @Test(
    "Writes at once commit independently: a failing one fails alone, the rest land in the database",
    arguments: Backend.available)
  func concurrentWritesAreIndependent(backend: Backend) async throws {
    let location = backend.newLocation()
    let store = try await SQLStore.open(location, logger: Backend.logger)
    let player = try await newPlayer(store)
    var games: [GameRecord] = []
    for _ in 0..<12 { games.append(try await newGame(store, player: player)) }
    let moves = 6
    let refused = try await withThrowingTaskGroup(of: Int.self) { group in
      for game in games {
        group.addTask {
          for version in 1...moves {
            let move = Move(
              gameID: game.id, version: version, state: "\(game.id) \(version)", at: Int64(version),
              action: "a\(version)")
            let saved = try await store.saveMove(move, expectedVersion: version - 1)
            #expect(saved)
          }
          return 0
        }
        // Alongside, writes that must fail: games of nobody.
        group.addTask {
          let orphan = GameRecord(
            id: UUID().uuidString, playerID: UUID().uuidString, kind: "number", settings: "{}",
            seed: 1, state: "{}", createdAt: 1)
          do {
            try await store.insertGame(orphan)
            return 0
          } catch {
            return 1
          }
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(refused == games.count, "every game without a player is refused")
    try await store.close()
    // A second connection, with nothing in memory, reads what was committed.
    let reader = try await SQLStore.open(location, logger: Backend.logger)
    for game in games {
      let stored = try #require(try await reader.game(id: game.id))
      #expect(stored.version == moves)
      #expect(stored.state == "\(game.id) \(moves)")
      #expect(
        try await reader.actions(gameID: game.id).map(\.action) == (1...moves).map { "a\($0)" })
    }
    try await reader.close()
  }

  @Test(
    "Reads at once each get their own game (or none), never older than a move committed before",
    arguments: Backend.available)
  func concurrentReadsSeeTheirOwnGames(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      var games: [GameRecord] = []
      for _ in 0..<16 { games.append(try await newGame(store, player: player)) }
      let moves = 5
      try await withThrowingTaskGroup(of: Void.self) { group in
        for game in games {
          // Each game moves on while it is read: a read after a move sees that move or a later.
          group.addTask {
            for version in 1...moves {
              let move = Move(
                gameID: game.id, version: version, state: "\(game.id) \(version)",
                at: Int64(version), action: "a\(version)")
              let saved = try await store.saveMove(move, expectedVersion: version - 1)
              #expect(saved)
              let read = try #require(try await store.game(id: game.id))
              #expect(read.id == game.id)
              #expect(read.version >= version)
              #expect(read.state == "\(game.id) \(read.version)")
            }
          }
          group.addTask {
            let unknown = try await store.game(id: UUID().uuidString)
            let known = try await store.game(id: game.id)
            #expect(unknown == nil)
            #expect(known?.playerID == player.id)
          }
        }
        try await group.waitForAll()
      }
    }
  }

  @Test(
    "New games at once within a limit: exactly as many are stored as the limit has places",
    arguments: Backend.available)
  func unfinishedLimitHoldsAtOnce(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      for _ in 0..<3 { _ = try await newGame(store, player: player) }
      let limit = UnfinishedLimit(count: 8, since: 0)
      let ids = try await withThrowingTaskGroup(of: String?.self) { group in
        for _ in 0..<20 {
          group.addTask {
            let game = gameRecord(player: player)
            return try await store.insertGame(game, within: limit) ? game.id : nil
          }
        }
        return try await group.reduce(into: [String]()) { ids, id in id.map { ids.append($0) } }
      }
      #expect(ids.count == 5)
      for id in ids { #expect(try await store.game(id: id) != nil) }
      #expect(try await !store.insertGame(gameRecord(player: player), within: limit))
    }
  }

  @Test(
    "New games at once from two instances within a limit: as many are stored as it has places",
    .enabled(if: Backend.postgresURL != nil))
  func unfinishedLimitHoldsAcrossInstances() async throws {
    let instances = [try await Backend.postgres.open(), try await Backend.postgres.open()]
    do {
      // Each instance's batches wait for the player's lock while the other's commit: the
      // games those commit must be counted. Several players, for several chances to race.
      for _ in 0..<5 {
        let player = try await newPlayer(instances[0])
        let limit = UnfinishedLimit(count: 8, since: 0)
        let stored = try await withThrowingTaskGroup(of: Int.self) { group in
          for index in 0..<24 {
            group.addTask {
              let store = instances[index % 2]
              return try await store.insertGame(gameRecord(player: player), within: limit) ? 1 : 0
            }
          }
          return try await group.reduce(0, +)
        }
        #expect(stored == 8)
        let ids = try await instances[1].unfinishedGameIDs(
          kinds: ["number"], since: 0, playerID: player.id, limit: 100)
        #expect(ids.count == 8)
      }
    } catch {
      for store in instances { try await store.close() }
      throw error
    }
    for store in instances { try await store.close() }
  }

  @Test(
    "A new game's and a finished game's questions: unfinished games, the best of each variant since a mark",
    arguments: Backend.available)
  func unfinishedGamesAndRecentBests(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let other = try await newPlayer(store, name: "Ben")
      var finished: [(id: String, variant: String?, score: Int, at: Int64)] = []
      for (index, (variant, score)) in [("a", 30), ("a", 70), ("b", 50), (nil, 20), ("b", 90)]
        .enumerated()
      {
        let game = GameRecord(
          id: "g\(index)-\(UUID().uuidString)", playerID: player.id, kind: "quiz",
          variant: variant, settings: "{}", seed: 1, state: "{}", createdAt: 2_000)
        try await store.insertGame(game)
        let at = Int64(10_000 + index * 1_000)
        let move = Move(
          gameID: game.id, version: 1, state: "end", at: at, action: nil,
          finished: .init(at: at, score: score, summary: "{}"))
        #expect(try await store.saveMove(move, expectedVersion: 0))
        finished.append((game.id, variant, score, at))
      }
      // Games of another kind, of another player, and one still in play do not count.
      _ = try await newGame(store, player: player)
      let elsewhere = GameRecord(
        id: UUID().uuidString, playerID: other.id, kind: "quiz", variant: "a", settings: "{}",
        seed: 1, state: "{}", createdAt: 2_000)
      try await store.insertGame(elsewhere)
      // A new game within a limit: the player has one game in play created after 1,000,
      // none after 2,000; the other player one.
      let refused = gameRecord(player: player)
      #expect(try await !store.insertGame(refused, within: .init(count: 1, since: 1_000)))
      #expect(try await store.game(id: refused.id) == nil)
      #expect(
        try await store.insertGame(
          gameRecord(player: player), within: .init(count: 1, since: 2_000)))
      #expect(
        try await !store.insertGame(gameRecord(player: other), within: .init(count: 1, since: 0)))
      #expect(
        try await store.insertGame(gameRecord(player: other), within: .init(count: 2, since: 0)))

      let all = try await store.recentBests(
        playerID: player.id, kind: "quiz", after: nil, finishedBy: 20_000,
        excluding: finished[4].id)
      #expect(all == ["a": 70, "b": 50, nil: 20])
      let byTheThird = try await store.recentBests(
        playerID: player.id, kind: "quiz", after: nil, finishedBy: finished[2].at,
        excluding: "none")
      #expect(byTheThird == ["a": 70, "b": 50])
      let mark = TallyMark(finishedAt: finished[1].at, gameID: finished[1].id)
      let sinceMark = try await store.recentBests(
        playerID: player.id, kind: "quiz", after: mark, finishedBy: 20_000, excluding: "none")
      #expect(sinceMark == ["b": 90, nil: 20])
      let otherKind = try await store.recentBests(
        playerID: player.id, kind: "number", after: nil, finishedBy: 20_000, excluding: "none")
      #expect(otherKind.isEmpty)
      #expect(try await store.statsTally(playerID: player.id) == nil)
      try await store.saveStatsTally(
        playerID: player.id, StoredTally(mark: mark, tallies: #"{"quiz":"t"}"#), at: 30_000)
      #expect(
        try await store.statsTally(playerID: player.id)
          == StoredTally(mark: mark, tallies: #"{"quiz":"t"}"#))
    }
  }

  @Test(
    "A finished game records its score and accepts no further move", arguments: Backend.available)
  func finishedGamesAreFinal(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let game = try await newGame(store, player: player)
      let finished = GameRecord.Finished(at: 4_000, score: 42, summary: #"{"won":true}"#)
      #expect(
        try await store.saveMove(
          Move(
            gameID: game.id, version: 1, state: "end", at: 4_000, action: nil, finished: finished),
          expectedVersion: 0))
      #expect(try await store.game(id: game.id)?.finished == finished)
      #expect(try await store.actions(gameID: game.id).isEmpty, "a tick stores no action")
      #expect(
        try await store.saveMove(
          Move(gameID: game.id, version: 2, state: "more", at: 5_000, action: "x"),
          expectedVersion: 1) == false)
    }
  }

  @Test(
    "A player's finished games come oldest first, unfinished ones left out",
    arguments: Backend.available)
  func finishedGamesList(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let other = try await newPlayer(store, name: "Other")
      var ids: [String] = []
      for (index, score) in [3, 1, 2].enumerated() {
        let game = try await newGame(store, player: player)
        ids.append(game.id)
        let finished = GameRecord.Finished(at: Int64(10 + index), score: score, summary: "{}")
        _ = try await store.saveMove(
          Move(gameID: game.id, version: 1, state: "e", at: 1, action: nil, finished: finished),
          expectedVersion: 0)
      }
      _ = try await newGame(store, player: player)
      let othersGame = try await newGame(store, player: other)
      _ = try await store.saveMove(
        Move(
          gameID: othersGame.id, version: 1, state: "e", at: 1, action: nil,
          finished: .init(at: 1, score: 9, summary: "{}")), expectedVersion: 0)
      let finished = try await store.finishedGames(playerID: player.id, after: nil)
      #expect(finished.map(\.gameID) == ids)
      #expect(finished.map(\.score) == [3, 1, 2])
    }
  }

  @Test(
    "A deck is stored with its pictures, replaced whole, and its pictures read back",
    arguments: Backend.available)
  func decks(backend: Backend) async throws {
    try await withStore(backend) { store in
      let id = "deck-\(UUID().uuidString.prefix(8).lowercased())"
      let pictures = (0..<3).map {
        StoredPicture(id: "\(id)-p\($0)", contentType: "image/png", data: Data([0x89, UInt8($0)]))
      }
      try await store.replaceDeck(id: id, manifest: #"{"v":1}"#, pictures: pictures, at: 1)
      #expect(try await store.importedDecks()[id] == #"{"v":1}"#)
      #expect(try await store.picture(id: pictures[1].id) == pictures[1])
      try await store.replaceDeck(id: id, manifest: #"{"v":2}"#, pictures: [pictures[0]], at: 2)
      #expect(try await store.importedDecks()[id] == #"{"v":2}"#)
      #expect(try await store.picture(id: "no such picture") == nil)
    }
  }

  @Test(
    "A daily game is claimed once; its result is recorded once, on three boards, with ranks",
    arguments: Backend.available)
  func dailyPlaysAndBoards(backend: Backend) async throws {
    try await withStore(backend) { store in
      // A kind of its own: the test PostgreSQL is shared.
      let kind = "test-\(UUID().uuidString.prefix(8).lowercased())"
      let periods = DailyPeriods(day: "d1", week: "w1", allTime: "all")
      var players: [PlayerRecord] = []
      for (index, score) in [7, 9, 7, 3].enumerated() {
        let player = try await newPlayer(store, name: "P\(index)")
        players.append(player)
        let game = GameRecord(
          id: UUID().uuidString, playerID: player.id, kind: kind, settings: "{}", seed: 1,
          state: "{}", createdAt: 2_000, daily: DailyTag(day: 1, counted: true))
        try await store.insertDailyGame(game, day: 1)
        // A second claim of the same day inserts nothing, not even its game.
        var second = game
        second.id = UUID().uuidString
        await #expect(throws: StoreError.self) { try await store.insertDailyGame(second, day: 1) }
        #expect(try await store.game(id: second.id) == nil)
        #expect(try await store.game(id: game.id)?.daily == DailyTag(day: 1, counted: true))
        _ = try await store.saveMove(
          Move(
            gameID: game.id, version: 1, state: "{}", at: Int64(3_000 + index), action: nil,
            finished: .init(at: Int64(3_000 + index), score: score, summary: "{}")),
          expectedVersion: 0)
        #expect(try await store.unrecordedDailies(playerID: player.id).map(\.gameID) == [game.id])
        #expect(
          try await store.recordDaily(
            gameID: game.id, score: score, at: Int64(3_000 + index), periods: periods, sets: 1))
        #expect(
          try await store.recordDaily(
            gameID: game.id, score: score, at: 4_000, periods: periods, sets: 1) == false)
        #expect(try await store.unrecordedDailies(playerID: player.id).isEmpty)
      }
      let board = try await store.leaderboard(
        kind: kind, period: "d1", playerID: players[3].id, limit: 3)
      #expect(board.entries.map(\.rank) == [1, 2, 2])
      #expect(board.entries.map(\.name) == ["P1", "P0", "P2"])
      #expect(board.players == 4)
      #expect(board.mine?.rank == 4 && board.mine?.score == 3)
      let mine = try await store.dailyPlays(playerID: players[0].id, day: 1)
      #expect(mine.map(\.score) == [7])
      #expect(try await store.dailyStreaks(playerID: players[0].id)[kind]?.current == 1)
      #expect(try await store.dailyStreaks(playerID: players[0].id)[DailyStreak.wholeSet] != nil)
      #expect(try await store.isOnLeaderboard(playerID: players[0].id))
      #expect(try await store.isOnLeaderboard(playerID: UUID().uuidString) == false)
    }
  }

  @Test("A statistics tally only moves forward", arguments: Backend.available)
  func tallies(backend: Backend) async throws {
    try await withStore(backend) { store in
      let player = try await newPlayer(store)
      let later = StoredTally(mark: TallyMark(finishedAt: 20, gameID: "b"), tallies: "later")
      let earlier = StoredTally(mark: TallyMark(finishedAt: 20, gameID: "a"), tallies: "earlier")
      #expect(try await store.statsTally(playerID: player.id) == nil)
      try await store.saveStatsTally(playerID: player.id, later, at: 1)
      try await store.saveStatsTally(playerID: player.id, earlier, at: 2)
      #expect(try await store.statsTally(playerID: player.id) == later)
    }
  }

  @Test("The database answers a ping", arguments: Backend.available)
  func ping(backend: Backend) async throws {
    try await withStore(backend) { store in try await store.ping() }
  }
}

@Suite("SQLite's write-ahead log")
struct SQLiteLogTests {
  /// The writer copies the log back into the database itself (SQLite's automatic checkpoint
  /// is replaced so that it runs after a batch is answered, not inside its commit): the log
  /// must still stop growing, and what went through it must all be in the database, whether the
  /// writes come from an event loop (their batches committed there, the checkpoints handed to
  /// the writer's thread) or not.
  @Test(arguments: [false, true])
  func theLogIsCopiedBackAndStaysBounded(fromALoop: Bool) async throws {
    let location = Backend.sqlite.newLocation()
    guard case .sqlite(let path) = location else { return }
    let store = try await SQLStore.open(location, logger: Backend.logger)
    let player = try await newPlayer(store)
    // Each game's state fills four pages, and its row a fifth: three times the pages after
    // which the writer copies the log back would make a log three times that long if it
    // were never copied back.
    let state = String(repeating: "x", count: 4 * 4096)
    let pages = SQLiteWriterConnection.checkpointPages
    var ids: [String] = []
    for round in 0..<(3 * pages / 5) {
      let game = GameRecord(
        id: UUID().uuidString, playerID: player.id, kind: "number", settings: "{}",
        seed: UInt64(round), state: #"{"pad":"\#(state)"}"#, createdAt: 2_000)
      if fromALoop {
        try await withTaskExecutorPreference(
          OnEventLoop(MultiThreadedEventLoopGroup.singleton.next())
        ) {
          try await store.insertGame(game)
        }
      } else {
        try await store.insertGame(game)
      }
      ids.append(game.id)
    }
    // Measured before closing: the last connection to close removes the log.
    let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
    #expect(log < 2 * pages * (4096 + 24), "the log is \(log) bytes")
    try await store.close()
    let reopened = try await SQLStore.open(location, logger: Backend.logger)
    for id in [ids[0], ids[ids.count / 2], ids[ids.count - 1]] {
      #expect(try await reopened.game(id: id)?.state.count == state.count + 10)
    }
    try await reopened.close()
  }
}
