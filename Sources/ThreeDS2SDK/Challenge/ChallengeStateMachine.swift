import ThreeDS2JOSE
import ThreeDS2Messages

/// The CReq/CRes dialogue as a value type: events in, actions out, no I/O. The shell around it sends, waits and
/// presents; everything the protocol decides is decided here.
struct ChallengeStateMachine: Sendable {
    enum Phase: Sendable, Hashable {
        case notStarted
        case awaitingResponse
        case presenting
        case awaitingCancelResponse
        case finished
    }

    enum Event: Sendable, Hashable {
        /// Start the dialogue: send the first CReq.
        case start
        /// A message arrived: a decrypted CRes, or a plain Erro.
        case messageReceived(JSONObject)
        /// The response could not be read (decryption, framing): the violation found.
        case responseUnreadable(ProtocolViolation)
        /// The request could not be delivered or no HTTP response came back.
        case transportFailed(String)
        /// No CRes within 10 seconds of the CReq.
        case responseTimedOut
        /// The overall challenge timer expired.
        case overallTimedOut
        /// The cardholder answered the screen on show.
        case answered(ChallengeAnswer)
    }

    enum Action: Sendable, Hashable {
        /// Encrypt and send this CReq, then wait for the CRes.
        case send(JSONObject)
        /// Show this screen and wait for the cardholder.
        case present(ChallengeScreen)
        /// Post this Erro to the ACS (plain JSON).
        case sendError(ErrorMessage)
        /// End the challenge with this outcome.
        case finish(ChallengeOutcome)
    }

    /// The largest counter value: counters are three decimal digits and must not wrap.
    static let maxCounter = 255

    private(set) var phase: Phase = .notStarted
    private(set) var sdkCounter = 0
    private(set) var acsCounter = 0
    private var askedWhitelisting = false
    let builder: ChallengeRequestBuilder

    init(builder: ChallengeRequestBuilder) {
        self.builder = builder
    }

    private var identifiers: TransactionIdentifiers { builder.identifiers }

    mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.finished, _):
            return []
        case (.notStarted, .start):
            return send(answer: nil)
        case (.awaitingResponse, .messageReceived(let object)):
            return receive(object)
        case (.awaitingCancelResponse, .messageReceived), (.awaitingCancelResponse, .responseUnreadable),
            (.awaitingCancelResponse, .transportFailed), (.awaitingCancelResponse, .responseTimedOut):
            // Whatever the ACS says to a cancel, the cardholder cancelled.
            return finish(.cancelled)
        case (.awaitingResponse, .responseUnreadable(let violation)):
            return fail(violation, messageType: "CRes")
        case (.awaitingResponse, .transportFailed(let reason)):
            return finish(.runtimeError(code: "transport", message: reason))
        case (.awaitingResponse, .responseTimedOut):
            return timeout(detail: "Challenge request timed-out", messageType: "CReq")
        case (_, .overallTimedOut):
            return timeout(
                detail: "Timeout expiry reached for the transaction",
                messageType: phase == .presenting ? "CRes" : "CReq")
        case (.presenting, .answered(let answer)):
            return send(answer: answer)
        default:
            return []
        }
    }

    private mutating func send(answer: ChallengeAnswer?) -> [Action] {
        guard sdkCounter <= Self.maxCounter else {
            return finish(
                .runtimeError(
                    code: "counter", message: "sdkCounterStoA would wrap past 255; the challenge cannot go on"))
        }
        let request: JSONObject
        do {
            request = try builder.request(counter: sdkCounter, answer: answer, askedWhitelisting: askedWhitelisting)
        } catch {
            return finish(.runtimeError(code: "invalidEntry", message: error.explanation))
        }
        sdkCounter += 1
        phase = answer?.action == .cancel ? .awaitingCancelResponse : .awaitingResponse
        return [.send(request)]
    }

    private mutating func receive(_ object: JSONObject) -> [Action] {
        if object["messageType"] == .string("Erro") {
            do {
                return finish(.protocolError(try ErrorMessage(json: object)))
            } catch {
                return fail(error, messageType: "Erro")
            }
        }
        let expectation = ChallengeResponseExpectation(
            identifiers: identifiers, messageVersion: builder.messageVersion, acsCounter: acsCounter)
        let response: ChallengeResponse
        do {
            response = try ChallengeResponseValidator.validate(object, expecting: expectation)
        } catch {
            return fail(error, messageType: "CRes")
        }
        acsCounter += 1
        switch response {
        case .final(let status):
            return finish(.completed(transStatus: status))
        case .screen(let screen):
            guard acsCounter <= Self.maxCounter else {
                return finish(
                    .runtimeError(
                        code: "counter", message: "acsCounterAtoS would wrap past 255; the challenge cannot go on"))
            }
            askedWhitelisting = screen.whitelistingText != nil
            phase = .presenting
            return [.present(screen)]
        }
    }

    private mutating func fail(_ violation: ProtocolViolation, messageType: String) -> [Action] {
        let message = ErrorMessage(
            sdkViolation: violation, messageType: messageType, identifiers: identifiers,
            messageVersion: builder.messageVersion)
        return [.sendError(message)] + finish(.protocolError(message))
    }

    private mutating func timeout(detail: String, messageType: String) -> [Action] {
        let message = ErrorMessage(
            sdkViolation: ProtocolViolation(.transactionTimedOut, detail: detail), messageType: messageType,
            identifiers: identifiers,
            messageVersion: builder.messageVersion)
        return [.sendError(message)] + finish(.timedOut)
    }

    private mutating func finish(_ outcome: ChallengeOutcome) -> [Action] {
        phase = .finished
        return [.finish(outcome)]
    }
}
