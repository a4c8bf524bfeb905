public import GuessworkPlay
public import Logging

/// Everything the server can be told, with defaults that need no set-up at all.
public struct ServerConfiguration: Sendable {
  /// The address to listen on; `0.0.0.0` lets phones on the same network in.
  public var host: String = "127.0.0.1"
  /// The port; 0 picks a free one (tests).
  public var port: Int = 8080
  /// Where the SQLite file lives when no `databaseURL` is given.
  public var dataDirectory: String = "."
  /// `postgres://...` to share one PostgreSQL database between instances.
  public var databaseURL: String?
  public var logLevel: Logger.Level = .info
  /// Set when the server is reached through HTTPS (a proxy in front): cookies get `Secure`.
  public var behindHTTPS: Bool = false
  /// Serve HTTPS with this certificate (PEM, the chain) and key (PEM) instead of HTTP; cookies
  /// get `Secure`.
  public var tls: TLSFiles?
  /// Serve this CA certificate at ``LocalCertificate/caPath`` (`serve --https`'s own, for
  /// phones to trust).
  public var localCA: LocalCertificate.Files?
  /// How fast clients may make players, start games and move. Off unless asked for here (tests
  /// and embedders); `guesswork serve` (``fromEnvironment(_:)``) uses ``RateLimits/standard``
  /// unless `GUESSWORK_RATE_LIMITS` says otherwise.
  public var rateLimits: RateLimits = .off
  /// How often the server looks for rounds whose time has run out, to record them then;
  /// `nil`: never (tests that drive the clock), and rounds end when next read.
  public var expirySweep: Duration? = .seconds(1)
  /// How long a request may take to arrive whole (its head and body), in seconds.
  public var requestDeadlineSeconds = 30
  /// How long a new connection may take to send its first request head, in seconds: a
  /// connection that sends nothing (or trickles its head) is closed then.
  public var firstRequestSeconds = 10

  /// Whether browsers are told to keep to HTTPS for a year (`Strict-Transport-Security`): behind
  /// an operator's HTTPS, or with their own certificate. Not with the home-network authority
  /// of `serve --https`: a browser told so would refuse plain HTTP to `<host>.local` for a year.
  public var sendsHSTS: Bool { behindHTTPS || (tls != nil && localCA == nil) }
  /// What clients and rooms may hold (sockets, rooms), and how often rooms are swept.
  public var roomCaps = RoomCaps()
  /// Serve the browser UI from this folder instead of the bundled copy (for working on it
  /// without rebuilding).
  public var publicDirectory: String?
  /// Where the languages' catalogs are read from (`<folder>/<language>/<area>.json`); nil for
  /// the bundled ones. For working on the texts without rebuilding.
  public var catalogDirectory: String?
  /// Datamuse, for more Guess or Pass words. Off unless asked for here, so that tests and
  /// embedders never reach the internet unasked; `guesswork serve` (``fromEnvironment(_:)``)
  /// turns it on unless `GUESSWORK_DATAMUSE=off`.
  public var datamuse: DatamuseSettings = .off
  /// The port of `/metrics` (Prometheus), on a listener of its own; `nil`: no metrics.
  public var metricsPort: Int?
  /// The address of the metrics listener: this machine only unless told otherwise.
  public var metricsHost: String = "127.0.0.1"
  /// Called once the metrics listener listens, with the port it got.
  public var onMetricsListening: (@Sendable (Int) async -> Void)?
  /// Called once the server listens, with the port it got.
  public var onListening: (@Sendable (Int) async -> Void)?

  public init() {}

  /// A certificate chain and its private key, both PEM files.
  public struct TLSFiles: Sendable {
    public var certificateChain: String
    public var privateKey: String

    public init(certificateChain: String, privateKey: String) {
      self.certificateChain = certificateChain
      self.privateKey = privateKey
    }
  }

  /// The SQLite file used when `databaseURL` is not set.
  public var sqlitePath: String {
    StorageSettings(dataDirectory: dataDirectory, databaseURL: databaseURL).sqlitePath
  }

  /// Reads `GUESSWORK_HOST`, `GUESSWORK_PORT`, `GUESSWORK_DATA_DIR`, `DATABASE_URL`,
  /// `LOG_LEVEL`, `GUESSWORK_BEHIND_HTTPS`, `GUESSWORK_PUBLIC_DIR`, `GUESSWORK_I18N_DIR`, `GUESSWORK_DATAMUSE`
  /// (`off` turns Datamuse off), `GUESSWORK_DATAMUSE_URL`, `GUESSWORK_METRICS_PORT` and
  /// `GUESSWORK_METRICS_HOST`, `GUESSWORK_TLS_CERT`, `GUESSWORK_TLS_KEY`, `GUESSWORK_REQUEST_DEADLINE` (seconds), `GUESSWORK_FIRST_REQUEST_SECONDS`, the room caps
  /// (`GUESSWORK_ROOM_SOCKETS_PER_PLAYER`, `GUESSWORK_SOCKETS_PER_CLIENT`, `GUESSWORK_ROOM_SOCKETS`,
  /// `GUESSWORK_ROOMS_PER_HOST`, `GUESSWORK_EXPIRY_SWEEP_SECONDS`) and `GUESSWORK_RATE_LIMITS`; what is unset keeps its default.
  public static func fromEnvironment(_ environment: [String: String]) -> ServerConfiguration {
    var configuration = ServerConfiguration()
    if let host = environment["GUESSWORK_HOST"], !host.isEmpty { configuration.host = host }
    if let port = environment["GUESSWORK_PORT"].flatMap(Int.init) { configuration.port = port }
    let storage = StorageSettings.fromEnvironment(environment)
    configuration.dataDirectory = storage.dataDirectory
    configuration.databaseURL = storage.databaseURL
    if let level = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) {
      configuration.logLevel = level
    }
    if let folder = environment["GUESSWORK_PUBLIC_DIR"], !folder.isEmpty {
      configuration.publicDirectory = folder
    }
    if let folder = environment["GUESSWORK_I18N_DIR"], !folder.isEmpty {
      configuration.catalogDirectory = folder
    }
    configuration.datamuse = DatamuseSettings.fromEnvironment(environment)
    if let port = environment["GUESSWORK_METRICS_PORT"].flatMap(Int.init) {
      configuration.metricsPort = port
    }
    if let host = environment["GUESSWORK_METRICS_HOST"], !host.isEmpty {
      configuration.metricsHost = host
    }
    configuration.rateLimits =
      environment["GUESSWORK_RATE_LIMITS"].flatMap { try? RateLimits.parse($0) } ?? .standard
    if let seconds = environment["GUESSWORK_REQUEST_DEADLINE"].flatMap(Int.init), seconds > 0 {
      configuration.requestDeadlineSeconds = seconds
    }
    if let seconds = environment["GUESSWORK_FIRST_REQUEST_SECONDS"].flatMap(Int.init), seconds > 0 {
      configuration.firstRequestSeconds = seconds
    }
    let caps: [(String, WritableKeyPath<RoomCaps, Int>)] = [
      ("GUESSWORK_ROOM_SOCKETS_PER_PLAYER", \.socketsPerPlayer),
      ("GUESSWORK_SOCKETS_PER_CLIENT", \.socketsPerClient),
      ("GUESSWORK_ROOM_SOCKETS", \.socketsPerRoom),
      ("GUESSWORK_ROOMS_PER_HOST", \.roomsPerHost),
      ("GUESSWORK_EXPIRY_SWEEP_SECONDS", \.sweepSeconds),
    ]
    for (name, cap) in caps {
      if let value = environment[name].flatMap(Int.init), value > 0 {
        configuration.roomCaps[keyPath: cap] = value
      }
    }
    if let certificate = environment["GUESSWORK_TLS_CERT"], !certificate.isEmpty,
      let key = environment["GUESSWORK_TLS_KEY"], !key.isEmpty
    {
      configuration.tls = TLSFiles(certificateChain: certificate, privateKey: key)
    }
    configuration.behindHTTPS = ["1", "true", "yes"].contains(
      environment["GUESSWORK_BEHIND_HTTPS"]?.lowercased() ?? "")
    return configuration
  }
}
