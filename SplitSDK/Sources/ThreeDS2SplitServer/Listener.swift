public import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

extension SplitServer {
    /// A running listener.
    public struct Running: Sendable {
        /// `http://host:port`, the address it listens on.
        public let baseURL: URL
        let task: Task<Void, any Error>
        let group: ServiceGroup
        /// Ends the sessions' waits before the listener stops (its graceful shutdown waits for every open call).
        let closeSessions: @Sendable () async -> Void
        /// Ends the sessions here as a killed process would: nothing more written or sent.
        let abandonSessions: @Sendable () async -> Void
        /// Lets the store go.
        let closeStore: @Sendable () -> Void

        /// Stops the listener and waits for it: the sessions' waiting calls (long-polls) answer first, then the
        /// listener shuts down gracefully (calls in flight finish).
        public func stop() async {
            await closeSessions()
            await group.triggerGracefulShutdown()
            _ = await task.result
            closeStore()
        }

        /// Stops as a killed instance stops, for the tests of a shared store: every session's task here ends without
        /// writing, publishing or sending anything more, and the listener stops. The store keeps the sessions' records
        /// as they were, for another instance to take over.
        public func abandon() async {
            await abandonSessions()
            await group.triggerGracefulShutdown()
            _ = await task.result
            closeStore()
        }
    }

    /// Listens over plain HTTP/1.1 (behind a TLS-terminating proxy in production; on loopback in tests) and returns
    /// once it does.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port; 0 picks a free one.
    /// - Returns: The running listener.
    /// - Throws: ``SplitServerError`` when it cannot listen.
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws(SplitServerError) -> Running {
        // Another instance reaches this one at the address it listens on, unless one is configured: an unspecified
        // address names no host another instance could call.
        if sharesSessions, instanceAddress.value == nil, ["0.0.0.0", "::", "[::]"].contains(host) {
            throw SplitServerError(
                "listening on \(host) with a shared session store: give the instance's internal address "
                    + "(SplitPostgresStore.instanceAddress), where the other instances reach it")
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "ThreeDS2Split"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: context.logger)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: context.logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0, let url = URL(string: "http://\(host):\(bound)") else {
            await group.triggerGracefulShutdown()
            task.cancel()
            throw SplitServerError("the Split-SDK Server could not listen on \(host):\(port)")
        }
        listening(at: url)
        let store = self.store
        let records = store.records
        do {
            try await records.prepare()
        } catch {
            await group.triggerGracefulShutdown()
            _ = await task.result
            records.close()
            throw SplitServerError("the session store could not be prepared: \(error)")
        }
        return Running(
            baseURL: url, task: task, group: group, closeSessions: { await store.closeAll() },
            abandonSessions: { await store.abandonAll() }, closeStore: { records.close() })
    }
}
