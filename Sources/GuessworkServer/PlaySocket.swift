import CoreMetrics
import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
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
    router.ws(
      "/api/play/socket",
      shouldUpgrade: { request, _ in
        try api.checkSocketOrigin(request)
        return .upgrade([:])
      }
    ) { inbound, outbound, context in
      // A page's language is its own choice, not the browser's: a socket cannot send headers,
      // so the page names it (`?lang=ru`), and every error is said in it.
      let request = Self.request(context.request)
      // A client past its cap of sockets is told so in the socket, which a page can read.
      let client = api.client(request, address: context.requestContext.remoteAddress)
      do {
        try api.clientSockets.open(client)
      } catch {
        let refusal = EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger)
        try? await outbound.write(.custom(frame(self.refusal(refusal, ref: nil, request: request))))
        try? await outbound.close(.policyViolation, reason: refusal.code)
        return
      }
      count(+1)
      defer {
        count(-1)
        api.clientSockets.closed(client)
      }
      let playerID: String
      do {
        playerID = try await api.identity.requirePlayerID(of: request)
      } catch {
        // Who may connect is checked once the socket is open: a browser cannot read why an
        // upgrade was refused.
        let refusal = EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger)
        try? await outbound.write(.custom(frame(self.refusal(refusal, ref: nil, request: request))))
        try? await outbound.close(.policyViolation, reason: "no player")
        return
      }
      // A revoked key closes its sockets (sign-out, a new key).
      let socket = api.identity.sockets.add(token: Identity.token(of: request)) {
        try? await outbound.close(.policyViolation, reason: "signed out")
      }
      defer { api.identity.sockets.remove(socket) }
      do {
        for try await message in inbound.messages(maxSize: Self.maxMessage) {
          // Nothing is taken once the key's revocation has been answered.
          if socket?.isRevoked == true { break }
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
  func answer(_ message: WebSocketMessage, playerID: String, request: Request) async -> ByteBuffer {
    // Every message counts against the player's moves, as a POST of a move does, whether it
    // moves a game or not: junk sent as fast as a socket allows would otherwise cost the
    // server answers (and look-ups of games that are not there) without limit.
    if let limited = limited(playerID: playerID, request: request, message: message) {
      return limited
    }
    guard case .text(let text) = message else {
      return self.refusal(
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
      return self.refusal(
        EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger),
        ref: Self.ref(in: body.bytes), request: request)
    }
    do {
      let reply = try await api.move(
        request, playerID: playerID, id: addressed.game, counted: true
      ) { body }
      return Self.answer(
        ref: addressed.ref, status: 200, key: "reply", value: try? CompactJSON.encode(reply))
    } catch {
      return self.refusal(
        EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger),
        ref: addressed.ref, request: request)
    }
  }

  /// The rate limit's refusal when the player's moves are over it, else nil (the message
  /// counted).
  func limited(playerID: String, request: Request, message: WebSocketMessage) -> ByteBuffer? {
    do {
      try api.limiter.admit(.moves, key: playerID)
      return nil
    } catch {
      // The refusal names the message's `ref`, when it has one, as any answer does.
      let ref: Int? =
        if case .text(let text) = message { Self.ref(in: Data(text.utf8)) } else { nil }
      return self.refusal(
        EdgeMiddleware<GuessworkContext>.apiError(for: error, logger: logger), ref: ref,
        request: request)
    }
  }

  /// The `ref` of a message that is otherwise unreadable, when it has one.
  static func ref(in body: Data) -> Int? {
    struct Ref: Decodable { var ref: Int }
    return (try? JSONDecoder().decode(Ref.self, from: body))?.ref
  }

  /// An error's answer: its status, and the body `POST .../actions` would have answered with.
  func refusal(_ error: APIError, ref: Int?, request: Request) -> ByteBuffer {
    Self.answer(
      ref: ref, status: Int(error.status.code), key: "error",
      value: try? CompactJSON.encode(
        error.body(in: api.catalog(request.language)).error),
      retryAfter: error.retryAfter)
  }

  /// `{"ref": ref, "status": status, key: value}`, the value's JSON (`null` when it could not
  /// be written), and `"retryAfter"` when given (where a POST's answer has `Retry-After`).
  static func answer(
    ref: Int?, status: Int, key: String, value: [UInt8]?, retryAfter: Int? = nil
  ) -> ByteBuffer {
    let head = "{\"ref\":\(ref.map(String.init) ?? "null"),\"status\":\(status),\"\(key)\":"
    let tail = retryAfter.map { ",\"retryAfter\":\($0)}" } ?? "}"
    var bytes = ByteBufferAllocator().buffer(
      capacity: head.utf8.count + (value?.count ?? 4) + tail.utf8.count)
    bytes.writeString(head)
    if let value {
      bytes.writeBytes(value)
    } else {
      bytes.writeString("null")
    }
    bytes.writeString(tail)
    return bytes
  }

  /// The sockets open here, for the metrics.
  private func count(_ change: Int) {
    sockets.record(
      open.withLockedValue {
        $0 += change; return $0
      })
  }

  private func frame(_ bytes: ByteBuffer) -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: .text, data: bytes)
  }
}
