import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

private let identifiers = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

/// The shared secret both ends of the test channel agree on.
private let sharedSecret = [UInt8](repeating: 7, count: 32)
private let sdkReference = "3DS_LOA_SDK_TEST_000000_00001"

private func machine(_ version: MessageVersion = .v2_2_0) -> ChallengeStateMachine {
    let channel = try! SecureChannel(
        keys: ChannelKeys(sharedSecret: sharedSecret, sdkReferenceNumber: sdkReference),
        acsTransID: identifiers.acsTransID, requestEncryption: .a128cbcHS256)
    return ChallengeStateMachine(
        builder: ChallengeRequestBuilder(identifiers: identifiers, messageVersion: version, requestorAppURL: nil),
        channel: channel)
}

/// A CRes as the ACS sends it: a compact JWE under the ACS-to-SDK key.
private func encrypted(_ object: JSONObject, counter: Int, encryption: ContentEncryption = .a128cbcHS256) throws
    -> TransportResponse
{
    try encrypted(bytes: object.serializedBytes, counter: counter, encryption: encryption)
}

private func encrypted(bytes: [UInt8], counter: Int, encryption: ContentEncryption = .a128cbcHS256) throws
    -> TransportResponse
{
    let keys = ChannelKeys(sharedSecret: sharedSecret, sdkReferenceNumber: sdkReference)
    let compact = try JWE.encrypt(
        bytes, to: .direct(keys.acsToSDK(encryption)), encryption: encryption,
        keyID: identifiers.acsTransID,
        iv: ChannelKeys.counterIV(counter, encryption: encryption, fromSDK: false))
    return TransportResponse(status: 200, contentType: "application/jose", body: Array(compact.utf8))
}

private func cres(counter: Int, final status: String? = nil, _ extra: [String: JSONValue] = [:]) -> JSONObject {
    var object: JSONObject = [
        "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
        "acsTransID": .string(identifiers.acsTransID),
        "sdkTransID": .string(identifiers.sdkTransID),
        "acsCounterAtoS": .string(ChallengeRequestBuilder.counterText(counter)),
        "messageType": .string("CRes"), "messageVersion": .string("2.2.0"),
        "challengeCompletionInd": .string(status == nil ? "N" : "Y"),
    ]
    if let status {
        object["transStatus"] = .string(status)
    } else {
        for (name, value) in [
            ("acsUiType", "01"), ("challengeInfoHeader", "H"), ("challengeInfoLabel", "L"), ("challengeInfoText", "T"),
            ("submitAuthenticationLabel", "S"),
        ] { object[name] = .string(value) }
    }
    for (name, value) in extra { object[name] = value }
    return object
}

private extension ChallengeStateMachine.Action {
    var sent: JSONObject? { if case .send(let sent) = self { return sent.request } else { return nil } }
    var screen: ChallengeScreen? { if case .present(let screen) = self { return screen } else { return nil } }
    var erro: ErrorMessage? { if case .sendError(let post) = self { return post.message } else { return nil } }
    var outcome: ChallengeOutcome? { if case .finish(let outcome) = self { return outcome } else { return nil } }
}

@Suite("Challenge state machine")
struct ChallengeStateMachineTests {
    @Test("happy path: CReq 000, screen, CReq 001 with the entry, final CRes → completed")
    func happyPath() throws {
        var m = machine()
        let start = m.handle(.start)
        #expect(start.count == 1 && start[0].sent?["sdkCounterStoA"] == .string("000"))
        #expect(m.phase == .awaitingResponse)
        let shown = m.handle(.messageReceived(cres(counter: 0)))
        #expect(shown.first?.screen?.header == "H" && m.phase == .presenting)
        let next = m.handle(.answered(ChallengeAnswer(.submitText("42"))))
        #expect(
            next.first?.sent?["challengeDataEntry"] == .string("42")
                && next.first?.sent?["sdkCounterStoA"] == .string("001"))
        #expect(
            m.handle(.messageReceived(cres(counter: 1, final: "Y"))) == [
                .finish(.completed(transStatus: .authenticated))
            ])
        #expect(m.phase == .finished)
    }

    @Test("the Erro sent for a faulty CRes is the first finding of its audit: the audit mode changes nothing sent")
    func erroIsTheAuditsFirstFinding() {
        let faulty: [JSONObject] = [
            cres(counter: 3), cres(counter: 0, ["challengeInfoHeader": .string(String(repeating: "h", count: 46))]),
            cres(counter: 0, ["acsUiType": .string("09"), "challengeInfoText": .integer(1)]),
            cres(counter: 0, final: "A"), cres(counter: 0, ["messageType": .string("CReq")]),
            cres(counter: 0, ["messageVersion": .string("2.1.0"), "challengeInfoTextIndicator": .string("X")]),
            cres(counter: 0, ["whitelistingInfoText": .integer(1), "submitAuthenticationLabel": .string("")]),
            cres(counter: 0, ["oobAppURL": .string("https://bank.example"), "acsUiType": .string("04")]),
        ]
        for object in faulty {
            var m = machine()
            _ = m.handle(.start)
            let erro = m.handle(.messageReceived(object)).first?.erro
            let audit = ChallengeResponseValidator.audit(
                object,
                expecting: ChallengeResponseExpectation(
                    identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: 0))
            #expect(erro != nil, "\(object)")
            #expect(erro?.errorCode == audit.first?.errorCode && erro?.errorDetail == audit.first?.errorDetail)
        }
    }

    @Test("a violation sends the Erro then finishes with the same message")
    func violation() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.messageReceived(cres(counter: 3)))
        let erro = actions.first?.erro
        #expect(
            erro?.errorCode == .decryptionFailure && erro?.errorMessageType == .challengeResponse
                && erro?.sdkTransID == identifiers.sdkTransID)
        #expect(actions.last?.outcome == .protocolError(erro!))
    }

    @Test("an Erro from the ACS finishes with it and sends nothing")
    func acsErro() {
        var m = machine()
        _ = m.handle(.start)
        let erro = ErrorMessage(
            errorCode: ProtocolErrorCode(rawValue: "305"), errorComponent: .acs, errorDescription: "D",
            errorDetail: "X", errorMessageType: .challengeRequest,
            messageVersion: "2.2.0", threeDSServerTransID: nil, acsTransID: nil, sdkTransID: nil)
        #expect(m.handle(.messageReceived(erro.json)) == [.finish(.protocolError(erro))])
        // An Erro missing fields is still reported as received, and never answered with an Erro.
        var malformed = machine()
        _ = malformed.handle(.start)
        let actions = malformed.handle(
            .messageReceived(["messageType": .string("Erro"), "errorCode": .string("305"), "errorDetail": .integer(1)]))
        #expect(actions.count == 1 && actions.first?.outcome?.name == "protocolError")
        #expect(actions.first?.outcome == .protocolError(ErrorMessage(received: ["errorCode": .string("305")])))
        #expect(actions.allSatisfy { $0.erro == nil })
    }

    @Test("unreadable responses send the violation; transport failures are runtime errors")
    func failures() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(
            .responseUnreadable(ProtocolViolation(.decryptionFailure, detail: "Data Decryption Failure")))
        #expect(actions.first?.erro?.errorCode == .decryptionFailure && actions.last?.outcome?.name == "protocolError")
        var t = machine()
        _ = t.handle(.start)
        let failed = t.handle(.transportFailed(TransportError(.connectionFailed, "refused")))
        #expect(failed == [.finish(.runtimeError(ChallengeFailure(.transport, "refused")))])
        // The transport's error is kept as the cause, with its own code.
        guard case .runtimeError(let failure)? = failed.last?.outcome else {
            Issue.record("no runtime error: \(failed)")
            return
        }
        #expect(failure.transportCode == .connectionFailed)
        #expect((failure.underlying as? TransportError) == TransportError(.connectionFailed, "refused"))
    }

    @Test("timeouts send Erro 402: per message with errorMessageType CReq, overall while presenting with CRes")
    func timeouts() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.responseTimedOut)
        #expect(
            actions.first?.erro?.errorCode == .transactionTimedOut
                && actions.first?.erro?.errorMessageType == .challengeRequest
                && actions.last?.outcome == .timedOut)
        var o = machine()
        _ = o.handle(.start)
        _ = o.handle(.messageReceived(cres(counter: 0)))
        let overall = o.handle(.overallTimedOut)
        #expect(
            overall.first?.erro?.errorMessageType == .challengeResponse
                && overall.first?.erro?.errorDetail == "Timeout expiry reached for the transaction")
        #expect(overall.last?.outcome == .timedOut)
    }

    @Test("cancel: CReq with challengeCancel 01, then cancelled whatever the ACS says")
    func cancel() {
        for event: ChallengeStateMachine.Event in [
            .messageReceived(cres(counter: 1, final: "N")), .responseTimedOut,
            .transportFailed(TransportError(.other, "x")),
            .responseUnreadable(ProtocolViolation(.decryptionFailure, detail: "d")),
        ] {
            var m = machine()
            _ = m.handle(.start)
            _ = m.handle(.messageReceived(cres(counter: 0)))
            let sent = m.handle(.answered(ChallengeAnswer(.cancel)))
            #expect(sent.first?.sent?["challengeCancel"] == .string("01") && m.phase == .awaitingCancelResponse)
            #expect(m.handle(event) == [.finish(.cancelled)])
        }
    }

    @Test("the actions say all the shell needs: which CReq is a cancel, and how long an Erro post may take")
    func actionsCarryTheShellsFacts() {
        var m = machine()
        guard case .send(let first)? = m.handle(.start).first else {
            Issue.record("no first CReq")
            return
        }
        #expect(!first.isCancel)
        _ = m.handle(.messageReceived(cres(counter: 0)))
        guard case .send(let answered)? = m.handle(.answered(ChallengeAnswer(.submitText("1")))).first else {
            Issue.record("no CReq for the answer")
            return
        }
        #expect(!answered.isCancel)
        _ = m.handle(.messageReceived(cres(counter: 1)))
        guard case .send(let cancel)? = m.handle(.appCancelled).first else {
            Issue.record("no cancel CReq")
            return
        }
        #expect(cancel.isCancel && cancel.request["challengeCancel"] == .string("01"))
        // Every Erro the machine sends carries its bound: a timeout's and a violation's alike.
        var timedOut = machine()
        _ = timedOut.handle(.start)
        var violated = machine()
        _ = violated.handle(.start)
        for actions in [
            timedOut.handle(.responseTimedOut),
            violated.handle(.responseUnreadable(ProtocolViolation(.decryptionFailure, detail: "d"))),
        ] {
            guard case .sendError(let post)? = actions.first else {
                Issue.record("no Erro in \(actions)")
                continue
            }
            #expect(post.timeout == .seconds(5) && post.timeout == ChallengeStateMachine.errorPostTimeout)
        }
    }

    @Test("the whitelisting question is answered in the next CReq only")
    func whitelisting() {
        var m = machine()
        _ = m.handle(.start)
        _ = m.handle(.messageReceived(cres(counter: 0, ["whitelistingInfoText": .string("Trust?")])))
        let answered = m.handle(.answered(ChallengeAnswer(.submitText("1"), whitelisting: true)))
        #expect(answered.first?.sent?["whitelistingDataEntry"] == .string("Y"))
        _ = m.handle(.messageReceived(cres(counter: 1)))
        #expect(
            m.handle(.answered(ChallengeAnswer(.submitText("2"), whitelisting: true))).first?.sent?[
                "whitelistingDataEntry"] == nil)
    }

    @Test("counters never wrap: the SDK stops with a runtime error")
    func counterWrap() {
        var m = machine()
        _ = m.handle(.start)
        var counter = 0
        var last: [ChallengeStateMachine.Action] = []
        while counter < 300 {
            last = m.handle(.messageReceived(cres(counter: counter)))
            counter += 1
            guard last.first?.screen != nil else { break }
            last = m.handle(.answered(ChallengeAnswer(.resend)))
            guard last.first?.sent != nil else { break }
        }
        #expect(last.last?.outcome?.name == "runtimeError")
        #expect(counter <= 256)
    }

    @Test("an entry that breaks a CReq rule ends with a runtime error, nothing sent")
    func invalidEntry() {
        var m = machine(.v2_1_0)
        _ = m.handle(.start)
        _ = m.handle(.messageReceived(cres(counter: 0, ["messageVersion": .string("2.1.0")])))
        let actions = m.handle(.answered(ChallengeAnswer(.submitEmpty)))
        #expect(actions.count == 1 && actions[0].outcome?.name == "runtimeError")
    }

    // `#expect(processExitsWith:)` is Swift 6.2 (Xcode 26); the Swift 6.1 leg of the Apple workflow checks the
    // same stops through `onImpossibleEvent` (the test after this one), which every compiler runs.
    #if DEBUG && compiler(>=6.2)
        @Test("an event the phase cannot receive is a bug in the session: a debug build stops on it")
        func impossibleEventsStopDebugBuilds() async {
            // Each case in a process of its own, which must end in the assertion.
            await #expect(processExitsWith: .failure) {
                var m = machine()
                _ = m.handle(.answered(ChallengeAnswer(.cancel)))
            }
            await #expect(processExitsWith: .failure) {
                var m = machine()
                _ = m.handle(.messageReceived(cres(counter: 0)))
            }
            await #expect(processExitsWith: .failure) {
                var m = machine()
                _ = m.handle(.start)
                _ = m.handle(.start)
            }
            await #expect(processExitsWith: .failure) {
                var m = machine()
                _ = m.handle(.start)
                _ = m.handle(.answered(ChallengeAnswer(.cancel)))
            }
            await #expect(processExitsWith: .failure) {
                // A screen is up: no CReq is outstanding.
                var m = machine()
                _ = m.handle(.start)
                _ = m.handle(.messageReceived(cres(counter: 0)))
                _ = m.handle(.responseTimedOut)
            }
            await #expect(processExitsWith: .failure) {
                // Finished: the session has stopped feeding events.
                var m = machine()
                _ = m.handle(.appCancelled)
                _ = m.handle(.overallTimedOut)
            }
            // The same machine driven only with events its phases expect ends without stopping.
            await #expect(processExitsWith: .success) {
                var m = machine()
                _ = m.handle(.start)
                _ = m.handle(.messageReceived(cres(counter: 0)))
                _ = m.handle(.appCancelled)
                _ = m.handle(.responseTimedOut)
            }
        }
    #endif

    @Test("an event the phase cannot receive reaches the stop (recorded here), is ignored and keeps the phase")
    func impossibleEventsReachTheStop() {
        let sequences: [[ChallengeStateMachine.Event]] = [
            [.answered(ChallengeAnswer(.cancel))],
            [.messageReceived(cres(counter: 0))],
            [.start, .start],
            [.start, .answered(ChallengeAnswer(.cancel))],
            [.start, .messageReceived(cres(counter: 0)), .responseTimedOut],
            [.appCancelled, .overallTimedOut],
        ]
        for events in sequences {
            let stops = Locked<[String]>([])
            var m = machine()
            m.onImpossibleEvent = { message in stops.withLock { $0.append(message) } }
            for event in events.dropLast() { _ = m.handle(event) }
            let phase = m.phase
            let actions = m.handle(events[events.count - 1])
            #expect(stops.withLock { $0.count } == 1, "\(events.map(ChallengeStateMachine.name(of:)))")
            #expect(actions.isEmpty && m.phase == phase)
            #expect(
                stops.withLock { $0.first }?.contains(ChallengeStateMachine.name(of: events[events.count - 1])) == true)
        }
        // The same machine driven only with events its phases expect never reaches the stop.
        let stops = Locked<[String]>([])
        var m = machine()
        m.onImpossibleEvent = { message in stops.withLock { $0.append(message) } }
        for event: ChallengeStateMachine.Event in [
            .start, .messageReceived(cres(counter: 0)), .appCancelled, .responseTimedOut,
        ] {
            _ = m.handle(event)
        }
        #expect(stops.withLock { $0.isEmpty })
    }

    @Test("event names carry no payload")
    func eventNames() {
        #expect(ChallengeStateMachine.name(of: .answered(ChallengeAnswer(.submitText("123456")))) == "answered")
        #expect(ChallengeStateMachine.name(of: .messageReceived(cres(counter: 0))) == "messageReceived")
    }

    @Test("responses are read by the machine: a JWE CRes decrypts to a screen; a Erro is one whatever the status")
    func interpretation() throws {
        var m = machine()
        let first = m.handle(.start)
        guard case .send(let sent) = first.first else {
            Issue.record("no CReq")
            return
        }
        #expect(sent.counter == 0 && sent.responseTimeout == .seconds(10) && !sent.body.isEmpty)
        #expect(!sent.body.contains(UInt8(ascii: "{")), "the CReq goes out encrypted")
        #expect(try m.handle(.responseReceived(encrypted(cres(counter: 0), counter: 0))).first?.screen != nil)

        var erro = machine()
        _ = erro.handle(.start)
        let message = ErrorMessage(
            errorCode: ProtocolErrorCode(rawValue: "305"), errorComponent: .acs, errorDescription: "D",
            errorDetail: "X", errorMessageType: .challengeRequest,
            messageVersion: "2.2.0", threeDSServerTransID: nil, acsTransID: nil, sdkTransID: nil)
        let response = TransportResponse(status: 500, contentType: "text/plain", body: message.json.serializedBytes)
        #expect(erro.handle(.responseReceived(response)) == [.finish(.protocolError(message))])
    }

    @Test("unusable responses: plaintext CRes and tampered JWE are 302, bad JSON 101, an HTTP error a runtime error")
    func unusableResponses() throws {
        func outcome(_ response: TransportResponse) -> [ChallengeStateMachine.Action] {
            var m = machine()
            _ = m.handle(.start)
            return m.handle(.responseReceived(response))
        }
        let plain = outcome(
            TransportResponse(status: 200, contentType: "application/json", body: cres(counter: 0).serializedBytes))
        #expect(plain.first?.erro?.errorCode == .decryptionFailure)
        var tampered = try encrypted(cres(counter: 0), counter: 0)
        tampered.body[tampered.body.count - 3] ^= 1
        #expect(outcome(tampered).first?.erro?.errorCode == .decryptionFailure)
        let broken = outcome(TransportResponse(status: 200, contentType: "application/json", body: Array("{x".utf8)))
        #expect(broken.first?.erro?.errorCode == .messageReceivedInvalid)
        // Classified by body: a JWE labelled JSON is a CRes; an Erro labelled as a JWE is an Erro.
        let labelledJSON = try encrypted(cres(counter: 0), counter: 0)
        var machine1 = machine()
        _ = machine1.handle(.start)
        #expect(
            machine1.handle(
                .responseReceived(
                    TransportResponse(status: 200, contentType: "application/json", body: labelledJSON.body))
            ).first?
            .screen != nil)
        let erro =
            #"{"messageType":"Erro","errorCode":"305","errorComponent":"A","errorDescription":"D","errorDetail":"X","messageVersion":"2.2.0"}"#
        let labelledJOSE = outcome(
            TransportResponse(status: 200, contentType: "application/jose", body: Array(erro.utf8)))
        #expect(labelledJOSE.count == 1 && labelledJOSE.first?.outcome?.name == "protocolError")
        var text = String(decoding: cres(counter: 0).serializedBytes, as: UTF8.self)
        text.removeLast()
        let duplicate = try encrypted(bytes: Array((text + #","acsUiType":"02"}"#).utf8), counter: 0)
        #expect(
            outcome(duplicate).first?.erro?.errorCode == .duplicateElement,
            "a repeated member is Erro 204, by its error code")
        let gateway = outcome(TransportResponse(status: 502, contentType: "text/html", body: Array("<html>".utf8)))
        #expect(gateway.count == 1 && gateway.first?.outcome?.name == "runtimeError")
    }

    @Test("an answer over the size bound is the ACS's failure: Erro 101 about the CRes, protocol error")
    func oversizeResponse() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.transportFailed(TransportError(.responseTooLarge, "big")))
        #expect(
            actions.first?.erro?.errorCode == .messageReceivedInvalid
                && actions.first?.erro?.errorMessageType == .challengeResponse)
        #expect(actions.last?.outcome?.name == "protocolError")
    }

    @Test("a transport deadline is the exchange bound: Erro 402 and timed out, as the response timer")
    func transportTimeout() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.transportFailed(TransportError(.timedOut, "slow")))
        #expect(actions.first?.erro?.errorCode == .transactionTimedOut && actions.last?.outcome == .timedOut)
    }
}
