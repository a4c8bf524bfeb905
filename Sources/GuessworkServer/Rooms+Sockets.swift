import CoreMetrics
import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkJSON
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket
import ServiceLifecycle
import Synchronization

extension Rooms {
  // MARK: Sockets

  struct Pong: Encodable { var type = "pong" }
  struct SocketError: Encodable {
    var type = "error"
    var code: String
    var message: String
  }

  func serve(
    code: String, viewer: RoomViewer, opener: String, link: String, key: String?,
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
  ) async throws {
    let (messages, sender) = AsyncStream<RoomHub.Outgoing>.makeStream(
      bufferingPolicy: .bufferingNewest(16))
    // A revoked key (sign-out, a new key) ends its sockets: no view is sent after it.
    let signedOut = RoomHub.Outgoing.close(.policyViolation, "signed out")
    let socket = api.identity.sockets.add(token: key) { sender.yield(signedOut) }
    defer { api.identity.sockets.remove(socket) }
    guard
      let id = await hub.connect(
        code: code, viewer: viewer, opener: opener, link: link, sender: sender, caps: api.caps)
    else {
      throw APIError(
        .serviceUnavailable, "room-sockets-full", "error.roomSocketsFull",
        ["count": .int(api.caps.socketsPerRoom)])
    }
    defer {
      // The others see this player's connection go.
      Task {
        if await self.hub.disconnect(code: code, id: id) != nil { await self.announce(code) }
      }
    }
    // The view at once: a client that reconnects continues where it was. The others see it
    // connected a moment later, once for a burst of sockets opening.
    if let state = try? await load(code) {
      await publish(state, only: id)
      await announce(code)
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await message in messages {
          if socket?.isRevoked == true {
            try? await outbound.close(.policyViolation, reason: "signed out")
            return
          }
          switch message {
          case .text(let text):
            try? await outbound.write(.text(text))
          case .close(let code, let reason):
            try? await outbound.close(code, reason: reason)
            return
          }
        }
      }
      group.addTask {
        var window = ContinuousClock.now
        var count = 0
        do {
          for try await message in inbound.messages(maxSize: Self.maxMessage) {
            let now = ContinuousClock.now
            if now - window > .seconds(1) {
              window = now
              count = 0
            }
            count += 1
            guard count <= Self.messagesPerSecond else {
              try? await outbound.close(.policyViolation, reason: "too many messages")
              return
            }
            if case .text(let text) = message, text.contains("\"ping\"") {
              sender.yield(.text(Self.encode(Pong())))
            } else {
              sender.yield(
                .text(
                  Self.encode(
                    SocketError(
                      code: "bad-message",
                      message:
                        "A room's socket takes only {\"type\":\"ping\"}; actions go to POST /api/rooms/\(code)/actions."
                    ))))
            }
          }
        } catch {
          // Too large (the reader refuses past maxSize), or the connection went away.
          try? await outbound.close(.messageTooLarge, reason: "message too large")
          return
        }
        sender.finish()
      }
      await group.next()
      group.cancelAll()
    }
  }

  static func encode(_ value: some Encodable) -> String {
    (try? CompactJSON.string(value)) ?? "{}"
  }
}
