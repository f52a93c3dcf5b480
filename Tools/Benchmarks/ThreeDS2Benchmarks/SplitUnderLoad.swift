import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ThreeDS2JOSE
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// The Split-SDK Server under load: many whole text challenges at once through the Split-SDK Server, its client role
/// played by the tools' Swift client (``SplitClient``), against the in-process TestLab over HTTPS (the server over
/// plain HTTP on loopback, as behind a TLS-terminating proxy). Reports sessions per second per core (CPU time of this
/// process, which runs every side: the merchant's calls, the clients, the server and the lab) against the Default-SDK's
/// challenges per core of the row before it, and the state per session in flight: the bytes the server's store holds
/// (`storedState()`, what a shared store would keep) and the resident memory the whole process grew by, per session
/// held at its screen.
enum SplitUnderLoad {
    static let apiKey = "benchmark-merchant-key-0123456789"

    /// Runs `concurrent` sessions to their first screen, measures what they hold, then completes them; the lab and the
    /// server stop whatever happens.
    static func measure(concurrent: Int, defaultSDKPerCore: Double?, store: SplitSessionStore = .memory) async throws
        -> String
    {
        var quiet = Logger(label: "bench.split")
        quiet.logLevel = .critical
        let lab = try await TestLab.start(options: TestLabOptions(maxTransactions: 2 * concurrent), logger: quiet)
        let transport: HTTPClientTransport
        do {
            transport = try HTTPClientTransport(
                additionalTrustRootsPEM: [try lab.pki.tlsRoot.certificatePEM], maxConnectionsPerHost: 64)
        } catch {
            await lab.stop()
            throw error
        }
        var running: SplitServer.Running?
        do {
            var configuration = try lab.splitServerConfiguration(apiKey: apiKey, merchantOrigin: "https://shop.example")
            configuration.maxSessions = concurrent + 16
            configuration.sessionStore = store
            let server = try SplitServer(
                configuration: configuration, transport: transport, clock: ContinuousClock(), logger: quiet)
            let started = try await server.start()
            running = started
            let line = try await run(
                concurrent: concurrent, defaultSDKPerCore: defaultSDKPerCore, server: server,
                merchant: Merchant(server: started.baseURL, lab: lab, transport: transport))
            await started.stop()
            try await transport.shutdown()
            await lab.stop()
            return line
        } catch {
            await running?.stop()
            try? await transport.shutdown()
            await lab.stop()
            throw error
        }
    }

    /// The measured run on a started lab and server.
    private static func run(concurrent: Int, defaultSDKPerCore: Double?, server: SplitServer, merchant: Merchant)
        async throws -> String
    {
        // One session first: what is made once (connections, caches) is not counted per session.
        _ = try await merchant.complete(try await merchant.toFirstScreen())
        let residentBefore = LabUnderLoad.resident()
        let storedBefore = await server.storedBytes()
        let cpuBefore = LabUnderLoad.cpuSeconds()
        let wallStart = ContinuousClock.now
        let clients = try await withThrowingTaskGroup(of: SplitClient.self) { group in
            for _ in 0..<concurrent { group.addTask { try await merchant.toFirstScreen() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let residentAtScreens = LabUnderLoad.resident()
        let storedAtScreens = await server.storedBytes()
        let completed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for client in clients { group.addTask { try await merchant.complete(client) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let wall = ContinuousClock.now - wallStart
        let cpu = LabUnderLoad.cpuSeconds() - cpuBefore
        guard completed == concurrent else {
            throw SplitClientError.benchmark("only \(completed) of \(concurrent) Split-SDK challenges completed")
        }
        let perCore = Double(concurrent) / cpu
        let ratio =
            defaultSDKPerCore.map {
                String(format: " (%.2f× the Default-SDK's challenges per core above)", perCore / $0)
            }
            ?? ""
        let where_ = server.sharesSessions ? "PostgreSQL (sealed)" : "the server's store"
        return
            "Split-SDK Server under load"
            + (server.sharesSessions ? " with its sessions in PostgreSQL" : "")
            + ": \(concurrent) concurrent sessions, each a whole text challenge (merchant calls, "
            + "the Swift client, the server, the TestLab, all in this process) in "
            + String(format: "%.2f s; %.1f sessions/s per core (CPU %.2f s)", seconds(wall), perCore, cpu) + ratio
            + "; state per session in flight: "
            + "\((storedAtScreens - storedBefore) / concurrent) bytes in \(where_), "
            + String(format: "%.1f KiB", Double(residentAtScreens - residentBefore) / Double(concurrent) / 1024)
            + " of resident memory (every side)"
    }

    /// The merchant's backend: its calls to the Split-SDK Server (with the API key) and the lab's 3DS Server.
    struct Merchant: Sendable {
        let server: URL
        let lab: TestLab
        let transport: HTTPClientTransport

        /// A session, its client started, the AReq through the lab, the challenge handed over: the client at its
        /// first screen.
        func toFirstScreen() async throws -> SplitClient {
            let created = try await call(
                .POST, "merchant/v1/sessions",
                [
                    "messageVersion": .string("2.3.1"),
                    "directoryServerID": .string(TestLab.rsaDirectoryServerID.rawValue),
                ])
            guard let session = created["sessionID"]?.stringValue, let token = created["clientToken"]?.stringValue
            else { throw SplitClientError.benchmark("no session: \(created)") }
            let client = SplitClient(serverURL: server)
            _ = try await client.start(merchantToken: token)
            var areq = try await call(.GET, "merchant/v1/sessions/\(session)/authentication-request-parameters", nil)
            let purchase = Purchase(cardNumber: Scenario.text.cardNumber, amount: "1999", currency: "978")
            for member in purchase.fields.members { areq[member.name] = member.value }
            let answer = try await transport.post(
                url: lab.authenticateURL, body: areq.serializedBytes, contentType: "application/json",
                timeout: .seconds(120))
            guard case .object(let ares) = try JSONParser().parse(answer.body) else {
                throw SplitClientError.benchmark("the 3DS Server's answer is not JSON")
            }
            var challenge = JSONObject()
            for name in ["threeDSServerTransID", "acsTransID", "acsReferenceNumber", "acsSignedContent"] {
                challenge[name] = ares[name]
            }
            _ = try await call(.POST, "merchant/v1/sessions/\(session)/challenge", challenge)
            let screen = try await client.run()
            guard screen["step"]?.stringValue == "present" else {
                throw SplitClientError.benchmark("no screen: \(screen)")
            }
            return client
        }

        /// Answers the screen with the right code; whether the challenge completed with Y.
        func complete(_ client: SplitClient) async throws -> Bool {
            await client.type("123456")
            let finished = try await client.answer("submit")
            return finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y"
        }

        private func call(_ method: HTTPMethod, _ path: String, _ body: JSONObject?) async throws -> JSONObject {
            var request = HTTPClientRequest(url: server.appendingPathComponent(path).absoluteString)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            let bytes = Array(buffer: try await response.body.collect(upTo: 1 << 20))
            guard (200..<300).contains(Int(response.status.code)),
                case .object(let json) = try JSONParser().parse(bytes)
            else { throw SplitClientError.benchmark("\(path): HTTP \(response.status.code)") }
            return json
        }
    }
}

extension SplitClientError {
    /// A failure of the benchmark's merchant.
    static func benchmark(_ text: String) -> SplitClientError { SplitClientError(text) }
}
