import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages

/// The thin I/O shell around ``ChallengeStateMachine``: it performs each action — posts what the machine
/// encrypted, waits under the response and overall timers, presents screens — and feeds back what happened.
struct ChallengeSession {
    let acsURL: URL
    var machine: ChallengeStateMachine
    let emit: @Sendable (ClientEvent) -> Void
    /// What `initialize` got for the screens, handed to the presenter with each screen.
    var settings = PresentationSettings()

    static let requestContentType = "application/jose; charset=UTF-8"
    static let errorContentType = "application/json; charset=UTF-8"

    mutating func run<C: Clock>(
        presenter: any ChallengePresenter, transport: any ChallengeTransport, timeout: Duration, clock: C,
        logger: Logger
    ) async -> ChallengeOutcome where C.Duration == Duration {
        let deadline = clock.now.advanced(by: timeout)
        let acsURL = self.acsURL
        // Cancelled before anything was sent (during setup): the challenge ends as cancelled with no network at all.
        var pending = machine.handle(Task.isCancelled ? .appCancelled : .start)
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .send(let sent):
                emit(.challengeRequestSent(counter: sent.counter))
                logger.debug("CReq sent", metadata: ["sdkCounterStoA": "\(sent.counter)"])
                let responseDeadline = clock.now.advanced(by: sent.responseTimeout)
                let overallFirst = deadline < responseDeadline
                let timerEnd = overallFirst ? deadline : responseDeadline
                let request = TransportRequest(
                    method: .post, url: acsURL, contentType: Self.requestContentType, body: sent.body,
                    timeout: clock.now.duration(to: timerEnd),
                    maxResponseBytes: ChallengeStateMachine.maxResponseBytes)
                let result: Race.Result<Result<TransportResponse, TransportError>>
                if Task.isCancelled, sent.request["challengeCancel"] == nil {
                    // The app cancelled before an ordinary CReq went out: it is not sent at all.
                    result = .cancelled
                } else if Task.isCancelled {
                    // The app cancelled: the CReq (a cancel) still goes out, in a task of its own, bounded by its
                    // deadline; its answer is not awaited.
                    let post = Task { try? await transport.send(request) }
                    _ = await post.value
                    result = .cancelled
                } else {
                    result = await Race.first(clock: clock, until: timerEnd) {
                        () -> Result<TransportResponse, TransportError> in
                        do throws(TransportError) {
                            return .success(try await transport.send(request))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                let event: ChallengeStateMachine.Event
                switch result {
                case .timedOut: event = overallFirst ? .overallTimedOut : .responseTimedOut
                case .cancelled: event = .appCancelled
                case .finished(.failure(let error)): event = .transportFailed(error)
                case .finished(.success(let response)):
                    emit(.challengeResponseReceived)
                    event = .responseReceived(response)
                }
                pending += machine.handle(event)
            case .present(let screen):
                let settings = self.settings
                let result = await Race.first(clock: clock, until: deadline) {
                    await presenter.present(screen, settings: settings)
                }
                switch result {
                case .timedOut: pending += machine.handle(.overallTimedOut)
                case .cancelled: pending += machine.handle(.appCancelled)
                case .finished(let answer): pending += machine.handle(.answered(answer))
                }
            case .sendError(let message):
                logger.debug(
                    "Erro sent",
                    metadata: ["errorCode": "\(message.errorCode)", "errorDetail": "\(message.errorDetail)"])
                // Fire and forget, but bounded by the transport's own (wall-clock) deadline: the outcome waits at
                // most this long for the ACS to take it, and a test clock racing ahead cannot cancel it before it is
                // sent.
                _ = try? await transport.post(
                    url: acsURL, body: message.json.serializedBytes, contentType: Self.errorContentType,
                    timeout: .seconds(5))
            case .finish(let outcome):
                return outcome
            }
        }
        // The machine ends every path with `.finish`; reaching this line would be a bug in it, reported, not crashed on.
        return .runtimeError(ChallengeFailure(.internalError, "the challenge ended without an outcome"))
    }
}
