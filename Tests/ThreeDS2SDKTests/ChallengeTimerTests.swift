import Clocks
import Foundation
import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

/// Never returns from a screen, even when cancelled (a careless custom presenter), until the test releases it.
final class StuckPresenter: ChallengePresenter {
    let presented = AsyncSignal()
    let released = AsyncSignal()

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        presented.fire()
        await released.wait()
        return ChallengeAnswer(.submitText("123456"))
    }
}

/// A transaction ready to challenge, against a scripted ACS: no server, no network.
struct ScriptedChallenge {
    static let pki = Result { try DirectoryServerPKI.make() }

    let service: ThreeDS2Service
    let transaction: Transaction
    let acs: ScriptedACS
    let parameters: ChallengeParameters

    /// A transaction whose SDK trusts `trusted` (the ACS always signs under ``pki``).
    init(trusted: DirectoryServerPKI? = nil) throws {
        let pki = try trusted ?? Self.pki.get()
        service = try pki.initializedService(dataDirectory: scratchDirectory("timers"))
        transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
        acs = ScriptedACS(pki: try Self.pki.get())
        parameters = try acs.challengeParameters(for: try transaction.getAuthenticationRequestParameters())
    }

    /// A transport whose ACS shows a code screen to CReq 000, answers later CReqs with `later`, and takes Erros.
    func transport(later: @escaping @Sendable (JSONObject) async -> ScriptedTransport.Reply = { _ in .hang })
        -> ScriptedTransport
    {
        let acs = self.acs
        return ScriptedTransport { request in
            if acs.errorMessage(in: request) != nil {
                return .respond(TransportResponse(status: 200, contentType: nil, body: []))
            }
            guard let creq = try? acs.challengeRequest(in: request) else {
                return .fail(TransportError(.other, "not a CReq of this challenge"))
            }
            if creq["sdkCounterStoA"] == .string("000") {
                guard let screen = try? acs.challengeResponse(showing: ScriptedACS.textScreen(for: .v2_2_0)) else {
                    return .fail(TransportError(.other, "the CRes could not be made"))
                }
                return .respond(screen)
            }
            return await later(creq)
        }
    }

    /// Starts the challenge in a task of its own, with the minimum overall timeout (five minutes) on `clock`.
    func start(presenter: any ChallengePresenter, transport: ScriptedTransport, clock: TestClock<Duration>)
        -> Task<ChallengeOutcome, any Error>
    {
        Task {
            try await transaction.challenge(
                parameters, presenter: presenter, timeout: .seconds(300), transport: transport, clock: clock)
        }
    }

    /// Starts the challenge with an ``IdlePresenter`` on a test clock and returns once its first screen is shown.
    func onScreen(transport: ScriptedTransport) async -> (Task<ChallengeOutcome, any Error>, TestClock<Duration>) {
        let presenter = IdlePresenter()
        let clock = TestClock()
        let task = start(presenter: presenter, transport: transport, clock: clock)
        await presenter.presented.wait()
        return (task, clock)
    }

    func final(_ status: String) -> ScriptedTransport.Reply {
        guard let response = try? acs.finalResponse(transactionStatus: status) else {
            return .fail(TransportError(.other, "the final CRes could not be made"))
        }
        return .respond(response)
    }
}

@Suite("Challenge timers and cancellation (test clock, scripted ACS, no real waiting)", .timeLimit(.minutes(5)))
struct ChallengeTimerTests {
    @Test("no CRes within 10 s: Erro 402 for the CReq, outcome timed out")
    func responseTimeout() async throws {
        let challenge = try ScriptedChallenge()
        let acs = challenge.acs
        let transport = ScriptedTransport { request in
            acs.errorMessage(in: request) != nil
                ? .respond(TransportResponse(status: 200, contentType: nil, body: [])) : .hang
        }
        let clock = TestClock()
        let task = challenge.start(presenter: ScriptedPresenter(answers: []), transport: transport, clock: clock)
        let creq = try acs.challengeRequest(in: await transport.log.request(at: 0))
        #expect(creq["sdkCounterStoA"] == .string("000"))
        await clock.advance(by: .seconds(9))
        #expect(transport.log.requests.count == 1, "an Erro went out before the 10 s were up")
        await clock.advance(by: .seconds(1) + .milliseconds(1))
        #expect(try await task.value == .timedOut)
        let last = try #require(transport.log.requests.last)
        let erro = try #require(acs.errorMessage(in: last))
        #expect(erro["errorCode"] == .string("402") && erro["errorComponent"] == .string("C"))
        #expect(erro["errorMessageType"] == .string("CReq"))
        #expect(erro["errorDetail"] == .string("Challenge request timed-out"))
        #expect(transport.log.requests.count == 2)
    }

    @Test("the overall timer expires while the cardholder does nothing: Erro 402, timed out")
    func overallTimeout() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport()
        let (task, clock) = await challenge.onScreen(transport: transport)
        await clock.advance(by: .seconds(299))
        #expect(transport.log.requests.count == 1, "something was sent before the overall timer ended")
        await clock.advance(by: .seconds(1) + .milliseconds(1))
        #expect(try await task.value == .timedOut)
        #expect(transport.log.requests.count == 2)
        let last = try #require(transport.log.requests.last)
        let erro = try #require(challenge.acs.errorMessage(in: last))
        #expect(erro["errorCode"] == .string("402"))
        #expect(erro["errorDetail"] == .string("Timeout expiry reached for the transaction"))
    }

    @Test("a presenter that ignores cancellation cannot hold the challenge: the overall timer ends it, once")
    func stuckPresenter() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport { _ in .fail(TransportError(.other, "a late answer was sent")) }
        let presenter = StuckPresenter()
        let clock = TestClock()
        let task = challenge.start(presenter: presenter, transport: transport, clock: clock)
        await presenter.presented.wait()
        await clock.advance(by: .seconds(300) + .milliseconds(1))
        #expect(try await task.value == .timedOut)
        presenter.released.fire()
        for _ in 0..<100 { await Task.yield() }
        let sent = transport.log.requests
        #expect(sent.count == 2, "the late answer was sent, or the Erro was not")
        let last = try #require(sent.last)
        #expect(challenge.acs.errorMessage(in: last)?["errorCode"] == .string("402"))
    }

    @Test("the app cancelling during a screen sends challengeCancel 01 and waits for the ACS's final CRes")
    func appCancellationAwaitsFinalResponse() async throws {
        let challenge = try ScriptedChallenge()
        let answer = AsyncSignal()
        let transport = challenge.transport { _ in
            await answer.wait()
            return challenge.final("N")
        }
        let (task, _) = await challenge.onScreen(transport: transport)
        let finished = AsyncSignal()
        let outcome = Task {
            let outcome = try await task.value
            finished.fire()
            return outcome
        }
        task.cancel()
        let cancel = try challenge.acs.challengeRequest(in: await transport.log.request(at: 1))
        #expect(cancel["challengeCancel"] == .string("01") && cancel["sdkCounterStoA"] == .string("001"))
        // The ACS has not answered yet: the challenge is still waiting for its final CRes.
        #expect(!finished.fired, "the outcome came before the ACS answered the cancel")
        answer.fire()
        #expect(try await outcome.value == .cancelled)
        #expect(transport.log.requests.count == 2, "an Erro was sent after a cancel")
    }

    @Test("the app cancelling with an ACS that never answers the cancel: the response timer ends the wait")
    func appCancellationSilentACS() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport()
        let (task, clock) = await challenge.onScreen(transport: transport)
        task.cancel()
        _ = await transport.log.request(at: 1)
        await clock.advance(by: .seconds(10) + .milliseconds(1))
        #expect(try await task.value == .cancelled)
        #expect(transport.log.requests.count == 2, "an Erro was sent after a cancel")
    }

    @Test("closing the transaction during the challenge ends it as cancelled; a second challenge is refused")
    func closeAndSecondChallenge() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport { _ in challenge.final("N") }
        let presenter = IdlePresenter()
        let receiver = RecordingStatusReceiver()
        try challenge.transaction.doChallenge(
            challengeParameters: challenge.parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
            presenter: presenter, transport: transport)
        do {
            try challenge.transaction.doChallenge(
                challengeParameters: challenge.parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
                presenter: presenter, transport: transport)
            Issue.record("a second challenge on the same transaction was accepted")
        } catch {
            #expect(error.code == .runtime && error.message.contains("one challenge"))
        }
        await presenter.presented.wait()
        challenge.transaction.close()
        await receiver.received.wait()
        #expect(receiver.outcomes == [.cancelled])
    }

    @Test("doChallenge calls the receiver exactly once")
    func receiverOnce() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport { creq in
            challenge.final(creq["challengeDataEntry"] == .string("123456") ? "Y" : "N")
        }
        let receiver = RecordingStatusReceiver()
        let presenter = ScriptedPresenter(answers: [.text("123456")])
        try challenge.transaction.doChallenge(
            challengeParameters: challenge.parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
            presenter: presenter, transport: transport)
        await receiver.received.wait()
        for _ in 0..<100 { await Task.yield() }
        #expect(receiver.outcomes == [.completed(transStatus: .authenticated)])
        #expect(throws: ThreeDS2Error.self) {
            try challenge.transaction.doChallenge(
                challengeParameters: challenge.parameters, challengeStatusReceiver: receiver, timeout: .seconds(300),
                presenter: presenter, transport: transport)
        }
    }

    @Test("a timeout under five minutes is invalid input; IDs must be UUIDs; nothing is sent")
    func parameterValidation() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport()
        await #expect(throws: ThreeDS2Error.self) {
            try await challenge.transaction.challenge(
                challenge.parameters, presenter: ScriptedPresenter(answers: []), timeout: .seconds(299),
                transport: transport)
        }
        var bad = challenge.parameters
        bad.acsTransactionID = "not-a-uuid"
        do {
            _ = try await challenge.transaction.challenge(
                bad, presenter: ScriptedPresenter(answers: []), timeout: .seconds(300), transport: transport)
            Issue.record("a bad acsTransactionID was accepted")
        } catch {
            #expect(error.code == .invalidInput && error.message.contains("acsTransactionID"))
        }
        #expect(transport.log.requests.isEmpty)
    }

    @Test("signed content under another PKI: runtime error in words, no CReq at all, the transaction closed")
    func signedContentFailure() async throws {
        let challenge = try ScriptedChallenge(trusted: try DirectoryServerPKI.make(name: "Other DS"))
        let transport = challenge.transport()
        let outcome = try await challenge.transaction.challenge(
            challenge.parameters, presenter: ScriptedPresenter(answers: [.text("123456")]), transport: transport)
        guard case .runtimeError(let failure) = outcome else {
            Issue.record("expected a runtime error, got \(outcome)")
            return
        }
        // A sentence for a person: the chain's problem in words, never the JOSE code's name.
        #expect(failure.code == .signedContent && failure.message.contains("does not lead to a trusted root"))
        #expect(!failure.message.contains("untrustedCertificateChain"), "\(failure.message)")
        #expect(transport.log.requests.isEmpty)
        #expect(challenge.transaction.isClosed)
    }

    @Test("a tampered signed content is refused before any CReq")
    func tamperedSignedContent() async throws {
        let challenge = try ScriptedChallenge()
        let transport = challenge.transport()
        var tampered = challenge.parameters
        var parts = tampered.acsSignedContent.split(separator: ".").map(String.init)
        var payload = try Base64.urlDecode(parts[1])
        payload[10] ^= 0x01
        parts[1] = Base64.urlEncode(payload)
        tampered.acsSignedContent = parts.joined(separator: ".")
        let outcome = try await challenge.transaction.challenge(
            tampered, presenter: ScriptedPresenter(answers: []), transport: transport)
        #expect(outcome.name == "runtimeError")
        #expect(transport.log.requests.isEmpty)
    }

    @Test("a transport failure is a runtime error with the transport's code")
    func transportFailure() async throws {
        let challenge = try ScriptedChallenge()
        let transport = FailingTransport()
        let outcome = try await challenge.transaction.challenge(
            challenge.parameters, presenter: ScriptedPresenter(answers: []), transport: transport)
        #expect(outcome == .runtimeError(ChallengeFailure(.transport, "connection refused (test)")))
        #expect(transport.log.requests.count == 1)
        guard case .runtimeError(let failure) = outcome else { return }
        #expect(failure.transportCode == .connectionFailed)
    }
}
