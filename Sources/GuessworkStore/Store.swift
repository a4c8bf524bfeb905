public import Foundation

/// Where Guesswork keeps its data. The store knows games only as encoded state: it never
/// decodes a game, so it needs nothing from the core.
///
/// One protocol, one implementation over SQLKit (``SQLStore``) that runs on SQLite and on
/// PostgreSQL with the same schema and the same queries; the contract tests run against both.
public protocol GuessworkStore: Sendable {
  /// A cheap query that succeeds when the database answers.
  func ping() async throws

  // MARK: Players

  /// A new player, signed in on one device with the token `tokenHash` names.
  func insertPlayer(_ player: PlayerRecord, tokenHash: String) async throws
  func player(tokenHash: String) async throws -> PlayerRecord?
  func player(id: String) async throws -> PlayerRecord?
  /// Changes the name and preferences of a player; `false` when there is no such player.
  @discardableResult
  func updatePlayer(id: String, name: String, preferences: String, at: Int64) async throws -> Bool
  /// Keeps a one-use sign-in code (its hash) for a player until `expiresAt`.
  func insertLinkCode(hash: String, playerID: String, expiresAt: Int64) async throws
  /// The player a sign-in code signs in as, while it is unused and unexpired; it stays unused.
  func linkCodePlayer(hash: String, at now: Int64) async throws -> String?
  /// Uses a sign-in code: its player, once (of two uses at once, one gets `nil`).
  func useLinkCode(hash: String, at now: Int64) async throws -> String?
  /// Deletes the link codes that expired by `now` (used or not).
  func deleteExpiredLinkCodes(at now: Int64) async throws
  /// The ids of the unfinished games of `kinds` created since `since` (of one player, or of
  /// everyone), oldest first, at most `limit`.
  func unfinishedGameIDs(kinds: [String], since: Int64, playerID: String?, limit: Int)
    async throws -> [String]
  /// Signs one more device in as a player (a player has a token per device).
  func addToken(playerID: String, tokenHash: String, at now: Int64) async throws
  /// Signs the device with this token out: the token signs nothing in any more.
  func removeToken(_ tokenHash: String) async throws
  /// Gives the device with token `old` the token `new` instead; `false` when `old` is unknown.
  func replaceToken(_ old: String, with new: String, at now: Int64) async throws -> Bool
  func setAvatar(playerID: String, _ avatar: Avatar, at: Int64) async throws
  func avatar(playerID: String) async throws -> Avatar?

  // MARK: Games

  /// Stores a new game. Within a `limit`, only while its player has fewer unfinished games
  /// than it allows, counted in the transaction that inserts it, so that of two new games at
  /// once only one can take the last place: `false`, and nothing stored, when they have that
  /// many.
  func insertGame(_ game: GameRecord, within limit: UnfinishedLimit?) async throws -> Bool
  func game(id: String) async throws -> GameRecord?
  /// The game `id` to start a move from: as ``game(id:)``, except that with several
  /// instances on one database it may be the version this instance last wrote, behind the
  /// stored one. A move made from it is then refused by ``saveMove(_:expectedVersion:)``, so
  /// it never overwrites a newer version; a caller that sees a version other than it expects
  /// asks ``game(id:)`` before answering.
  func gameToMove(id: String) async throws -> GameRecord?
  /// The live games kept in memory, for the metrics.
  func liveGamesCached() -> CacheSize
  /// Stores a game's new state and, when there is one, the action that led to it, in one
  /// transaction, provided the stored version is still `expectedVersion`. Returns `false` and
  /// changes nothing when it is not (someone else moved first).
  func saveMove(_ move: Move, expectedVersion: Int) async throws -> Bool
  /// The accepted actions of a game, oldest first.
  func actions(gameID: String) async throws -> [ActionRecord]
  /// A player's finished games, oldest first (by finish time, then id); only those after
  /// `mark` when there is one.
  func finishedGames(playerID: String, after mark: TallyMark?) async throws -> [FinishedGame]

  // MARK: Statistics

  /// What the statistics of a player keep of the games up to a mark.
  func statsTally(playerID: String) async throws -> StoredTally?
  /// Everything a player's statistics are made of, read at once: the stored tally, the
  /// finished games after its mark, and the daily streaks.
  /// The best score in each variant (`nil`: none) of `playerID`'s games of `kind` finished
  /// after `mark` and by `finishedBy`, leaving out `gameID`: what a game just finished is
  /// measured against, besides the tally. One row a variant, however many games.
  func recentBests(
    playerID: String, kind: String, after mark: TallyMark?, finishedBy: Int64,
    excluding gameID: String
  ) async throws -> [String?: Int]
  func statisticsSources(playerID: String) async throws -> (
    tally: StoredTally?, newer: [FinishedGame], streaks: [String: DailyStreak]
  )
  /// Stores a player's tally, unless the stored one already reaches further (another
  /// instance got there first): a tally only ever moves forward.
  func saveStatsTally(playerID: String, _ tally: StoredTally, at: Int64) async throws

  // MARK: The daily set

  /// The secret called `name`: the first value ever proposed for it, on every instance.
  func secret(named name: String, proposed: String) async throws -> String
  /// Inserts a counted daily game together with its claim on (player, game, day), in one
  /// transaction. Throws ``StoreError/duplicate(_:)`` and inserts nothing when the player
  /// already has that day's game: the database's unique key decides, even between instances.
  func insertDailyGame(_ game: GameRecord, day: Int) async throws
  /// A player's counted daily games of one day, or of one game kind (newest first).
  func dailyPlays(playerID: String, day: Int) async throws -> [DailyPlay]
  func dailyPlays(playerID: String, kind: String) async throws -> [DailyPlay]
  /// Counted daily games that are finished but whose result is not recorded yet (the server
  /// stopped between the two): ``recordDaily(gameID:score:at:periods:sets:)`` catches up.
  func unrecordedDailies(playerID: String) async throws -> [DailyPlay]
  /// Records the result of a counted daily game once, in one transaction: in its leaderboards
  /// (`periods`: the day's board takes the score, the week's adds it, all time keeps the
  /// best) and its streaks (of its kind, and of the set when the player has now finished
  /// `sets` dailies that day). `false` when it was recorded before or is not a counted daily.
  @discardableResult
  func recordDaily(gameID: String, score: Int, at: Int64, periods: DailyPeriods, sets: Int)
    async throws -> Bool
  /// The top `limit` of a leaderboard, with how many players it holds and where `playerID`
  /// stands in it.
  func leaderboard(kind: String, period: String, playerID: String?, limit: Int) async throws
    -> Leaderboard
  /// A player's score on a leaderboard, if they are on it.
  func boardScore(kind: String, period: String, playerID: String) async throws -> Int?
  /// A player's daily streaks by game kind (`"*"`: the whole set).
  func dailyStreaks(playerID: String) async throws -> [String: DailyStreak]
  /// Whether a player appears on any leaderboard (and so shows others a name and avatar).
  func isOnLeaderboard(playerID: String) async throws -> Bool

  // MARK: Decks

  /// Replaces the imported deck `id` (its manifest, as JSON) and stores its pictures, all in
  /// one transaction: a deck is never half imported.
  func replaceDeck(id: String, manifest: String, pictures: [StoredPicture], at: Int64)
    async throws
  /// The imported decks' manifests, by id.
  func importedDecks() async throws -> [String: String]
  func picture(id: String) async throws -> StoredPicture?

  // MARK: Guess or Pass words

  /// Adds words to a category's stored words (those fetched from Datamuse or added with
  /// `guesswork words add`); a word already there keeps its first source. Returns how many
  /// were new.
  @discardableResult
  func addWords(_ words: [String], category: String, source: String, at: Int64) async throws
    -> Int
  /// The stored words of a category, in the order they were added.
  func storedWords(category: String) async throws -> [StoredWord]
  /// Claims the daily refresh of a category: `true` (and records `at`) when the last claim
  /// was at or before `notAfter`, or there was none; `false` otherwise. Atomic, so that two
  /// instances never both refresh.
  func claimRefresh(category: String, lastBefore notAfter: Int64, at: Int64) async throws -> Bool
  /// When a category was last claimed for a refresh.
  func lastRefresh(category: String) async throws -> Int64?

  /// Records that a player has seen these words in a category.
  func markSeen(playerID: String, category: String, words: [String], at: Int64) async throws
  /// The words a player has seen in a category.
  func seenWords(playerID: String, category: String) async throws -> Set<String>
  /// Forgets what a player has seen in a category (every word has been seen: a new cycle).
  func clearSeen(playerID: String, category: String) async throws

  // MARK: Custom categories

  /// Stores a category unless its player has `limit` already (`false`), checked and inserted
  /// in one transaction, so that creations at once cannot pass the limit together.
  func insertCustomCategory(_ category: CustomCategoryRecord, limit: Int) async throws -> Bool
  /// Replaces the name and words of a player's category; `false` when the player has no such
  /// category.
  func updateCustomCategory(_ category: CustomCategoryRecord) async throws -> Bool
  /// `false` when the player has no such category.
  func deleteCustomCategory(id: String, playerID: String) async throws -> Bool
  /// A player's own categories, oldest first.
  func customCategories(playerID: String) async throws -> [CustomCategoryRecord]
  func customCategory(id: String) async throws -> CustomCategoryRecord?

  // MARK: Reminders

  /// Stores a reminder unless its player has `limit` already (`false`), as categories are.
  func insertReminder(_ reminder: ReminderRecord, limit: Int) async throws -> Bool
  /// A player's reminders, soonest first.
  func reminders(playerID: String) async throws -> [ReminderRecord]
  func reminder(id: String) async throws -> ReminderRecord?
  /// `false` when the player has no such reminder.
  func deleteReminder(id: String, playerID: String) async throws -> Bool

  // Party rooms: a room is one row, its whole state, rewritten at each accepted change under
  // its version (so two instances racing on one room cannot both win).
  /// `false` when the code is taken by a room that is still open.
  func insertRoom(_ room: RoomRecord) async throws -> Bool
  func room(code: String) async throws -> RoomRecord?
  /// Stores `room` as its new version if the stored one is still `expectedVersion`.
  func saveRoom(_ room: RoomRecord, expectedVersion: Int) async throws -> Bool
  /// The rooms not closed, most recently active first.
  func openRooms(limit: Int) async throws -> [RoomRecord]
  /// Open rooms last changed at or before `before`, the longest idle first: the idle sweep
  /// reaches the oldest however many rooms are open.
  func idleRooms(before: Int64, limit: Int) async throws -> [RoomRecord]
  /// Deletes the rooms closed before `closedBefore`.
  func purgeRooms(closedBefore: Int64) async throws
  /// How many rooms `hostID` has open.
  func openRoomCount(hostID: String) async throws -> Int
  /// Rooms changed by any instance, as `<code> <version>`, for a store that several instances
  /// share (PostgreSQL's LISTEN/NOTIFY); nil when only one instance can use the store.
  func roomChanges() -> AsyncStream<String>?

  /// Releases connections; the store is unusable afterwards.
  func close() async throws
}

/// A party room as stored.
public struct RoomRecord: Sendable, Equatable {
  public var code: String
  public var hostID: String
  /// The room's state (JSON, GuessworkPlay's `RoomState`).
  public var state: String
  public var version: Int
  public var players: Int
  public var isOpen: Bool
  public var createdAt: Int64
  public var updatedAt: Int64

  public init(
    code: String, hostID: String, state: String, version: Int, players: Int, isOpen: Bool,
    createdAt: Int64, updatedAt: Int64
  ) {
    self.code = code
    self.hostID = hostID
    self.state = state
    self.version = version
    self.players = players
    self.isOpen = isOpen
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// A word of a Guess or Pass category kept in the database, with where it came from
/// ("datamuse", "cli") and when.
public struct StoredWord: Sendable, Equatable {
  public var word: String
  public var source: String
  public var fetchedAt: Int64

  public init(word: String, source: String, fetchedAt: Int64) {
    self.word = word
    self.source = source
    self.fetchedAt = fetchedAt
  }
}

/// A player's own Guess or Pass category.
public struct CustomCategoryRecord: Sendable, Equatable {
  public var id: String
  public var playerID: String
  public var name: String
  public var words: [String]
  public var createdAt: Int64
  public var updatedAt: Int64

  public init(
    id: String, playerID: String, name: String, words: [String], createdAt: Int64,
    updatedAt: Int64? = nil
  ) {
    self.id = id
    self.playerID = playerID
    self.name = name
    self.words = words
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
  }
}

/// A game-night reminder: the start as an instant (milliseconds since 1970, UTC) and the UTC
/// offset it was given in, so it can be shown as the player entered it.
public struct ReminderRecord: Sendable, Equatable {
  public var id: String
  public var playerID: String
  public var title: String
  public var startsAt: Int64
  /// Minutes east of UTC.
  public var utcOffsetMinutes: Int
  public var place: String
  public var latitude: Double?
  public var longitude: Double?
  public var createdAt: Int64

  public init(
    id: String, playerID: String, title: String, startsAt: Int64, utcOffsetMinutes: Int,
    place: String, latitude: Double? = nil, longitude: Double? = nil, createdAt: Int64
  ) {
    self.id = id
    self.playerID = playerID
    self.title = title
    self.startsAt = startsAt
    self.utcOffsetMinutes = utcOffsetMinutes
    self.place = place
    self.latitude = latitude
    self.longitude = longitude
    self.createdAt = createdAt
  }
}

public struct PlayerRecord: Sendable, Equatable, Codable {
  public var id: String
  public var name: String
  /// The player's preferences as a JSON object, opaque to the store.
  public var preferences: String
  public var createdAt: Int64
  public var hasAvatar: Bool

  public init(
    id: String, name: String, preferences: String = "{}", createdAt: Int64,
    hasAvatar: Bool = false
  ) {
    self.id = id
    self.name = name
    self.preferences = preferences
    self.createdAt = createdAt
    self.hasAvatar = hasAvatar
  }
}

public struct Avatar: Sendable, Equatable {
  public var contentType: String
  public var data: Data

  public init(contentType: String, data: Data) {
    self.contentType = contentType
    self.data = data
  }
}

/// A picture of an imported deck, by the SHA-256 of its bytes.
public struct StoredPicture: Sendable, Equatable {
  public var id: String
  public var contentType: String
  public var data: Data

  public init(id: String, contentType: String, data: Data) {
    self.id = id
    self.contentType = contentType
    self.data = data
  }
}

/// A game as stored: its kind and settings, the seed, the encoded state and its version.
public struct GameRecord: Sendable, Equatable {
  /// A new game's id: a UUID of version 7 (RFC 9562), whose first 48 bits are the time it was
  /// made (milliseconds since 1970) and 74 of the rest random. Games made later sort later, so
  /// the games being played, and the actions they add (keyed by game), sit together at the end
  /// of the indexes: a batch of moves writes a few index pages, not one page a game at random.
  public static func newID(at milliseconds: Int64) -> String {
    var random = SystemRandomNumberGenerator()
    let time = UInt64(clamping: milliseconds) & 0xFFFF_FFFF_FFFF
    let (a, b) = (random.next() as UInt64, random.next() as UInt64)
    func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 {
      UInt8(truncatingIfNeeded: value >> shift)
    }
    let uuid = UUID(
      uuid: (
        byte(time, 40), byte(time, 32), byte(time, 24), byte(time, 16), byte(time, 8),
        byte(time, 0),
        0x70 | byte(a, 0) & 0x0F, byte(a, 8),  // version 7, then 12 random bits
        0x80 | byte(b, 0) & 0x3F, byte(b, 8), byte(b, 16), byte(b, 24), byte(b, 32),  // variant
        byte(b, 40), byte(b, 48), byte(b, 56)
      ))
    return uuid.uuidString.lowercased()
  }

  public var id: String
  public var playerID: String
  public var kind: String
  /// What the game was played on, where that matters for statistics: a Guess or Pass
  /// category, a Picture Quiz deck.
  public var variant: String?
  public var settings: String
  public var seed: UInt64
  public var state: String
  public var version: Int
  public var createdAt: Int64
  public var updatedAt: Int64
  public var finished: Finished?
  /// Set on a daily puzzle's game.
  public var daily: DailyTag?

  /// What a finished game records for the statistics.
  public struct Finished: Sendable, Equatable {
    public var at: Int64
    public var score: Int
    public var summary: String

    public init(at: Int64, score: Int, summary: String) {
      self.at = at
      self.score = score
      self.summary = summary
    }
  }

  public init(
    id: String, playerID: String, kind: String, variant: String? = nil, settings: String,
    seed: UInt64, state: String, version: Int = 0, createdAt: Int64, updatedAt: Int64? = nil,
    finished: Finished? = nil, daily: DailyTag? = nil
  ) {
    self.id = id
    self.playerID = playerID
    self.kind = kind
    self.variant = variant
    self.settings = settings
    self.seed = seed
    self.state = state
    self.version = version
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.finished = finished
    self.daily = daily
  }
}

/// An accepted action, as applied: the version it produced, the action as JSON, and when.
public struct ActionRecord: Sendable, Equatable {
  public var gameID: String
  public var version: Int
  public var action: String
  public var at: Int64

  public init(gameID: String, version: Int, action: String, at: Int64) {
    self.gameID = gameID
    self.version = version
    self.action = action
    self.at = at
  }
}

/// One step of a game: the state after it, and the action that caused it (none when only
/// time passed, as when a timed round runs out).
public struct Move: Sendable, Equatable {
  public var gameID: String
  public var version: Int
  public var state: String
  public var at: Int64
  public var action: String?
  public var finished: GameRecord.Finished?

  public init(
    gameID: String, version: Int, state: String, at: Int64, action: String?,
    finished: GameRecord.Finished? = nil
  ) {
    self.gameID = gameID
    self.version = version
    self.state = state
    self.at = at
    self.action = action
    self.finished = finished
  }
}

public struct FinishedGame: Sendable, Equatable {
  public var gameID: String
  public var kind: String
  public var variant: String?
  public var score: Int
  public var summary: String
  public var finishedAt: Int64

  public init(
    gameID: String, kind: String, variant: String?, score: Int, summary: String,
    finishedAt: Int64
  ) {
    self.gameID = gameID
    self.kind = kind
    self.variant = variant
    self.score = score
    self.summary = summary
    self.finishedAt = finishedAt
  }
}

/// How far a player's statistics tally reaches: the last game it holds, by finish time and id.
public struct TallyMark: Sendable, Equatable, Comparable {
  public var finishedAt: Int64
  public var gameID: String

  public init(finishedAt: Int64, gameID: String) {
    self.finishedAt = finishedAt
    self.gameID = gameID
  }

  public static func < (a: TallyMark, b: TallyMark) -> Bool {
    (a.finishedAt, a.gameID) < (b.finishedAt, b.gameID)
  }
}

/// A player's statistics tally as stored: opaque JSON, and how far it reaches.
public struct StoredTally: Sendable, Equatable {
  public var mark: TallyMark
  public var tallies: String

  public init(mark: TallyMark, tallies: String) {
    self.mark = mark
    self.tallies = tallies
  }
}

/// A daily game played by a player: counted (one per player, game and day) or from the
/// archive (any number, never counted).
public struct DailyTag: Sendable, Equatable {
  /// Days since 1970-01-01, UTC.
  public var day: Int
  public var counted: Bool

  public init(day: Int, counted: Bool) {
    self.day = day
    self.counted = counted
  }
}

/// A counted daily game, and its result once recorded.
public struct DailyPlay: Sendable, Equatable {
  public var kind: String
  public var day: Int
  public var gameID: String
  /// The recorded result; `nil` while the game goes on (or before it is recorded).
  public var score: Int?
  public var finishedAt: Int64?

  public init(kind: String, day: Int, gameID: String, score: Int? = nil, finishedAt: Int64? = nil) {
    self.kind = kind
    self.day = day
    self.gameID = gameID
    self.score = score
    self.finishedAt = finishedAt
  }
}

/// The leaderboards a daily result counts in, by their keys.
public struct DailyPeriods: Sendable, Equatable {
  public var day: String
  public var week: String
  public var allTime: String

  public init(day: String, week: String, allTime: String) {
    self.day = day
    self.week = week
    self.allTime = allTime
  }
}

/// A leaderboard: its top entries (ties share a rank: 1, 1, 3), its size, and the asking
/// player's place.
public struct Leaderboard: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var rank: Int
    public var playerID: String
    public var name: String
    public var hasAvatar: Bool
    public var score: Int
  }

  public struct Standing: Sendable, Equatable {
    public var rank: Int
    public var score: Int
  }

  public var entries: [Entry]
  /// How many players hold each score.
  public var scores: [Int: Int]
  public var mine: Standing?

  public var players: Int { scores.values.reduce(0, +) }

  /// Where a player with `score` stands: 1 + the players with a higher score (a sum over the
  /// board's few distinct scores, however many players it holds).
  public func standing(of score: Int) -> Standing {
    Standing(rank: 1 + scores.filter { $0.key > score }.values.reduce(0, +), score: score)
  }
}

/// A run of consecutive days with a finished daily game (of one game, or the whole set).
public struct DailyStreak: Sendable, Equatable {
  /// The key of the whole set's streak: days on which every daily was finished.
  public static let wholeSet = "*"

  public var current: Int
  public var best: Int
  /// The last day counted in `current`.
  public var lastDay: Int
  /// Days counted in all.
  public var played: Int

  public init(current: Int, best: Int, lastDay: Int, played: Int) {
    self.current = current
    self.best = best
    self.lastDay = lastDay
    self.played = played
  }

  /// The streak after a result on `day` (each day is added once).
  public func adding(day: Int) -> DailyStreak {
    // A day before the last (recorded late) counts, but does not change the run.
    guard day > lastDay else {
      return DailyStreak(current: current, best: best, lastDay: lastDay, played: played + 1)
    }
    let current = day == lastDay + 1 ? self.current + 1 : 1
    return DailyStreak(
      current: current, best: max(best, current), lastDay: day, played: played + 1)
  }

  /// The current streak as seen on `today`: broken once a whole day has passed without.
  public func current(on today: Int) -> Int { lastDay >= today - 1 ? current : 0 }
}

/// Where the data lives.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
  /// An SQLite file, created when missing.
  case sqlite(path: String)
  /// A PostgreSQL database, by its `postgres://` URL (or `postgres+uds://` for a Unix socket:
  /// `postgres+uds://user@localhost/path/to/.s.PGSQL.5432#database`).
  case postgres(url: String)

  /// `DATABASE_URL` when it is set and names PostgreSQL, otherwise an SQLite file.
  public static func from(databaseURL: String?, sqlitePath: String) throws -> StoreLocation {
    guard let url = databaseURL, !url.isEmpty else { return .sqlite(path: sqlitePath) }
    let schemes = ["postgres://", "postgresql://", "postgres+uds://", "postgresql+uds://"]
    if schemes.contains(where: url.hasPrefix) {
      return .postgres(url: url)
    }
    if url.hasPrefix("sqlite://") { return .sqlite(path: String(url.dropFirst("sqlite://".count))) }
    throw StoreError.unsupportedURL(url)
  }

  public var description: String {
    switch self {
    case .sqlite(let path): "SQLite at \(path)"
    case .postgres(let url):
      // Never print a password.
      if url.contains("+uds://"), let components = URLComponents(string: url) {
        "PostgreSQL at \(components.path)#\(components.fragment ?? "")"
      } else if let components = URLComponents(string: url) {
        "PostgreSQL at \(components.host ?? "localhost"):\(components.port ?? 5432)\(components.path)"
      } else {
        "PostgreSQL"
      }
    }
  }
}

public enum StoreError: Error, CustomStringConvertible, Equatable {
  case unsupportedURL(String)
  case duplicate(String)

  public var description: String {
    switch self {
    case .unsupportedURL:
      "DATABASE_URL must start with postgres:// or postgresql:// (postgres+uds:// for a Unix "
        + "socket), or sqlite:// and a path"
    case .duplicate(let what): "\(what) already exists"
    }
  }
}

extension GuessworkStore {
  /// Stores a new game, whatever its player has unfinished.
  public func insertGame(_ game: GameRecord) async throws {
    _ = try await insertGame(game, within: nil)
  }
}

/// How many unfinished games a player may have: at most `count` of those created since
/// `since` (older ones are left, and do not count).
public struct UnfinishedLimit: Sendable, Equatable {
  public var count: Int
  public var since: Int64

  public init(count: Int, since: Int64) {
    self.count = count
    self.since = since
  }
}
