import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2TestLab

/// The TestLab's fault scenarios through the Split-SDK Server (2.3.1), the client role played by ``SwiftSplitClient``:
/// the client decrypts, the server's core judges the CRes, and the challenge ends as the Default-SDK's ends, with the
/// same Erro to the ACS; the ACS's Erro ends it without one. The frictionless and decoupled cards need no challenge:
/// the ARes the merchant's backend receives says so, and the server is never asked for one.
@Suite("Split-SDK: the fault scenarios", .serialized)
struct SplitFaultTests {
    /// A fault scenario, the code of the Erro the server sends (nil: none), and the outcome's error code.
    static let faults: [(Scenario, sent: String?, outcome: String)] = [
        (.faultBadTag, "302", "302"), (.faultWrongCounter, "302", "302"), (.faultWrongTransactionID, "301", "301"),
        (.faultMissingField, "201", "201"), (.faultCriticalExtension, "202", "202"), (.faultErro, nil, "305"),
    ]

    @Test("each fault ends the challenge with the core's protocol error and the Default-SDK's Erro", arguments: faults)
    func fault(_ fault: (Scenario, sent: String?, outcome: String)) async throws {
        let (fixture, client, session) = try await SplitChallengeTests.challenge(fault.0)
        defer { Task { await fixture.stop() } }
        let finished = try await client.run()
        let outcome = try #require(SplitChallengeTests.outcome(finished), "\(finished.serialized)")
        #expect(outcome["kind"]?.stringValue == "protocolError")
        #expect(outcome["errorCode"]?.stringValue == fault.outcome)
        let keys = try #require(await client.steps.first { $0["step"]?.stringValue == "keys" })
        let acsTransID = try #require(keys["acsTransID"]?.stringValue)
        let record = try #require(await fixture.lab.acsRecord(acsTransID: acsTransID))
        #expect(record.errors.compactMap { $0["errorCode"]?.stringValue } == (fault.sent.map { [$0] } ?? []))
        #expect(try await fixture.status(session)["state"]?.stringValue == "finished")
    }

    @Test("the slow ACS: no answer within the response timer (10 s, the server's test clock), Erro 402, timed out")
    func slowACS() async throws {
        let (fixture, client, session) = try await SplitChallengeTests.challenge(.faultSlow)
        defer { Task { await fixture.stop() } }
        // The client follows the steps (it waits for the answer the ACS holds back) while the test moves the clock.
        let following = Task { try await client.run() }
        let keys = try await Self.keysStep(client)
        let acsTransID = try #require(keys["acsTransID"]?.stringValue)
        // Once the first CReq is at the ACS, 10 s on the server's clock end the exchange.
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))
        while (await fixture.lab.acsRecord(acsTransID: acsTransID))?.requests.isEmpty ?? true,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = try await SplitTimeoutAndAccessTests.advanceUntilFinished(
            fixture, session: session, step: .seconds(2), times: 30)
        #expect(SplitTimeoutAndAccessTests.outcomeKind(status) == "timedOut")
        #expect(SplitChallengeTests.outcome(try await following.value)?["kind"]?.stringValue == "timedOut")
        let record = try #require(await fixture.lab.acsRecord(acsTransID: acsTransID))
        #expect(record.errors.compactMap { $0["errorCode"]?.stringValue } == ["402"])
        #expect(record.requests.count == 1, "the CReq was sent again")
    }

    /// The client's `keys` step, once it has had it.
    static func keysStep(_ client: SwiftSplitClient) async throws -> JSONObject {
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))
        while ContinuousClock.now < deadline {
            if let keys = await client.steps.first(where: { $0["step"]?.stringValue == "keys" }) { return keys }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw SplitTestError("the client never had the keys step")
    }

    @Test("frictionless and decoupled cards: the ARes needs no challenge, and the session is never asked for one")
    func noChallenge() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        for (scenario, status) in [(Scenario.frictionlessY, "Y"), (.frictionlessN, "N"), (.decoupled, "D")] {
            let created = try await fixture.createSession()
            let session = try #require(created.json["sessionID"]?.stringValue)
            let client = SwiftSplitClient(fixture: fixture)
            _ = try await client.start(merchantToken: try #require(created.json["clientToken"]?.stringValue))
            let ares = try await fixture.authenticate(session: session, scenario: scenario)
            #expect(ares["transStatus"]?.stringValue == status)
            #expect(ares["acsSignedContent"] == nil)
            #expect(try await fixture.status(session)["state"]?.stringValue == "started")
        }
    }
}
