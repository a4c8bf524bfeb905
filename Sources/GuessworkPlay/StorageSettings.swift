/// Where Guesswork keeps its data: a PostgreSQL database shared by instances, else an SQLite
/// file in a folder. What `guesswork serve` and the commands that open the store (`play`,
/// `decks`, `words`, `stats`) read from the environment.
public struct StorageSettings: Sendable, Equatable {
  /// Where the SQLite file lives when no `databaseURL` is given.
  public var dataDirectory: String = "."
  /// `postgres://...` to share one PostgreSQL database between instances.
  public var databaseURL: String?

  public init(dataDirectory: String = ".", databaseURL: String? = nil) {
    self.dataDirectory = dataDirectory
    self.databaseURL = databaseURL
  }

  /// The SQLite file used when `databaseURL` is not set.
  public var sqlitePath: String {
    dataDirectory.hasSuffix("/")
      ? dataDirectory + "guesswork.sqlite" : dataDirectory + "/guesswork.sqlite"
  }

  /// `GUESSWORK_DATA_DIR` and `DATABASE_URL`; what is unset or empty keeps its default.
  public static func fromEnvironment(_ environment: [String: String]) -> StorageSettings {
    var settings = StorageSettings()
    if let directory = environment["GUESSWORK_DATA_DIR"], !directory.isEmpty {
      settings.dataDirectory = directory
    }
    if let url = environment["DATABASE_URL"], !url.isEmpty { settings.databaseURL = url }
    return settings
  }
}
