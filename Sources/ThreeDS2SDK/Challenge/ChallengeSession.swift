import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages

/// The thin I/O shell around ``ChallengeStateMachine``: it encrypts and posts what the machine wants sent, waits
/// with the 10-second and overall timers, and presents screens.
struct ChallengeSession {
    let acsURL: URL
    var channel: SecureChannel
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
            let action = pending.removeFirst()
            switch action {
            case .send(let request):
                let counter = machine.sdkCounter - 1
                let body: [UInt8]
                do {
                    body = try channel.encrypt(request, counter: counter)
                } catch {
                    return .runtimeError(code: "encryption", message: "the CReq could not be encrypted: \(error)")
                }
                emit(.challengeRequestSent(counter: counter))
                logger.debug("CReq sent", metadata: ["sdkCounterStoA": "\(counter)"])
                let responseDeadline = clock.now.advanced(by: Transaction.responseTimeout)
                let overallFirst = deadline < responseDeadline
                let timerEnd = overallFirst ? deadline : responseDeadline
                let limit = clock.now.duration(to: timerEnd)
                let result = await Self.race(clock: clock, until: timerEnd) {
                    () -> Result<TransportResponse, TransportError> in
                    do {
                        return .success(
                            try await transport.post(
                                url: acsURL, body: body, contentType: Self.requestContentType,
                                timeout: limit))
                    } catch let error as TransportError {
                        return .failure(error)
                    } catch {
                        return .failure(TransportError("\(error)"))
                    }
                }
                let event: ChallengeStateMachine.Event
                switch result {
                case .timedOut: event = overallFirst ? .overallTimedOut : .responseTimedOut
                case .finished(.failure(let error)): event = .transportFailed(error.description)
                case .finished(.success(let response)): event = interpret(response)
                }
                if case .messageReceived = event { emit(.challengeResponseReceived) }
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
                // Fire and forget, but bounded by the transport's own (wall-clock) timeout: the outcome waits at most
                // this long for the ACS to take it, and a test clock racing ahead cannot cancel it before it is sent.
                _ = try? await transport.post(
                    url: acsURL, body: message.json.serializedBytes, contentType: Self.errorContentType,
                    timeout: .seconds(5))
            case .finish(let outcome):
                return outcome
            }
        }
        return .runtimeError(code: "internal", message: "the challenge ended without an outcome")
    }

    /// Turns an HTTP response into a machine event. A JSON body may only be an Erro (any status: some ACSs send an
    /// Erro with HTTP 500); anything else must be a JWE that decrypts under the channel keys. A plaintext CRes is
    /// never accepted.
    private mutating func interpret(_ response: TransportResponse) -> ChallengeStateMachine.Event {
        let firstByte = response.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let isJSON = response.contentType?.lowercased().contains("json") == true || firstByte == UInt8(ascii: "{")
        if isJSON {
            guard
                case .object(let object)? = try? JSONParser(limits: .init(maxBytes: 64 * 1024, maxDepth: 8)).parse(
                    response.body)
            else {
                return (200..<300).contains(response.status)
                    ? .responseUnreadable(
                        ProtocolViolation(
                            .messageReceivedInvalid, detail: "Invalid Formatted Message",
                            explanation: "the response is not a JSON object"))
                    : .transportFailed("HTTP \(response.status) from the ACS")
            }
            guard object["messageType"] == .string("Erro") else {
                return .responseUnreadable(
                    ProtocolViolation(
                        .decryptionFailure, detail: "Data Decryption Failure",
                        explanation: "the ACS answered in plaintext; only an Erro may be unencrypted"))
            }
            return .messageReceived(object)
        }
        guard (200..<300).contains(response.status) else {
            return .transportFailed("HTTP \(response.status) from the ACS")
        }
        do {
            return .messageReceived(try channel.decrypt(response.body))
        } catch {
            return .responseUnreadable(error)
        }
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
