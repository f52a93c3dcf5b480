import Crypto
public import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) public import ThreeDS2SDK
import X509
import _CryptoExtras

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reference 3DS Server, directory server and ACS on loopback, with its own PKI. Start it in a test or with
/// `threeds testlab`; point the SDK at ``baseURL`` with ``configure(_:)``.
public final class TestLab: Sendable {
    /// The lab's directory server whose encryption key is RSA: the SDK's test scheme (`CardScheme.testRSA`).
    public static let rsaDirectoryServer = CardScheme.testRSA
    /// The lab's directory server whose encryption key is EC: the SDK's test scheme (`CardScheme.testEC`).
    public static let ecDirectoryServer = CardScheme.testEC
    /// The ID of ``rsaDirectoryServer`` (`F055545342`).
    public static let rsaDirectoryServerID = rsaDirectoryServer.id
    /// The ID of ``ecDirectoryServer`` (`F155545342`).
    public static let ecDirectoryServerID = ecDirectoryServer.id
    /// The ACS reference number the lab reports.
    public static let acsReferenceNumber = "3DS_LOA_ACS_TLAB_020300_00001"

    /// The lab's PKI.
    public let pki: LabPKI
    /// The base URL, for example `https://127.0.0.1:54321`.
    public let baseURL: URL
    /// The options it runs with.
    public let options: TestLabOptions
    let acs: AccessControlServer
    let records: RecordStore
    let results: ResultStore
    private let serverTask: Task<Void, any Error>
    private let serviceGroup: ServiceGroup
    /// Holds the PKI directory for this lab while it runs.
    private let directoryLock: PKIDirectoryLock?

    private init(
        pki: LabPKI, baseURL: URL, options: TestLabOptions, acs: AccessControlServer, records: RecordStore,
        results: ResultStore, serverTask: Task<Void, any Error>, serviceGroup: ServiceGroup,
        directoryLock: PKIDirectoryLock?
    ) {
        self.directoryLock = directoryLock
        self.pki = pki
        self.baseURL = baseURL
        self.options = options
        self.acs = acs
        self.records = records
        self.results = results
        self.serverTask = serverTask
        self.serviceGroup = serviceGroup
    }

    /// Starts a lab and returns once it listens: the PKI, the routes of each role (3DS Server, ACS, image host,
    /// hostile server), the listener, then the PKI files for clients.
    ///
    /// - Parameters:
    ///   - options: How to run.
    ///   - logger: Where the lab logs.
    /// - Returns: The running lab.
    /// - Throws: An error when the PKI, the TLS setup or the listener fails.
    public static func start(
        options: TestLabOptions = TestLabOptions(), logger: Logger = Logger(label: "threeds2.testlab")
    ) async throws -> TestLab {
        ignoreBrokenPipes()
        let pki = try LabPKI.make(host: options.host)
        let box = ACSBox()
        let router = Router()
        // threeds testlab --verbose: each request is logged, method and path only.
        if options.logsRequests { router.add(middleware: LogRequestsMiddleware(.info)) }
        addThreeDSServerRoutes(to: router, lab: box)
        addACSRoutes(to: router, lab: box)
        addResultsRoutes(to: router, lab: box)
        addImageRoutes(to: router)
        addHostileRoutes(to: router)
        let listener = try await Listener.start(
            router: router, server: try httpServer(options: options, pki: pki), options: options, logger: logger)
        // Only a lab that listens writes its files: a second lab on a busy port must not replace a running one's.
        let directoryLock = try await listener.writingPKIFiles(pki, options: options)
        let results = ResultStore(capacity: options.maxTransactions, lifetime: options.transactionLifetime)
        let acs = AccessControlServer(
            options: options, imageBase: options.useTLS ? listener.baseURL.absoluteString + "/images" : nil,
            directoryServer: { DirectoryServerRouting.passResults($0, to: results) })
        let lab = TestLab(
            pki: pki, baseURL: listener.baseURL, options: options, acs: acs,
            records: RecordStore(capacity: options.maxTransactions, lifetime: options.transactionLifetime),
            results: results, serverTask: listener.task, serviceGroup: listener.group, directoryLock: directoryLock)
        box.set(lab)
        logger.info("TestLab listening", metadata: ["url": "\(listener.baseURL)"])
        return lab
    }

    /// Stops the server gracefully: open requests finish, then the listener closes.
    public func stop() async {
        await acs.stopTimers()
        await serviceGroup.triggerGracefulShutdown()
        _ = await serverTask.result
        directoryLock?.release()
    }

    /// What the ACS saw of a challenge.
    public func acsRecord(acsTransID: String) async -> ACSRecord? { await acs.record(acsTransID) }

    /// The 32-byte key the ACS derived for a challenge's channel (the Concat KDF's output; each direction's keys are it
    /// or its halves), for tests that search a Split-SDK's traffic, logs and state for it; `nil` for an unknown
    /// challenge.
    @_spi(ThreeDS2Tools) public func channelKeyForTests(acsTransID: String) async -> [UInt8]? {
        await acs.channelKey(acsTransID)
    }

    /// The authentication requests received, oldest first: at most ``TestLabOptions/maxTransactions`` of them, none
    /// older than ``TestLabOptions/transactionLifetime``.
    public var authentications: [AuthenticationRecord] { records.all }

    /// How many challenges the ACS holds state for (at most ``TestLabOptions/maxTransactions``).
    public var acsTransactionCount: Int { get async { await acs.transactionCount } }

    /// The authentication-request URL, `…/3ds/authenticate`.
    public var authenticateURL: URL { baseURL.appendingPathComponent("3ds/authenticate") }

    /// A new transaction ID in the spelling the options ask for.
    func newTransactionID() -> String {
        options.upperCaseTransactionIDs ? UUID().uuidString.uppercased() : UUID().uuidString.lowercased()
    }

    static func json(_ object: JSONObject, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: object.serializedBytes)))
    }
}

/// Lets the routes, built before the lab exists, reach it once it does.
final class ACSBox: Sendable {
    private let value = Locked<TestLab?>(nil)
    var lab: TestLab? { value.withLock { $0 } }
    func set(_ lab: TestLab) { value.withLock { $0 = lab } }
}

/// A server in a process (the lab, the hostile servers, in the tests' process or in `threeds`) must not be killed by
/// SIGPIPE when a write meets a pipe or socket whose other end closed: the write fails with EPIPE instead. Every
/// process that starts one ignores the signal (a test binary starts with it at its default, as `swift test` launches
/// it; once it killed the tools' test binary, every test with it).
func ignoreBrokenPipes() {
    #if canImport(Glibc)
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    #elseif canImport(Darwin)
        _ = Darwin.signal(SIGPIPE, SIG_IGN)
    #endif
}
