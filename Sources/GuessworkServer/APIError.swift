import Foundation
import GuessworkContent
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
  /// For people, in sentences of the catalogs (area `api`), said in the request's language.
  var message: [Message]
  /// The game the error is about, when the client should open it (a daily already played).
  var gameId: String?
  /// Seconds to wait before asking again (`Retry-After`), for `429`.
  var retryAfter: Int?

  init(
    _ status: HTTPResponse.Status, _ code: String, _ key: String,
    _ args: Message.Arguments = [:]
  ) {
    self.init(status, code, [Message(key, args)])
  }

  init(_ status: HTTPResponse.Status, _ code: String, _ message: [Message]) {
    self.status = status
    self.code = code
    self.message = message
  }

  /// "Game not found.": `what` names the key `error.notFound.<what>`.
  static func notFound(_ what: String) -> APIError {
    APIError(.notFound, "not-found", "error.notFound.\(what)")
  }

  static let noPlayer = APIError(.unauthorized, "no-player", "error.noPlayer")

  /// A body that is not JSON sent to a route that takes JSON.
  static let notJSON = APIError(
    .unsupportedMediaType, "unsupported-media-type", "error.unsupportedMediaType")

  /// A plain GET of a socket's path: it answers only a WebSocket upgrade.
  static let websocketExpected = APIError(
    .badRequest, "websocket-expected", "error.websocketExpected")

  static func badRequest(_ key: String, _ args: Message.Arguments = [:]) -> APIError {
    APIError(.badRequest, "bad-request", key, args)
  }

  /// A 400 whose words come from elsewhere, as they are (a decoder's explanation).
  static func badRequest(detail: String) -> APIError {
    APIError(.badRequest, "bad-request", "error.detail", ["detail": .text(detail)])
  }

  static func invalidSetting(_ error: SettingError) -> APIError {
    APIError(.badRequest, "invalid-setting", [error.message])
  }

  static func refused(_ refusal: Refusal) -> APIError {
    APIError(.unprocessableContent, refusal.code.rawValue, refusal.reason)
  }

  /// The message in the words of `catalog`.
  func message(in catalog: Catalog) -> String {
    message.map(catalog.render).joined(separator: " ")
  }

  /// The body of its error response, in the words of `catalog`.
  func body(in catalog: Catalog) -> Body {
    Body(error: .init(code: code, message: message(in: catalog), gameId: gameId))
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
  /// Says what is wrong with a request body, in a sentence of the catalogs (area `api`) with
  /// the path to the bad field: "name must be a string.", in the request's language.
  var explanation: Message {
    func path(_ keys: [any CodingKey]) -> Message.Argument {
      let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return names.isEmpty ? .key("error.body.whole") : .text(names.joined(separator: "."))
    }
    switch self {
    case .typeMismatch(let type, let context):
      return Message(
        "error.body.type", ["path": path(context.codingPath), "type": Self.describe(type)])
    case .valueNotFound(let type, let context):
      return Message(
        "error.body.null", ["path": path(context.codingPath), "type": Self.describe(type)])
    case .keyNotFound(let key, let context):
      return Message("error.body.missing", ["path": path(context.codingPath + [key])])
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return Message("error.body.notJSON") }
      return Message(
        "error.body.invalid",
        ["path": path(context.codingPath), "detail": .text(context.debugDescription)])
    @unknown default:
      return Message("error.body.shape")
    }
  }

  private static func describe(_ type: Any.Type) -> Message.Argument {
    switch type {
    case is String.Type: .key("error.body.a.string")
    case is Bool.Type: .key("error.body.a.bool")
    case is Int.Type, is Int64.Type, is UInt64.Type: .key("error.body.a.integer")
    case is Double.Type: .key("error.body.a.number")
    default:
      String(describing: type).hasPrefix("Array") || String(describing: type).hasPrefix("[")
        ? .key("error.body.a.array") : .key("error.body.a.object")
    }
  }
}
