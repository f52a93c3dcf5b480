import Clocks
import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// A challenge scenario as the results tests play it: its card (or fault profile), the answers, and the RReq the
/// ACS must send (status, and the cancel code where one applies).
struct ResultsCase: Sendable, CustomStringConvertible {
    let name: String
    let scenario: Scenario
    let answers: [ScriptedAnswer]
    let status: TransactionStatus
    /// Whether a final CRes ends the challenge (its status must be the RReq's); `false` when an Erro ends it.
    let hasFinalCRes: Bool
    let cancel: @Sendable (MessageVersion) -> String?

    var description: String { name }

    static let all: [ResultsCase] = [
        ResultsCase(
            name: "text completed", scenario: .text, answers: [.text("123456")], status: .authenticated,
            hasFinalCRes: true, cancel: { _ in nil }),
        ResultsCase(
            name: "text failed", scenario: .text, answers: [.text("000000"), .text("111111"), .text("222222")],
            status: .notAuthenticated, hasFinalCRes: true, cancel: { _ in nil }),
        ResultsCase(
            name: "cancelled", scenario: .text, answers: [.cancel], status: .notAuthenticated, hasFinalCRes: true,
            cancel: { _ in "01" }),
        ResultsCase(
            name: "single select", scenario: .singleSelect, answers: [.select(["mail"])], status: .authenticated,
            hasFinalCRes: true, cancel: { _ in nil }),
        ResultsCase(
            name: "out of band", scenario: .outOfBand, answers: [.continue()], status: .authenticated,
            hasFinalCRes: true, cancel: { _ in nil }),
        ResultsCase(
            name: "HTML", scenario: .html, answers: [.html(fields: ["otp": "123456"], button: "Verify")],
            status: .authenticated, hasFinalCRes: true, cancel: { _ in nil }),
        // Ended by an Erro: no final CRes, so the RReq says U (the documented reason it differs from no CRes).
        ResultsCase(
            name: "ACS Erro", scenario: .faultErro, answers: [.text("123456")], status: .unableToAuthenticate,
            hasFinalCRes: false, cancel: { $0 == .v2_3_1 ? "10" : "06" }),
        ResultsCase(
            name: "SDK Erro", scenario: .faultBadTag, answers: [.text("123456")], status: .unableToAuthenticate,
            hasFinalCRes: false, cancel: { $0 == .v2_3_1 ? "09" : "06" }),
    ]
}

/// Waits (bounded, yielding) until the lab's 3DS Server has an RReq for the transaction: the SDK's Erro reaches the
/// ACS in its own request, which may land just after the challenge returns.
func awaitResult(_ lab: TestLab, sdkTransID: String) async -> TransactionResult? {
    for _ in 0..<2000 {
        if let result = lab.result(sdkTransID: sdkTransID), !result.exchanges.isEmpty { return result }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(5))
    }
    return lab.result(sdkTransID: sdkTransID)
}

@Suite("Results leg: one RReq per challenge through the lab's DS, validated and stored by its 3DS Server")
struct ResultsLegTests {
    @Test(
        "every challenge scenario sends exactly one RReq, accepted, whose status is the final CRes's",
        arguments: ["2.1.0", "2.2.0", "2.3.1"], ResultsCase.all)
    func oneResultPerChallenge(version: String, scenario: ResultsCase) async throws {
        let run = try await run(scenario.scenario, version: version, answers: scenario.answers)
        let messageVersion = try #require(MessageVersion(version))
        let record = try #require(run.record)
        let result = try #require(await awaitResult(run.lab, sdkTransID: run.parameters.sdkTransactionID))
        let acsRecord = try #require(
            await run.lab.acsRecord(acsTransID: record.requests.first?["acsTransID"]?.stringValue ?? ""))
        #expect(acsRecord.resultsRequests.count == 1, "exactly one RReq")
        #expect(
            result.exchanges.count == 1 && result.exchanges.first?.refusal == nil, "\(result.exchanges.map(\.refusal))")
        let request = try #require(result.accepted)
        #expect(request["transStatus"] == .string(scenario.status.rawValue))
        if scenario.hasFinalCRes {
            #expect(acsRecord.finalStatus == scenario.status.rawValue, "the RReq's status is the final CRes's")
        } else {
            #expect(acsRecord.finalStatus == nil, "no final CRes: the RReq reports the Erro instead")
        }
        #expect(request["challengeCancel"]?.stringValue == scenario.cancel(messageVersion))
        #expect((request["sdkTransID"] != nil) == messageVersion.resultsAreFrom2_2)
        #expect(request["interactionCounter"] != nil && request["acsRenderingType"] != nil)
        #expect(acsRecord.resultsAnswers.first?["resultsStatus"] == .string("01"))
        #expect(result.json["state"] == .string("final") && result.json["source"] == .string("RReq"))
        let byServerID = run.lab.result(
            threeDSServerTransID: run.authentication.json["threeDSServerTransID"]?.stringValue ?? "")
        #expect(byServerID?.transaction.identifiers.sdkTransID == run.parameters.sdkTransactionID)
    }

    @Test("the trust answer reaches the RReq: whiteListStatus in 2.2.0, trustListStatus in 2.3.1, source 03")
    func trustAnswer() async throws {
        for (version, field) in [("2.2.0", "whiteListStatus"), ("2.3.1", "trustListStatus")] {
            let run = try await run(.consents, version: version, answers: [.text("123456", whitelist: true)])
            let result = try #require(await awaitResult(run.lab, sdkTransID: run.parameters.sdkTransactionID))
            #expect(result.accepted?[field] == .string("Y") && result.accepted?[field + "Source"] == .string("03"))
        }
    }

    @Test("a frictionless transaction has its ARes as the result and no RReq")
    func frictionless() async throws {
        let run = try await run(.frictionlessA)
        let result = try #require(run.lab.result(sdkTransID: run.parameters.sdkTransactionID))
        #expect(result.exchanges.isEmpty && result.transStatus == .attempted)
        #expect(result.json["source"] == .string("ARes"))
    }
}

/// Pays with a fault profile's card and the right code; returns the lab's result and the ACS's record.
func runProfile(_ name: String, version: String) async throws -> (TransactionResult?, ACSRecord?, ChallengeOutcome) {
    let profile = try #require(ACSFaultProfile.all.first { $0.name == name })
    let lab = try await LabPool.shared.lab()
    let service = ThreeDS2Service()
    try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()))
    let transaction = try service.createTransaction(
        directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: version)
    let parameters = try transaction.getAuthenticationRequestParameters()
    let transport = try lab.makeTransport()
    let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
        parameters: parameters, purchase: Purchase(cardNumber: profile.cardNumber, amount: "100", currency: "978"))
    let challenge = try #require(response.challengeParameters)
    let outcome = try await transaction.challenge(
        challenge, presenter: ScriptedPresenter(answers: [.text("123456")]), timeout: .seconds(300),
        transport: transport)
    try await transport.shutdown()
    try service.cleanup()
    let result = await awaitResult(lab, sdkTransID: parameters.sdkTransactionID)
    return (result, await lab.acsRecord(acsTransID: challenge.acsTransactionID), outcome)
}

@Suite("Results leg fault profiles: what the lab's 3DS Server answers, per version")
struct ResultsFaultProfileTests {
    @Test(
        "results-missing-value: the Y RReq lacks authenticationValue; refused with 201, no result held",
        arguments: ["2.1.0", "2.2.0", "2.3.1"])
    func missingValue(version: String) async throws {
        let (result, record, outcome) = try await runProfile("results-missing-value", version: version)
        #expect(outcome == .completed(transStatus: .authenticated))
        #expect(result?.exchanges.first?.refusal?.code == .requiredElementMissing)
        #expect(result?.exchanges.first?.refusal?.field == "authenticationValue")
        #expect(result?.transStatus == nil && result?.json["state"] == .string("pending"))
        #expect(record?.resultsAnswers.first?["messageType"] == .string("Erro"))
        #expect(record?.resultsAnswers.first?["errorComponent"] == .string("S"))
    }

    @Test(
        "results-contradicting: the RReq says N after a final CRes Y; the 3DS Server accepts it (it cannot see the CRes)",
        arguments: ["2.1.0", "2.2.0", "2.3.1"])
    func contradicting(version: String) async throws {
        let (result, record, outcome) = try await runProfile("results-contradicting", version: version)
        #expect(outcome == .completed(transStatus: .authenticated) && record?.finalStatus == "Y")
        #expect(result?.transStatus == .notAuthenticated && result?.exchanges.count == 1)
    }

    @Test(
        "results-duplicate: a second RReq is refused, 312 in 2.3.1 and 301 before; the first stands",
        arguments: ["2.1.0", "2.2.0", "2.3.1"])
    func duplicate(version: String) async throws {
        let (result, record, _) = try await runProfile("results-duplicate", version: version)
        #expect(record?.resultsRequests.count == 2)
        let expected: ProtocolErrorCode = version == "2.3.1" ? .duplicateMessage : .transactionIDNotRecognised
        #expect(result?.exchanges.map(\.refusal?.code) == [nil, expected])
        #expect(result?.transStatus == .authenticated)
    }
}
