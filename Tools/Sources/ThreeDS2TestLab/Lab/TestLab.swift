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
    private let serverTask: Task<Void, any Error>
    private let serviceGroup: ServiceGroup
    /// Holds the PKI directory for this lab while it runs.
    private let directoryLock: PKIDirectoryLock?

    private init(
        pki: LabPKI, baseURL: URL, options: TestLabOptions, acs: AccessControlServer, records: RecordStore,
        serverTask: Task<Void, any Error>, serviceGroup: ServiceGroup, directoryLock: PKIDirectoryLock?
    ) {
        self.directoryLock = directoryLock
        self.pki = pki
        self.baseURL = baseURL
        self.options = options
        self.acs = acs
        self.records = records
        self.serverTask = serverTask
        self.serviceGroup = serviceGroup
    }

    /// Starts a lab and returns once it listens.
    ///
    /// - Parameters:
    ///   - options: How to run.
    ///   - logger: Where the lab logs.
    /// - Returns: The running lab.
    /// - Throws: An error when the PKI, the TLS setup or the listener fails.
    public static func start(
        options: TestLabOptions = TestLabOptions(), logger: Logger = Logger(label: "threeds2.testlab")
    ) async throws -> TestLab {
        let pki = try LabPKI.make()
        let scheme = options.useTLS ? "https" : "http"
        let bound = AsyncStream<Int>.makeStream()
        let records = RecordStore(capacity: options.maxTransactions, lifetime: options.transactionLifetime)
        let (portStream, portContinuation) = bound
        let acsBox = ACSBox()
        let router = Router()
        // threeds testlab --verbose: each request is logged, method and path only.
        if options.logsRequests { router.add(middleware: LogRequestsMiddleware(.info)) }
        router.post("3ds/authenticate") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 256 * 1024)
            guard let lab = acsBox.lab else { return Response(status: .serviceUnavailable) }
            return await lab.authenticate(Array(buffer: body))
        }
        router.post("acs/challenge") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 256 * 1024)
            guard let lab = acsBox.lab else { return Response(status: .serviceUnavailable) }
            let reply = await lab.acs.handle(body: Array(buffer: body), contentType: request.headers[.contentType])
            if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
            return Response(
                status: .init(code: reply.status), headers: [.contentType: reply.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        router.get("images/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            guard
                [
                    "issuer-medium.png", "issuer-high.png", "ps-medium.png", "ps-xhigh.png", "issuer-default.png",
                    "issuer-dark.png", "issuer-monochrome.png", "ps-default.png", "ps-dark.png",
                ].contains(name)
            else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: LabImages.png)))
        }
        // A hostile server for transport tests: the answer arrives one byte every 200 ms, for a minute.
        router.get("test/trickle") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    for _ in 0..<300 {
                        try await writer.write(ByteBuffer(bytes: [UInt8(ascii: " ")]))
                        try await Task.sleep(for: .milliseconds(200))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("images/large.png") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](repeating: 0, count: 300 * 1024))))
        }
        let server: HTTPServerBuilder
        if options.useTLS {
            let certificate = try NIOSSLCertificate(bytes: try pki.tlsServer.certificateDER, format: .der)
            let key = try NIOSSLPrivateKey(bytes: Array(pki.tlsServer.privateKey.pemRepresentation.utf8), format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
            tls.minimumTLSVersion = .tlsv12
            server = try .tls(.http1(), tlsConfiguration: tls)
        } else {
            server = .http1()
        }
        var serverLogger = logger
        serverLogger.logLevel = options.logsRequests ? .info : .warning
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "ThreeDS2 TestLab"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: serverLogger)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: serverLogger))
        let task = Task {
            // A listener that cannot bind ends the run at once: the port stream must end too, or start would wait.
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)")
        else {
            task.cancel()
            if case .failure(let error) = await task.result {
                if let io = error as? IOError, io.errnoCode == EADDRINUSE {
                    throw TestLabError(.startFailed, "port \(options.port) is in use")
                }
                throw TestLabError(
                    .startFailed, "cannot listen on 127.0.0.1:\(options.port): \(error)", underlying: error)
            }
            throw TestLabError(.startFailed, "the TestLab server did not start")
        }
        // Only a lab that listens writes its files: a second lab on a busy port must not replace a running one's.
        var directoryLock: PKIDirectoryLock?
        if let directory = options.pkiDirectory {
            do {
                // A second lab on another port must not replace the files of one still running.
                directoryLock = try PKIDirectoryLock(directory, url: baseURL)
                try pki.writeClientFiles(to: directory)
            } catch {
                await group.triggerGracefulShutdown()
                _ = await task.result
                if let error = error as? TestLabError { throw error }
                throw TestLabError(.fileSystem, "the PEM files cannot be written to \(directory.path)")
            }
        }
        let acs = AccessControlServer(
            options: options, imageBase: options.useTLS ? baseURL.absoluteString + "/images" : nil)
        let lab = TestLab(
            pki: pki, baseURL: baseURL, options: options, acs: acs, records: records, serverTask: task,
            serviceGroup: group, directoryLock: directoryLock)
        acsBox.set(lab)
        logger.info("TestLab listening", metadata: ["url": "\(baseURL)"])
        return lab
    }

    /// Stops the server gracefully: open requests finish, then the listener closes.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await serverTask.result
        directoryLock?.release()
    }

    /// What the ACS saw of a challenge.
    public func acsRecord(acsTransID: String) async -> ACSRecord? { await acs.record(acsTransID) }

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
