import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@testable import ThreeDS2SDK

private let identifiers = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

private func machine(_ version: String = "2.2.0") -> ChallengeStateMachine {
    ChallengeStateMachine(
        builder: ChallengeRequestBuilder(identifiers: identifiers, messageVersion: version, requestorAppURL: nil))
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
    var sent: JSONObject? { if case .send(let object) = self { return object } else { return nil } }
    var screen: ChallengeScreen? { if case .present(let screen) = self { return screen } else { return nil } }
    var erro: ErrorMessage? { if case .sendError(let message) = self { return message } else { return nil } }
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
        #expect(m.handle(.messageReceived(cres(counter: 1, final: "Y"))) == [.finish(.completed(transStatus: "Y"))])
        #expect(m.phase == .finished)
        #expect(m.handle(.messageReceived(cres(counter: 2, final: "Y"))).isEmpty)
    }

    @Test("a violation sends the Erro then finishes with the same message")
    func violation() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.messageReceived(cres(counter: 3)))
        let erro = actions.first?.erro
        #expect(
            erro?.errorCode == "302" && erro?.errorMessageType == "CRes" && erro?.sdkTransID == identifiers.sdkTransID)
        #expect(actions.last?.outcome == .protocolError(erro!))
    }

    @Test("an Erro from the ACS finishes with it and sends nothing")
    func acsErro() {
        var m = machine()
        _ = m.handle(.start)
        let erro = ErrorMessage(
            errorCode: "305", errorComponent: "A", errorDescription: "D", errorDetail: "X", errorMessageType: "CReq",
            messageVersion: "2.2.0", threeDSServerTransID: nil, acsTransID: nil, sdkTransID: nil)
        #expect(m.handle(.messageReceived(erro.json)) == [.finish(.protocolError(erro))])
        var malformed = machine()
        _ = malformed.handle(.start)
        let actions = malformed.handle(.messageReceived(["messageType": .string("Erro")]))
        #expect(actions.first?.erro?.errorCode == "201")
    }

    @Test("unreadable responses send the violation; transport failures are runtime errors")
    func failures() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(
            .responseUnreadable(ProtocolViolation(.decryptionFailure, detail: "Data Decryption Failure")))
        #expect(actions.first?.erro?.errorCode == "302" && actions.last?.outcome?.name == "protocolError")
        var t = machine()
        _ = t.handle(.start)
        #expect(
            t.handle(.transportFailed("refused")) == [.finish(.runtimeError(code: "transport", message: "refused"))])
    }

    @Test("timeouts send Erro 402: per message with errorMessageType CReq, overall while presenting with CRes")
    func timeouts() {
        var m = machine()
        _ = m.handle(.start)
        let actions = m.handle(.responseTimedOut)
        #expect(
            actions.first?.erro?.errorCode == "402" && actions.first?.erro?.errorMessageType == "CReq"
                && actions.last?.outcome == .timedOut)
        var o = machine()
        _ = o.handle(.start)
        _ = o.handle(.messageReceived(cres(counter: 0)))
        let overall = o.handle(.overallTimedOut)
        #expect(
            overall.first?.erro?.errorMessageType == "CRes"
                && overall.first?.erro?.errorDetail == "Timeout expiry reached for the transaction")
        #expect(overall.last?.outcome == .timedOut)
    }

    @Test("cancel: CReq with challengeCancel 01, then cancelled whatever the ACS says")
    func cancel() {
        for event: ChallengeStateMachine.Event in [
            .messageReceived(cres(counter: 1, final: "N")), .responseTimedOut, .transportFailed("x"),
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
        var m = machine("2.1.0")
        _ = m.handle(.start)
        _ = m.handle(.messageReceived(cres(counter: 0, ["messageVersion": .string("2.1.0")])))
        let actions = m.handle(.answered(ChallengeAnswer(.submitEmpty)))
        #expect(actions.count == 1 && actions[0].outcome?.name == "runtimeError")
    }

    @Test("events that do not fit the phase are ignored")
    func ignored() {
        var m = machine()
        #expect(m.handle(.answered(ChallengeAnswer(.cancel))).isEmpty)
        #expect(m.handle(.messageReceived(cres(counter: 0))).isEmpty)
        _ = m.handle(.start)
        #expect(m.handle(.start).isEmpty)
        #expect(m.handle(.answered(ChallengeAnswer(.cancel))).isEmpty)
    }
}

@Suite("HTML forms")
struct HTMLFormTests {
    let page = """
        <html><head><script>alert(1)</script></head><body><p>Hello <b>there</b></p>
        <form method="POST" action="https://emv3ds/challenge">
        <input type="hidden" name="h" value="a b&c">
        <input name="otp" value="">
        <input type="checkbox" name="c" value="on1" checked>
        <input type="radio" name="r" value="1"><input type="radio" name="r" value="2" checked>
        <select name="s"><option value="x">X</option><option value="y" selected>Y</option></select>
        <textarea name="t">line1
        line2</textarea>
        <input type="text" name="d" value="disabled" disabled>
        <input type="submit" name="go" value="Go"><button name="act" value="no">Stop</button><input type="button" name="b" value="B">
        </form><a href="https://emv3ds/challenge?x=1&y=%20">Help</a><a href="https://example.com/">Elsewhere</a></body></html>
        """

    @Test("controls in document order; successful ones only; only the pressed button")
    func submission() throws {
        let form = HTMLForm(html: page)
        #expect(form.method == "post")
        #expect(form.text.contains("Hello") && !form.text.contains("alert"))
        #expect(
            try form.submission(fields: ["otp": "12 34"], button: "Go")
                == "h=a+b%26c&otp=12+34&c=on1&r=2&s=y&t=line1%0D%0Aline2&go=Go")
        #expect(try form.submission(button: "Stop") == "h=a+b%26c&otp=&c=on1&r=2&s=y&t=line1%0D%0Aline2&act=no")
        #expect(
            try form.submission(fields: ["r": "1", "c": "", "s": "x"])
                == "h=a+b%26c&otp=&r=1&s=x&t=line1%0D%0Aline2&go=Go")
    }

    @Test("a link to https://emv3ds/challenge submits its query; other links are ignored")
    func links() throws {
        let form = HTMLForm(html: page)
        #expect(form.links == [HTMLForm.SubmissionLink(label: "Help", query: "x=1&y=%20")])
        #expect(try form.submission(button: "Help") == "x=1&y=%20")
    }

    @Test("unknown fields and buttons are errors")
    func errors() {
        let form = HTMLForm(html: page)
        #expect(throws: HTMLForm.SubmissionError.self) { try form.submission(fields: ["nope": "1"]) }
        #expect(throws: HTMLForm.SubmissionError.self) { try form.submission(button: "Elsewhere") }
        #expect(throws: HTMLForm.SubmissionError.self) { try form.submission(fields: ["r": "9"]) }
    }

    @Test("broken HTML parses without crashing")
    func broken() throws {
        let form = HTMLForm(html: "<form><input name=a value=1><p><<<>>&&&")
        #expect(try form.submission() == "a=1")
        #expect(HTMLForm(html: "").controls.isEmpty)
    }
}
