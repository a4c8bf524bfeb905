import CoreMetrics
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Prometheus

/// Counts of play by game: games started, moves accepted, games finished. No-ops unless the
/// metrics are on (``MetricsEndpoint``); made once, as each lookup takes a lock.
struct PlayMetrics: Sendable {
  private let started: [String: CoreMetrics.Counter]
  private let moves: [String: CoreMetrics.Counter]
  private let finished: [String: CoreMetrics.Counter]

  init(engines: GameEngines) {
    func counters(_ label: String) -> [String: CoreMetrics.Counter] {
      Dictionary(
        uniqueKeysWithValues: engines.all.map {
          (
            $0.kind.rawValue,
            CoreMetrics.Counter(label: label, dimensions: [("game", $0.kind.rawValue)])
          )
        })
    }
    started = counters("guesswork_games_started_total")
    moves = counters("guesswork_moves_total")
    finished = counters("guesswork_games_finished_total")
  }

  func started(_ kind: String) { started[kind]?.increment() }
  func moved(_ kind: String) { moves[kind]?.increment() }
  func finished(_ kind: String) { finished[kind]?.increment() }
}

/// `GET /metrics` in Prometheus's text format, on a listener of its own (`--metrics-port`),
/// so the public port never shows it: by default only this machine can scrape it.
///
/// Requests are counted and timed by route, method and status (``RequestMetricsMiddleware``,
/// with Hummingbird's names), play by game (``PlayMetrics``), the hot path's write batches by
/// size, and the caches' entries and bytes are read at each scrape.
enum MetricsEndpoint {
  /// The process's one registry: swift-metrics can be set up once per process.
  static let registry: PrometheusCollectorRegistry = {
    let registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    // Hummingbird names its metrics with dots ("hb.requests"), which Prometheus does not
    // allow in names and labels; its counters get Prometheus's `_total`.
    factory.nameAndLabelSanitizer = { name, labels in
      (renamed[name] ?? sanitized(name), labels.map { (sanitized($0.0), $0.1) })
    }
    factory.valueHistogramBuckets["guesswork_write_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128]
    MetricsSystem.bootstrap(factory)
    return registry
  }()

  static let renamed = [
    "hb.requests": "guesswork_http_requests_total",
    "hb.request.errors": "guesswork_http_request_errors_total",
    "http.server.request.duration": "guesswork_http_request_duration_seconds",
    "http.server.active_requests": "guesswork_http_active_requests",
  ]

  static func sanitized(_ name: String) -> String {
    String(
      name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
  }

  static var entries: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "guesswork", metricName: "cache", unitName: "entries",
      helpText: "Entries kept in memory, by cache.")
  }

  static var bytes: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "guesswork", metricName: "cache", unitName: "bytes",
      helpText:
        "Approximate bytes kept in memory, by cache (the texts, and a fixed part per entry).")
  }

  /// The application that serves `/metrics` on `host`:`port`. `caches` says, when asked, what
  /// each cache holds.
  static func application(
    host: String, port: Int, logger: Logger,
    caches: @escaping @Sendable () -> [(name: String, size: CacheSize)],
    onListening: (@Sendable (Int) async -> Void)?
  ) -> some ApplicationProtocol {
    let router = Router()
    router.get("/metrics") { _, _ in
      for (name, size) in caches() {
        registry.makeGauge(descriptor: entries, labels: [("cache", name)])
          .set(Double(size.entries))
        registry.makeGauge(descriptor: bytes, labels: [("cache", name)]).set(Double(size.bytes))
      }
      var text: [UInt8] = []
      registry.emit(into: &text)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
    return Application(
      router: router,
      configuration: .init(address: .hostname(host, port: port), serverName: "Guesswork metrics"),
      onServerRunning: { channel in await onListening?(channel.localAddress?.port ?? port) },
      logger: logger)
  }
}

/// Counts and times every request by route, method and status: the metrics Hummingbird's
/// `MetricsMiddleware` makes, with the same names and labels, recorded when the handler returns
/// its answer instead of once the answer's body is written.
///
/// To know when a body is written, Hummingbird's wraps every body in a closure, and a body so
/// wrapped is written as the head, then the body, each sent on its own: two `write` calls and
/// two TCP segments an answer, where a body of one buffer goes out with its head in one
/// (`scripts/bench/counts.py`: 1.77 writes a ping with it, 0.90 with this; BENCHMARKS.md,
/// 2026-11-28 night). Every answer here is a buffer made before it is returned, so its time is
/// taken at the return; only the writing of it is left out.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
  private let metrics = RequestMetrics()

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = NIODeadline.now()
    let active = metrics.active(request.method)
    active.increment()
    defer { active.decrement() }
    do {
      let response = try await next(request, context)
      let route = metrics.route(
        context.endpointPath ?? "Unknown", request.method, response.status)
      route.requests.increment()
      route.duration.recordNanoseconds((NIODeadline.now() - start).nanoseconds)
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
      let route = metrics.route(context.endpointPath ?? "NotFound", request.method, status)
      route.requests.increment()
      route.errors.increment()
      throw error
    }
  }
}

/// The metrics of each route, method and status, made once each: making one asks the metrics
/// system, under its lock, for the series its labels name.
final class RequestMetrics: Sendable {
  struct Route: Sendable {
    let requests: CoreMetrics.Counter
    let duration: CoreMetrics.Timer
    let errors: CoreMetrics.Counter
  }

  private struct RouteKey: Hashable {
    let path: String
    let method: HTTPRequest.Method
    let status: HTTPResponse.Status
  }

  private let routes = NIOLockedValueBox<[RouteKey: Route]>([:])
  private let methods = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])

  /// Requests being answered, by method.
  func active(_ method: HTTPRequest.Method) -> Meter {
    methods.withLockedValue { made in
      if let meter = made[method] { return meter }
      let meter = Meter(
        label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)]
      )
      made[method] = meter
      return meter
    }
  }

  func route(_ path: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Route {
    routes.withLockedValue { made in
      let key = RouteKey(path: path, method: method, status: status)
      if let route = made[key] { return route }
      let labels = [
        ("http.route", path), ("http.request.method", method.rawValue),
        ("http.response.status_code", String(status.code)),
      ]
      let route = Route(
        requests: CoreMetrics.Counter(label: "hb.requests", dimensions: labels),
        duration: CoreMetrics.Timer(
          label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds),
        errors: CoreMetrics.Counter(
          label: "hb.request.errors",
          dimensions: [
            ("http.route", path), ("http.request.method", method.rawValue),
            ("error.type", String(status.code)),
          ]))
      made[key] = route
      return route
    }
  }
}
