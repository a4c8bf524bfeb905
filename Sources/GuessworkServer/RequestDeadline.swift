import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not arrived whole within `deadline` of its head: a
/// body trickled a byte at a time (which the idle timeout never notices) cannot hold the
/// connection open. Handling the request, once it has arrived, has no deadline here.
///
/// The timer is armed only when a read ends with a request still incomplete. Nearly every
/// request arrives whole in one read (its head, body and end together), and then needs no
/// timer: scheduling one and cancelling it at once for every request was 1.8% of a read's
/// CPU in perf, and this handler's own share is 0.3% since.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let deadline: TimeAmount
  let logger: Logger
  /// The head of the request whose end has not arrived yet, if any.
  private var incomplete: HTTPRequest?
  private var timer: Scheduled<Void>?

  init(deadline: TimeAmount, logger: Logger) {
    self.deadline = deadline
    self.logger = logger
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      incomplete = head
    case .end:
      incomplete = nil
      timer?.cancel()
      timer = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  /// A read is over: a request still incomplete gets its deadline (counted from now, a few
  /// microseconds after its head arrived in this read or an earlier one).
  func channelReadComplete(context: ChannelHandlerContext) {
    if let head = incomplete, timer == nil {
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      let (logger, seconds) = (logger, deadline.nanoseconds / 1_000_000_000)
      timer = context.eventLoop.assumeIsolated().scheduleTask(in: deadline) {
        logger.notice(
          "\(head.method) \(head.path ?? "") took over \(seconds) s to arrive: connection closed")
        loopBound.value.close(promise: nil)
      }
    }
    context.fireChannelReadComplete()
  }

  func channelInactive(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
    context.fireChannelInactive()
  }
}
