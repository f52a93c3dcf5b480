import Clocks
import Crypto
import Foundation
import Logging
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2SplitServer
import ThreeDS2TestLab
import X509

/// The Split-SDK Server as the browser tests run it: in process, on a test clock, its log captured at every level, its
/// public address the recording relay's, the merchant's page's origin its only allowed one.
struct SplitServerUnderTest: Sendable {
    static let apiKey = "merchant-key-browser-tests-0123456789"

    let server: SplitServer
    let running: SplitServer.Running
    let clock: TestClock<Duration>
    let log: LogCapture
    let transport: HTTPClientTransport

    var apiKey: String { Self.apiKey }
    /// The server's own address (the merchant's backend calls it directly).
    var baseURL: String { running.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) }
    var port: Int { running.baseURL.port ?? 0 }

    /// Starts a server for the lab's RSA directory server, serving the web client from `webClient`.
    static func start(lab: TestLab, publicURL: String, merchantOrigin: String, webClient: URL) async throws
        -> SplitServerUnderTest
    {
        var configuration = try lab.splitServerConfiguration(apiKey: apiKey, merchantOrigin: merchantOrigin)
        configuration.publicBaseURL = URL(string: publicURL)
        configuration.allowsPlainHTTPLoopback = true
        configuration.webClientFolder = webClient
        let clock = TestClock<Duration>()
        let log = LogCapture()
        var logger = Logger(label: "threeds2.split", factory: { log.handler(label: $0) })
        logger.logLevel = .trace
        let transport = try lab.makeTransport()
        let server = try SplitServer(configuration: configuration, transport: transport, clock: clock, logger: logger)
        let running = try await server.start()
        return SplitServerUnderTest(server: server, running: running, clock: clock, log: log, transport: transport)
    }

    /// The server's stored sessions, as its test seam dumps them.
    func storedState() async throws -> String { await server.storedState() }

    func stop() async {
        await running.stop()
        try? await transport.shutdown()
    }
}
