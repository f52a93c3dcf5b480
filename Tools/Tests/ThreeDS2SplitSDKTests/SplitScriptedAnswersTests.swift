import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// The tools' merchant (``SplitMerchant``) and client (``SplitClient``) as `threeds load --split-server` uses them: each
/// TestLab challenge kind answered from its happy-path script (the `--answers` format), the HTML page's form data read
/// from the page as the Default-SDK reads it.
@Suite("Split-SDK: the tools' merchant and client answer every kind from a script", .serialized)
struct SplitScriptedAnswersTests {
    static let scenarios: [Scenario] = [
        .text, .singleSelect, .multiSelect, .outOfBand, .html, .information, .twoEntryBoxes, .additionalCode,
        .consents, .htmlOutOfBand, .bridging,
    ]

    @Test("each kind's happy path completes with Y; the out-of-band page opens the app from the Shell host")
    func everyKind() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let merchant = SplitMerchant(serverURL: fixture.running.baseURL, apiKey: SplitFixture.apiKey)
        for scenario in Self.scenarios {
            // Only a host that opens apps is given the app link (the Shell variant).
            let host = scenario == .htmlOutOfBand ? "shell" : nil
            let session = try await merchant.createSession(
                messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue, host: host)
            let client = SplitClient(serverURL: merchant.serverURL)
            #expect(try await client.start(merchantToken: session.clientToken).status == 200)
            let ares = try await fixture.authenticate(session: session.id, scenario: scenario)
            let response = try ThreeDSServerClient.response(from: ares, messageVersion: .v2_3_1, requestorAppURL: nil)
            try await merchant.challenge(session.id, with: try #require(response.challengeParameters))
            var step = try await client.run()
            for answer in scenario.happyPathAnswers(in: .v2_3_1) where step["step"]?.stringValue == "present" {
                step = try await client.answer(scripted: answer)
            }
            #expect(step["step"]?.stringValue == "finished", "\(scenario): \(step.serialized)")
            #expect(object(step["outcome"])?["transStatus"]?.stringValue == "Y", "\(scenario): \(step.serialized)")
            let status = try await merchant.status(of: session.id)
            #expect(status["state"]?.stringValue == "finished", "\(scenario)")
        }
    }

    @Test("an HTML answer naming a field the page lacks is refused by the client before anything is sent")
    func htmlAnswerThatDoesNotFit() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let merchant = SplitMerchant(serverURL: fixture.running.baseURL, apiKey: SplitFixture.apiKey)
        let session = try await merchant.createSession(
            messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue)
        let client = SplitClient(serverURL: merchant.serverURL)
        _ = try await client.start(merchantToken: session.clientToken)
        let ares = try await fixture.authenticate(session: session.id, scenario: .html)
        let response = try ThreeDSServerClient.response(from: ares, messageVersion: .v2_3_1, requestorAppURL: nil)
        try await merchant.challenge(session.id, with: try #require(response.challengeParameters))
        _ = try await client.run()
        await #expect(throws: SplitClientError.self) {
            try await client.answer(scripted: .html(fields: ["pin": "1"], button: nil))
        }
        #expect(try await merchant.status(of: session.id)["state"]?.stringValue == "challenging")
    }

    @Test("the merchant's calls name the status and the server's reason when refused")
    func refusedMerchant() async throws {
        let fixture = try await SplitFixture.start()
        defer { Task { await fixture.stop() } }
        let wrong = SplitMerchant(serverURL: fixture.running.baseURL, apiKey: "not-the-key-0000000000")
        do {
            _ = try await wrong.createSession(messageVersion: .v2_3_1, directoryServerID: "F055545342")
            Issue.record("a wrong API key made a session")
        } catch let error as SplitClientError {
            #expect(error.description.hasPrefix("POST /merchant/v1/sessions: HTTP 401"), "\(error)")
        }
        let merchant = SplitMerchant(serverURL: fixture.running.baseURL, apiKey: SplitFixture.apiKey)
        do {
            _ = try await merchant.status(of: "no-such-session")
            Issue.record("an unknown session had a state")
        } catch let error as SplitClientError {
            #expect(error.description.contains("HTTP 404"), "\(error)")
        }
    }
}
