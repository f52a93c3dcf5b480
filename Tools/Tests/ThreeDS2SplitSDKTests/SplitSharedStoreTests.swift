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

/// The PostgreSQL server `.ci/run` and the README's test command start (scripts/postgres.sh): a real database, on
/// loopback, with a role and a database of the tests' own. `THREEDS_TEST_POSTGRES_PORT` names another port.
enum TestPostgres {
    /// The key both instances of a test seal the sessions' state with.
    static let sealingKey = SymmetricKey(size: .bits256)

    static func store(instanceAddress: URL? = nil) -> SplitPostgresStore {
        let port = ProcessInfo.processInfo.environment["THREEDS_TEST_POSTGRES_PORT"].flatMap { Int($0) } ?? 5432
        return SplitPostgresStore(
            host: "127.0.0.1", port: port, username: "threeds_split", password: "threeds-split-test",
            database: "threeds_split", sealingKey: sealingKey, instanceAddress: instanceAddress)
    }
}

/// Two instances of the Split-SDK Server sharing one PostgreSQL store, in front of one TestLab: what a merchant runs
/// behind a load balancer. Their timers run on a test clock nobody moves: a loaded machine never times a challenge
/// out under them (no test here waits for a timer; a lost answer ends without one).
struct TwoInstances: Sendable {
    let lab: TestLab
    let first: SplitServer.Running
    let second: SplitServer.Running
    let transport: HTTPClientTransport
    let logs: LogCapture

    static func start(lab: TestLab) async throws -> TwoInstances {
        let transport = try lab.makeTransport()
        let logs = LogCapture()
        var configuration = try SplitFixture.configuration(lab)
        configuration.sessionStore = .postgres(TestPostgres.store())
        func instance(_ name: String) async throws -> SplitServer.Running {
            let server = try SplitServer(
                configuration: configuration, transport: transport, clock: TestClock(),
                logger: Logger(label: "threeds2.split.\(name)", factory: { logs.handler(label: $0) }))
            return try await server.start()
        }
        let first = try await instance("a")
        let second = try await instance("b")
        return TwoInstances(lab: lab, first: first, second: second, transport: transport, logs: logs)
    }

    var merchants: (SplitMerchant, SplitMerchant) {
        (
            SplitMerchant(serverURL: first.baseURL, apiKey: SplitFixture.apiKey),
            SplitMerchant(serverURL: second.baseURL, apiKey: SplitFixture.apiKey)
        )
    }

    /// A session created on `merchant`'s instance, its client started, the ARes of `scenario` handed over through
    /// `handOver`'s instance.
    func challenge(
        _ scenario: Scenario, client: SplitClient, create merchant: SplitMerchant, handOver: SplitMerchant
    ) async throws -> SplitMerchant.Session {
        let session = try await merchant.createSession(
            messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue)
        #expect(try await client.start(merchantToken: session.clientToken).status == 200)
        var areq = try await handOver.authenticationRequestParameters(of: session.id)
        for member in Purchase(cardNumber: scenario.cardNumber, amount: "1999", currency: "978").fields.members {
            areq[member.name] = member.value
        }
        let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
            body: areq, messageVersion: .v2_3_1)
        try await handOver.challenge(session.id, with: try #require(response.challengeParameters))
        return session
    }

    /// Two instances in front of `lab`; a text challenge created and handed over on the first, its client (calling
    /// the first) at its first screen.
    static func atFirstScreen(lab: TestLab) async throws -> (
        instances: TwoInstances, client: SplitClient, session: SplitMerchant.Session, screen: JSONObject
    ) {
        let instances = try await start(lab: lab)
        do {
            let client = SplitClient(serverURL: instances.first.baseURL)
            let (a, _) = instances.merchants
            let session = try await instances.challenge(.text, client: client, create: a, handOver: a)
            let screen = try await client.run()
            #expect(screen["step"]?.stringValue == "present", "\(screen.serialized)")
            return (instances, client, session, screen)
        } catch {
            await instances.stop()
            throw error
        }
    }

    /// Loses the first instance (as a killed one) and sends the client's calls to the second.
    func loseTheFirst(_ client: SplitClient) async {
        await first.abandon()
        await client.route(to: [second.baseURL])
    }

    func stop() async {
        await first.stop()
        await second.stop()
        try? await transport.shutdown()
    }
}

/// Sessions shared by two instances through PostgreSQL: a challenge started on one continues on the other; an
/// instance lost while the cardholder looks at a screen, or while a CReq is at the ACS, and the other instance ends
/// the challenge as it should.
@Suite("Split-SDK: two instances sharing PostgreSQL", .serialized)
struct SplitSharedStoreTests {
    @Test("every call to the other instance in turn (round robin): the challenge completes with Y, the state is sealed")
    func roundRobin() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let instances = try await TwoInstances.start(lab: lab)
        defer { Task { await instances.stop() } }
        let (a, b) = instances.merchants
        let client = SplitClient(rotatingOver: [instances.first.baseURL, instances.second.baseURL])
        let session = try await instances.challenge(.text, client: client, create: a, handOver: b)
        let present = try await client.run()
        #expect(present["step"]?.stringValue == "present", "\(present.serialized)")
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
        #expect(try await a.status(of: session.id)["state"]?.stringValue == "finished")
        #expect(try await b.status(of: session.id)["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
        // No instance took the session over: each call reached its owner.
        #expect(!instances.logs.text.contains("session taken over"))
        let acs = try #require(await lab.acsRecord(acsTransID: try await Self.acsTransID(client)))
        #expect(acs.requests.map { $0["sdkCounterStoA"]?.stringValue } == ["000", "001"])
    }

    @Test("the owner lost while the screen is up: the other instance shows it again and finishes the challenge")
    func ownerLostAtTheScreen() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let (instances, client, session, _) = try await TwoInstances.atFirstScreen(lab: lab)
        defer { Task { await instances.stop() } }
        await instances.loseTheFirst(client)
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
        #expect(instances.logs.text.contains("session taken over"))
        #expect(try await instances.merchants.1.status(of: session.id)["state"]?.stringValue == "finished")
        let acs = try #require(await lab.acsRecord(acsTransID: try await Self.acsTransID(client)))
        #expect(acs.requests.map { $0["sdkCounterStoA"]?.stringValue } == ["000", "001"], "a counter twice")
        #expect(acs.errors.isEmpty)
    }

    @Test("the owner lost with a CReq at the ACS: Erro 402, timed out, and that CReq never sent again")
    func ownerLostWithACReqInFlight() async throws {
        // The ACS holds its first answer for 30 s: the owner is lost before it comes.
        let lab = try await TestLab.start(options: TestLabOptions(slowResponseDelay: .seconds(30)))
        let instances = try await TwoInstances.start(lab: lab)
        defer {
            Task {
                await instances.stop()
                await lab.stop()
            }
        }
        let (a, b) = instances.merchants
        let client = SplitClient(serverURL: instances.first.baseURL)
        let session = try await instances.challenge(.faultSlow, client: client, create: a, handOver: a)
        // The client follows the steps on the first instance: keys, the first CReq, then waits for the answer.
        let following = Task { try await client.run() }
        let acsTransID = try await Self.waitForKeys(client)
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while (await lab.acsRecord(acsTransID: acsTransID))?.requests.isEmpty ?? true, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        await instances.first.abandon()
        // The client's call in flight to the lost instance fails; it calls the instance left.
        following.cancel()
        _ = await following.result
        await client.route(to: [instances.second.baseURL])
        let finished = try await client.run()
        #expect(SplitChallengeTests.outcome(finished)?["kind"]?.stringValue == "timedOut", "\(finished.serialized)")
        #expect(try await b.status(of: session.id)["outcome"]?.objectValue?["kind"]?.stringValue == "timedOut")
        let acs = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(acs.requests.count == 1, "the CReq was sent again")
        #expect(acs.errors.compactMap { $0["errorCode"]?.stringValue } == ["402"])
    }

    @Test("the database holds the state sealed: no challenge text, no transaction ID in the clear")
    func sealedState() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let (instances, client, _, present) = try await TwoInstances.atFirstScreen(lab: lab)
        defer { Task { await instances.stop() } }
        let acsTransID = try await Self.acsTransID(client)
        let stored = try await Self.rows()
        #expect(!stored.isEmpty)
        for text in [acsTransID, "One-time", "sdkTransID", present["form"]?.objectValue?["uiType"]?.stringValue ?? "x"]
        where text.count > 2 {
            #expect(!stored.contains(text), "\(text) is readable in the database")
        }
    }

    @Test("the owner lost at the screen: a status watch and an answer reach the other instance at once; one takes over")
    func concurrentCallsDuringATakeover() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let (instances, client, session, _) = try await TwoInstances.atFirstScreen(lab: lab)
        defer { Task { await instances.stop() } }
        await instances.loseTheFirst(client)
        // The web client watches `status` while a screen is up; the answer comes beside it.
        let token = await client.token
        let watch = Task {
            try await SplitHTTP.send(
                "POST", instances.second.baseURL.appendingPathComponent("client/v1/status"), token: token, body: [:])
        }
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
        let watched = try await watch.value
        #expect(watched.status == 200, "\(watched.json.serialized)")
        #expect(instances.logs.text.components(separatedBy: "session taken over").count == 2, "taken over twice")
        #expect(try await instances.merchants.1.status(of: session.id)["state"]?.stringValue == "finished")
    }

    @Test("the owner lost before its first CReq: the other instance starts the challenge again (keys again) to Y")
    func ownerLostBeforeTheFirstCReq() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let instances = try await TwoInstances.start(lab: lab)
        defer { Task { await instances.stop() } }
        let (a, _) = instances.merchants
        let client = SplitClient(serverURL: instances.first.baseURL)
        _ = try await instances.challenge(.text, client: client, create: a, handOver: a)
        // The client has not asked for its first step: the session waits for the keys to be derived.
        await instances.first.abandon()
        await client.route(to: [instances.second.baseURL])
        let present = try await client.run()
        #expect(present["step"]?.stringValue == "present", "\(present.serialized)")
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y")
        let acs = try #require(await lab.acsRecord(acsTransID: try await Self.acsTransID(client)))
        #expect(acs.requests.map { $0["sdkCounterStoA"]?.stringValue } == ["000", "001"])
    }

    @Test("a screen shown again with a note keeps its number after a takeover: the answer to it is taken")
    func noteThenTakeover() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let (instances, client, _, first) = try await TwoInstances.atFirstScreen(lab: lab)
        defer { Task { await instances.stop() } }
        // An action the screen does not take (a browser opens no app) shows the same screen again, numbered anew.
        let again = try await client.answer("openApp")
        #expect(again["step"]?.stringValue == "present")
        #expect(again["screen"] != first["screen"], "\(again.serialized)")
        await instances.loseTheFirst(client)
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
    }

    @Test("a call that says it was forwarded, without an instance's signature, is refused (403)")
    func forgedForwardingHeader() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let instances = try await TwoInstances.start(lab: lab)
        defer { Task { await instances.stop() } }
        let (a, _) = instances.merchants
        let session = try await a.createSession(
            messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue)
        var request = HTTPClientRequest(
            url: instances.second.baseURL.appendingPathComponent("merchant/v1/sessions/\(session.id)").absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(SplitFixture.apiKey)")
        request.headers.add(name: "X-ThreeDS-Split-Forwarded", value: "1")
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(answer.status.code == 403)
        // Without the header the call is forwarded to the owner and answered.
        #expect(try await instances.merchants.1.status(of: session.id)["state"]?.stringValue == "created")
    }

    @Test("an owner's address changed in the database (to send the tokens elsewhere) makes the state not open (503)")
    func tamperedOwnerAddress() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        let instances = try await TwoInstances.start(lab: lab)
        defer { Task { await instances.stop() } }
        let (a, b) = instances.merchants
        let session = try await a.createSession(
            messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue)
        try Self.psql(
            "UPDATE threeds_split_sessions SET owner_address = 'http://198.51.100.7:9' WHERE id = '\(session.id)'")
        do {
            _ = try await b.status(of: session.id)
            Issue.record("a tampered row was used")
        } catch let error as SplitClientError {
            #expect(error.description.contains("HTTP 503"), "\(error)")
        }
    }

    /// Runs one statement as the tests' role.
    @discardableResult
    static func psql(_ statement: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "-h", "127.0.0.1", "-U", "threeds_split", "-d", "threeds_split", "-tA", "-v", "ON_ERROR_STOP=1", "-c",
            statement,
        ]
        process.environment = ["PGPASSWORD": "threeds-split-test", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SplitTestError("psql failed: \(statement)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The sessions' rows as PostgreSQL holds them, through psql (another client than the server's).
    static func rows() async throws -> String {
        try psql("SELECT id, encode(state, 'escape') FROM threeds_split_sessions")
    }

    /// The ACS's transaction ID, from the client's `keys` step.
    static func acsTransID(_ client: SplitClient) async throws -> String {
        let keys = try #require(await client.steps.first { $0["step"]?.stringValue == "keys" })
        return try #require(keys["acsTransID"]?.stringValue)
    }

    /// Waits (a backstop of a minute) until the client has had its `keys` step; the ACS's transaction ID.
    static func waitForKeys(_ client: SplitClient) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            if let keys = await client.steps.first(where: { $0["step"]?.stringValue == "keys" }),
                let id = keys["acsTransID"]?.stringValue
            {
                return id
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw SplitTestError("the client had no keys step within a minute")
    }
}
