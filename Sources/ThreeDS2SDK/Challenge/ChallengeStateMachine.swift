import ThreeDS2JOSE
import ThreeDS2Messages

/// The CReq/CRes dialogue as a value type: events in, actions out, no I/O. Every protocol decision is made here,
/// including how an HTTP response is read (Erro, CRes, or neither) and the encryption of each CReq under the
/// channel keys; the shell around it (``ChallengeSession``) only sends, waits and presents what the actions say.
struct ChallengeStateMachine: Sendable {
    enum Phase: Sendable, Hashable {
        case notStarted
        case awaitingResponse
        case presenting
        case awaitingCancelResponse
        case finished
    }

    enum Event: Sendable {
        /// Start the dialogue: send the first CReq.
        case start
        /// An HTTP response to the last CReq arrived.
        case responseReceived(TransportResponse)
        /// A message was read from a response: a decrypted CRes, or a plain Erro.
        case messageReceived(JSONObject)
        /// A response came back but could not be read (decryption, framing): the violation found.
        case responseUnreadable(ProtocolViolation)
        /// No usable HTTP response came back.
        case transportFailed(TransportError)
        /// No CRes within the exchange bound of the CReq.
        case responseTimedOut
        /// The overall challenge timer expired.
        case overallTimedOut
        /// The cardholder answered the screen on show.
        case answered(ChallengeAnswer)
        /// The app cancelled the challenge (its task was cancelled, or the transaction closed).
        case appCancelled
    }

    enum Action: Sendable, Hashable {
        /// Post this encrypted CReq (the plaintext is kept for logs and tests) and wait for the answer until the
        /// response timer or the overall timer ends, whichever is first.
        case send(SentRequest)
        /// Show this screen and wait for the cardholder until the overall timer ends.
        case present(ChallengeScreen)
        /// Post this Erro to the ACS (plain JSON), waiting at most its bound for the ACS to take it; nothing else is
        /// awaited.
        case sendError(ErrorPost)
        /// End the challenge with this outcome.
        case finish(ChallengeOutcome)
        /// Remote channel only: have the client decrypt this answer of the ACS (a compact JWE) and feed back what it
        /// read (``Event/messageReceived(_:)``) or why it could not (``Event/responseUnreadable(_:)``), under the
        /// same timers as the exchange.
        case decrypt([UInt8])
    }

    /// Which end holds the channel keys: this process (the Default-SDK's ``SecureChannel``), or the Split-SDK's
    /// client, which fills the entries into each CReq, encrypts it and decrypts each answer (``RemoteChallengeChannel``).
    enum ChannelEnd: Sendable {
        case inProcess(SecureChannel)
        case remote
    }

    /// Everything the shell needs to post one CReq.
    struct SentRequest: Sendable, Hashable {
        /// The CReq as sent (before encryption).
        let request: JSONObject
        /// `sdkCounterStoA` of this CReq.
        let counter: Int
        /// The compact JWE to post.
        let body: [UInt8]
        /// How long the ACS has to answer this CReq.
        let responseTimeout: Duration
        /// Whether this CReq cancels the challenge (`challengeCancel`): one the app's cancel sends is still posted,
        /// where an ordinary CReq is not.
        let isCancel: Bool
        /// Remote channel only: the members the client fills in (entries never leave the client), and the `body` is
        /// empty: the client encrypts ``request`` with them.
        var fill: [RemoteFill] = []
    }

    /// Everything the shell needs to post one Erro.
    struct ErrorPost: Sendable, Hashable {
        /// The Erro.
        let message: ErrorMessage
        /// The Erro's bound: how long the outcome waits for the ACS to take it (fire and forget, but bounded), on the
        /// session's clock from the moment the post starts, and given to the transport as its wall-clock deadline.
        let timeout: Duration
    }

    /// The largest counter value: counters are three decimal digits and must not wrap.
    static let maxCounter = 255
    /// How long the ACS has to answer each CReq.
    static let responseTimeout: Duration = .seconds(10)
    /// How long the outcome waits for the ACS to take an Erro.
    static let errorPostTimeout: Duration = .seconds(5)
    /// The largest CRes accepted, as received (the compact JWE, before decryption). 2.3.1 allows `acsHTML` of
    /// 300,000 characters of base64url (Table A.1; 2.2.0 about 100 KB), about 400 KB once encrypted and encoded again,
    /// so the bound is 512 KB, not the 64 KB first asked for.
    static let maxResponseBytes = 512 * 1024

    private(set) var phase: Phase = .notStarted
    private(set) var sdkCounter = 0
    private(set) var acsCounter = 0
    /// The screen on show (or last shown): the next CReq answers it.
    private var screen: ChallengeScreen?
    /// Remote channel only: the CRes (as validated) the screen on show was built from, for a Split-SDK Server's
    /// checkpoint (``RemoteChallenge/Checkpoint``).
    private(set) var screenResponse: JSONObject?
    private(set) var builder: ChallengeRequestBuilder
    private let channel: ChannelEnd
    /// What the AReq's `deviceRenderOptions` announced (every UI type of the version until the session sets them): a
    /// screen of a UI type they leave out is refused with Erro 203 (`acsUiType`).
    var renderOptions: DeviceRenderOptions
    /// The record of the exchanges for the tools (``ChallengeTrace``), kept only when they asked for it.
    var trace: ChallengeTrace?
    /// What an impossible event does besides being ignored: stop a debug build (`assertionFailure`, a no-op in
    /// release builds). Tests record the call instead, so the stop is checked on every compiler (exit tests, which
    /// watch the real stop, need Swift 6.2); it receives the event's name, never its payload.
    var onImpossibleEvent: @Sendable (String) -> Void = { message in assertionFailure(message) }

    init(builder: ChallengeRequestBuilder, channel: SecureChannel) {
        self.init(builder: builder, end: .inProcess(channel))
    }

    init(builder: ChallengeRequestBuilder, end: ChannelEnd) {
        self.builder = builder
        self.channel = end
        renderOptions = .all(for: builder.messageVersion)
    }

    var identifiers: TransactionIdentifiers { builder.identifiers }

    /// Puts a new machine where a remote challenge's checkpoint left another one: a CReq with `sdkCounter - 1` sent
    /// and its answer awaited, `acsCounter` answers read before it, the Bridging version adopted. The next event is
    /// that answer (the checkpoint's CRes, validated again) or its loss (``Event/responseTimedOut``).
    mutating func restore(sdkCounter: Int, acsCounter: Int, bridging: Bridging.Version?) {
        guard phase == .notStarted else { return }
        self.sdkCounter = sdkCounter
        self.acsCounter = acsCounter
        if builder.announcesBridging {
            builder.adoptBridging(Bridging.Received(version: bridging, appURL: nil, appLabel: nil))
        }
        phase = .awaitingResponse
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch phase {
        case .finished:
            return impossible(event)
        case .notStarted:
            switch event {
            case .start: return send(answer: nil)
            case .overallTimedOut: return finish(.timedOut)
            case .appCancelled: return finish(.cancelled)
            // Nothing was sent and nothing shown.
            case .responseReceived, .messageReceived, .responseUnreadable, .transportFailed, .responseTimedOut,
                .answered:
                return impossible(event)
            }
        case .awaitingResponse:
            switch event {
            case .responseReceived(let response):
                // The remote channel's client decrypts; everything else is read here, as in process.
                if case .remote = channel, (200..<300).contains(response.status),
                    case .encrypted = ChallengeChannelBody(response.body)
                {
                    return [.decrypt(response.body)]
                }
                let event = interpret(response)
                return handle(event)
            case .messageReceived(let object): return receive(object)
            case .responseUnreadable(let violation): return fail(violation, messageType: .challengeResponse)
            case .transportFailed(let error) where error.code == .responseTooLarge:
                // An answer over the bound is the ACS's failure, like any other unusable CRes.
                return fail(
                    ProtocolViolation(
                        .messageReceivedInvalid, detail: "CRes",
                        explanation: "the ACS answered with more than \(Self.maxResponseBytes) bytes"),
                    messageType: .challengeResponse)
            case .transportFailed(let error) where error.code == .timedOut:
                // The transport's own deadline is the exchange bound too: the same outcome as the timer.
                return timeout(detail: "Challenge request timed-out", messageType: .challengeRequest)
            case .transportFailed(let error):
                return finish(.runtimeError(ChallengeFailure(.transport, error.message, underlying: error)))
            case .responseTimedOut:
                return timeout(detail: "Challenge request timed-out", messageType: .challengeRequest)
            case .overallTimedOut:
                return timeout(detail: "Timeout expiry reached for the transaction", messageType: .challengeRequest)
            // A CReq is outstanding: its answer no longer matters.
            case .appCancelled: return finish(.cancelled)
            case .start, .answered: return impossible(event)
            }
        case .presenting:
            switch event {
            case .answered(let answer): return send(answer: answer)
            // The ACS is told, as for a cardholder's cancel, and its final CRes awaited under the same timers.
            case .appCancelled: return send(answer: ChallengeAnswer(.cancel))
            case .overallTimedOut:
                return timeout(detail: "Timeout expiry reached for the transaction", messageType: .challengeResponse)
            // No CReq is outstanding while a screen is up.
            case .start, .responseReceived, .messageReceived, .responseUnreadable, .transportFailed,
                .responseTimedOut:
                return impossible(event)
            }
        case .awaitingCancelResponse:
            switch event {
            // Whatever the ACS says to a cancel, or if it says nothing, the cardholder cancelled. The tools' trace
            // still records the answer, read as any other.
            case .responseReceived(let response) where trace != nil:
                if case .messageReceived(let object) = interpret(response) { traceRead(object) }
                return finish(.cancelled)
            case .responseReceived, .messageReceived, .responseUnreadable, .transportFailed, .responseTimedOut,
                .overallTimedOut, .appCancelled:
                return finish(.cancelled)
            case .start, .answered: return impossible(event)
            }
        }
    }

    /// An event the phase cannot receive: the session feeds exactly one event for each action it carried out (the
    /// outcome of the CReq it sent, or of the screen it showed) and stops at `.finish`, so this is a bug in the
    /// session. Debug builds stop on it; release builds ignore the event and keep the phase.
    private func impossible(_ event: Event) -> [Action] {
        onImpossibleEvent("challenge state machine: \(Self.name(of: event)) cannot arrive in phase \(phase)")
        return []
    }

    /// An event's name, without its payload (which may hold challenge data).
    static func name(of event: Event) -> String {
        switch event {
        case .start: "start"
        case .responseReceived: "responseReceived"
        case .messageReceived: "messageReceived"
        case .responseUnreadable: "responseUnreadable"
        case .transportFailed: "transportFailed"
        case .responseTimedOut: "responseTimedOut"
        case .overallTimedOut: "overallTimedOut"
        case .answered: "answered"
        case .appCancelled: "appCancelled"
        }
    }

    /// Reads an HTTP response by its body, never by its `Content-Type` (ACSs label both ways wrongly), as
    /// ``ChallengeChannelBody`` reads it: an Erro whatever the status; a plaintext CRes is never accepted; anything
    /// else must be a compact JWE that decrypts under the channel keys.
    private mutating func interpret(_ response: TransportResponse) -> Event {
        let success = (200..<300).contains(response.status)
        switch ChallengeChannelBody(response.body) {
        case .error(let object):
            return .messageReceived(object)
        case .plaintext(let object):
            trace?.answered(.plaintext(object))
            return .responseUnreadable(ConformanceFinding.plaintextResponse.violation())
        case .unreadable where success:
            trace?.answered(.unreadable("the answer starts as JSON but is not a JSON object"))
            return .responseUnreadable(
                ProtocolViolation(
                    .messageReceivedInvalid, detail: "Invalid Formatted Message",
                    explanation: "the response is not a JSON object"))
        case .unreadable:
            return .transportFailed(TransportError(.other, "HTTP \(response.status) from the ACS"))
        case .encrypted where !success:
            return .transportFailed(TransportError(.other, "HTTP \(response.status) from the ACS"))
        case .encrypted:
            // The remote channel's answers were handed to the client before reaching here (`handle`).
            guard case .inProcess(let channel) = channel else {
                return .responseUnreadable(ConformanceFinding.channel(JOSEError(.decryptionFailed, "")).violation())
            }
            do {
                return .messageReceived(try channel.decrypt(response.body))
            } catch {
                trace?.answered(.undecryptable(error.finding))
                return .responseUnreadable(error.finding.violation())
            }
        }
    }

    /// What the next CRes must be: the transaction's identifiers and version, the counter expected next, and what
    /// the first CReq said about the bank's app and Bridging.
    private var expectation: ChallengeResponseExpectation {
        ChallengeResponseExpectation(
            identifiers: identifiers, messageVersion: builder.messageVersion, acsCounter: acsCounter,
            opensOOBApps: builder.oobAppURLIndicator == .supported, announcedBridging: builder.announcesBridging)
    }

    /// Records a message read from the ACS in the tools' trace: an Erro, or a CRes with what was expected of it and
    /// the audit against every rule.
    private mutating func traceRead(_ object: JSONObject) {
        guard MessageType(in: object) != .error else {
            trace?.answered(.error(object))
            return
        }
        let expectation = self.expectation
        trace?.answered(
            .response(object, expectation, ChallengeResponseValidator.audit(object, expecting: expectation)))
    }

    private mutating func receive(_ object: JSONObject) -> [Action] {
        if trace != nil { traceRead(object) }
        if MessageType(in: object) == .error {
            // Reported as received, even without its optional (or some required) fields; never answered with an Erro.
            // One naming another transaction is marked so.
            var erro = ErrorMessage(received: object)
            erro.concernsAnotherTransaction = erro.names(anotherTransactionThan: identifiers)
            return finish(.protocolError(erro))
        }
        let expectation = self.expectation
        let response: ChallengeResponse
        do {
            response = try ChallengeResponseValidator.validate(object, expecting: expectation)
        } catch {
            return fail(error, messageType: .challengeResponse)
        }
        acsCounter += 1
        switch response {
        case .final(let status):
            return finish(.completed(transStatus: status))
        case .screen(let screen):
            // The presenter draws only what the AReq announced: another UI type is the ACS's error, as an unknown
            // one is (203), and never reaches the presenter.
            guard renderOptions.announces(screen.uiType) else {
                return fail(
                    ProtocolViolation(
                        .invalidFormat, detail: "acsUiType",
                        explanation:
                            "the CRes shows UI type \(screen.uiType.rawValue), which the AReq's deviceRenderOptions "
                            + "did not announce"),
                    messageType: .challengeResponse)
            }
            guard acsCounter <= Self.maxCounter else {
                return finish(
                    .runtimeError(
                        ChallengeFailure(.counter, "acsCounterAtoS would wrap past 255; the challenge cannot go on")))
            }
            // The pairing rule: the transaction's later CReqs use the Bridging version the ACS answered with.
            if let bridging = screen.bridging { builder.adoptBridging(bridging) }
            self.screen = screen
            if case .remote = channel { screenResponse = object }
            phase = .presenting
            return [.present(screen)]
        }
    }

    private mutating func send(answer: ChallengeAnswer?) -> [Action] {
        guard sdkCounter <= Self.maxCounter else {
            return finish(
                .runtimeError(
                    ChallengeFailure(.counter, "sdkCounterStoA would wrap past 255; the challenge cannot go on")))
        }
        var request: JSONObject
        do {
            request = try builder.request(counter: sdkCounter, answer: answer, answering: answer == nil ? nil : screen)
        } catch {
            return finish(.runtimeError(ChallengeFailure(.invalidEntry, error.explanation, underlying: error)))
        }
        let body: [UInt8]
        var fill: [RemoteFill] = []
        switch channel {
        case .inProcess(let channel):
            do {
                body = try channel.encrypt(request, counter: sdkCounter)
            } catch {
                return finish(
                    .runtimeError(
                        ChallengeFailure(
                            .encryption, "the CReq could not be encrypted: \(humanReadable(error))", underlying: error)
                    ))
            }
        case .remote:
            // The client fills the entries and encrypts: the CReq leaves here without them.
            fill = RemoteFill.strip(&request, answering: answer == nil ? nil : screen?.uiType)
            body = []
        }
        let isCancel = answer?.action == .cancel
        trace?.sent(request)
        let sent = SentRequest(
            request: request, counter: sdkCounter, body: body, responseTimeout: Self.responseTimeout,
            isCancel: isCancel, fill: fill)
        sdkCounter += 1
        phase = isCancel ? .awaitingCancelResponse : .awaitingResponse
        return [.send(sent)]
    }

    private mutating func fail(_ violation: ProtocolViolation, messageType: MessageType) -> [Action] {
        let message = ErrorMessage(
            sdkViolation: violation, messageType: messageType, identifiers: identifiers,
            messageVersion: builder.messageVersion)
        return [.sendError(ErrorPost(message: message, timeout: Self.errorPostTimeout))]
            + finish(.protocolError(message))
    }

    private mutating func timeout(detail: String, messageType: MessageType) -> [Action] {
        let message = ErrorMessage(
            sdkViolation: ProtocolViolation(.transactionTimedOut, detail: detail), messageType: messageType,
            identifiers: identifiers, messageVersion: builder.messageVersion)
        return [.sendError(ErrorPost(message: message, timeout: Self.errorPostTimeout))] + finish(.timedOut)
    }

    private mutating func finish(_ outcome: ChallengeOutcome) -> [Action] {
        phase = .finished
        return [.finish(outcome)]
    }
}
