public import Foundation
public import GuessworkContent
import GuessworkCore
public import GuessworkStore
public import Logging

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How Guesswork reaches the Datamuse API (https://www.datamuse.com/api/) for more words.
public struct DatamuseSettings: Sendable, Equatable {
  /// Whether to ask Datamuse at all.
  public var enabled: Bool
  /// The API's base URL; `/words` is appended.
  public var baseURL: String
  /// The longest a request may take, in seconds.
  public var timeout: Double

  public init(enabled: Bool, baseURL: String = Self.defaultURL, timeout: Double = 5) {
    self.enabled = enabled
    self.baseURL = baseURL
    self.timeout = timeout
  }

  public static let defaultURL = "https://api.datamuse.com"
  /// Datamuse off: only bundled and stored words.
  public static let off = DatamuseSettings(enabled: false)

  /// On unless `GUESSWORK_DATAMUSE` is `off` (or 0, false, no), at `GUESSWORK_DATAMUSE_URL` or
  /// the public API: what `guesswork serve` and `guesswork words` use.
  public static func fromEnvironment(_ environment: [String: String]) -> DatamuseSettings {
    DatamuseSettings(
      enabled: !["off", "0", "false", "no"].contains(
        environment["GUESSWORK_DATAMUSE"]?.lowercased() ?? ""),
      baseURL: environment["GUESSWORK_DATAMUSE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? defaultURL)
  }
}

/// Why a Datamuse request gave no words.
public enum DatamuseError: Error, Equatable, CustomStringConvertible {
  case status(Int)
  case malformed
  case empty
  case unreachable(String)
  case unknownCategory(String)

  public var description: String {
    switch self {
    case .status(429): "Datamuse answered 429 Too Many Requests"
    case .status(let code): "Datamuse answered HTTP \(code)"
    case .malformed: "Datamuse answered something that is not a list of words"
    case .empty: "Datamuse answered no words"
    case .unreachable(let why): "Datamuse could not be reached (\(why))"
    case .unknownCategory(let id): "no Datamuse query for category \(id)"
    }
  }
}

/// Asks Datamuse for the words of a category, the way the original app did:
/// `GET /words?ml=<seed word>&topics=<topics>&max=1000`.
public struct DatamuseClient: Sendable {
  public let settings: DatamuseSettings

  public init(settings: DatamuseSettings) {
    self.settings = settings
  }

  /// The original app's seed word and topics per category.
  public static let queries: [String: (ml: String, topics: String)] = [
    "animals": ("dog", "animals,zoo,pets"),
    "food": ("pizza", "food,meals"),
    "sports": ("football", "sports,games,fitness"),
    "technology": ("smartphone", "technology,gadgets"),
    "music": ("guitar", "music,instruments"),
    "nature": ("tree", "nature,environment,outdoors"),
  ]

  /// The same in Spanish, asked of Datamuse's Spanish vocabulary (`v=es`).
  public static let spanishQueries: [String: (ml: String, topics: String)] = [
    "animals": ("perro", "animales,zoológico,mascotas"),
    "food": ("pizza", "comida,platos"),
    "sports": ("fútbol", "deportes,juegos"),
    "technology": ("teléfono", "tecnología,aparatos"),
    "music": ("guitarra", "música,instrumentos"),
    "nature": ("árbol", "naturaleza,campo"),
  ]

  /// The languages Datamuse has a vocabulary for; the others play their bundled words only.
  public static let languages: [Language] = [.en, .es]

  /// The request URL for a category.
  public func url(for category: String, language: Language = .en) throws(DatamuseError) -> URL {
    guard let query = (language == .es ? Self.spanishQueries : Self.queries)[category] else {
      throw .unknownCategory(category)
    }
    var base = settings.baseURL
    while base.hasSuffix("/") { base.removeLast() }
    guard var components = URLComponents(string: base + "/words") else {
      throw .unreachable("bad base URL \(settings.baseURL)")
    }
    components.queryItems = [
      URLQueryItem(name: "ml", value: query.ml), URLQueryItem(name: "topics", value: query.topics),
      URLQueryItem(name: "max", value: "1000"),
    ]
    if language == .es { components.queryItems?.append(URLQueryItem(name: "v", value: "es")) }
    guard let url = components.url else { throw .unreachable("bad base URL \(settings.baseURL)") }
    return url
  }

  /// The raw words Datamuse relates to the category (not yet cleaned).
  public func fetch(category: String, language: Language = .en) async throws(DatamuseError)
    -> [String]
  {
    let url = try url(for: category, language: language)
    var request = URLRequest(url: url, timeoutInterval: settings.timeout)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("Guesswork (word game)", forHTTPHeaderField: "User-Agent")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = settings.timeout
    configuration.timeoutIntervalForResource = settings.timeout
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let box = TaskBox()
    let result: Result<(Data, Int), DatamuseError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(returning: .failure(.unreachable(error.localizedDescription)))
          } else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            continuation.resume(returning: .success((data ?? Data(), status)))
          }
        }
        box.set(task)
        task.resume()
      }
    } onCancel: {
      box.cancel()
    }
    let (data, status) = try result.get()
    guard status == 200 else { throw .status(status) }
    struct Entry: Decodable { var word: String }
    guard let entries = try? JSONDecoder().decode([Entry].self, from: data) else {
      throw .malformed
    }
    guard !entries.isEmpty else { throw .empty }
    return entries.map(\.word)
  }
}

/// The request in flight, so that stopping the server cancels it instead of waiting for it.
private final class TaskBox: @unchecked Sendable {
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var cancelled = false

  func set(_ task: URLSessionDataTask) {
    lock.lock()
    self.task = task
    let cancelNow = cancelled
    lock.unlock()
    if cancelNow { task.cancel() }
  }

  func cancel() {
    lock.lock()
    cancelled = true
    let task = self.task
    lock.unlock()
    task?.cancel()
  }
}

/// The words of Guess or Pass categories: the bundled ones, plus those stored from Datamuse
/// or the command line. Refreshing from Datamuse never happens in a request; whatever goes
/// wrong with it leaves the words already there in use.
public struct WordBank: Sendable {
  public let store: any GuessworkStore
  public let content: ContentLibrary
  public let datamuse: DatamuseSettings
  public let logger: Logger
  public let now: @Sendable () -> Int64

  public static let day: Int64 = 86_400_000

  public init(
    store: any GuessworkStore, content: ContentLibrary = .bundled, datamuse: DatamuseSettings,
    logger: Logger,
    now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
  ) {
    self.store = store
    self.content = content
    self.datamuse = datamuse
    self.logger = logger
    self.now = now
  }

  /// A category's words: bundled first, then stored ones not among them. When the store
  /// cannot be read, the bundled words alone.
  public func words(category id: String, language: Language = .en) async -> [String] {
    let bundled = content.words(category: id, in: language)
    guard let stored = try? await store.storedWords(category: Self.key(id, language)) else {
      return bundled
    }
    var seen = Set(bundled.map { $0.lowercased() })
    return bundled + stored.map(\.word).filter { seen.insert($0.lowercased()).inserted }
  }

  /// What a refresh did.
  public enum RefreshResult: Sendable, Equatable, CustomStringConvertible {
    case added(new: Int, fetched: Int)
    /// Refreshed less than a day ago (at this time): nothing asked.
    case notDue(lastAt: Int64)
    case failed(DatamuseError)
    case disabled

    public var description: String {
      switch self {
      case .added(let new, let fetched): "\(fetched) usable words from Datamuse, \(new) new"
      case .notDue: "refreshed less than a day ago; skipped"
      case .failed(let error): "\(error); the words already there stay in use"
      case .disabled: "Datamuse is turned off"
      }
    }
  }

  /// Where a category's words of `language` are stored: the id for English, `es:<id>` for
  /// another language.
  static func key(_ category: String, _ language: Language) -> String {
    language == .en ? category : "\(language.rawValue):\(category)"
  }

  /// Refreshes one category from Datamuse, at most once a day (across every instance on the
  /// database) unless `force`. Never throws: a failure is logged in one line and returned.
  public func refresh(category id: String, language: Language = .en, force: Bool = false) async
    -> RefreshResult
  {
    let category = Self.key(id, language)
    guard datamuse.enabled else { return .disabled }
    let at = now()
    if !force {
      do {
        guard try await store.claimRefresh(category: category, lastBefore: at - Self.day, at: at)
        else {
          return .notDue(lastAt: (try? await store.lastRefresh(category: category)) ?? at)
        }
      } catch {
        logger.warning("words: \(category): the refresh could not be recorded: \(error)")
        return .failed(.unreachable("the database did not answer"))
      }
    } else {
      _ = try? await store.claimRefresh(category: category, lastBefore: Int64.max, at: at)
    }
    do {
      let raw = try await DatamuseClient(settings: datamuse).fetch(category: id, language: language)
      let cleaned = WordCleaning.clean(raw, language: language)
      guard !cleaned.isEmpty else { throw DatamuseError.empty }
      let new = try await store.addWords(cleaned, category: category, source: "datamuse", at: at)
      logger.info("words: \(category): \(cleaned.count) words from Datamuse, \(new) new")
      return .added(new: new, fetched: cleaned.count)
    } catch let error as DatamuseError {
      logger.warning("words: \(category): \(error); bundled and cached words stay in use")
      return .failed(error)
    } catch {
      logger.warning("words: \(category): could not store Datamuse words: \(error)")
      return .failed(.unreachable("the database did not answer"))
    }
  }

  /// Refreshes every built-in category that is due.
  public func refreshDue() async {
    for language in DatamuseClient.languages {
      for category in ContentLibrary.categoryIDs {
        _ = await refresh(category: category, language: language)
      }
    }
  }
}
