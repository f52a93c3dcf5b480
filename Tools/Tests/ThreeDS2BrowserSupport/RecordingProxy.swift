import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on loopback that records every byte in both directions: put between a browser and a server, it holds
/// every request line, header and body and every response exactly as they crossed, for a test to search.
///
/// It listens before it knows its target (``forward(to:)``), so a server can be configured with the relay's address
/// as its public one before it starts.
public final class RecordingProxy: Sendable {
    /// One connection's bytes.
    public struct Connection: Sendable {
        /// The connection's number, in order of acceptance.
        public var number: Int
        /// What the client sent.
        public var sent: [UInt8]
        /// What the server answered.
        public var received: [UInt8]
    }

    /// `http://127.0.0.1:port`.
    public let baseURL: String
    /// The port it listens on.
    public let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<(target: Int?, connections: [Connection])>

    /// Every connection so far, with its bytes.
    public var connections: [Connection] { state.withLockedValue { $0.connections } }

    private init(channel: any Channel, port: Int, state: NIOLockedValueBox<(target: Int?, connections: [Connection])>) {
        self.channel = channel
        self.port = port
        self.state = state
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Starts listening on a free loopback port.
    public static func start() async throws -> RecordingProxy {
        let state = NIOLockedValueBox<(target: Int?, connections: [Connection])>((nil, []))
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                let number = state.withLockedValue { state in
                    state.connections.append(Connection(number: state.connections.count, sent: [], received: []))
                    return state.connections.count - 1
                }
                guard let target = state.withLockedValue({ $0.target }) else {
                    return inbound.eventLoop.makeFailedFuture(ChannelError.connectPending)
                }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: "127.0.0.1", port: target)
                    .flatMap { outbound in
                        let toServer = Relay { bytes in state.withLockedValue { $0.connections[number].sent += bytes } }
                        let toClient = Relay { bytes in
                            state.withLockedValue { $0.connections[number].received += bytes }
                        }
                        toServer.partner = outbound
                        toClient.partner = inbound
                        return inbound.pipeline.addHandler(toServer).flatMap {
                            outbound.pipeline.addHandler(toClient)
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RecordingProxy(channel: channel, port: channel.localAddress?.port ?? 0, state: state)
    }

    /// Sets the server the relay forwards to (a loopback port).
    public func forward(to port: Int) {
        state.withLockedValue { $0.target = port }
    }

    /// Stops listening (connections still open close as their ends close).
    public func stop() async {
        try? await channel.close()
    }
}

/// Reads one side, records, and writes to the other side; closes the other side when this one closes.
private final class Relay: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    /// The other side (set before the handler is added, read on its event loop only).
    var partner: (any Channel)?
    private let record: @Sendable ([UInt8]) -> Void

    init(record: @escaping @Sendable ([UInt8]) -> Void) {
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        record(Array(buffer: buffer))
        partner?.writeAndFlush(buffer, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
