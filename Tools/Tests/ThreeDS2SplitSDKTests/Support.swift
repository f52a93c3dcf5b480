import AsyncHTTPClient
import Clocks
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2SplitServer
import ThreeDS2TestLab
import X509

/// One HTTP answer: status, headers and the body as JSON (an empty object when it is not).
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let json: JSONObject
    let bytes: [UInt8]
}

/// HTTP calls to the server, as a browser or a merchant backend makes them.
enum HTTP {
    static func send(
        _ method: HTTPMethod, _ url: URL, token: String? = nil, body: JSONObject? = nil, raw: [UInt8]? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let bytes = raw ?? body?.serializedBytes {
            request.body = .bytes(ByteBuffer(bytes: bytes))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = Array(buffer: try await response.body.collect(upTo: 4 << 20))
        var json = JSONObject()
        if case .object(let object)? = try? JSONParser().parse(bytes) { json = object }
        return HTTPAnswer(status: Int(response.status.code), headers: response.headers, json: json, bytes: bytes)
    }
}

/// A TestLab, a Split-SDK Server on a test clock in front of it, and the merchant's calls.
struct SplitFixture: Sendable {
    static let apiKey = "merchant-key-0123456789abcdef"
    static let merchantOrigin = "https://shop.example"

    let lab: TestLab
    let configuration: SplitServerConfiguration
    let server: SplitServer
    let running: SplitServer.Running
    let clock: TestClock<Duration>
    let transport: HTTPClientTransport
    let logs: LogCapture

    /// Starts a server for the lab's RSA directory server, listening on `host`.
    static func start(lab options: TestLabOptions = TestLabOptions(), host: String = "127.0.0.1") async throws
        -> SplitFixture
    {
        let lab = try await LabPool.shared.lab(options)
        let clock = TestClock()
        let transport = try lab.makeTransport()
        let logs = LogCapture()
        let configuration = try configuration(lab)
        let server = try SplitServer(
            configuration: configuration, transport: transport, clock: clock,
            logger: Logger(label: "threeds2.split", factory: { logs.handler(label: $0) }))
        let running = try await server.start(host: host)
        return SplitFixture(
            lab: lab, configuration: configuration, server: server, running: running, clock: clock,
            transport: transport, logs: logs)
    }

    static func configuration(_ lab: TestLab) throws -> SplitServerConfiguration {
        var configuration = try lab.splitServerConfiguration(apiKey: apiKey, merchantOrigin: merchantOrigin)
        configuration.allowsPlainHTTPLoopback = !lab.options.useTLS
        configuration.webClientFolder = webClientFolder()
        return configuration
    }

    /// The served folder in the source tree.
    static func webClientFolder() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SplitSDK/Sources/ThreeDS2SplitServer/WebClient", isDirectory: true)
    }

    func url(_ path: String) -> URL { running.baseURL.appendingPathComponent(path) }

    /// `POST /merchant/v1/sessions`.
    func createSession(directoryServerID: String = TestLab.rsaDirectoryServerID.rawValue, locale: String = "en")
        async throws -> HTTPAnswer
    {
        try await HTTP.send(
            .POST, url("merchant/v1/sessions"), token: Self.apiKey,
            body: [
                "messageVersion": .string("2.3.1"), "directoryServerID": .string(directoryServerID),
                "locale": .string(locale),
            ])
    }

    /// The lab's 3DS Server's ARes to the server's AReq parameters with the purchase of a scenario.
    func authenticate(session: String, scenario: Scenario) async throws -> JSONObject {
        let parameters = try await HTTP.send(
            .GET, url("merchant/v1/sessions/\(session)/authentication-request-parameters"), token: Self.apiKey)
        #expect(parameters.status == 200)
        var areq = parameters.json
        let purchase = Purchase(cardNumber: scenario.cardNumber, amount: "1999", currency: "978")
        for member in purchase.fields.members { areq[member.name] = member.value }
        let answer = try await transport.post(
            url: lab.authenticateURL, body: areq.serializedBytes, contentType: "application/json",
            timeout: .seconds(30))
        guard case .object(let ares) = try JSONParser().parse(answer.body) else {
            throw SplitTestError("the 3DS Server's answer is not JSON")
        }
        return ares
    }

    /// The lab's 3DS Server answers the server's AReq parameters with the purchase of a scenario; the server then
    /// gets the challenge parameters.
    func authenticateAndChallenge(session: String, scenario: Scenario) async throws -> HTTPAnswer {
        let ares = try await authenticate(session: session, scenario: scenario)
        var challenge: JSONObject = [:]
        for name in ["threeDSServerTransID", "acsTransID", "acsReferenceNumber", "acsSignedContent"] {
            challenge[name] = ares[name]
        }
        return try await HTTP.send(
            .POST, url("merchant/v1/sessions/\(session)/challenge"), token: Self.apiKey, body: challenge)
    }

    /// The merchant's view of a session.
    func status(_ session: String) async throws -> JSONObject {
        try await HTTP.send(.GET, url("merchant/v1/sessions/\(session)"), token: Self.apiKey).json
    }

    func stop() async {
        await running.stop()
        try? await transport.shutdown()
    }
}

/// The object a JSON value holds, if it holds one.
func object(_ value: JSONValue?) -> JSONObject? {
    guard case .object(let object)? = value else { return nil }
    return object
}

/// The objects a JSON array holds.
func objects(_ value: JSONValue?) -> [JSONObject] {
    guard case .array(let values)? = value else { return [] }
    return values.compactMap { object($0) }
}

struct SplitTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Labs shared by the tests (a lab makes four RSA keys at start): one per address and scheme.
actor LabPool {
    static let shared = LabPool()
    private var labs: [String: TestLab] = [:]

    func lab(_ options: TestLabOptions) async throws -> TestLab {
        let key = "\(options.useTLS ? "https" : "http")://\(options.host)"
        if let lab = labs[key] { return lab }
        let lab = try await TestLab.start(options: options)
        labs[key] = lab
        return lab
    }
}
