import Crypto
import Foundation
public import GuessworkContent
public import GuessworkCore
public import GuessworkStore
import Synchronization

/// Days as the daily set counts them: UTC days since 1970-01-01, numbered for players from
/// the launch day (#1), with weeks from Monday to Sunday.
public enum DailyCalendar {
  /// 2026-11-01, puzzle #1.
  public static let launch = 20_758
  static let dayMs: Int64 = 86_400_000

  /// The UTC day of an instant (milliseconds since 1970).
  public static func day(of milliseconds: Int64) -> Int {
    Int(milliseconds >= 0 ? milliseconds / dayMs : (milliseconds - dayMs + 1) / dayMs)
  }

  public static func day(of instant: Instant) -> Int { day(of: instant.milliseconds) }

  /// The puzzle number players see ("Color Match #12").
  public static func number(_ day: Int) -> Int { day - launch + 1 }

  /// Milliseconds from `milliseconds` to the next UTC midnight.
  public static func untilNextDay(_ milliseconds: Int64) -> Int64 {
    Int64(day(of: milliseconds) + 1) * dayMs - milliseconds
  }

  /// The week holding `day`: weeks since the Monday 1969-12-29.
  public static func week(_ day: Int) -> Int { (day + 3) / 7 }

  /// The Monday that starts `week`.
  public static func monday(ofWeek week: Int) -> Int { week * 7 - 3 }

  /// "2026-11-23".
  public static func date(_ day: Int) -> String {
    // Howard Hinnant's civil_from_days, for days since 1970-01-01.
    let z = day + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
  }

  /// The day of a date written "YYYY-MM-DD", or nil when it is not one.
  public static func day(ofDate text: String) -> Int? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
      (1...12).contains(m), (1...31).contains(d)
    else { return nil }
    // days_from_civil, the inverse of `date`.
    let yy = m <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let day = era * 146_097 + doe - 719_468
    // 2026-02-31 is not a date: it must read back the same.
    return date(day) == text ? day : nil
  }

  /// The leaderboard keys a result of `day` counts in.
  public static func periods(of day: Int) -> DailyPeriods {
    DailyPeriods(day: "d\(day)", week: "w\(week(day))", allTime: "all")
  }
}

/// Why a daily puzzle cannot be played as asked.
public enum DailyError: Error, Equatable, Sendable {
  /// The player already has that day's counted game (finished or not).
  case alreadyPlayed(gameID: String)
  /// The day has not come yet (in UTC).
  case notYet
  /// The day is before puzzle #1.
  case beforeLaunch
}

/// The daily set: one puzzle per game per UTC day, the same for every player and instance.
/// The seed, and the category or deck where a game needs one, come from the day and a secret
/// that the database keeps (created by the first instance to start), so no client can work
/// out tomorrow's puzzle. Each game plays its daily settings (`Game.dailySettings`) on
/// bundled content only, which is the same on every instance.
public struct DailySet: Sendable {
  public static let secretName = "daily"
  let store: any GuessworkStore
  public let engines: GameEngines
  let library: ContentLibrary
  private let secret = SecretKeyCache()

  /// The daily set of the database behind `store`.
  public init(
    store: any GuessworkStore, engines: GameEngines, library: ContentLibrary = .bundled
  ) {
    self.store = store
    self.engines = engines
    self.library = library
  }

  /// The secret of the puzzles: read from the database once (and made there by the first
  /// instance that asks).
  private func key() async throws -> SymmetricKey {
    if let key = secret.key.withLock({ $0 }) { return key }
    var random = SystemRandomNumberGenerator()
    let proposed = (0..<4).map { _ in String(random.next(), radix: 16) }.joined(separator: "-")
    let key = SymmetricKey(
      data: Data(try await store.secret(named: Self.secretName, proposed: proposed).utf8))
    secret.key.withLock { $0 = key }
    return key
  }

  /// The games of the set, in order.
  public var games: [any GameEngine] { engines.all }

  /// A puzzle: the game's seed of the day and the content it plays.
  public struct Puzzle: Sendable {
    public var day: Int
    public var seed: UInt64
    public var content: SuppliedContent
  }

  /// The puzzle of `engine` on `day`.
  public func puzzle(_ engine: any GameEngine, day: Int) async throws -> Puzzle {
    let digest = Array(
      HMAC<SHA256>.authenticationCode(
        for: Data("\(engine.kind)/\(day)".utf8), using: try await key()))
    func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
      bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
    let seed = number(digest[0..<8])
    let pick = Int(number(digest[8..<16]) % UInt64(Int.max))
    let content: SuppliedContent
    switch engine.contentNeed {
    case .none:
      content = .none
    case .words:
      let categories = library.categories.sorted { $0.id < $1.id }
      let category = categories[pick % categories.count]
      content = .words(WordList(fresh: category.words), category: category.id)
    case .deck:
      let decks = library.decks.filter(\.isPlayable).sorted { $0.id < $1.id }
      content = .deck(decks[pick % decks.count])
    }
    return Puzzle(day: day, seed: seed, content: content)
  }

  /// Starts `engine`'s puzzle of `day` for a player: counted when `day` is today (once per
  /// player: a second start throws ``DailyError/alreadyPlayed(gameID:)``), from the archive
  /// otherwise. The game is stored before it is returned.
  public func start(_ engine: any GameEngine, playerID: String, day: Int, at now: Instant)
    async throws -> (GameRecord, Step)
  {
    let today = DailyCalendar.day(of: now)
    if day > today { throw DailyError.notYet }
    if day < DailyCalendar.launch { throw DailyError.beforeLaunch }
    let counted = day == today
    let puzzle = try await puzzle(engine, day: day)
    let id = GameRecord.newID(at: now.milliseconds)
    let (step, settings) = try engine.startDaily(
      content: puzzle.content, seed: puzzle.seed, at: now, gameID: id)
    let record = GameRecord(
      id: id, playerID: playerID,
      kind: engine.kind.rawValue,
      variant: puzzle.content.variant, settings: settings, seed: puzzle.seed, state: step.state,
      createdAt: now.milliseconds, daily: DailyTag(day: day, counted: counted))
    if counted {
      do {
        try await store.insertDailyGame(record, day: day)
      } catch StoreError.duplicate {
        // The database's key decides, whichever tab or instance asked first.
        let played = try await store.dailyPlays(playerID: playerID, day: day).first {
          $0.kind == engine.kind.rawValue
        }
        throw DailyError.alreadyPlayed(gameID: played?.gameID ?? "")
      }
    } else {
      try await store.insertGame(record)
    }
    return (record, step)
  }

  /// Records the result of a counted daily game that has just finished (nothing for any
  /// other game): in the leaderboards of its day, week and all time, and in the streaks.
  public func record(_ game: GameRecord, score: Int, at now: Instant) async throws {
    guard let daily = game.daily, daily.counted else { return }
    try await store.recordDaily(
      gameID: game.id, score: score, at: now.milliseconds,
      periods: DailyCalendar.periods(of: daily.day), sets: engines.all.count)
  }

  /// Records the results that a stop between a game's last move and its recording left out.
  public func catchUp(playerID: String) async throws {
    for play in try await store.unrecordedDailies(playerID: playerID) {
      guard let score = play.score, let at = play.finishedAt else { continue }
      try await store.recordDaily(
        gameID: play.gameID, score: score, at: at, periods: DailyCalendar.periods(of: play.day),
        sets: engines.all.count)
    }
  }

  /// What a finished daily game shares: the game and number, its share line (which tells no
  /// answer) and, when given, the link to that day.
  public func shareText(
    _ engine: any GameEngine, daily: DailyTag, summary: String, score: Int, link: String?,
    in catalog: Catalog
  ) -> String {
    let line = catalog.render(
      engine.shareLine(summary: summary, score: score)
        ?? Message("share.score", ["score": .int(score)]))
    let heading = catalog(
      daily.counted ? "daily.share" : "daily.share.archive",
      [
        "game": .text(catalog.render(engine.title)),
        "number": .text(String(DailyCalendar.number(daily.day))),
      ])
    return [heading, line, link]
      .compactMap { $0 }.joined(separator: "\n")
  }
}

private final class SecretKeyCache: Sendable {
  let key = Mutex<SymmetricKey?>(nil)
}

extension SuppliedContent {
  /// A deck's playable items, as a game of Picture Quiz plays them.
  public static func deck(_ deck: Deck) -> SuppliedContent {
    .deck(
      deck.playableItems.compactMap { item in
        item.pictureToken.map { DeckItem(id: $0, name: item.name) }
      }, id: deck.id, noun: deck.noun)
  }
}
