import Foundation
public import GuessworkContent
public import GuessworkCore
import GuessworkJSON
public import GuessworkStore
import Synchronization

/// A player's statistics: per game, how many were played, the best score, the last 20 scores,
/// and the game's own figures, and the daily streaks. The server's `GET /api/me/stats` and
/// the terminal's `guesswork stats` both show these.
public struct Statistics: Encodable, Sendable {
  public struct PerGame: Encodable, Sendable {
    public var game: String
    public var title: String
    public var played: Int
    public var bestScore: Int?
    /// Oldest first.
    public var lastScores: [Int]
    /// The figures only this game has.
    public var figures: Figures
    /// The daily puzzle's streak (absent before the first daily).
    public var daily: Streak?
  }

  /// A daily streak as shown: the current run (0 once a day was missed), the best run and
  /// how many days count.
  public struct Streak: Encodable, Sendable, Equatable {
    public var current: Int
    public var best: Int
    public var played: Int

    public init(_ streak: DailyStreak, today: Int) {
      current = streak.current(on: today)
      best = streak.best
      played = streak.played
    }
  }

  public var games: [PerGame]
  /// Days on which every daily puzzle was finished, in a row.
  public var daily: Streak?

  /// The statistics of `tallies` (encoded, by game kind), for every game of `engines`.
  public init(
    tallies: [String: String], engines: GameEngines = GameEngines(),
    streaks: [String: DailyStreak] = [:], today: Int = 0
  ) {
    games = engines.all.map { engine in
      var game = engine.statistics(tallies[engine.kind.rawValue])
      game.daily = streaks[engine.kind.rawValue].map { Streak($0, today: today) }
      return game
    }
    daily = streaks[DailyStreak.wholeSet].map { Streak($0, today: today) }
  }

  /// The statistics with each game's title in the words of `catalog`.
  public func rendered(_ catalog: Catalog) -> Statistics {
    var statistics = self
    for index in statistics.games.indices {
      statistics.games[index].title = catalog(games[index].title)
    }
    return statistics
  }

  /// The statistics of `finished` (oldest first), all tallied at once.
  public init(games finished: [FinishedGame], engines: GameEngines = GameEngines()) {
    self.init(tallies: Tallies.adding(finished, to: [:], engines: engines), engines: engines)
  }
}

/// A game's tally with what every game's statistics show besides its own figures.
struct KindTally<G: Game>: Codable {
  var played = 0
  var best: Int?
  /// The last 20 scores, oldest first.
  var last: [Int] = []
  /// The best score by variant ("" for games without one).
  var bests: [String: Int] = [:]
  var game = G.Tally()

  mutating func add(_ record: FinishedRecord<G.Summary>) {
    played += 1
    best = max(best ?? record.score, record.score)
    last = Array((last + [record.score]).suffix(20))
    bests[record.variant ?? "", default: record.score] = max(
      bests[record.variant ?? ""] ?? record.score, record.score)
    G.tally(&game, adding: record)
  }
}

/// Every game's tally, encoded by game kind, as one JSON object that the store keeps.
enum Tallies {
  static func adding(
    _ games: [FinishedGame], to tallies: [String: String], engines: GameEngines
  ) -> [String: String] {
    var tallies = tallies
    for (kind, mine) in Dictionary(grouping: games, by: \.kind) {
      guard let engine = engines[kind] else { continue }
      tallies[kind] = engine.tally(tallies[kind], adding: mine)
    }
    return tallies
  }

  static func decode(_ text: String?) -> [String: String] {
    guard let text else { return [:] }
    return decoded.value(for: text) {
      (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }
  }

  private static let decoded = Decoded<[String: String]>(capacity: 4096)
}

/// A player's statistics kept up to date from their finished games without reading their
/// whole history: the store keeps a tally up to a mark, and each read adds the games finished
/// since. Only games finished a minute ago or more join the stored tally (``settleMs``): a
/// game's finish time is taken before it is written, so one finishing now on another instance
/// could still arrive with an earlier time than the newest stored. The last minute's games
/// are added on every read, never stored.
public struct StatisticsBook: Sendable {
  public static let settleMs: Int64 = 60_000
  /// How far behind a finished game its player's stored tally may reach before the finish
  /// settles it (at most once a ``settleMs`` a player on an instance: ``KnownTallies``).
  public static let settleBehindMs: Int64 = 2 * settleMs
  let store: any GuessworkStore
  let engines: GameEngines
  private let answered = AnsweredStatistics()
  private let known = KnownTallies()
  private let recent = RecentBests()

  /// The statistics answers kept, for the metrics.
  public var answersCached: CacheSize { answered.size }
  /// The tallies kept for judging new bests, for the metrics.
  public var talliesCached: CacheSize { known.size }
  /// The recent bests kept for judging new bests, for the metrics.
  public var bestsCached: CacheSize { recent.size }

  public init(store: any GuessworkStore, engines: GameEngines) {
    self.store = store
    self.engines = engines
  }

  /// The settled tallies (stored when they moved on), the games since, and the streaks.
  private func current(playerID: String, now: Int64) async throws -> (
    tallies: [String: String], recent: [FinishedGame], streaks: [String: DailyStreak]
  ) {
    let (stored, newer, streaks) = try await store.statisticsSources(playerID: playerID)
    let (tallies, recent, _) = try await settle(stored, newer, playerID: playerID, now: now)
    return (tallies, recent, streaks)
  }

  /// Adds the games finished long enough ago to the stored tally, and stores it when that
  /// moved it on. `mark`: how far the tally now reaches.
  private func settle(_ stored: StoredTally?, _ newer: [FinishedGame], playerID: String, now: Int64)
    async throws -> (tallies: [String: String], recent: [FinishedGame], mark: TallyMark?)
  {
    var tallies = Tallies.decode(stored?.tallies)
    let settled = newer.prefix { $0.finishedAt < now - Self.settleMs }
    guard let last = settled.last else { return (tallies, newer, stored?.mark) }
    tallies = Tallies.adding(Array(settled), to: tallies, engines: engines)
    let mark = TallyMark(finishedAt: last.finishedAt, gameID: last.gameID)
    if let text = try? CompactJSON.string(tallies) {
      try await store.saveStatsTally(
        playerID: playerID, StoredTally(mark: mark, tallies: text), at: now)
    }
    return (tallies, Array(newer.dropFirst(settled.count)), mark)
  }

  /// The statistics of a player now, encoded. The answer is made from the stored tally, the
  /// games since and the streaks; while they stay the same (and today stays today), the
  /// answer is the one made last time (``AnsweredStatistics``): a player looking at their
  /// statistics again spent a tenth of each read encoding the same figures.
  /// The statistics of a player now, encoded, with the games' titles in the words of
  /// `catalog` (answers are kept per player and language).
  public func statisticsJSON(playerID: String, now: Int64, catalog: Catalog = .of(.en))
    async throws -> [UInt8]
  {
    let kept = "\(playerID) \(catalog.language.rawValue)"
    let (stored, newer, streaks) = try await store.statisticsSources(playerID: playerID)
    let today = DailyCalendar.day(of: now)
    let sources = AnsweredStatistics.Sources(
      tallies: stored?.tallies, games: newer.map(\.gameID), streaks: streaks, today: today)
    let settles = newer.first.map { $0.finishedAt < now - Self.settleMs } ?? false
    if !settles, let json = answered.json(for: kept, from: sources) { return json }
    let (tallies, recent, _) = try await settle(stored, newer, playerID: playerID, now: now)
    let json = try CompactJSON.encode(
      statistics(tallies, adding: recent, streaks: streaks, today: today).rendered(catalog))
    // Once games settle, the stored tally changes: the next read keys on that.
    if !settles { answered.keep(json, for: kept, from: sources) }
    return json
  }

  /// The statistics of a player now.
  public func statistics(playerID: String, now: Int64) async throws -> Statistics {
    let (tallies, recent, streaks) = try await current(playerID: playerID, now: now)
    return statistics(tallies, adding: recent, streaks: streaks, today: DailyCalendar.day(of: now))
  }

  /// The statistics of the settled `tallies` and the `recent` games not in them.
  private func statistics(
    _ tallies: [String: String], adding recent: [FinishedGame],
    streaks: [String: DailyStreak], today: Int
  ) -> Statistics {
    Statistics(
      tallies: Tallies.adding(recent, to: tallies, engines: engines), engines: engines,
      streaks: streaks, today: today)
  }

  /// The tally a finished game is judged against: as this instance last read it, if that was
  /// less than a ``settleMs`` before `now` (another instance may have stored a newer one since,
  /// but any tally with the games after its mark tells the same), else as stored.
  ///
  /// Only a statistics read used to settle the tally, so a player who never opens theirs had
  /// every finish measured against all their games since their first (a query that grew by a
  /// row a game). A finish that reads the tally settles it too when it is ``settleBehindMs``
  /// behind: the games after its mark are then a few minutes' worth at most.
  private func tally(of playerID: String, at now: Int64) async throws -> (
    mark: TallyMark?, tallies: [String: String]
  ) {
    if let known = known.tally(of: playerID, at: now) { return known }
    let stored = try await store.statsTally(playerID: playerID)
    var tally = (mark: stored?.mark, tallies: Tallies.decode(stored?.tallies))
    if (tally.mark?.finishedAt ?? .min) < now - Self.settleBehindMs {
      let newer = try await store.finishedGames(playerID: playerID, after: tally.mark)
      let settled = try await settle(stored, newer, playerID: playerID, now: now)
      tally = (settled.mark, settled.tallies)
    }
    known.keep(tally, of: playerID, at: now)
    return tally
  }

  /// Whether a game that finished (at `finishedAt`) with `score` beats every earlier finished
  /// game of its player in the same game and variant, and in the same game whatever the
  /// variant. `nil` when it beats neither, or when it finished long enough ago to be in the
  /// stored tally (the moment has passed).
  public func newBest(_ record: GameRecord, score: Int, finishedAt: Int64)
    async throws -> NewBest?
  {
    guard score > 0, let engine = engines[record.kind] else { return nil }
    // The tally (as stored, read at most a minute ago), and the best of the games since it by
    // variant: a query that answers one row a variant, not every game since (a quick player
    // finishes dozens a minute).
    let (mark, tallies) = try await tally(of: record.playerID, at: finishedAt)
    if let mark, TallyMark(finishedAt: finishedAt, gameID: record.id) <= mark { return nil }
    let tally = tallies[record.kind]
    let settledBest = engine.best(tally, variant: record.variant)
    // A settled game of the same variant scored as much: that is no best, in the variant or
    // (as the game's best is at least the variant's) overall, whatever came since. Most
    // finishes of a player with a history end here, without asking the database.
    if let settledBest, score <= settledBest { return nil }
    // Nor is it one when a game of the variant this instance saw finish before it scored as
    // much: so a quick player's finishes in the minute before their tally settles mostly
    // end here too. A higher score is always asked of the database, whatever other
    // instances have seen since.
    if recent.scoredAtLeast(score, by: record, before: finishedAt) { return nil }
    let earlier = try await store.recentBests(
      playerID: record.playerID, kind: record.kind, after: mark, finishedBy: finishedAt,
      excluding: record.id)
    recent.learn(
      earlier.merging([record.variant: score], uniquingKeysWith: max), by: record,
      finishedBy: finishedAt)
    let variantBest = ([settledBest] + [earlier[record.variant]]).compactMap { $0 }.max()
    let overallBest = ([engine.bestOfAll(tally)].compactMap { $0 } + earlier.values).max()
    let best = NewBest(
      inVariant: variantBest.map { score > $0 } ?? true,
      overall: overallBest.map { score > $0 } ?? true)
    return best.inVariant || best.overall ? best : nil
  }
}

/// What a finished game beat: the player's best in its variant (category, deck), and their best
/// in the game whatever the variant.
public struct NewBest: Equatable, Sendable {
  public var inVariant: Bool
  public var overall: Bool
}

/// Players' statistics as last answered, each with what it was made from (bounded,
/// ``RecentlyUsed``).
final class AnsweredStatistics: Sendable {
  /// What an answer is made from: finished games never change, so their ids stand for them.
  struct Sources: Equatable, Sendable {
    var tallies: String?
    var games: [String]
    var streaks: [String: DailyStreak]
    var today: Int
  }

  static let capacity = 2048
  static let byteCapacity = 16 << 20
  private let answers = Mutex(
    RecentlyUsed<String, (sources: Sources, json: [UInt8])>(
      capacity: capacity, byteCapacity: byteCapacity,
      weigh: { key, value in
        64 + key.utf8.count + value.json.count + (value.sources.tallies?.utf8.count ?? 0)
          + 40 * value.sources.games.count + 48 * value.sources.streaks.count
      }))

  func json(for playerID: String, from sources: Sources) -> [UInt8]? {
    guard let kept = answers.withLock({ $0[playerID] }), kept.sources == sources else {
      return nil
    }
    return kept.json
  }

  /// Entries and bytes: the answers and the tallies they were made from.
  var size: CacheSize {
    answers.withLock { $0.size }
  }

  func keep(_ json: [UInt8], for playerID: String, from sources: Sources) {
    answers.withLock { $0[playerID] = (sources, json) }
  }
}

/// Players' tallies as a finish last read them on this instance, and when (bounded,
/// ``RecentlyUsed``): a quick player's finishes read their tally once a minute, not each time,
/// and a player whose last minute holds every game since their tally's mark, with nothing to
/// settle, is not read for it on each finish of that minute.
final class KnownTallies: Sendable {
  typealias Tally = (mark: TallyMark?, tallies: [String: String])
  static let capacity = 8192
  static let byteCapacity = 8 << 20
  private let tallies = Mutex(
    RecentlyUsed<String, (readAt: Int64, tally: Tally)>(
      capacity: capacity, byteCapacity: byteCapacity,
      weigh: { key, value in
        64 + key.utf8.count
          + value.tally.tallies.reduce(0) { $0 + 16 + $1.key.utf8.count + $1.value.utf8.count }
      }))

  /// The tally of `playerID` if it was read less than a ``StatisticsBook/settleMs`` before
  /// `now` (or after it: a finished game read again is older than the tally).
  func tally(of playerID: String, at now: Int64) -> Tally? {
    tallies.withLock { tallies in
      guard let known = tallies[playerID], now - known.readAt < StatisticsBook.settleMs else {
        return nil
      }
      return known.tally
    }
  }

  var size: CacheSize {
    tallies.withLock { $0.size }
  }

  func keep(_ tally: Tally, of playerID: String, at now: Int64) {
    tallies.withLock { $0[playerID] = (now, tally) }
  }
}

/// The best score of each player's games of each game and variant, among those this instance
/// saw finish lately (from the database's answer to a finish, and the finish itself), each
/// with a time by which its game had finished (bounded, ``RecentlyUsed``).
///
/// Each is a score some earlier game really made, so a game finishing after that time with no
/// more is no new best in its variant, nor (as the game's best is at least the variant's)
/// overall. Only that is read from here: whether a score beats every earlier one is always
/// asked of the database. Kept for a ``StatisticsBook/settleMs``, as the tallies are.
final class RecentBests: Sendable {
  struct Best: Sendable {
    var score: Int
    /// The game that made it had finished by then.
    var finishedBy: Int64
  }

  static let capacity = 8192
  static let byteCapacity = 4 << 20
  private let bests = Mutex(
    RecentlyUsed<String, (learnedAt: Int64, byVariant: [String?: Best])>(
      capacity: capacity, byteCapacity: byteCapacity,
      weigh: { key, value in
        64 + key.utf8.count
          + value.byVariant.keys.reduce(0) { $0 + 32 + ($1?.utf8.count ?? 0) }
      }))

  var size: CacheSize {
    bests.withLock { $0.size }
  }

  /// Whether a game of `record`'s player, game and variant that finished before `finishedAt`
  /// is known to have scored at least `score`.
  func scoredAtLeast(_ score: Int, by record: GameRecord, before finishedAt: Int64) -> Bool {
    bests.withLock { bests in
      guard let known = bests[Self.key(record)],
        finishedAt - known.learnedAt < StatisticsBook.settleMs,
        let best = known.byVariant[record.variant]
      else { return false }
      return best.finishedBy < finishedAt && best.score >= score
    }
  }

  /// Keeps `scores` (by variant) of games of `record`'s player and game that had all finished
  /// by `finishedBy`, where they beat what was kept.
  func learn(_ scores: [String?: Int], by record: GameRecord, finishedBy: Int64) {
    bests.withLock { bests in
      let key = Self.key(record)
      var known = bests[key]
      if let kept = known, finishedBy - kept.learnedAt >= StatisticsBook.settleMs {
        known = nil
      }
      var byVariant = known?.byVariant ?? [:]
      for (variant, score) in scores {
        let kept = byVariant[variant]
        byVariant[variant] = Best(
          score: max(score, kept?.score ?? score),
          finishedBy: max(finishedBy, kept?.finishedBy ?? finishedBy))
      }
      bests[key] = (known?.learnedAt ?? finishedBy, byVariant)
    }
  }

  private static func key(_ record: GameRecord) -> String {
    "\(record.playerID) \(record.kind)"
  }
}
