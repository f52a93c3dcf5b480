import Clocks
import Foundation
import Logging
import NIOHTTP1
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// A 2.3.1 text challenge through the Split-SDK Server, the client role played by ``SwiftSplitClient`` (a second
/// implementation of the client protocol), against the TestLab's 3DS Server, DS and ACS.
@Suite("Split-SDK challenges", .serialized)
struct SplitChallengeTests {
    /// Creates a session, starts the client, authenticates through the lab and hands over the ARes.
    static func challenge(_ scenario: Scenario = .text, host: String = "127.0.0.1") async throws
        -> (SplitFixture, SwiftSplitClient, String)
    {
        let fixture = try await SplitFixture.start(lab: TestLabOptions(host: host), host: host)
        let created = try await fixture.createSession()
        #expect(created.status == 201)
        let session = try #require(created.json["sessionID"]?.stringValue)
        let client = SwiftSplitClient(fixture: fixture)
        let started = try await client.start(merchantToken: try #require(created.json["clientToken"]?.stringValue))
        #expect(started.status == 200)
        let challenge = try await fixture.authenticateAndChallenge(session: session, scenario: scenario)
        #expect(challenge.status == 202, "\(String(decoding: challenge.bytes, as: UTF8.self))")
        return (fixture, client, session)
    }

    static func outcome(_ step: JSONObject) -> JSONObject? {
        guard step["step"]?.stringValue == "finished", case .object(let outcome)? = step["outcome"] else { return nil }
        return outcome
    }

    @Test("the right code completes with Y; the form carries the core's layout and the entry's rules")
    func rightCode() async throws {
        let (fixture, client, session) = try await Self.challenge()
        defer { Task { await fixture.stop() } }
        let present = try await client.run()
        #expect(present["step"]?.stringValue == "present")
        let form = try #require(object(present["form"]))
        #expect(form["uiType"]?.stringValue == "01")
        #expect(form["direction"]?.stringValue == "ltr")
        let entry = objects(form["elements"]).filter { $0["kind"] == .string("entry") }
        #expect(entry.count == 1)
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(Self.outcome(finished)?["transStatus"]?.stringValue == "Y")
        let status = try await fixture.status(session)
        #expect(status["state"]?.stringValue == "finished")
        // The CReq the server built never carried the entry: the encrypt steps' CReqs hold no challengeDataEntry.
        let encrypts = await client.steps.filter { $0["step"]?.stringValue == "encrypt" }
        #expect(encrypts.count == 2)
        for step in encrypts { #expect(!step.serialized.contains("challengeDataEntry\":")) }
        #expect(!(await fixture.server.storedState()).contains("123456"))
    }

    @Test("on another local address (127.0.0.2): the server and the lab there, the right code completes with Y")
    func anotherAddress() async throws {
        let (fixture, client, session) = try await Self.challenge(host: "127.0.0.2")
        defer { Task { await fixture.stop() } }
        #expect(fixture.running.baseURL.host == "127.0.0.2" && fixture.lab.baseURL.host == "127.0.0.2")
        #expect(try await client.run()["step"]?.stringValue == "present")
        await client.type("123456")
        #expect(Self.outcome(try await client.answer("submit"))?["transStatus"]?.stringValue == "Y")
        #expect(try await fixture.status(session)["state"]?.stringValue == "finished")
    }

    @Test(
        "the AReq parameters are a Split-SDK's: sdkType 02, the configured variant, never Limited, the client's key, and SDK Server Signed Content that verifies with the server's certificate"
    )
    func splitFields() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let created = try await fixture.createSession()
        let session = try #require(created.json["sessionID"]?.stringValue)
        let early = try await HTTP.send(
            .GET, fixture.url("merchant/v1/sessions/\(session)/authentication-request-parameters"),
            token: SplitFixture.apiKey)
        #expect(early.status == 409)
        let client = SwiftSplitClient(fixture: fixture)
        _ = try await client.start(merchantToken: try #require(created.json["clientToken"]?.stringValue))
        let areq = try await HTTP.send(
            .GET, fixture.url("merchant/v1/sessions/\(session)/authentication-request-parameters"),
            token: SplitFixture.apiKey
        ).json
        #expect(areq["sdkType"] == .string("02"))
        #expect(areq["defaultSdkType"] == nil)
        #expect(object(areq["splitSdkType"]) == ["sdkVariant": .string("80"), "limitedInd": .string("N")])
        #expect(object(areq["sdkEphemPubKey"]) == (await client.publicKey).jsonObject)
        let certificate = try #require(fixture.configuration.directoryServers.first?.certificateChain.first)
        let content = try SDKServerSignedContent.verify(
            try #require(areq["sdkServerSignedContent"]?.stringValue), registeredCertificate: { _ in certificate })
        #expect(content.sdkTransactionID == areq["sdkTransID"]?.stringValue)
        #expect(content.serverID == TestLab.splitSDKServerID)
        #expect(areq["sdkSignatureTimestamp"]?.stringValue == content.signatureTimestamp.text)
    }

    @Test("a wrong code shows the screen again with the ACS's warning; the right code then completes")
    func wrongCode() async throws {
        let (fixture, client, _) = try await Self.challenge()
        defer { Task { await fixture.stop() } }
        _ = try await client.run()
        await client.type("000000")
        let again = try await client.answer("submit")
        #expect(again["step"]?.stringValue == "present")
        #expect(again["screen"] == .number("2"))
        await client.type("123456")
        #expect(Self.outcome(try await client.answer("submit"))?["transStatus"]?.stringValue == "Y")
    }

    @Test("three wrong codes end with N")
    func threeWrongCodes() async throws {
        let (fixture, client, _) = try await Self.challenge()
        defer { Task { await fixture.stop() } }
        _ = try await client.run()
        await client.type("000000")
        _ = try await client.answer("submit")
        _ = try await client.answer("submit")
        #expect(Self.outcome(try await client.answer("submit"))?["transStatus"]?.stringValue == "N")
    }

    @Test("resend sends a CReq without entries and shows a new screen")
    func resend() async throws {
        let (fixture, client, _) = try await Self.challenge()
        defer { Task { await fixture.stop() } }
        _ = try await client.run()
        let next = try await client.answer("resend")
        #expect(next["step"]?.stringValue == "present")
        let encrypt = try #require(await client.steps.last { $0["step"]?.stringValue == "encrypt" })
        // No entry to fill; the screen's trust-list question is answered in every CReq but a cancel's.
        #expect(objects(encrypt["fill"]).map { $0["member"]?.stringValue } == ["trustListDataEntry"])
        #expect(encrypt.serialized.contains("\"resendChallenge\":\"Y\""))
    }

    @Test("cancel ends the challenge as cancelled, and the client token is refused afterwards (410)")
    func cancel() async throws {
        let (fixture, client, _) = try await Self.challenge()
        defer { Task { await fixture.stop() } }
        _ = try await client.run()
        let finished = try await client.answer("cancel")
        #expect(Self.outcome(finished)?["kind"]?.stringValue == "cancelled")
        let after = try await HTTP.send(.POST, fixture.url("client/v1/next"), token: await client.token, body: [:])
        #expect(after.status == 410)
    }
}
