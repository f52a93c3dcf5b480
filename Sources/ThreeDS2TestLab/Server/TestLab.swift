import Crypto
public import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
public import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import X509
import _CryptoExtras

/// How a TestLab runs.
public struct TestLabOptions: Sendable {
    /// Which key signs the ACS signed content.
    public enum Signer: String, Sendable, CaseIterable {
        /// RSA, PS256.
        case rsa
        /// EC P-256, ES256.
        case ec
    }

    /// The port; 0 picks a free one.
    public var port: Int
    /// HTTPS (the default) or plain HTTP.
    public var useTLS: Bool
    /// The ACS signer.
    public var signer: Signer
    /// The CRes content encryption; the CReq's when `nil`.
    public var responseEncryption: ContentEncryption?
    /// How long the slow-response fault waits.
    public var slowResponseDelay: Duration
    /// Where to write the PEM files a client needs, if anywhere.
    public var pkiDirectory: URL?
    /// Whether the 3DS Server and ACS write their transaction IDs in upper case, as some real ones do; the ACS then
    /// expects its own spelling back, byte for byte.
    public var upperCaseTransactionIDs: Bool
    /// Whether each request is logged at info level (method and path only; `threeds testlab --verbose`).
    public var logsRequests: Bool
    /// The most transactions the lab keeps state for (challenges in the ACS, authentication records); beyond it
    /// the oldest are dropped, so a long load run stays within a fixed amount of memory.
    public var maxTransactions: Int
    /// How long the lab keeps a transaction's state. The default outlives the longest challenge timeout (60
    /// minutes).
    public var transactionLifetime: Duration

    /// Creates options.
    public init(
        port: Int = 0, useTLS: Bool = true, signer: Signer = .rsa, responseEncryption: ContentEncryption? = nil,
        slowResponseDelay: Duration = .seconds(11), pkiDirectory: URL? = nil, upperCaseTransactionIDs: Bool = false,
        logsRequests: Bool = false, maxTransactions: Int = 10_000, transactionLifetime: Duration = .seconds(65 * 60)
    ) {
        self.maxTransactions = maxTransactions
        self.transactionLifetime = transactionLifetime
        self.upperCaseTransactionIDs = upperCaseTransactionIDs
        self.logsRequests = logsRequests
        self.port = port
        self.useTLS = useTLS
        self.signer = signer
        self.responseEncryption = responseEncryption
        self.slowResponseDelay = slowResponseDelay
        self.pkiDirectory = pkiDirectory
    }
}

/// What the TestLab 3DS Server and DS saw of one authentication request.
public struct AuthenticationRecord: Sendable {
    /// The request JSON.
    public var request: JSONObject
    /// The directory server whose key decrypted the device data.
    public var directoryServerID: String
    /// The decrypted device data JSON.
    public var deviceData: JSONObject
    /// The response sent.
    public var response: JSONObject
}

/// A reference 3DS Server, directory server and ACS on loopback, with its own PKI. Start it in a test or with
/// `threeds testlab`; point the SDK at ``baseURL`` with ``configure(_:)``.
public final class TestLab: Sendable {
    /// The directory server ID whose encryption key is RSA (the UL test DS ID for RSA).
    public static let rsaDirectoryServerID = "F055545342"
    /// The directory server ID whose encryption key is EC (the UL test DS ID for EC).
    public static let ecDirectoryServerID = "F155545342"
    /// The ACS reference number the lab reports.
    public static let acsReferenceNumber = "3DS_LOA_ACS_TLAB_020300_00001"

    /// The lab's PKI.
    public let pki: LabPKI
    /// The base URL, for example `https://127.0.0.1:54321`.
    public let baseURL: URL
    /// The options it runs with.
    public let options: TestLabOptions
    let acs: AccessControlServer
    private let records: RecordStore
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

    func authenticate(_ body: [UInt8]) async -> Response {
        do {
            let (record, response) = try await handleAuthentication(body)
            records.append(record)
            return Self.json(response)
        } catch let error as TestLabError {
            return Self.json(["error": .string(error.message)], status: .badRequest)
        } catch let error as any CodedError {
            // A person reads this answer: the code and message, not where the lab raised them.
            return Self.json(["error": .string("\(error.code): \(error.message)")], status: .badRequest)
        } catch {
            return Self.json(["error": .string("\(error)")], status: .badRequest)
        }
    }

    /// `deviceRenderOptions` as the AReq defines it: an object with `sdkInterface` `01`–`03` and a non-empty
    /// `sdkUiType` array of UI types the version defines.
    static func checkRenderOptions(_ value: JSONValue?, version: MessageVersion) throws(TestLabError) {
        guard case .object(let options)? = value else {
            throw TestLabError(.invalidRequest, "deviceRenderOptions must be a JSON object")
        }
        guard let interface = options["sdkInterface"]?.stringValue, ["01", "02", "03"].contains(interface) else {
            throw TestLabError(.invalidRequest, "deviceRenderOptions.sdkInterface must be 01, 02 or 03")
        }
        guard case .array(let types)? = options["sdkUiType"], !types.isEmpty,
            types.allSatisfy({ $0.stringValue.flatMap(UIType.init(rawValue:)).map(version.defines) ?? false })
        else {
            throw TestLabError(
                .invalidRequest,
                "deviceRenderOptions.sdkUiType must be a non-empty array of UI types message version \(version) defines"
            )
        }
    }

    private func handleAuthentication(_ body: [UInt8]) async throws -> (AuthenticationRecord, JSONObject) {
        guard case .object(let request) = try JSONParser(limits: .init(maxBytes: 256 * 1024, maxDepth: 8)).parse(body)
        else {
            throw TestLabError(.invalidRequest, "the request is not a JSON object")
        }
        func field(_ name: String) throws -> String {
            guard let value = request[name]?.stringValue, !value.isEmpty else {
                throw TestLabError(.invalidRequest, "\(name) is missing")
            }
            return value
        }
        let versionText = try field("messageVersion")
        guard let version = MessageVersion(versionText), version.isSupported else {
            throw TestLabError(.invalidRequest, "messageVersion \(versionText) is not supported")
        }
        guard try field("deviceChannel") == "01" else {
            throw TestLabError(.invalidRequest, "deviceChannel must be 01 (app)")
        }
        let sdkTransID = try field("sdkTransID")
        guard UUID(uuidString: sdkTransID) != nil else {
            throw TestLabError(.invalidRequest, "sdkTransID is not a UUID")
        }
        _ = try field("sdkAppID")
        let reference = try field("sdkReferenceNumber")
        let maxTimeout = try field("sdkMaxTimeout")
        guard maxTimeout.utf8.count == 2, maxTimeout.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let timeout = Int(maxTimeout), timeout >= 5
        else {
            throw TestLabError(.invalidRequest, "sdkMaxTimeout must be two digits, at least 05")
        }
        try Self.checkRenderOptions(request["deviceRenderOptions"], version: version)
        let card = try field("acctNumber")
        _ = try field("purchaseAmount")
        _ = try field("purchaseCurrency")
        // A real 3DS Server takes the key as the JWK object the AReq defines, never JSON text inside a string.
        guard let keyValue = request["sdkEphemPubKey"] else {
            throw TestLabError(.invalidRequest, "sdkEphemPubKey is missing")
        }
        guard case .object(let keyObject) = keyValue else {
            throw TestLabError(
                .invalidRequest, "sdkEphemPubKey must be a JSON object (a JWK), found \(keyValue.typeName)")
        }
        let sdkKey = try P256PublicJWK(jsonObject: keyObject)
        let encrypted = try field("sdkEncData")
        let (dsID, deviceData) = try decryptDeviceData(encrypted)

        let scenario = Scenario(cardNumber: card) ?? .frictionlessN
        var response: JSONObject = [
            "messageVersion": .string(version.rawValue),
            "threeDSServerTransID": .string(newTransactionID()),
            "acsTransID": .string(newTransactionID()), "sdkTransID": .string(sdkTransID),
        ]
        if let status = scenario.frictionlessStatus {
            response["transStatus"] = .string(status)
        } else {
            let identifiers = TransactionIdentifiers(
                threeDSServerTransID: response["threeDSServerTransID"]?.stringValue ?? "",
                acsTransID: response["acsTransID"]?.stringValue ?? "",
                sdkTransID: sdkTransID)
            let acsKey = try await acs.register(
                identifiers: identifiers, scenario: scenario, messageVersion: version, sdkEphemeralKey: sdkKey,
                sdkReferenceNumber: reference)
            let content = ACSSignedContent(
                acsURL: baseURL.appendingPathComponent("acs/challenge").absoluteString,
                acsEphemeralPublicKey: P256PublicJWK(acsKey),
                sdkEphemeralPublicKey: sdkKey)
            let signer = options.signer == .rsa ? pki.acsSignerRSA : pki.acsSignerEC
            let key: JWSSigningKey
            switch signer.privateKey {
            case .rsa(let rsa): key = .ps256(privateKeyDER: Array(rsa.derRepresentation))
            case .p256(let ec): key = .es256(ec)
            }
            let signed = try JWS.sign(
                content.json.serializedBytes, with: key,
                certificateChain: [signer.certificate, pki.dsIntermediate.certificate, pki.dsRoot.certificate])
            response["transStatus"] = .string("C")
            response["acsReferenceNumber"] = .string(Self.acsReferenceNumber)
            response["acsSignedContent"] = .string(signed)
            response["acsRenderingType"] = .object([
                "acsInterface": .string(scenario == .html ? "02" : "01"),
                "acsUiTemplate": .string(Self.template(scenario)),
            ])
        }
        return (
            AuthenticationRecord(request: request, directoryServerID: dsID, deviceData: deviceData, response: response),
            response
        )
    }

    private static func template(_ scenario: Scenario) -> String {
        switch scenario {
        case .singleSelect: "02"
        case .multiSelect: "03"
        case .outOfBand: "04"
        case .html: "05"
        case .information: "07"
        default: "01"
        }
    }

    /// Decrypts device data as the directory server does: RSA-OAEP-256 to the RSA DS key, ECDH-ES (PartyVInfo = DS
    /// ID) to the EC one.
    private func decryptDeviceData(_ compact: String) throws -> (String, JSONObject) {
        let header = try JSONParser().parse(
            try Base64.urlDecode(compact.split(separator: ".", omittingEmptySubsequences: false).first ?? ""))
        let dsID: String
        let key: JWEDecryptionKey
        switch header.objectValue?["alg"]?.stringValue {
        case "RSA-OAEP-256":
            guard case .rsa(let rsa) = pki.dsEncryptionRSA.privateKey else {
                throw TestLabError(.failed, "lab RSA key missing")
            }
            (dsID, key) = (Self.rsaDirectoryServerID, .rsaOAEP256(privateKeyDER: Array(rsa.derRepresentation)))
        case "ECDH-ES":
            guard case .p256(let ec) = pki.dsEncryptionEC.privateKey else {
                throw TestLabError(.failed, "lab EC key missing")
            }
            (dsID, key) = (
                Self.ecDirectoryServerID,
                .ecdhES(
                    try P256.KeyAgreement.PrivateKey(rawRepresentation: ec.rawRepresentation),
                    derivation: .emvco(partyVInfo: Self.ecDirectoryServerID))
            )
        default:
            throw TestLabError(.invalidRequest, "sdkEncData has an unknown alg")
        }
        let plaintext = try JWE.decrypt(compact, using: key).plaintext
        guard case .object(let deviceData) = try JSONParser().parse(plaintext) else {
            throw TestLabError(.invalidRequest, "device data is not a JSON object")
        }
        return (dsID, deviceData)
    }

    static func json(_ object: JSONObject, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: object.serializedBytes)))
    }
}

/// The images the lab serves: a 1×1 PNG.
enum LabImages {
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
        0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78,
        0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
        0xAE, 0x42, 0x60, 0x82,
    ]
}

/// The authentication records, shared with the routes; bounded and expiring like the ACS's state.
final class RecordStore: Sendable {
    private let value: Locked<(store: ExpiringStore<Int, AuthenticationRecord>, next: Int)>

    init(capacity: Int, lifetime: Duration) {
        value = Locked((ExpiringStore(capacity: capacity, lifetime: lifetime), 0))
    }

    var all: [AuthenticationRecord] {
        value.withLock {
            $0.store.prune()
            return $0.store.values
        }
    }

    func append(_ record: AuthenticationRecord) {
        value.withLock {
            $0.store.insert(record, for: $0.next)
            $0.next += 1
        }
    }
}

/// Lets the routes, built before the lab exists, reach it once it does.
final class ACSBox: Sendable {
    private let value = Locked<TestLab?>(nil)
    var lab: TestLab? { value.withLock { $0 } }
    func set(_ lab: TestLab) { value.withLock { $0 = lab } }
}

/// A running lab's claim on its PKI directory: an exclusive `flock` on `.testlab.lock` there, which holds the lab's
/// URL; the system drops it when the process ends, however it ends.
final class PKIDirectoryLock: Sendable {
    private let descriptor = Locked<Int32>(-1)

    /// Creates the directory when missing and takes the lock.
    ///
    /// - Throws: ``TestLabError`` naming the problem: a file in the way, an unwritable directory, or another running
    ///   lab (with its URL).
    init(_ directory: URL, url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw TestLabError(.fileSystem, "\(directory.path) is a file, not a directory for the PEM files")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw TestLabError(.fileSystem, "the directory \(directory.path) cannot be created")
            }
        }
        let path = directory.appendingPathComponent(".testlab.lock").path
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw TestLabError(.fileSystem, "\(directory.path) is not writable") }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(opened, &buffer, buffer.count)
            close(opened)
            let other = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            throw TestLabError(
                .fileSystem,
                "another TestLab\(other.isEmpty ? "" : " (\(other))") is using \(directory.path); "
                    + "give this one its own PKI directory")
        }
        _ = ftruncate(opened, 0)
        let text = Array(url.absoluteString.utf8)
        _ = text.withUnsafeBytes { write(opened, $0.baseAddress, $0.count) }
        descriptor.withLock { $0 = opened }
    }

    /// Releases the lock.
    func release() {
        descriptor.withLock {
            if $0 >= 0 { close($0) }
            $0 = -1
        }
    }

    deinit { release() }
}

/// A TestLab failure, in the package's one error shape (``ThreeDS2JOSE/CodedError``): a code to branch on and a
/// message to show. Two errors are equal when their codes are.
public struct TestLabError: CodedError, Sendable {
    /// The kind of failure. New codes may be added; do not rely on the list being complete.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case startFailed, fileSystem, invalidRequest, malformedAnswers, failed
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// A lab server could not start (a port in use, a listener that failed).
        public static let startFailed = Code(.startFailed)
        /// The lab's PKI directory cannot be made, locked or written.
        public static let fileSystem = Code(.fileSystem)
        /// A request to the lab breaks what the lab's 3DS Server or DS accepts.
        public static let invalidRequest = Code(.invalidRequest)
        /// A scripted answers file is not JSON, or an answer in it breaks the answers format.
        public static let malformedAnswers = Code(.malformedAnswers)
        /// Anything else the lab or a test around it could not do.
        public static let failed = Code(.failed)
    }

    /// What kind of failure it was.
    public let code: Code
    /// What went wrong, in words for the person running the lab.
    public let message: String
    /// The cause, when there is one.
    public let underlying: (any Error)?
    /// Where the error was raised.
    public let location: ErrorLocation

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong.
    ///   - underlying: The cause, if any.
    ///   - file: The file that raises the error (the caller's, by default).
    ///   - line: The line that raises the error (the caller's, by default).
    public init(
        _ code: Code, _ message: String, underlying: (any Error)? = nil, file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.location = ErrorLocation(file: file, line: line)
    }
}
