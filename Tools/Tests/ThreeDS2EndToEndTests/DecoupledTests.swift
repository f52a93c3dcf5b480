import Clocks
import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// The decoupled card: its AReq through the SDK to a lab on a test clock; the ARes and what the lab recorded of it.
private struct DecoupledRun {
    let lab: TestLab
    let response: AuthenticationResponse
    let ares: JSONObject
    let sdkTransID: String

    static func start(version: String, clock: TestClock<Duration>) async throws -> DecoupledRun {
        let lab = try await TestLab.start(options: TestLabOptions(clock: clock, decoupledApproval: .seconds(30)))
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()))
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: version)
        defer { transaction.close() }
        let parameters = try transaction.getAuthenticationRequestParameters()
        let transport = try lab.makeTransport()
        let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
            parameters: parameters,
            purchase: Purchase(cardNumber: Scenario.decoupled.cardNumber, amount: "100", currency: "978"))
        try await transport.shutdown()
        let ares = lab.authentications.last { $0.request["sdkTransID"] == .string(parameters.sdkTransactionID) }
        return DecoupledRun(
            lab: lab, response: response, ares: ares?.response ?? [:], sdkTransID: parameters.sdkTransactionID)
    }

    /// Advances the clock a second at a time until the 3DS Server holds an RReq (the ACS's approval task may not sleep
    /// yet at the first advance); bounded.
    func advanceUntilResult(_ clock: TestClock<Duration>) async -> TransactionResult? {
        for _ in 0..<200 {
            await clock.advance(by: .seconds(1))
            if let result = lab.result(sdkTransID: sdkTransID), !result.exchanges.isEmpty { return result }
            await Task.yield()
        }
        return nil
    }
}

@Suite("Decoupled authentication: ARes D, no challenge, the bank's app decides, one RReq says so")
struct DecoupledTests {
    @Test(
        "2.2.0 and 2.3.1: ARes D with acsDecConInd Y; nothing until the bank's app approves; then one decoupled Y RReq",
        arguments: ["2.2.0", "2.3.1"])
    func approvedOnItsOwn(version: String) async throws {
        let clock = TestClock()
        let run = try await DecoupledRun.start(version: version, clock: clock)
        #expect(run.response.transStatus == .decoupled && run.response.challengeParameters == nil)
        #expect(run.ares["acsDecConInd"] == .string("Y"))
        #expect(run.ares["cardholderInfo"]?.stringValue?.contains("bank's app") == true)
        #expect(run.ares["acsSignedContent"] == nil && run.ares["acsRenderingType"] == nil)
        // Before the approval: the result is pending, no RReq.
        #expect(run.lab.result(sdkTransID: run.sdkTransID)?.json["state"] == .string("pending"))
        await clock.advance(by: .seconds(29))
        #expect(run.lab.result(sdkTransID: run.sdkTransID)?.exchanges.isEmpty == true)
        let result = try #require(await run.advanceUntilResult(clock))
        #expect(result.exchanges.count == 1 && result.exchanges.first?.refusal == nil)
        #expect(result.transStatus == .authenticated)
        let request = try #require(result.accepted)
        #expect(request["authenticationValue"]?.stringValue?.isEmpty == false && request["eci"] != nil)
        #expect(request["interactionCounter"] == nil && request["acsRenderingType"] == nil, "decoupled: no screen")
        if version == "2.3.1" {
            #expect(request["authenticationMethod"] == .array([.string("12")]), "\(request)")
        } else {
            #expect(request["authenticationType"] == .string("04"), "\(request)")
        }
        // The bank's app cannot decide twice.
        #expect(await run.lab.decideOutOfBand(sdkTransID: run.sdkTransID, approved: false) == .alreadyFinished)
        await run.lab.stop()
    }

    @Test("a decline through the decision endpoint before the approval: one N RReq, decoupled, with its reason")
    func declined() async throws {
        let clock = TestClock()
        let run = try await DecoupledRun.start(version: "2.2.0", clock: clock)
        #expect(
            await run.lab.decideOutOfBand(sdkTransID: run.sdkTransID, approved: false) == .recorded(resultsSent: true))
        let result = try #require(run.lab.result(sdkTransID: run.sdkTransID))
        #expect(result.transStatus == .notAuthenticated && result.exchanges.count == 1)
        #expect(result.accepted?["transStatusReason"] == .string("01"))
        #expect(
            result.accepted?["authenticationType"] == .string("04") && result.accepted?["authenticationValue"] == nil)
        // The approval timer no longer sends anything.
        await clock.advance(by: .seconds(60))
        #expect(run.lab.result(sdkTransID: run.sdkTransID)?.exchanges.count == 1)
        await run.lab.stop()
    }

    @Test("2.1.0 has no decoupled authentication: the card is the text challenge there")
    func textChallengeIn210() async throws {
        let run = try await DecoupledRun.start(version: "2.1.0", clock: TestClock())
        #expect(run.response.transStatus == .challengeRequired && run.response.challengeParameters != nil)
        #expect(run.ares["acsDecConInd"] == nil)
        #expect(Scenario.decoupled.expectedOutcome(in: .v2_1_0) == .completed(.authenticated))
        #expect(Scenario.decoupled.expectedOutcome(in: .v2_2_0) == .decoupled(.authenticated))
        await run.lab.stop()
    }
}
