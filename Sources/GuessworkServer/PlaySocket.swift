import CoreMetrics
import Foundation
import GuessworkContent
import GuessworkStore
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// A player's moves over one open connection: the same moves as `POST /api/games/{id}/actions`,
/// applied by the same code (``API/move(_:playerID:id:body:)``) and stored before they are answered,
/// without an HTTP request each (its parsing, routing, cookie and headers): a move costs the
/// server about a fifth less CPU so (BENCHMARKS.md, "2026-11-27 (evening)").
///
/// The browser sends `{"ref": 7, "game": "ID", "version": 3, "action": {...}}` and gets
/// `{"ref": 7, "status": 200, "reply": {...}}`, the reply the POST answers with, or
/// `{"ref": 7, "status": 409, "error": {"code", "message"}}`, its error; messages are answered
/// one at a time, in order. docs/play-socket.md has the whole protocol.
struct PlaySocket: Sendable {
  let api: API
  let logger: Logger

  /// A message holds one action; a move is some tens of bytes.
  static let maxMessage = 4096

  private let sockets = CoreMetrics.Gauge(label: "guesswork_play_sockets")
  private let open = NIOLockedValueBox(0)

  /// The route, on the router that handles upgrades, and a plain GET of its path.
  func register(sockets router: Router<GuessworkContext>, http: Router<GuessworkContext>) {
    http.get("/api/play/socket") { _, _ -> Response in
      throw APIError.websocketExpected
    }
    router.ws("/api/play/socket") { inbound, outbound, context in
      // A page's language is its own choice, not the browser's: a socket cannot send headers,
      // so the page names it (`?lang=ru`), and every error is said in it.
      let request = Self.request(context.request)
      count(+1)
      defer { count(-1) }
      let playerID: String
      do {
        playerID = try await api.identity.requirePlayerID(of: request)
      } catch {
        // Who may connect is checked once the socket is open: a browser cannot read why an
        // upgrade was refused.
        let refusal = EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger)
        try? await outbound.write(.custom(frame(Self.refusal(refusal, ref: nil, request: request))))
        try? await outbound.close(.policyViolation, reason: "no player")
        return
      }
      do {
        for try await message in inbound.messages(maxSize: Self.maxMessage) {
          let answer = await answer(message, playerID: playerID, request: request)
          try await outbound.write(.custom(frame(answer)))
        }
      } catch {
        // Too large (the reader refuses past maxMessage), or the connection went away.
        try? await outbound.close(.messageTooLarge, reason: "message too large")
      }
    }
  }

  /// The request every message of a socket is applied as: the one that opened it, its
  /// `Accept-Language` the page's `lang`, when it names one.
  static func request(_ opening: Request) -> Request {
    guard let lang = opening.uri.queryParameters.get("lang"), !lang.isEmpty else { return opening }
    var head = opening.head
    head.headerFields[.acceptLanguage] = lang
    return Request(head: head, body: .init(buffer: ByteBuffer()))
  }

  /// Which game a message moves, and the number its answer carries back.
  struct Addressed: Decodable {
    var ref: Int
    var game: String
  }

  /// The answer to one message, as the bytes of a text frame.
  func answer(_ message: WebSocketMessage, playerID: String, request: Request) async -> [UInt8] {
    guard case .text(let text) = message else {
      return Self.refusal(
        APIError.badRequest(
          detail: "A message is JSON text: {\"ref\", \"game\", \"version\", \"action\"}."),
        ref: nil, request: request)
    }
    // Read once: for the game it names here, and for its version and action by that game's
    // engine.
    let body = PlainJSON.Document(Data(text.utf8))
    let addressed: Addressed
    do {
      addressed = try body.read(Addressed.self)
    } catch {
      return Self.refusal(
        EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger),
        ref: Self.ref(in: body.bytes), request: request)
    }
    do {
      let reply = try await api.move(request, playerID: playerID, id: addressed.game) { body }
      return Self.answer(ref: addressed.ref, status: 200, key: "reply", value: reply)
    } catch {
      return Self.refusal(
        EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger),
        ref: addressed.ref, request: request)
    }
  }

  /// The `ref` of a message that is otherwise unreadable, when it has one.
  static func ref(in body: Data) -> Int? {
    struct Ref: Decodable { var ref: Int }
    return (try? JSONDecoder().decode(Ref.self, from: body))?.ref
  }

  /// An error's answer: its status, and the body `POST .../actions` would have answered with.
  static func refusal(_ error: APIError, ref: Int?, request: Request) -> [UInt8] {
    answer(
      ref: ref, status: Int(error.status.code), key: "error",
      value: error.body(in: GuessworkContent.Catalog.of(request.language)).error,
      retryAfter: error.retryAfter)
  }

  /// `{"ref": ref, "status": status, key: value}`, the value written as a reply is, and
  /// `"retryAfter"` when given (where a POST's answer has `Retry-After`).
  static func answer(
    ref: Int?, status: Int, key: String, value: some Encodable, retryAfter: Int? = nil
  ) -> [UInt8] {
    var bytes = Array(
      "{\"ref\":\(ref.map(String.init) ?? "null"),\"status\":\(status),\"\(key)\":".utf8)
    // Room for a reply (a Number game's is about 1 KB), so that it is written without growing.
    bytes.reserveCapacity(2048)
    let start = bytes.count
    do {
      try CompactJSON.encode(value, appendingTo: &bytes)
    } catch {
      bytes.removeSubrange(start...)
      bytes += Array("null".utf8)
    }
    if let retryAfter { bytes += Array(",\"retryAfter\":\(retryAfter)".utf8) }
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }

  /// The sockets open here, for the metrics.
  private func count(_ change: Int) {
    sockets.record(
      open.withLockedValue {
        $0 += change; return $0
      })
  }

  private func frame(_ bytes: [UInt8]) -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))
  }
}
