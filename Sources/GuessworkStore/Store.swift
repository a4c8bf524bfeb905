import Foundation

/// Where Guesswork keeps its data. The store knows games only as encoded state: it never
/// decodes a game, so it needs nothing from the core.
///
/// One protocol per area (`Areas/`), one implementation over SQLKit (``SQLStore``) that runs on SQLite and on
/// PostgreSQL with the same schema and the same queries; the contract tests run against both.
public protocol GuessworkStore:
  PlayerStore, GameStore, StatisticsStore, DailyStore, DeckStore, WordStore, CategoryStore,
  ReminderStore, RoomStore
{

  /// A cheap query that succeeds when the database answers.
  func ping() async throws

  /// Releases connections; the store is unusable afterwards.
  func close() async throws
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
