import Clocks
import Foundation
import Logging
import NIOHTTP1
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// The server's timers on its test clock, and what its interfaces refuse.
@Suite("Split-SDK timers and access", .serialized)
struct SplitTimeoutAndAccessTests {
    /// Advances the test clock in steps until the session has finished (a timer registered a little after an
    /// advance still fires at a later one); returns the merchant's view.
    static func advanceUntilFinished(_ fixture: SplitFixture, session: String, step: Duration, times: Int)
        async throws -> JSONObject
    {
        for _ in 0..<times {
            await fixture.clock.advance(by: step)
            let status = try await fixture.status(session)
            if status["state"]?.stringValue == "finished" { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await fixture.status(session)
    }

    static func outcomeKind(_ status: JSONObject) -> String? {
        guard case .object(let outcome)? = status["outcome"] else { return nil }
        return outcome["kind"]?.stringValue
    }

    @Test("no answer to a screen: the overall timer ends the challenge as timed out, and the client is told")
    func overallTimeout() async throws {
        let (fixture, client, session) = try await SplitChallengeTests.challenge()
        defer { Task { await fixture.stop() } }
        _ = try await client.run()
        let waiting = Task { try await client.run() }
        let status = try await Self.advanceUntilFinished(fixture, session: session, step: .seconds(30), times: 30)
        #expect(Self.outcomeKind(status) == "timedOut")
        let step = try await waiting.value
        #expect(SplitChallengeTests.outcome(step)?["kind"]?.stringValue == "timedOut")
    }

    @Test("a client that does not encrypt its CReq: the response timer (10 s) ends the challenge as timed out")
    func responseTimeout() async throws {
        let (fixture, client, session) = try await SplitChallengeTests.challenge()
        defer { Task { await fixture.stop() } }
        // The client takes the keys step and says it derived them, then never answers the first encrypt step.
        let keys = try await client.post("client/v1/next", [:])
        #expect(keys["step"]?.stringValue == "keys")
        let encrypt = try await client.post("client/v1/next", [:])
        #expect(encrypt["step"]?.stringValue == "encrypt")
        let status = try await Self.advanceUntilFinished(fixture, session: session, step: .seconds(2), times: 30)
        #expect(Self.outcomeKind(status) == "timedOut")
    }

    @Test("the merchant interface refuses a missing or wrong API key")
    func merchantAuth() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let body: JSONObject = ["messageVersion": .string("2.3.1"), "directoryServerID": .string("A000000003")]
        let none = try await HTTP.send(.POST, fixture.url("merchant/v1/sessions"), body: body)
        #expect(none.status == 401)
        let wrong = try await HTTP.send(
            .POST, fixture.url("merchant/v1/sessions"), token: SplitFixture.apiKey + "x", body: body)
        #expect(wrong.status == 401)
    }

    @Test("an unknown directory server is refused (422)")
    func unknownDirectoryServer() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        #expect(try await fixture.createSession(directoryServerID: "A999999999").status == 422)
    }

    @Test("a second start with the merchant's token is refused (409); a token in the URL is never read (401)")
    func tokens() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let created = try await fixture.createSession()
        let token = try #require(created.json["clientToken"]?.stringValue)
        #expect(try await SwiftSplitClient(fixture: fixture).start(merchantToken: token).status == 200)
        #expect(try await SwiftSplitClient(fixture: fixture).start(merchantToken: token).status == 409)
        var components = URLComponents(url: fixture.url("client/v1/next"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "token", value: token)]
        let inURL = try await HTTP.send(.POST, try #require(components?.url), body: [:])
        #expect(inURL.status == 401)
    }

    @Test("cross-origin calls: the merchant's origin gets CORS headers, another origin is refused (403)")
    func cors() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let evil = try await HTTP.send(
            .POST, fixture.url("client/v1/next"), token: "sct_x", body: [:],
            headers: [("Origin", "https://evil.example")])
        #expect(evil.status == 403)
        let preflight = try await HTTP.send(
            .OPTIONS, fixture.url("client/v1/next"), headers: [("Origin", "https://evil.example")])
        #expect(preflight.headers["Access-Control-Allow-Origin"].isEmpty)
        let allowed = try await HTTP.send(
            .OPTIONS, fixture.url("client/v1/next"), headers: [("Origin", SplitFixture.merchantOrigin)])
        #expect(allowed.status == 204)
        #expect(allowed.headers["Access-Control-Allow-Origin"] == [SplitFixture.merchantOrigin])
    }

    @Test("a body over the bound is refused (413)")
    func oversizeBody() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let big = Array("{\"locale\":\"\(String(repeating: "x", count: 20_000))\"}".utf8)
        let answer = try await HTTP.send(
            .POST, fixture.url("merchant/v1/sessions"), token: SplitFixture.apiKey, raw: big)
        #expect(answer.status == 413)
    }

    @Test("the server refuses variant 01 (Native) for the web client, and a missing web client folder, at startup")
    func startupRefusals() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        var configuration = try SplitFixture.configuration(lab)
        configuration.variant = .native
        #expect(throws: SplitServerError.self) {
            try SplitServer(
                configuration: configuration, transport: try lab.makeTransport(), clock: .continuous,
                logger: .init(label: "t"))
        }
        configuration.variant = SDKVariant(rawValue: "80")
        configuration.webClientFolder = URL(fileURLWithPath: "/nonexistent/web-client")
        #expect(throws: SplitServerError.self) {
            try SplitServer(
                configuration: configuration, transport: try lab.makeTransport(), clock: .continuous,
                logger: .init(label: "t"))
        }
    }

    @Test("a merchant origin the policy and headers could not carry is refused at startup")
    func originRefusals() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions())
        var configuration = try SplitFixture.configuration(lab)
        for origin in [
            "", "shop.example", "https://shop.example/", "https://shop.example/pay", "https://SHOP.example",
            "http://shop.example", "https://shop.example; script-src *", "https://a.example, https://b.example",
            "ftp://shop.example", "https://user@shop.example",
        ] {
            configuration.merchantOrigin = origin
            #expect(throws: SplitServerError.self, "\(origin)") {
                try SplitServer(
                    configuration: configuration, transport: try lab.makeTransport(), clock: .continuous,
                    logger: .init(label: "t"))
            }
        }
        for origin in [
            "https://shop.example", "https://shop.example:8443", "http://127.0.0.2:9000", "http://localhost",
        ] {
            configuration.merchantOrigin = origin
            #expect(throws: Never.self, "\(origin)") {
                _ = try SplitServer(
                    configuration: configuration, transport: try lab.makeTransport(), clock: .continuous,
                    logger: .init(label: "t"))
            }
        }
    }

    @Test("the frame page names the merchant's origin; merchant.js alone is readable from that origin")
    func servedFiles() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let frame = try await HTTP.send(.GET, fixture.url("client/v1/frame.html"))
        let page = String(decoding: frame.bytes, as: UTF8.self)
        #expect(page.contains(#"<meta name="threeds-merchant-origin" content="\#(SplitFixture.merchantOrigin)">"#))
        #expect(frame.headers["Content-Security-Policy"].first?.hasSuffix(SplitFixture.merchantOrigin) == true)
        #expect(frame.headers["Access-Control-Allow-Origin"].isEmpty)
        let script = try await HTTP.send(.GET, fixture.url("client/v1/merchant.js"))
        #expect(script.status == 200)
        #expect(script.headers["Access-Control-Allow-Origin"] == [SplitFixture.merchantOrigin])
        let channel = try await HTTP.send(.GET, fixture.url("client/v1/channel.js"))
        #expect(channel.status == 200 && channel.headers["Access-Control-Allow-Origin"].isEmpty)
    }
}
