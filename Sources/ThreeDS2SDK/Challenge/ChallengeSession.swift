import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages

/// The thin I/O shell around ``ChallengeStateMachine``: it performs each action — posts what the machine
/// encrypted, waits under the response and overall timers, presents screens — and feeds back what happened. It owns
/// its collaborators (presenter, transport, clock, logger) for the one challenge it runs.
///
/// One CReq is bounded by four timers. Two are the protocol's contract, measured on the session's clock (a test
/// clock in tests), and decide the outcome:
/// - the **response timer**, ``ChallengeStateMachine/responseTimeout`` (10 s, [Req 239]): from the moment a CReq goes
///   out until its CRes is in; on expiry the SDK sends Erro 402 "Challenge request timed-out" and the challenge ends
///   as timed out;
/// - the **overall timer**, the app's `timeout` (at least five minutes, the `doChallenge` timer): one absolute
///   deadline for the whole challenge, screens included; on expiry Erro 402 "Timeout expiry reached for the
///   transaction", timed out.
/// Whichever of the two ends first bounds an exchange. The other two are backstops on the wall clock, never the
/// reason for an outcome on their own:
/// - the **transport's deadline**, `TransportRequest.timeout`, set to the time the contract leaves: the adapter
///   gives up on the exchange by itself (``TransportRequest/withinDeadline(_:)``), so a connection the session has
///   stopped waiting for is not held open; should it fire first, it ends the challenge as the response timer does;
/// - the **Erro's bound** (5 s): an Erro is fire and forget, and the outcome waits at most this long for the ACS to
///   take it, on the session's clock as well as the transport's deadline, so a transport that ignores its deadline
///   cannot hold the outcome.
struct ChallengeSession<C: Clock> where C.Duration == Duration {
    let acsURL: URL
    var machine: ChallengeStateMachine
    let presenter: any ChallengePresenter
    let transport: any ChallengeTransport
    let clock: C
    let logger: Logger
    let emit: @Sendable (ClientEvent) -> Void
    /// The transaction's presentation with the presenter's overrides: every screen's form state is built from it.
    var presentation = PresentationSettings()
    /// Where the machine's trace goes when the challenge ends (tools only; ``ChallengeTrace``).
    var traceLog: (any ChallengeTraceLog)?
    /// The Split-SDK's client, when it holds the channel keys (the machine's channel end is then remote): it
    /// encrypts each CReq and decrypts each answer, under the same timers as the exchange.
    var remote: (any RemoteChallengeChannel)?

    static var requestContentType: String { "application/jose; charset=UTF-8" }
    static var errorContentType: String { "application/json; charset=UTF-8" }

    /// Runs the dialogue to its outcome.
    ///
    /// - Parameters:
    ///   - timeout: The overall timer.
    ///   - resuming: The first event for a machine restored from a remote checkpoint (``ChallengeStateMachine/restore(sdkCounter:acsCounter:bridging:)``);
    ///     `nil` starts the dialogue.
    mutating func run(timeout: Duration, resuming: ChallengeStateMachine.Event? = nil) async -> ChallengeOutcome {
        let deadline = clock.now.advanced(by: timeout)
        // Cancelled before anything was sent (during setup): the challenge ends as cancelled with no network at all.
        var pending = machine.handle(Task.isCancelled ? .appCancelled : resuming ?? .start)
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .send(let sent):
                pending += machine.handle(await send(sent, overallDeadline: deadline))
            case .present(let screen):
                if let remote, let response = machine.screenResponse {
                    await remote.checkpoint(
                        RemoteChallenge.Checkpoint(
                            sdkCounter: machine.sdkCounter, acsCounter: machine.acsCounter, response: response,
                            bridging: machine.builder.bridgingVersion, deadline: clock.now.duration(to: deadline)))
                }
                pending += machine.handle(await present(screen, until: deadline))
            case .sendError(let post):
                await postError(post)
            case .decrypt(let body):
                pending += machine.handle(await opened(body, overallDeadline: deadline))
            case .finish(let outcome):
                if let trace = machine.trace { traceLog?.record(trace) }
                emit(.challengeFinished(sdkTransactionID: machine.identifiers.sdkTransID, outcome: outcome))
                return outcome
            }
        }
        // The machine ends every path with `.finish`; reaching this line would be a bug in it, reported, not crashed on.
        return .runtimeError(ChallengeFailure(.internalError, "the challenge ended without an outcome"))
    }

    /// Posts one CReq and waits for its answer under the earlier of the response and overall timers; returns what
    /// happened, as the machine's event.
    private func send(
        _ sent: ChallengeStateMachine.SentRequest, overallDeadline deadline: C.Instant
    ) async -> ChallengeStateMachine.Event {
        emit(.challengeRequestSent(sdkTransactionID: machine.identifiers.sdkTransID, counter: sent.counter))
        logger.debug("CReq sent", metadata: ["sdkCounterStoA": "\(sent.counter)"])
        let responseDeadline = clock.now.advanced(by: sent.responseTimeout)
        let overallFirst = deadline < responseDeadline
        let timerEnd = overallFirst ? deadline : responseDeadline
        let body: [UInt8]
        switch await sealed(sent, until: timerEnd) {
        // The remote client gave no CReq (its instance no longer runs the session): nothing is posted.
        case .finished(let sealed) where sealed.isEmpty && remote != nil: return .appCancelled
        case .finished(let sealed): body = sealed
        case .timedOut: return overallFirst ? .overallTimedOut : .responseTimedOut
        case .cancelled: return .appCancelled
        }
        let request = TransportRequest(
            method: .post, url: acsURL, contentType: Self.requestContentType, body: body,
            timeout: clock.now.duration(to: timerEnd), maxResponseBytes: ChallengeStateMachine.maxResponseBytes)
        let result: Race.Result<Result<TransportResponse, TransportError>>
        if Task.isCancelled, !sent.isCancel {
            // The app cancelled before an ordinary CReq went out: it is not sent at all.
            result = .cancelled
        } else if Task.isCancelled {
            // The app cancelled while a screen was up: the ACS is told with a cancel CReq and its final CRes is
            // awaited, as after a cardholder's cancel (protocol reference §4: "CReq challengeCancel=01, then wait for
            // the final CRes"), under the same timers. The challenge's own task is cancelled, so the exchange runs in
            // a task of its own. Whatever comes back, the outcome is cancelled.
            let (transport, clock) = (self.transport, self.clock)
            let cancelExchange = Task { await Self.exchange(request, over: transport, until: timerEnd, on: clock) }
            result = await cancelExchange.value
        } else {
            result = await Self.exchange(request, over: transport, until: timerEnd, on: clock)
        }
        switch result {
        case .timedOut: return overallFirst ? .overallTimedOut : .responseTimedOut
        case .cancelled: return .appCancelled
        case .finished(.failure(let error)): return .transportFailed(error)
        case .finished(.success(let response)):
            emit(.challengeResponseReceived(sdkTransactionID: machine.identifiers.sdkTransID))
            return .responseReceived(response)
        }
    }

    /// The CReq's body: the machine's JWE in process; the remote client's, raced against the exchange's timers.
    private func sealed(_ sent: ChallengeStateMachine.SentRequest, until end: C.Instant) async -> Race.Result<[UInt8]> {
        guard let remote else { return .finished(sent.body) }
        let request = RemoteChallengeRequest(
            counter: sent.counter, request: sent.request, fill: sent.fill, isCancel: sent.isCancel)
        if sent.isCancel, Task.isCancelled {
            // The app's cancel is still told to the ACS (as in `send`): the client encrypts it, raced in a task of
            // its own, since the challenge's task is cancelled.
            let clock = self.clock
            return await Task { await Race.first(clock: clock, until: end) { await remote.encrypt(request) } }.value
        }
        return await Race.first(clock: clock, until: end) { await remote.encrypt(request) }
    }

    /// Remote channel: the client decrypts an answer of the ACS, within the response timer (counted again from now)
    /// and the overall timer; returns what it read, as the machine's event.
    private func opened(_ body: [UInt8], overallDeadline deadline: C.Instant) async -> ChallengeStateMachine.Event {
        guard let remote else {
            return .transportFailed(TransportError(.other, "no remote channel for an encrypted answer"))
        }
        let responseDeadline = clock.now.advanced(by: ChallengeStateMachine.responseTimeout)
        let overallFirst = deadline < responseDeadline
        let result = await Race.first(clock: clock, until: overallFirst ? deadline : responseDeadline) {
            await remote.decrypt(body)
        }
        switch result {
        case .timedOut: return overallFirst ? .overallTimedOut : .responseTimedOut
        case .cancelled: return .appCancelled
        case .finished(.message(let object)): return .messageReceived(object)
        case .finished(.undecryptable(let detail)):
            return .responseUnreadable(ConformanceFinding.channel(JOSEError(.decryptionFailed, detail)).violation())
        case .finished(.notJSON):
            return .responseUnreadable(ConformanceFinding.payload(nil).violation())
        }
    }

    /// Shows a screen until the cardholder answers or the overall timer ends; returns what happened, as the
    /// machine's event.
    private func present(_ screen: ChallengeScreen, until deadline: C.Instant) async -> ChallengeStateMachine.Event {
        let form = presentation.formState(for: screen)
        emit(.challengeScreenShown(sdkTransactionID: machine.identifiers.sdkTransID, uiType: screen.uiType))
        let presenter = self.presenter
        let result = await Race.first(clock: clock, until: deadline) {
            await presenter.present(form)
        }
        switch result {
        case .timedOut: return .overallTimedOut
        case .cancelled: return .appCancelled
        case .finished(let answer): return .answered(answer)
        }
    }

    /// Posts an Erro, fire and forget, bounded by the Erro's bound the action carries **on the session's clock**:
    /// the transport gets the same deadline, but the outcome never waits on a transport that ignores it (one that
    /// never returns included).
    private func postError(_ post: ChallengeStateMachine.ErrorPost) async {
        logger.debug(
            "Erro sent",
            metadata: ["errorCode": "\(post.message.errorCode)", "errorDetail": "\(post.message.errorDetail)"])
        let (transport, acsURL, timeout) = (self.transport, self.acsURL, post.timeout)
        let body = post.message.json.serializedBytes
        // The post starts first, in a task of its own (an app's cancel does not stop it); the outcome then waits for
        // it at most the bound, on the session's clock.
        let posting = Task { () -> TransportError? in
            do throws(TransportError) {
                _ = try await transport.post(
                    url: acsURL, body: body, contentType: Self.errorContentType, timeout: timeout)
                return nil
            } catch {
                return error
            }
        }
        let waited = await Race.first(clock: clock, until: clock.now.advanced(by: timeout)) { await posting.value }
        if case .timedOut = waited { posting.cancel() }
        let failure: (code: String, reason: String)?
        switch waited {
        case .finished(nil): failure = nil
        case .finished(let error?): failure = ("\(error.code)", error.message)
        case .timedOut: failure = ("timedOut", "no answer within the Erro's bound of \(post.timeout)")
        case .cancelled: failure = ("cancelled", "the challenge was cancelled before the ACS took the Erro")
        }
        // Logged, not thrown: the challenge's outcome is already decided. The Erro's code and the transport's
        // failure only, never the Erro's body or anything the ACS answered.
        if let failure {
            logger.notice(
                "Erro could not be sent",
                metadata: [
                    "errorCode": "\(post.message.errorCode)", "transportError": "\(failure.code)",
                    "reason": "\(failure.reason)",
                ])
        }
    }

    /// One CReq and its answer, raced against the earlier of the two contract timers.
    private static func exchange(
        _ request: TransportRequest, over transport: any ChallengeTransport, until end: C.Instant, on clock: C
    ) async -> Race.Result<Result<TransportResponse, TransportError>> {
        await Race.first(clock: clock, until: end) { () -> Result<TransportResponse, TransportError> in
            do throws(TransportError) {
                return .success(try await transport.send(request))
            } catch {
                return .failure(error)
            }
        }
    }
}
