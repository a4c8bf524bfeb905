import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not arrived whole within `deadline` of its head: a
/// body trickled a byte at a time (which the idle timeout never notices) cannot hold the
/// connection open. Handling the request, once it has arrived, has no deadline here.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let deadline: TimeAmount
  let logger: Logger
  private var timer: Scheduled<Void>?

  init(deadline: TimeAmount, logger: Logger) {
    self.deadline = deadline
    self.logger = logger
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      let (logger, seconds) = (logger, deadline.nanoseconds / 1_000_000_000)
      timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
        logger.notice(
          "\(head.method) \(head.path ?? "") took over \(seconds) s to arrive: connection closed")
        loopBound.value.close(promise: nil)
      }
    case .end:
      timer?.cancel()
      timer = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
    context.fireChannelInactive()
  }
}
