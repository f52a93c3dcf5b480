import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A page or script a ``StaticSite`` serves.
public struct SitePage: Sendable {
    /// The body.
    public var body: [UInt8]
    /// The `Content-Type`.
    public var contentType: String
    /// Further response headers (a content security policy, say).
    public var headers: [(name: String, value: String)]

    /// A page.
    ///
    /// - Parameters:
    ///   - text: The body, as UTF-8.
    ///   - contentType: The `Content-Type` (HTML by default).
    ///   - headers: Further response headers.
    public init(
        _ text: String, contentType: String = "text/html; charset=utf-8", headers: [(name: String, value: String)] = []
    ) {
        body = Array(text.utf8)
        self.contentType = contentType
        self.headers = headers
    }
}

/// A plain HTTP server on a loopback address and a free port that serves fixed pages: the harness's test pages and the
/// merchant's page of the browser tests (on another origin than the server under test).
public final class StaticSite: Sendable {
    /// `http://host:port`, without a trailing slash.
    public let baseURL: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: String, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.group = group
        self.task = task
    }

    /// Starts the server and returns once it listens.
    ///
    /// - Parameters:
    ///   - host: A loopback address (`127.0.0.2` gives another site than `127.0.0.1`).
    ///   - pages: The pages by path (`/merchant.html`).
    /// - Returns: The running site.
    public static func start(host: String = "127.0.0.1", pages: [String: SitePage]) async throws -> StaticSite {
        let router = Router()
        for (path, page) in pages {
            router.get(RouterPath(path)) { _, _ -> Response in
                var headers: HTTPFields = [.contentType: page.contentType, .cacheControl: "no-store"]
                for header in page.headers {
                    if let name = HTTPField.Name(header.name) { headers[name] = header.value }
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: page.body)))
            }
        }
        var logger = Logger(label: "threeds2.browser-tests.site")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            _ = await task.result
            throw BrowserError.malformed("the test site did not start on \(host)")
        }
        return StaticSite(baseURL: "http://\(host):\(port)", group: group, task: task)
    }

    /// Stops the server and waits for it.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
