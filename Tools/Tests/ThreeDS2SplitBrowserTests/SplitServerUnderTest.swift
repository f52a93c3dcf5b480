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
        // The Split-SDK Server identity the lab's DS registers (TestLab.splitSDKServerID): the lab checks the split
        // AReq's signed content against it.
        let signer = lab.pki.splitSDKServer
        guard case .p256(let key) = signer.privateKey else { throw BrowserTestError("the signer's key is not P-256") }
        let directoryServer = DirectoryServer(
            scheme: TestLab.rsaDirectoryServer,
            encryptionKeys: [.init(key: try lab.pki.dsEncryptionRSA.certificatePEM)],
            rootCertificates: try lab.pki.dsRoot.certificatePEM)
        var configuration = SplitServerConfiguration(
            merchantAPIKey: apiKey, merchantOrigin: merchantOrigin,
            directoryServers: [
                .init(
                    directoryServer: directoryServer, splitSDKServerID: TestLab.splitSDKServerID.rawValue,
                    signingKey: key,
                    certificateChain: [signer.certificate])
            ],
            // A code of no public meaning (the Browser variant's is not public): configuration, never a claim.
            variant: SDKVariant(rawValue: "80"), sdkReferenceNumber: TestLab.exampleSDKReferenceNumber)
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
