import Clocks
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab
import ThreeDS2TestSupport

/// A presenter a test can wait on until its first screen is shown.
protocol WaitingPresenter: ChallengePresenter {
    func waitUntilPresented() async throws
}

/// A presenter that never answers until cancelled; it records that a screen reached it.
final class SilentPresenter: WaitingPresenter, Sendable {
    let presented = Locked(false)

    /// Waits (in real time, bounded) until the first screen is on show.
    func waitUntilPresented() async throws {
        for _ in 0..<2000 where !presented.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(presented.withLock { $0 }, "no screen was presented within 10 s")
    }

    func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        presented.withLock { $0 = true }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        return ChallengeAnswer(.cancel)
    }
}

/// A presenter that never returns, even when cancelled (a careless custom presenter, or a UI blocked elsewhere). It
/// is released when the test ends.
final class StuckPresenter: WaitingPresenter, Sendable {
    private let waiting = Locked<CheckedContinuation<Void, Never>?>(nil)
    let presented = Locked(false)

    func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            presented.withLock { $0 = true }
        }
        return ChallengeAnswer(.submitText("123456"))
    }

    func waitUntilPresented() async throws {
        for _ in 0..<2000 where !presented.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(presented.withLock { $0 }, "no screen was presented within 10 s")
    }

    func release() { waiting.withLock { $0 }?.resume() }
}

/// A transport that fails every request.
struct BrokenTransport: ChallengeTransport {
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        throw TransportError(.connectionFailed, "connection refused (test)")
    }
}

/// Records the callbacks a receiver gets.
final class RecordingReceiver: ChallengeStatusReceiver, Sendable {
    let calls = Locked<[String]>([])
    func completed(_ event: CompletionEvent) { calls.withLock { $0.append("completed:\(event.transactionStatus)") } }
    func cancelled() { calls.withLock { $0.append("cancelled") } }
    func timedout() { calls.withLock { $0.append("timedout") } }
    func protocolError(_ event: ProtocolErrorEvent) {
        calls.withLock { $0.append("protocolError:\(event.errorMessage.errorCode)") }
    }
    func runtimeError(_ event: RuntimeErrorEvent) { calls.withLock { $0.append("runtimeError:\(event.errorCode)") } }
}

/// Prepares a transaction and its ARes against a lab.
func prepare(_ scenario: Scenario, lab: TestLab, configure: (inout ConfigParameters) throws -> Void = { _ in })
    async throws
    -> (ThreeDS2Service, Transaction, ChallengeParameters, HTTPClientTransport)
{
    let service = ThreeDS2Service()
    var config = try lab.sdkConfiguration(dataDirectory: temporaryDirectory())
    try configure(&config)
    try service.initialize(configParameters: config)
    let transaction = try service.createTransaction(
        directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
    let transport = try lab.makeTransport()
    let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
        parameters: try transaction.getAuthenticationRequestParameters(),
        purchase: Purchase(cardNumber: scenario.cardNumber, amount: "100", currency: "978"))
    return (service, transaction, try #require(response.challengeParameters), transport)
}

/// Advances a test clock in steps until `task` finishes (bounded).
func drive<T: Sendable>(_ clock: TestClock<Duration>, step: Duration, _ task: Task<T, any Error>) async throws -> T {
    let done = Locked(false)
    let watcher = Task {
        let value = try await task.value
        done.withLock { $0 = true }
        return value
    }
    for _ in 0..<2000 where !done.withLock({ $0 }) {
        await clock.advance(by: step)
        try await Task.sleep(for: .milliseconds(5))
    }
    return try await watcher.value
}

@Suite("Timers, failures and the receiver", .loadGate(alone: false))
struct TimerAndFailureTests {
    @Test("no CRes within 10 s: Erro 402 for the CReq, outcome timed out (test clock, no waiting)")
    func responseTimeout() async throws {
        // The ACS answers after 6 s of real time; the SDK's 10 s run on the test clock, so it times out long before,
        // even on a busy machine.
        let lab = try await LabPool.shared.lab(TestLabOptions(slowResponseDelay: .seconds(6)))
        let (_, transaction, parameters, transport) = try await prepare(.faultSlow, lab: lab)
        let clock = TestClock()
        let started = ContinuousClock.now
        let task = Task {
            try await transaction.challenge(
                parameters, presenter: ScriptedPresenter(answers: []), timeout: .seconds(300), transport: transport,
                clock: clock)
        }
        let outcome = try await drive(clock, step: .seconds(1), task)
        #expect(outcome == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(6))
        try await Task.sleep(for: .seconds(6.5))  // let the slow ACS finish its sleep, so its record is complete
        let record = try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID))
        let erro = try #require(record.errors.first)
        #expect(
            erro["errorCode"] == .string("402") && erro["errorMessageType"] == .string("CReq")
                && erro["errorComponent"] == .string("C"))
        try await transport.shutdown()
    }

    /// Runs a text challenge on a test clock until the overall timer ends it, with `presenter` on screen. The clock
    /// moves only once the first CRes is shown: moving it while the first CReq is in flight would (rightly) fire the
    /// 10-second response timer instead of the overall one.
    private func runToOverallTimeout(_ presenter: some WaitingPresenter) async throws
        -> (outcome: ChallengeOutcome, lab: TestLab, acsTransID: String)
    {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let clock = TestClock()
        let task = Task {
            try await transaction.challenge(
                parameters, presenter: presenter, timeout: .seconds(300), transport: transport, clock: clock)
        }
        try await presenter.waitUntilPresented()
        let outcome = try await drive(clock, step: .seconds(20), task)
        try await transport.shutdown()
        return (outcome, lab, parameters.acsTransactionID)
    }

    @Test("the overall timer expires while the cardholder does nothing: Erro 402, timed out")
    func overallTimeout() async throws {
        let (outcome, lab, acsTransID) = try await runToOverallTimeout(SilentPresenter())
        #expect(outcome == .timedOut)
        let record = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(record.requests.count == 1)
        #expect(record.errors.first?["errorCode"] == .string("402"))
        #expect(record.errors.first?["errorDetail"] == .string("Timeout expiry reached for the transaction"))
    }

    @Test("a presenter that ignores cancellation cannot hold the challenge: the overall timer ends it, once")
    func stuckPresenter() async throws {
        let presenter = StuckPresenter()
        let (outcome, lab, acsTransID) = try await runToOverallTimeout(presenter)
        #expect(outcome == .timedOut)
        presenter.release()
        try await Task.sleep(for: .milliseconds(200))
        let record = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(record.errors.count == 1 && record.errors.first?["errorCode"] == .string("402"))
        #expect(record.requests.count == 1, "the late answer was never sent")
    }

    @Test("the app cancelling the challenge's task ends it as cancelled; the ACS is told with challengeCancel 01")
    func appCancellation() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let presenter = SilentPresenter()
        let task = Task {
            try await transaction.challenge(
                parameters, presenter: presenter, timeout: .seconds(300), transport: transport)
        }
        try await presenter.waitUntilPresented()
        task.cancel()
        #expect(try await task.value == .cancelled)
        let record = try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID))
        #expect(record.requests.last?["challengeCancel"] == .string("01") && record.errors.isEmpty)
        try await transport.shutdown()
    }

    @Test("closing the transaction during the challenge ends it as cancelled; a second challenge is refused")
    func closeAndSecondChallenge() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let presenter = SilentPresenter()
        let receiver = RecordingReceiver()
        try transaction.doChallenge(
            challengeParameters: parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
            presenter: presenter, transport: transport)
        do {
            try transaction.doChallenge(
                challengeParameters: parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
                presenter: presenter, transport: transport)
            Issue.record("a second challenge on the same transaction was accepted")
        } catch {
            #expect(error.code == .runtime && error.message.contains("one challenge"))
        }
        try await presenter.waitUntilPresented()
        transaction.close()
        for _ in 0..<2000 where receiver.calls.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(receiver.calls.withLock { $0 } == ["cancelled"])
        try await transport.shutdown()
    }

    @Test("a timeout under five minutes is invalid input; IDs must be UUIDs")
    func parameterValidation() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        await #expect(throws: ThreeDS2Error.self) {
            try await transaction.challenge(
                parameters, presenter: ScriptedPresenter(answers: []), timeout: .seconds(299), transport: transport)
        }
        var bad = parameters
        bad.acsTransactionID = "not-a-uuid"
        do {
            _ = try await transaction.challenge(
                bad, presenter: ScriptedPresenter(answers: []), timeout: .seconds(300), transport: transport)
            Issue.record("a bad acsTransactionID was accepted")
        } catch {
            #expect(error.code == .invalidInput && error.message.contains("acsTransactionID"))
        }
        let record = try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID))
        #expect(record.requests.isEmpty)
        try await transport.shutdown()
    }

    @Test("signed content that fails verification: runtime error and no CReq at all")
    func signedContentFailure() async throws {
        let lab = try await LabPool.shared.lab()
        let other = try LabPKI.make()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab) { config in
            // The right encryption key, but another PKI's root: the x5c chain cannot be trusted.
            try config.removeParam(group: "ds:\(TestLab.rsaDirectoryServerID)", name: "rootCertificates")
            try config.addParam(
                group: "ds:\(TestLab.rsaDirectoryServerID)", name: "rootCertificates",
                value: try other.dsRoot.certificatePEM)
        }
        let outcome = try await transaction.challenge(
            parameters, presenter: ScriptedPresenter(answers: [.text("123456")]), transport: transport)
        guard case .runtimeError(let failure) = outcome else {
            Issue.record("expected a runtime error, got \(outcome)"); return
        }
        // A sentence for a person: the chain's problem in words, never the JOSE code's name.
        #expect(failure.code == .signedContent && failure.message.contains("does not lead to a trusted root"))
        #expect(!failure.message.contains("untrustedCertificateChain"), "\(failure.message)")
        #expect(try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID)).requests.isEmpty)
        #expect(transaction.isClosed)
        try await transport.shutdown()
    }

    @Test("a tampered signed content is refused before any CReq")
    func tamperedSignedContent() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        var tampered = parameters
        var parts = parameters.acsSignedContent.split(separator: ".").map(String.init)
        var payload = try Base64.urlDecode(parts[1])
        payload[10] ^= 0x01
        parts[1] = Base64.urlEncode(payload)
        tampered.acsSignedContent = parts.joined(separator: ".")
        let outcome = try await transaction.challenge(
            tampered, presenter: ScriptedPresenter(answers: []), transport: transport)
        #expect(outcome.name == "runtimeError")
        #expect(try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID)).requests.isEmpty)
        try await transport.shutdown()
    }

    @Test("a transport failure is a runtime error")
    func transportFailure() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let outcome = try await transaction.challenge(
            parameters, presenter: ScriptedPresenter(answers: []), transport: BrokenTransport())
        #expect(outcome == .runtimeError(ChallengeFailure(.transport, "connection refused (test)")))
        guard case .runtimeError(let failure) = outcome else { return }
        #expect(failure.transportCode == .connectionFailed)
        try await transport.shutdown()
    }

    @Test("plain http to the ACS is refused unless the configuration allows loopback http")
    func plainHTTP() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions(useTLS: false))
        let (_, refused, parameters, transport) = try await prepare(.text, lab: lab) {
            $0.allowsPlainHTTPLoopback = false
        }
        let outcome = try await refused.challenge(
            parameters, presenter: ScriptedPresenter(answers: []), transport: transport)
        #expect(outcome.name == "runtimeError")
        let (_, allowed, allowedParameters, transport2) = try await prepare(.text, lab: lab)
        #expect(
            try await allowed.challenge(
                allowedParameters, presenter: ScriptedPresenter(answers: [.text("123456")]), transport: transport2)
                == .completed(transStatus: .authenticated))
        try await transport.shutdown()
        try await transport2.shutdown()
    }

    @Test("doChallenge calls the receiver exactly once")
    func receiverOnce() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let receiver = RecordingReceiver()
        let presenter = ScriptedPresenter(answers: [.text("000000"), .text("123456")])
        try transaction.doChallenge(
            challengeParameters: parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
            presenter: presenter, transport: transport)
        for _ in 0..<500 where receiver.calls.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(receiver.calls.withLock { $0 } == ["completed:Y"])
        #expect(throws: ThreeDS2Error.self) {
            try transaction.doChallenge(
                challengeParameters: parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
                presenter: presenter, transport: transport)
        }
        try await transport.shutdown()
    }
}

@Suite("Challenge images")
struct ImageTests {
    @Test("https only, bounded in size, fetched once per transaction")
    func loading() async throws {
        let lab = try await LabPool.shared.lab()
        let transport = try lab.makeTransport()
        let loader = ChallengeImageLoader(transport: transport)
        let base = lab.baseURL.absoluteString + "/images/"
        let issuer = ImageReference(url: base + "issuer-high.png", alternativeText: "issuer")
        let first = try #require(await loader.image(for: issuer))
        #expect(first.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(await loader.image(for: issuer) == first && loader.cachedCount == 1)
        #expect(await loader.image(for: ImageReference(url: base + "large.png", alternativeText: "big")) == nil)
        #expect(await loader.image(for: ImageReference(url: base + "missing.png", alternativeText: "none")) == nil)
        #expect(
            await loader.image(for: ImageReference(url: "http://127.0.0.1:1/x.png", alternativeText: "plain")) == nil)
        #expect(loader.cachedCount == 1)
        try await transport.shutdown()
    }
}
