import Clocks
import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// Advances a test clock until the lab's 3DS Server holds an RReq for the transaction (the ACS's timer task may not
/// sleep yet when the first advance comes); bounded.
private func advanceUntilResult(_ clock: TestClock<Duration>, by step: Duration, lab: TestLab, sdkTransID: String)
    async -> TransactionResult?
{
    for _ in 0..<500 {
        await clock.advance(by: step)
        if let result = lab.result(sdkTransID: sdkTransID), !result.exchanges.isEmpty { return result }
        await Task.yield()
    }
    return nil
}

@Suite("Results leg: the two ACS behaviours after a bank's-app decision, and the ACS's timeout")
struct ResultsTimingTests {
    @Test("behaviour A (on-approval): the bank's approval sends a Y RReq at once, before any CReq")
    func onApproval() async throws {
        let lab = try await TestLab.start(options: TestLabOptions(resultsTiming: .onApproval))
        let (service, _, challenge, transport) = try await prepare(.outOfBand, lab: lab)
        let sdkTransID = try #require(
            lab.result(threeDSServerTransID: challenge.threeDSServerTransactionID)?.transaction.identifiers.sdkTransID)
        #expect(lab.result(sdkTransID: sdkTransID)?.json["state"] == .string("pending"))
        #expect(await lab.decideOutOfBand(sdkTransID: sdkTransID, approved: true) == .recorded(resultsSent: true))
        let result = try #require(lab.result(sdkTransID: sdkTransID))
        #expect(result.transStatus == .authenticated && result.exchanges.count == 1)
        #expect(result.accepted?["authenticationValue"]?.stringValue?.count == 28)
        #expect(result.accepted?["authenticationType"] == .string("03"), "out of band (2.2.0)")
        #expect(await lab.decideOutOfBand(sdkTransID: sdkTransID, approved: true) == .alreadyFinished)
        try await transport.shutdown()
        try service.cleanup()
        await lab.stop()
    }

    @Test("behaviour B (after the final CReq): the approval sends nothing; the ACS's timeout sends a U RReq (05)")
    func afterFinalRequestTimesOut() async throws {
        let clock = TestClock()
        let lab = try await TestLab.start(options: TestLabOptions(acsTimeout: .seconds(60), clock: clock))
        let (service, _, challenge, transport) = try await prepare(.outOfBand, lab: lab)
        let sdkTransID = try #require(
            lab.result(threeDSServerTransID: challenge.threeDSServerTransactionID)?.transaction.identifiers.sdkTransID)
        #expect(await lab.decideOutOfBand(sdkTransID: sdkTransID, approved: true) == .recorded(resultsSent: false))
        #expect(lab.result(sdkTransID: sdkTransID)?.exchanges.isEmpty == true)
        let result = try #require(
            await advanceUntilResult(clock, by: .seconds(60), lab: lab, sdkTransID: sdkTransID))
        #expect(result.exchanges.count == 1 && result.transStatus == .unableToAuthenticate)
        #expect(
            result.accepted?["challengeCancel"] == .string("05")
                && result.accepted?["transStatusReason"] == .string("14"))
        try await transport.shutdown()
        try service.cleanup()
        await lab.stop()
    }

    @Test("the lab's endpoints: GET /3ds/result by either ID, POST /acs/oob-decision, their errors")
    func endpoints() async throws {
        let lab = try await TestLab.start(options: TestLabOptions(resultsTiming: .onApproval))
        let (service, _, challenge, transport) = try await prepare(.outOfBand, lab: lab)
        let sdkTransID = try #require(
            lab.result(threeDSServerTransID: challenge.threeDSServerTransactionID)?.transaction.identifiers.sdkTransID)
        func call(_ method: TransportRequest.Method, _ path: String) async throws -> (Int, JSONObject) {
            let url = try #require(URL(string: lab.baseURL.absoluteString + path))
            let response = try await transport.send(
                TransportRequest(method: method, url: url, timeout: .seconds(30), maxResponseBytes: 1 << 20))
            return (response.status, try JSONParser().parse(response.body).objectValue ?? [:])
        }
        #expect(try await call(.get, "/3ds/result?sdkTransID=\(sdkTransID)").1["state"] == .string("pending"))
        let (status, decided) = try await call(.post, "/acs/oob-decision?sdkTransID=\(sdkTransID)&decision=approve")
        #expect(status == 200 && decided["resultsRequestSent"] == .bool(true))
        let (_, byServer) = try await call(
            .get, "/3ds/result?threeDSServerTransID=\(challenge.threeDSServerTransactionID)")
        #expect(byServer["state"] == .string("final") && byServer["transStatus"] == .string("Y"))
        #expect(byServer["sdkTransID"] == .string(sdkTransID) && byServer["eci"] == .string("05"))
        #expect(try await call(.get, "/3ds/result?sdkTransID=00000000-0000-4000-8000-000000000000").0 == 404)
        #expect(try await call(.get, "/3ds/result").0 == 400)
        #expect(try await call(.post, "/acs/oob-decision?sdkTransID=\(sdkTransID)").0 == 409)
        #expect(try await call(.post, "/acs/oob-decision?sdkTransID=\(sdkTransID)&decision=maybe").0 == 400)
        try await transport.shutdown()
        try service.cleanup()
        await lab.stop()
    }
}
