import Foundation
import GuessworkCore
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// An error a client can act on: an HTTP status, a stable code and a message for people.
/// Every error a route throws ends up as `{"error": {"code", "message"}}` (see
/// ``EdgeMiddleware``).
struct APIError: Error, Sendable {
  var status: HTTPResponse.Status
  var code: String
  var message: String
  /// The game the error is about, when the client should open it (a daily already played).
  var gameId: String?
  /// Seconds to wait before asking again (`Retry-After`), for `429`.
  var retryAfter: Int?

  init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  static func notFound(_ what: String) -> APIError {
    APIError(.notFound, "not-found", "\(what) not found.")
  }

  static let noPlayer = APIError(
    .unauthorized, "no-player",
    "No player yet: create one with POST /api/players {\"name\": ...}.")

  static func badRequest(_ message: String) -> APIError {
    APIError(.badRequest, "bad-request", message)
  }

  static func invalidSetting(_ error: SettingError) -> APIError {
    APIError(.badRequest, "invalid-setting", error.message)
  }

  static func refused(_ refusal: Refusal) -> APIError {
    APIError(.unprocessableContent, refusal.code.rawValue, refusal.message)
  }

  /// The body of every error response.
  struct Body: Encodable {
    struct Detail: Encodable {
      var code: String
      var message: String
      var gameId: String?
    }
    var error: Detail
  }
}

extension DecodingError {
  /// Says what is wrong with a request body in words, with the path to the bad field.
  var explanation: String {
    func path(_ keys: [any CodingKey]) -> String {
      let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return names.isEmpty ? "the body" : names.joined(separator: ".")
    }
    switch self {
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) must be \(Self.describe(type))."
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) must be \(Self.describe(type)), not null."
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing."
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "The body is not valid JSON." }
      return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "The body does not have the expected shape."
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is Int.Type, is Int64.Type, is UInt64.Type: "a whole number"
    case is Double.Type: "a number"
    default:
      String(describing: type).hasPrefix("Array") || String(describing: type).hasPrefix("[")
        ? "an array" : "an object"
    }
  }
}
