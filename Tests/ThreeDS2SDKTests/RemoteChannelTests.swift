import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@_spi(ThreeDS2SplitServer) @testable import ThreeDS2SDK

private let identifiers = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

private func remoteMachine() -> ChallengeStateMachine {
    ChallengeStateMachine(
        builder: ChallengeRequestBuilder(identifiers: identifiers, messageVersion: .v2_3_1, requestorAppURL: nil),
        end: .remote)
}

private func textScreenCRes() -> JSONObject {
    var object: JSONObject = [
        "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
        "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
        "acsCounterAtoS": .string("000"), "messageType": .string("CRes"), "messageVersion": .string("2.3.1"),
        "challengeCompletionInd": .string("N"), "acsUiType": .string("01"), "challengeInfoHeader": .string("H"),
        "challengeInfoText": .string("T"), "submitAuthenticationLabel": .string("S"),
    ]
    object["challengeEntryBox"] = .object(["challengeDataEntryLabel": .string("Code")])
    return object
}

/// The core's channel seam, remote end (the Split-SDK): the same state machine, whose CReqs leave without entries
/// and whose encrypted answers go to the client.
@Suite("Remote channel end")
struct RemoteChannelTests {
    @Test("the first CReq leaves unencrypted for the client to encrypt, with nothing to fill")
    func firstRequest() throws {
        var machine = remoteMachine()
        guard case .send(let sent)? = machine.handle(.start).first else {
            Issue.record("no CReq")
            return
        }
        #expect(sent.body.isEmpty)
        #expect(sent.fill.isEmpty)
        #expect(sent.request["sdkCounterStoA"] == .string("000"))
    }

    @Test("an encrypted answer is handed to the client to decrypt; what it reads is validated as any CRes")
    func encryptedAnswerGoesToTheClient() throws {
        var machine = remoteMachine()
        _ = machine.handle(.start)
        let body = Array("eyJhbGciOiJkaXIifQ..AAAA.BBBB.CCCC".utf8)
        let actions = machine.handle(
            .responseReceived(TransportResponse(status: 200, contentType: "application/jose", body: body)))
        #expect(actions == [.decrypt(body)])
        guard case .present(let screen)? = machine.handle(.messageReceived(textScreenCRes())).first else {
            Issue.record("no screen")
            return
        }
        #expect(screen.uiType == .text)
    }

    @Test("the cardholder's code never enters the CReq: the member is named for the client to fill")
    func entriesAreFilledByTheClient() throws {
        var machine = remoteMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.messageReceived(textScreenCRes()))
        guard case .send(let sent)? = machine.handle(.answered(ChallengeAnswer(.submitText("0")))).first else {
            Issue.record("no CReq")
            return
        }
        #expect(sent.request["challengeDataEntry"] == nil)
        #expect(sent.fill == [RemoteFill(member: "challengeDataEntry", source: .entryBox(0))])
        #expect(sent.body.isEmpty)
    }

    @Test("a chosen option and the consent answers never enter the CReq either: each member is named for the client")
    func choicesAndConsentsAreFilledByTheClient() throws {
        var machine = remoteMachine()
        _ = machine.handle(.start)
        var cres = textScreenCRes()
        cres["challengeEntryBox"] = nil
        cres["acsUiType"] = .string("02")
        cres["challengeInfoLabel"] = .string("Where shall we send the code?")
        cres["challengeSelectInfo"] = .array([.object(["sms": .string("By SMS")]), .object(["mail": .string("Mail")])])
        cres["trustListInfoText"] = .string("Trust this shop?")
        cres["deviceBindingInfoText"] = .string("Bind this device?")
        let shown = machine.handle(.messageReceived(cres))
        guard case .present(let screen)? = shown.first else {
            Issue.record("no screen: \(shown)")
            return
        }
        #expect(screen.uiType == .singleSelect)
        let answer = ChallengeAnswer(.submitSelection(["sms"]), whitelisting: true, deviceBinding: false)
        guard case .send(let sent)? = machine.handle(.answered(answer)).first else {
            Issue.record("no CReq")
            return
        }
        for member in ["challengeDataEntry", "trustListDataEntry", "deviceBindingDataEntry"] {
            #expect(sent.request[member] == nil, "\(member) left in the CReq")
        }
        #expect(
            sent.fill == [
                RemoteFill(member: "challengeDataEntry", source: .chosenOptions),
                RemoteFill(member: "trustListDataEntry", source: .consent(.trust)),
                RemoteFill(member: "deviceBindingDataEntry", source: .consent(.deviceBinding)),
            ])
    }

    @Test("a CRes the client could not decrypt is the ACS's 302, with the Erro to the ACS, as in process")
    func undecryptable() throws {
        var machine = remoteMachine()
        _ = machine.handle(.start)
        let violation = ConformanceFinding.channel(JOSEError(.decryptionFailed, "tag")).violation()
        let actions = machine.handle(.responseUnreadable(violation))
        guard case .sendError(let post)? = actions.first else {
            Issue.record("no Erro")
            return
        }
        #expect(post.message.errorCode.rawValue == "302")
    }

    @Test("a machine restored from a screen's checkpoint shows the same screen; its next CReq has the next counter")
    func restoredAtAScreen() throws {
        var original = remoteMachine()
        _ = original.handle(.start)
        guard case .present(let shown)? = original.handle(.messageReceived(textScreenCRes())).first else {
            Issue.record("no screen")
            return
        }
        let response = try #require(original.screenResponse)
        #expect(original.sdkCounter == 1 && original.acsCounter == 1)
        var restored = remoteMachine()
        restored.restore(sdkCounter: original.sdkCounter, acsCounter: original.acsCounter - 1, bridging: nil)
        guard case .present(let again)? = restored.handle(.messageReceived(response)).first else {
            Issue.record("the checkpoint made no screen")
            return
        }
        #expect(again == shown)
        guard case .send(let sent)? = restored.handle(.answered(ChallengeAnswer(.submitText("0")))).first else {
            Issue.record("no CReq")
            return
        }
        #expect(sent.counter == 1)
        #expect(sent.request["sdkCounterStoA"] == .string("001"))
        #expect(sent.fill == [RemoteFill(member: "challengeDataEntry", source: .entryBox(0))])
    }

    @Test("a checkpoint whose counters do not fit its CRes is refused as the CRes would be (Erro, protocol error)")
    func restoredWithWrongCounters() throws {
        var restored = remoteMachine()
        restored.restore(sdkCounter: 1, acsCounter: 1, bridging: nil)
        let actions = restored.handle(.messageReceived(textScreenCRes()))
        guard case .sendError(let post)? = actions.first, case .finish(.protocolError)? = actions.last else {
            Issue.record("the mismatched checkpoint was accepted: \(actions)")
            return
        }
        #expect(post.message.errorCode.rawValue == "302")
    }

    @Test("a machine restored at a lost answer sends no CReq: Erro 402 about the CReq, then timedOut")
    func restoredAtALostAnswer() throws {
        var restored = remoteMachine()
        restored.restore(sdkCounter: 2, acsCounter: 1, bridging: nil)
        let actions = restored.handle(.responseTimedOut)
        #expect(actions.count == 2)
        guard case .sendError(let post)? = actions.first else {
            Issue.record("no Erro: \(actions)")
            return
        }
        #expect(post.message.errorCode.rawValue == "402")
        #expect(post.message.errorMessageType == .challengeRequest)
        #expect(actions.last == .finish(.timedOut))
        #expect(!actions.contains { if case .send = $0 { true } else { false } })
    }

    @Test("restore only applies to a machine that has not started")
    func restoreAfterStartIsIgnored() throws {
        var machine = remoteMachine()
        _ = machine.handle(.start)
        machine.restore(sdkCounter: 9, acsCounter: 9, bridging: nil)
        #expect(machine.sdkCounter == 1 && machine.acsCounter == 0)
    }
}
