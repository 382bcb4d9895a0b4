import NIOCore

/// Closes a connection whose first request head has not arrived within `limit`: a client
/// that connects and says nothing (or trickles bytes) holds a connection slot for seconds,
/// not for the whole idle timeout, so that a crowd of them cannot keep real requests waiting.
/// Later requests on a kept-alive connection are bounded by the idle timeout.
///
/// It sits after the HTTP decoder, so the first part it reads is a whole request head.
final class RequestHeadTimeout: ChannelInboundHandler, RemovableChannelHandler {
    // Only the arrival matters, not the part's type (a dependency this module need not have).
    typealias InboundIn = Any
    typealias InboundOut = Any

    /// The head of a request sent at once by any real client arrives well within this.
    static let defaultLimit: TimeAmount = .seconds(5)

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: TimeAmount = RequestHeadTimeout.defaultLimit) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: limit) {
            loopBound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
