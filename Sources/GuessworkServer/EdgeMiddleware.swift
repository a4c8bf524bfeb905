import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat

/// The first and last thing every request meets: turns every error into a JSON answer with
/// the right status, adds the security headers, and logs one line with the status and the
/// duration.
struct EdgeMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Whether browsers reach the server over HTTPS only (its own TLS, or a proxy's): they are
  /// then told to keep to HTTPS (`Strict-Transport-Security`).
  var httpsOnly = false
  /// The catalogs error messages are said from, in the request's language (`Accept-Language`).
  var catalogs: [Language: Catalog] = Catalog.bundled

  /// Made once (``edgeSecurityHeaders``): built for every answer, they were about 1% of a
  /// read's CPU (perf).
  static var securityHeaders: HTTPFields { edgeSecurityHeaders }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    var response: Response
    do {
      response = try await next(request, context)
    } catch {
      response = Self.response(
        for: error, logger: context.logger, catalog: catalogs[request.language] ?? Catalog.of(.en))
    }
    // Asked whether each is there, not for its value: the getter of a value joins the ones a
    // name has, and builds a lazy sequence of them first, for every header of every answer.
    for field in Self.securityHeaders where !response.headers.contains(field.name) {
      response.headers.append(field)
    }
    if httpsOnly { response.headers[.strictTransportSecurity] = "max-age=31536000" }
    let elapsed = ContinuousClock.now - start
    context.logger.info(
      "\(request.method) \(request.uri.path) \(response.status.code) \(Self.milliseconds(elapsed)) ms"
    )
    return response
  }

  /// `duration` in milliseconds with two decimals ("0.12"), rounded half to even, from its
  /// exact parts. At the default log level every request writes its duration so; with
  /// Foundation's `String(format: "%.2f")` a read cost 4 µs more (BENCHMARKS.md).
  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = max(duration, .zero).components
    // Attoseconds in a hundredth of a millisecond.
    let unit: Int64 = 10_000_000_000_000
    var hundredths = seconds * 100_000 + attoseconds / unit
    let rest = attoseconds % unit
    if rest * 2 > unit || (rest * 2 == unit && !hundredths.isMultiple(of: 2)) { hundredths += 1 }
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  static func response(for error: any Error, logger: Logger, catalog: Catalog) -> Response {
    let apiError = Self.apiError(for: error, logger: logger)
    var response = json(apiError.body(in: catalog), status: apiError.status)
    if let seconds = apiError.retryAfter { response.headers[.retryAfter] = String(seconds) }
    return response
  }

  /// What any error a route throws tells the client (an unexpected one is logged and is a 500).
  static func apiError(for error: any Error, logger: Logger) -> APIError {
    switch error {
    case let error as APIError:
      return error
    case let error as DecodingError:
      return APIError(.badRequest, "bad-request", [error.explanation])
    case let error as HTTPError:
      return APIError(
        error.status, Self.code(for: error.status),
        error.body.map { [Message("error.detail", ["detail": .text($0)])] }
          ?? [Self.message(for: error.status)])
    case let error as any HTTPResponseError:
      return APIError(
        error.status, Self.code(for: error.status), [Self.message(for: error.status)])
    default:
      logger.error("internal error: \(String(reflecting: error))")
      return APIError(.internalServerError, "internal", "error.internal")
    }
  }

  static func code(for status: HTTPResponse.Status) -> String {
    switch status {
    case .notFound: "not-found"
    case .contentTooLarge: "too-large"
    case .methodNotAllowed: "method-not-allowed"
    case .unsupportedMediaType: "unsupported-media-type"
    default: status.code < 500 ? "bad-request" : "internal"
    }
  }

  static func message(for status: HTTPResponse.Status) -> Message {
    switch status {
    case .notFound: Message("error.http.notFound")
    case .contentTooLarge: Message("error.http.tooLarge")
    case .methodNotAllowed: Message("error.http.methodNotAllowed")
    default: Message("error.http.other", ["reason": .text(status.reasonPhrase)])
    }
  }
}

extension Request {
  /// The language the request asks to be answered in (`Accept-Language`), English if none.
  var language: Language {
    headers[.acceptLanguage].flatMap(Language.init(acceptLanguage:)) ?? .en
  }
}

/// A JSON answer.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
  json(
    body: (try? CompactJSON.encode(value)).map { ByteBuffer(bytes: $0) } ?? encodingFailed,
    status: status)
}

/// A JSON answer that writes itself (a game's reply), written without asking the runtime
/// whether it does.
func json(_ value: some JSONTextWritable, status: HTTPResponse.Status = .ok) -> Response {
  json(
    body: (try? CompactJSON.encode(value)).map { ByteBuffer(bytes: $0) } ?? encodingFailed,
    status: status)
}

private let encodingFailed = ByteBuffer(
  string: #"{"error":{"code":"internal","message":"encoding failed"}}"#)

/// An answer of JSON already encoded.
func json(encoded bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
  json(body: ByteBuffer(bytes: bytes), status: status)
}

/// An answer of JSON already encoded, in a buffer (one that may be kept and sent again).
func json(body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
  Response(
    status: status,
    headers: [.contentType: "application/json; charset=utf-8"],
    body: .init(byteBuffer: body))
}

/// The headers every answer carries (``EdgeMiddleware/securityHeaders``).
private let edgeSecurityHeaders: HTTPFields = [
  .xContentTypeOptions: "nosniff",
  .contentSecurityPolicy:
    "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  HTTPField.Name("Referrer-Policy")!: "same-origin",
  HTTPField.Name("X-Frame-Options")!: "DENY",
]
