import ArgumentParser
import Foundation
import GuessworkPlay
import GuessworkServer
import Hummingbird
import Logging
import NIOPosix

#if canImport(Glibc)
  import Glibc
#endif

/// `guesswork serve`: the server, with nothing to set up.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Start the Guesswork server (SQLite by default, PostgreSQL with DATABASE_URL).",
    discussion: """
      With no options it listens on http://127.0.0.1:8080 and keeps its data in \
      ./guesswork.sqlite, created on first start. To play from a phone on the same network, \
      listen on all interfaces with --host 0.0.0.0 and open http://<this computer's address>:8080.
      Every option can also come from the environment: GUESSWORK_HOST, GUESSWORK_PORT, \
      GUESSWORK_DATA_DIR, DATABASE_URL, LOG_LEVEL, GUESSWORK_BEHIND_HTTPS, GUESSWORK_DATAMUSE=off, \
      GUESSWORK_DATAMUSE_URL, GUESSWORK_METRICS_PORT, GUESSWORK_METRICS_HOST, GUESSWORK_HTTPS=1, \
      GUESSWORK_TLS_CERT, GUESSWORK_TLS_KEY, GUESSWORK_RATE_LIMITS, GUESSWORK_REQUEST_DEADLINE, GUESSWORK_FIRST_REQUEST_SECONDS, \
      GUESSWORK_ROOM_SOCKETS_PER_PLAYER, GUESSWORK_SOCKETS_PER_CLIENT, GUESSWORK_ROOM_SOCKETS, \
      GUESSWORK_ROOMS_PER_HOST, GUESSWORK_EXPIRY_SWEEP_SECONDS, \
      GUESSWORK_PUBLIC_DIR and GUESSWORK_I18N_DIR (pages and catalogs from folders); \
      GUESSWORK_MALLOC=system keeps glibc's malloc where jemalloc is installed.
      With --https it serves HTTPS with a certificate it makes once for this machine's names and \
      addresses (kept in <data dir>/tls); a phone trusts it by installing the certificate \
      authority offered at /guesswork-ca.crt (README: "Playing on phones").
      """)

  @Option(help: "The address to listen on (0.0.0.0 for every interface).")
  var host: String?

  @Option(help: "The port to listen on (0 picks a free one).")
  var port: Int?

  @Option(help: "The folder of the SQLite database (guesswork.sqlite), created when missing.")
  var dataDir: String?

  @Option(help: "A postgres:// URL: use PostgreSQL, shared by several instances.")
  var databaseURL: String?

  @Option(help: "trace, debug, info, notice, warning, error or critical.")
  var logLevel: String?

  @Flag(help: "The server is reached over HTTPS (through a proxy): mark cookies Secure.")
  var behindHTTPS = false

  @Option(help: "The Datamuse API's base URL, for more Guess or Pass words.")
  var datamuseURL: String?

  @Flag(help: "Never ask Datamuse: play with the bundled and stored words only.")
  var noDatamuse = false

  @Option(help: "Serve Prometheus metrics at /metrics on this port (off when not given).")
  var metricsPort: Int?

  @Option(help: "The address of the metrics port (default 127.0.0.1: this machine only).")
  var metricsHost: String?

  @Flag(help: "Serve HTTPS with a certificate made for this machine (see above).")
  var https = false

  @Option(help: "Serve HTTPS with this certificate chain (PEM) instead; needs --tls-key.")
  var tlsCert: String?

  @Option(help: "The private key (PEM) of --tls-cert.")
  var tlsKey: String?

  @Option(
    help:
      "Rate limits: off, or players=20/3600,games=30/300,moves=100/10 (count per seconds; these are the defaults)."
  )
  var rateLimits: String?

  func validate() throws {
    if let text = rateLimits ?? ProcessInfo.processInfo.environment["GUESSWORK_RATE_LIMITS"] {
      do { _ = try RateLimits.parse(text) } catch { throw ValidationError("\(error)") }
    }
    if (tlsCert == nil) != (tlsKey == nil) {
      throw ValidationError("--tls-cert and --tls-key go together: give both, or neither.")
    }
    for path in [tlsCert, tlsKey].compactMap({ $0 })
    where !FileManager.default.isReadableFile(atPath: path) {
      throw ValidationError("Cannot read \(path).")
    }
    if let port, !(0...65535).contains(port) {
      throw ValidationError("--port must be from 0 to 65535.")
    }
    if let metricsPort, !(0...65535).contains(metricsPort) {
      throw ValidationError("--metrics-port must be from 0 to 65535.")
    }
    if let logLevel, Logger.Level(rawValue: logLevel) == nil {
      throw ValidationError(
        "--log-level must be one of trace, debug, info, notice, warning, error, critical.")
    }
  }

  func run() async throws {
    raiseOpenFilesLimit()
    Allocator.preferJemalloc()
    var configuration = ServerConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
    if let host { configuration.host = host }
    if let port { configuration.port = port }
    if let dataDir { configuration.dataDirectory = dataDir }
    if let databaseURL { configuration.databaseURL = databaseURL }
    if let logLevel, let level = Logger.Level(rawValue: logLevel) {
      configuration.logLevel = level
    }
    if behindHTTPS { configuration.behindHTTPS = true }
    if let datamuseURL { configuration.datamuse.baseURL = datamuseURL }
    if noDatamuse { configuration.datamuse.enabled = false }
    if let metricsPort { configuration.metricsPort = metricsPort }
    if let rateLimits { configuration.rateLimits = try RateLimits.parse(rateLimits) }
    if let metricsHost { configuration.metricsHost = metricsHost }
    if let tlsCert, let tlsKey {
      configuration.tls = .init(certificateChain: tlsCert, privateKey: tlsKey)
    } else if https || configuration.tls == nil && Self.httpsFromEnvironment {
      try useLocalCertificate(&configuration)
    }
    let host = configuration.host
    let scheme = configuration.tls == nil ? "http" : "https"
    let everywhere = ["0.0.0.0", "::"].contains(host)
    configuration.onListening = { port in
      var ready =
        "Guesswork is ready: open \(scheme)://\(everywhere ? "localhost" : host):\(port)/\n"
      if everywhere {
        let addresses = LocalCertificate.machineNames(listeningOn: host).filter {
          $0.first?.isNumber == true && $0 != "127.0.0.1" && !$0.contains(":")
        }
        for address in addresses { ready += "  on this network: \(scheme)://\(address):\(port)/\n" }
      }
      FileHandle.standardOutput.write(Data(ready.utf8))
    }
    let metricsHost = configuration.metricsHost
    configuration.onMetricsListening = { port in
      FileHandle.standardOutput.write(
        Data("Metrics: http://\(metricsHost):\(port)/metrics\n".utf8))
    }
    let level = configuration.logLevel
    LoggingSystem.bootstrap { label in
      var handler = ServerLogHandler(label: label)
      handler.logLevel = level
      return handler
    }
    Logger(label: "guesswork").info("memory allocator: \(Allocator.current)")
    let app = try await buildApplication(configuration)
    // Each connection's task (a child of the server's task group) inherits this preference
    // (EventLoopTaskExecutor.swift); an unstructured task does not, and runs on the same
    // loops through NIOSingletons' global executor, as before.
    try await withTaskExecutorPreference(EventLoopTaskExecutor(group: .singleton)) {
      try await app.runService()
    }
  }

  static var httpsFromEnvironment: Bool {
    ["1", "true", "yes"].contains(
      ProcessInfo.processInfo.environment["GUESSWORK_HTTPS"]?.lowercased() ?? "")
  }

  /// Makes (once) and uses this machine's certificate, kept in the data directory.
  private func useLocalCertificate(_ configuration: inout ServerConfiguration) throws {
    let files = LocalCertificate.Files(dataDirectory: configuration.dataDirectory)
    let names = LocalCertificate.machineNames(listeningOn: configuration.host)
    let made = try LocalCertificate.ensure(files, names: names)
    if made.authority, FileManager.default.fileExists(atPath: files.caCertificate.path) {
      FileHandle.standardOutput.write(
        Data(
          """
          Warning: made a new certificate authority in \(files.folder.path) (the old one was \
          near its end, had no name constraints, or could not sign for this machine's names). \
          Phones must trust the new one: open /guesswork-ca.crt on each again.\n
          """.utf8))
    }
    if made.certificate {
      FileHandle.standardOutput.write(
        Data(
          "Made an HTTPS certificate for \(names.joined(separator: ", ")) in \(files.folder.path)\n"
            .utf8))
    }
    configuration.tls = .init(certificateChain: files.certificate.path, privateKey: files.key.path)
    configuration.localCA = files
  }
}

/// Lets the server hold as many connections as the system allows this process: the soft limit
/// of open files (often 1,024) goes up to the hard one. Every connection, idle or a room's
/// socket, holds a file; at the soft limit new ones, `/healthz` among them, are refused.
func raiseOpenFilesLimit() {
  var limit = rlimit()
  guard getrlimit(openFilesResource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
  limit.rlim_cur = limit.rlim_max
  _ = setrlimit(openFilesResource, &limit)
}

#if canImport(Glibc)
  private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
  private let openFilesResource = RLIMIT_NOFILE
#endif
