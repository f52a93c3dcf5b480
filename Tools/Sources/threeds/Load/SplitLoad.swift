import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// `threeds load --split-server`: each payment of the run goes through a Split-SDK Server, the tools playing its two
/// other parties: the merchant's backend (a session with the API key, the AReq parameters to the 3DS Server, the
/// ARes's challenge handed over) and the client (``SplitClient``: the channel keys, each CReq filled from `--answers`
/// and encrypted, each CRes decrypted). The same phases are timed as for the Default-SDK, into the same histograms.
struct SplitLoadPayment: Sendable {
    let merchant: SplitMerchant
    let directoryServerID: String
    let messageVersion: MessageVersion
    let purchase: Purchase
    let script: [ScriptedAnswer]
    let requestor: Requestor
    let resultExec: String?
    let transport: HTTPClientTransport
    let recorder: LoadRecorder

    /// How long the results leg waits for the 3DS Server's result after a challenge.
    static let resultWait: Duration = .seconds(5)

    /// One payment; a failure of a call is that payment's runtime error, as `load` counts it.
    func run() async -> PaymentResult {
        do {
            return try await pay()
        } catch {
            return PaymentResult(
                flow: .none, outcome: .runtimeError, sdkTransID: "", runtimeError: ("split", "\(error)"))
        }
    }

    private func pay() async throws -> PaymentResult {
        let session = try await merchant.createSession(
            messageVersion: messageVersion, directoryServerID: directoryServerID)
        let client = SplitClient(serverURL: merchant.serverURL)
        let started = try await client.start(merchantToken: session.clientToken)
        guard started.status == 200 else {
            throw SplitClientError("the client's start: HTTP \(started.status) (\(started.json["error"] ?? .null))")
        }
        var body = try await merchant.authenticationRequestParameters(of: session.id)
        for member in purchase.fields.members { body[member.name] = member.value }
        let sdkTransID = body["sdkTransID"]?.stringValue ?? ""
        let clock = ContinuousClock()
        let asked = clock.now
        let response = try await askThreeDSServer(body)
        recorder.observe(.server, asked.duration(to: clock.now))
        guard let challenge = response.challengeParameters else {
            var result = PaymentResult(
                flow: .frictionless, outcome: .frictionless, transStatus: response.transStatus, sdkTransID: sdkTransID)
            if result.hasResultsLeg { await askResult(into: &result) }
            return result
        }
        let challenged = clock.now
        try await merchant.challenge(session.id, with: challenge)
        var result = try await answerScreens(of: client, sdkTransID: sdkTransID)
        recorder.observe(.challenge, challenged.duration(to: clock.now))
        await askResult(into: &result)
        return result
    }

    /// Follows the client to each screen and answers it from the script, timing each answer until the next step, to
    /// the `finished` step; a screen the script has no answer for is cancelled, as the scripted presenter does.
    private func answerScreens(of client: SplitClient, sdkTransID: String) async throws -> PaymentResult {
        let clock = ContinuousClock()
        var step = try await client.run()
        var remaining = script[...]
        var cancelReason: String?
        while step["step"]?.stringValue == "present" {
            let answer: ScriptedAnswer
            if let next = remaining.popFirst() {
                answer = next
            } else {
                answer = .cancel
                cancelReason = "the answers ran out"
            }
            let answered = clock.now
            step = try await client.answer(scripted: answer)
            recorder.observe(.exchange, answered.duration(to: clock.now))
        }
        guard step["step"]?.stringValue == "finished", case .object(let outcome)? = step["outcome"] else {
            throw SplitClientError("the client ended at a step it cannot answer: \(step["step"] ?? .null)")
        }
        var result = Self.result(of: outcome, sdkTransID: sdkTransID)
        if result.outcome == .cancelled { result.cancelReason = cancelReason }
        return result
    }

    /// The outcome the server's `finished` step reports, as a load report counts it.
    static func result(of outcome: JSONObject, sdkTransID: String) -> PaymentResult {
        var result = PaymentResult(flow: .challenge, outcome: .runtimeError, sdkTransID: sdkTransID)
        switch outcome["kind"]?.stringValue {
        case "completed":
            let status = outcome["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:))
            result.outcome = .completed
            result.transStatus = status
            result.challengeOutcome = status.map { .completed(transStatus: $0) }
        case "cancelled":
            result.outcome = .cancelled
            result.challengeOutcome = .cancelled
        case "timedOut":
            result.outcome = .timedOut
            result.challengeOutcome = .timedOut
        case "protocolError":
            result.outcome = .protocolError
            result.reportedErrorCode = outcome["errorCode"]?.stringValue.map(ProtocolErrorCode.init(rawValue:))
        default:
            result.runtimeError = ("split", "the Split-SDK Server reported a runtime error")
        }
        return result
    }

    /// The AReq (the server's parameters and the purchase) to the 3DS Server or the tester's command.
    private func askThreeDSServer(_ body: JSONObject) async throws -> AuthenticationResponse {
        switch requestor {
        case .server(let url):
            return try await ThreeDSServerClient(serverURL: url, transport: transport).authenticate(
                body: body, messageVersion: messageVersion)
        case .exec(let command, let timeLimit):
            return try await RequestorExec(command: command, timeLimit: timeLimit).authenticate(
                body, messageVersion: messageVersion, requestorAppURL: nil)
        }
    }

    private func askResult(into result: inout PaymentResult) async {
        await PayFlow.askResult(
            into: &result, requestor: requestor, resultExec: resultExec, transport: transport, observer: recorder,
            wait: Self.resultWait)
    }
}
