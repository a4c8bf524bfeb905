import GuessworkContent
import GuessworkCore
import HTTPTypes
import Hummingbird

/// Answers a request whose path exists but not with its method `405 Method Not Allowed`, with
/// the methods it has in `Allow`, instead of the router's `404`.
struct AllowedMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Each route's path with its method.
  let routes: [(path: RouterPath, method: HTTPRequest.Method)]
  let site: StaticSite
  /// The catalogs the refusal is said from.
  let catalogs: [Language: Catalog]

  init(
    routes: [Router<Context>.RouteDescription], site: StaticSite,
    catalogs: [Language: Catalog] = Catalog.bundled
  ) {
    self.routes = routes.map { ($0.path, $0.method) }
    self.site = site
    self.catalogs = catalogs
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      // The router found no route (the API's own "not found" is an `APIError`).
      let allowed = methods(for: request.uri.path)
      guard !allowed.isEmpty else { throw error }
      var response = EdgeMiddleware<Context>.response(
        for: APIError(
          .methodNotAllowed, "method-not-allowed", "error.methodNotAllowed",
          ["method": .text("\(request.method)"), "allowed": .text(allowed.joined(separator: ", "))]),
        logger: context.logger, catalog: catalogs[request.language] ?? Catalog.of(request.language))
      response.headers[.allow] = allowed.joined(separator: ", ")
      return response
    }
  }

  /// The methods `path` answers to, in a stable order; empty when it is no route at all.
  func methods(for path: String) -> [String] {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    var found = Set(
      routes.filter { Self.matches($0.path.components, segments[...]) }.map(\.method.rawValue))
    // A path that names a file (a reminder's `.ics`) is a route's file to read, nothing more.
    if segments.last?.contains(".") == true { found.formIntersection(["GET", "HEAD"]) }
    if site.file(at: path) != nil { found.formUnion(["GET", "HEAD"]) }
    return found.sorted()
  }

  private static func matches(
    _ components: [RouterPath.Element], _ segments: ArraySlice<Substring>
  ) -> Bool {
    guard let first = components.first else { return segments.isEmpty }
    if first.description == "**" { return true }  // the rest of the path, whatever it is
    guard let segment = segments.first, first ~= segment else { return false }
    return matches(Array(components.dropFirst()), segments.dropFirst())
  }
}
