import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The HTTP/1.1 channel with WebSocket upgrades, with a guard on each connection until its
/// first request head has arrived.
///
/// hummingbird-websocket's upgrade pipeline installs the idle timeout, the error handling and
/// our request deadline only once a first head has been parsed (they belong to the pipeline it
/// builds when a request does not upgrade). Before that, a connection that sends nothing, or
/// trickles its head, was held forever, and a malformed head (an unknown method, a 100 KB path,
/// two Content-Lengths) got no answer at all. ``FirstRequestGuard`` closes the first and
/// answers the second with a 400, whatever the upgrade pipeline does after.
struct GuardedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let upgrade: HTTP1WebSocketUpgradeChannel
  let deadline: TimeAmount
  let logger: Logger

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    upgrade.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let pipeline = channel.pipeline.syncOperations
      let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try pipeline.addHandler(
        FirstRequestGuard(deadline: deadline, logger: self.logger), position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await upgrade.handle(value: value, logger: logger)
  }
}

/// Sits behind the HTTP request decoder until the first request head passes: closes the
/// connection if that head has not arrived within `deadline` of the connection's start, and
/// answers a head the decoder cannot parse with `400 Bad Request` and a close. Once the head has
/// passed it removes itself: the rest of the connection is Hummingbird's.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let deadline: TimeAmount
  let logger: Logger
  private var timer: Scheduled<Void>?
  private var answered = false

  init(deadline: TimeAmount, logger: Logger) {
    self.deadline = deadline
    self.logger = logger
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let (logger, seconds) = (logger, deadline.nanoseconds / 1_000_000_000)
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
      logger.debug("no request head within \(seconds) s: connection closed")
      loopBound.value.close(promise: nil)
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
    context.fireChannelRead(data)
    if isHead {
      timer?.cancel()
      timer = nil
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError, !answered else {
      context.fireErrorCaught(error)
      return
    }
    answered = true
    logger.debug("malformed request head (\(error)): 400 and closed")
    let head = HTTPResponseHead(
      version: .http1_1, status: .badRequest,
      headers: ["Content-Length": "0", "Connection": "close"])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
    context.fireChannelInactive()
  }
}
