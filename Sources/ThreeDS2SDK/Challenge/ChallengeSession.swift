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

    static let requestContentType = "application/jose; charset=UTF-8"
    static let errorContentType = "application/json; charset=UTF-8"

    mutating func run<C: Clock>(
        presenter: any ChallengePresenter, transport: any ChallengeTransport, timeout: Duration, clock: C,
        logger: Logger
    ) async -> ChallengeOutcome where C.Duration == Duration {
        let deadline = clock.now.advanced(by: timeout)
        let acsURL = self.acsURL
        var pending = machine.handle(.start)
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
                let result = await Self.race(clock: clock, until: timerEnd) {
                    () -> Result<TransportResponse, TransportError> in
                    do throws(TransportError) {
                        return .success(try await transport.send(request))
                    } catch {
                        return .failure(error)
                    }
                }
                let event: ChallengeStateMachine.Event
                switch result {
                case .timedOut: event = overallFirst ? .overallTimedOut : .responseTimedOut
                case .finished(.failure(let error)): event = .transportFailed(error)
                case .finished(.success(let response)):
                    emit(.challengeResponseReceived)
                    event = .responseReceived(response)
                }
                pending += machine.handle(event)
            case .present(let screen):
                let result = await Self.race(clock: clock, until: deadline) { await presenter.present(screen) }
                switch result {
                case .timedOut: pending += machine.handle(.overallTimedOut)
                case .finished(let answer): pending += machine.handle(.answered(answer))
                }
            case .sendError(let message):
                logger.notice(
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

    enum RaceResult<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }

    /// Runs `operation` against a timer on `clock` that ends at `deadline`; whichever ends first wins and the other is
    /// cancelled. The deadline is absolute, so time spent before the timer starts is never added to it.
    static func race<C: Clock, T: Sendable>(
        clock: C, until deadline: C.Instant, _ operation: @escaping @Sendable () async -> T
    ) async -> RaceResult<T> {
        guard clock.now < deadline else { return .timedOut }
        return await withTaskGroup(of: RaceResult<T>.self) { group in
            group.addTask { .finished(await operation()) }
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
    }
}
