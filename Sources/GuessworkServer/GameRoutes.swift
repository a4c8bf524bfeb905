import HTTPTypes
import Hummingbird

/// The three requests a game makes all the time, starting it (`POST /api/games`), reading it
/// (`GET /api/games/{id}`) and acting on it (`POST /api/games/{id}/actions`), taken to their
/// handlers before the router. Hummingbird's router walks its trie for every request and
/// collects the `{id}` in a dictionary of parameters: 2.9 µs of a read's 52 µs of server CPU
/// in a perf profile, against 0.9 for the one constant part of `/ping` (BENCHMARKS.md,
/// 2026-11-28 evening). Matching the shapes by hand costs a fraction of that.
///
/// Only those exact shapes are taken; any other request goes to the router, which still has
/// the routes (for `HEAD`, for the `405` of another method, for the API document). The
/// router's routes run inside ``RouteMiddleware``, and so do these, with the route named for
/// the metrics as the router would name it.
struct GameRoutesResponder<Context: RequestContext>: HTTPResponder {
  let api: API
  /// The middleware the router's routes run inside: the same value, added to the router.
  let middleware: RouteMiddleware<Context>
  let router: any HTTPResponder<Context>

  func respond(to request: Request, context: Context) async throws -> Response {
    guard let route = GameRoute(request.method, request.uri.path) else {
      return try await router.respond(to: request, context: context)
    }
    context.coreContext.endpointPath.value = route.path
    return try await middleware.handle(request, context: context) { request, _ in
      switch route {
      case .start: try await api.createGame(request)
      case .read(let id): try await api.readGame(request, id: id)
      case .act(let id): try await api.act(request, id: id)
      }
    }
  }
}

/// What every route runs inside, in this order: the metrics' (when they are on), then
/// ``EdgeMiddleware``. One value serves the router, which adds it to each of its routes, and
/// ``GameRoutesResponder``, whose routes skip the router: both run the same chain.
struct RouteMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: RequestMetricsMiddleware<Context>?
  let edge: EdgeMiddleware<Context>

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let metrics else { return try await edge.handle(request, context: context, next: next) }
    return try await metrics.handle(request, context: context) {
      try await edge.handle($0, context: $1, next: next)
    }
  }
}

/// Which of the game's routes a request is, and its game's id.
enum GameRoute: Equatable {
  case start
  case read(id: String)
  case act(id: String)

  /// `POST /api/games`, `GET /api/games/ID` or `POST /api/games/ID/actions`, where ID is one
  /// non-empty segment; nil for anything else.
  init?(_ method: HTTPRequest.Method, _ path: String) {
    if method == .post, path == "/api/games" {
      self = .start
      return
    }
    let prefix = "/api/games/"
    guard method == .get || method == .post, path.utf8.starts(with: prefix.utf8) else {
      return nil
    }
    let rest = path.utf8.dropFirst(prefix.utf8.count)
    let slash = rest.firstIndex(of: UInt8(ascii: "/"))
    let id = rest[..<(slash ?? rest.endIndex)]
    guard !id.isEmpty else { return nil }
    switch (method, slash) {
    case (.get, nil):
      self = .read(id: String(Substring(id)))
    case (.post, let slash?) where rest[rest.index(after: slash)...].elementsEqual("actions".utf8):
      self = .act(id: String(Substring(id)))
    default:
      return nil
    }
  }

  /// The route as the router names it (the metrics' `http.route`).
  var path: String {
    switch self {
    case .start: "/api/games"
    case .read: "/api/games/{id}"
    case .act: "/api/games/{id}/actions"
    }
  }
}
