import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting

private let ids = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

/// A screen from CRes fields, through the real validator.
func formScreen(_ uiType: String, _ fields: [String: JSONValue] = [:], version: MessageVersion = .v2_2_0) throws
    -> ChallengeScreen
{
    var object: JSONObject = [
        "threeDSServerTransID": .string(ids.threeDSServerTransID), "acsTransID": .string(ids.acsTransID),
        "sdkTransID": .string(ids.sdkTransID), "acsCounterAtoS": .string("000"), "messageType": .string("CRes"),
        "messageVersion": .string(version.rawValue), "challengeCompletionInd": .string("N"),
        "acsUiType": .string(uiType), "challengeInfoHeader": .string("H"), "challengeInfoText": .string("T"),
    ]
    if ["01", "02", "03"].contains(uiType) {
        object["challengeInfoLabel"] = .string("Code")
        object["submitAuthenticationLabel"] = .string("Verify")
    }
    if ["02", "03"].contains(uiType) {
        object["challengeSelectInfo"] = .array([
            .object(["a": .string("Alpha")]), .object(["b": .string("Beta")]), .object(["c": .string("Gamma")]),
        ])
    }
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) { object[name] = value }
    if version == .v2_3_1, uiType == "01", object["challengeEntryBox"] == nil {
        object["challengeInfoLabel"] = nil
        object["challengeEntryBox"] = .object(["challengeDataEntryLabel": .string("Code")])
    }
    let expectation = ChallengeResponseExpectation(
        identifiers: ids, messageVersion: version, acsCounter: 0, opensOOBApps: true)
    let response = try ChallengeResponseValidator.validate(object, expecting: expectation)
    // The audit mode agrees: a screen the SDK accepts breaks no rule and reads the same.
    let audit = ChallengeResponseValidator.audit(object, expecting: expectation)
    #expect(audit.isConformant && audit.reading == response, "\(audit.findings)")
    guard case .screen(let screen) = response else {
        throw ProtocolViolation(.messageReceivedInvalid, detail: "not a screen")
    }
    return screen
}

@Suite("Challenge form state")
struct ChallengeFormStateTests {
    @Test("text: typing is bounded to 45 characters, backspace edits, submit sends the entry")
    func text() throws {
        var state = ChallengeFormState(screen: try formScreen("01"))
        guard case .textField = state.focusedElement else {
            Issue.record("the code field is not focused first")
            return
        }
        #expect(state.apply(.type("12")) == nil && state.apply(.type("39")) == nil)
        #expect(state.apply(.deleteBackward) == nil && state.entry == "123")
        #expect(state.apply(.type(String(repeating: "9", count: 60))) == nil && state.entry.count == 45)
        _ = state.apply(.setEntry("4242"))
        #expect(state.apply(.submit()) == ChallengeAnswer(.submitText("4242")))
        #expect(state.apply(.activate) == ChallengeAnswer(.submitText("4242")), "Enter in the field submits")
    }

    @Test("entry limits are UTF-8 bytes, enforced on the screen: typing stops, a whole answer is refused with a note")
    func entryLimits() throws {
        var state = ChallengeFormState(screen: try formScreen("01"))
        _ = state.apply(.type(String(repeating: "é", count: 30)))
        #expect(state.entry == String(repeating: "é", count: 22) && state.note != nil, "44 of 45 bytes kept")
        #expect(state.apply(.setEntry(String(repeating: "1", count: 46))) == nil && state.note != nil)
        #expect(state.entry.utf8.count == 44, "a refused answer leaves the entry as it was")
        #expect(state.apply(.setEntry(String(repeating: "1", count: 45))) == nil && state.note == nil)
        #expect(state.apply(.submit()) == ChallengeAnswer(.submitText(String(repeating: "1", count: 45))))

        let longKeys: JSONValue = .array((0..<4).map { .object(["option-key-number-\($0)": .string("L\($0)")]) })
        var multi = ChallengeFormState(screen: try formScreen("03", ["challengeSelectInfo": longKeys]))
        #expect(multi.apply(.select((0..<4).map { "option-key-number-\($0)" })) == nil && multi.note != nil)
        _ = multi.apply(.select(["option-key-number-0", "option-key-number-1"]))
        #expect(
            multi.apply(.submit()) == ChallengeAnswer(.submitSelection(["option-key-number-0", "option-key-number-1"])))

        let page = try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))])
        let form = HTMLForm(controls: [HTMLForm.Control(kind: .textarea, name: "t", value: "")])
        var html = ChallengeFormState(screen: page, htmlReader: FixedFormReader(form))
        _ = html.apply(.setHTMLFields(["t": String(repeating: "x", count: 300)]))
        #expect(html.apply(.submit()) == nil && html.note?.contains("256") == true)
    }

    @Test("an empty submission: challengeNoEntry from 2.2.0, refused on the screen in 2.1.0")
    func emptySubmission() throws {
        var modern = ChallengeFormState(screen: try formScreen("01"))
        #expect(modern.canSubmit && modern.apply(.submit()) == ChallengeAnswer(.submitEmpty))
        var old = ChallengeFormState(screen: try formScreen("01", version: .v2_1_0))
        #expect(!old.canSubmit)
        #expect(old.apply(.submit()) == nil && old.note != nil, "the screen says why; nothing is sent")
        var select = ChallengeFormState(screen: try formScreen("02", version: .v2_1_0))
        #expect(select.apply(.submit()) == nil && select.note == SDKStrings.english[.chooseOption])
    }

    @Test("select: unknown keys are refused, a single select keeps one, answers go in option order")
    func select() throws {
        var multi = ChallengeFormState(screen: try formScreen("03"))
        #expect(multi.apply(.select(["z"])) == nil && multi.note?.contains("z") == true)
        _ = multi.apply(.select(["c", "a"]))
        #expect(multi.apply(.submit()) == ChallengeAnswer(.submitSelection(["a", "c"])))
        var single = ChallengeFormState(screen: try formScreen("02"))
        _ = single.apply(.select(["b", "c"]))
        #expect(single.chosen == ["b"])
        var keyboard = ChallengeFormState(screen: try formScreen("02"))
        _ = keyboard.apply(.focusNext)
        #expect(keyboard.apply(.activate) == ChallengeAnswer(.submitSelection(["b"])), "Enter on an option picks it")
    }

    @Test("continue means oobContinue on UI 04 and informationContinue on UI 07, nothing elsewhere")
    func continueMapping() throws {
        var oob = ChallengeFormState(screen: try formScreen("04", ["oobContinueLabel": .string("Done")]))
        #expect(oob.apply(.continueChallenge) == ChallengeAnswer(.oobContinue()))
        var info = ChallengeFormState(
            screen: try formScreen("07", ["infoContinueLabel": .string("OK")], version: .v2_3_1))
        #expect(info.apply(.continueChallenge) == ChallengeAnswer(.informationContinue))
        var text = ChallengeFormState(screen: try formScreen("01"))
        #expect(text.apply(.continueChallenge) == nil)
    }

    @Test("resend only where the ACS offers it; cancel anywhere; the trust answer travels with the action")
    func resendCancelTrust() throws {
        var plain = ChallengeFormState(screen: try formScreen("01"))
        #expect(plain.apply(.resend) == nil && plain.note != nil)
        #expect(plain.apply(.cancel) == ChallengeAnswer(.cancel))
        var offered = ChallengeFormState(
            screen: try formScreen(
                "01", ["resendInformationLabel": .string("New"), "whitelistingInfoText": .string("Trust?")]))
        #expect(offered.apply(.resend) == ChallengeAnswer(.resend))
        _ = offered.apply(.setTrust(true))
        _ = offered.apply(.setEntry("1"))
        #expect(offered.apply(.submit()) == ChallengeAnswer(.submitText("1"), whitelisting: true))
        var unasked = ChallengeFormState(screen: try formScreen("01"))
        _ = unasked.apply(.setTrust(true))
        #expect(unasked.trust == nil, "no question, no answer")
    }

    @Test("HTML: without a reader there are no controls; with one, fields fill and the button submits")
    func html() throws {
        let page = try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))])
        var bare = ChallengeFormState(screen: page)
        #expect(bare.form == nil && bare.apply(.submit()) == nil && bare.note != nil)
        let form = HTMLForm(
            controls: [
                HTMLForm.Control(kind: .text, name: "otp", value: ""),
                HTMLForm.Control(kind: .submitInput, name: "go", value: "Go"),
            ], method: "post", action: "https://emv3ds/challenge")
        var read = ChallengeFormState(screen: page, htmlReader: FixedFormReader(form))
        _ = read.apply(.setHTMLFields(["otp": "12 34"]))
        #expect(read.apply(.submit(button: "Go")) == ChallengeAnswer(.submitHTML("otp=12+34&go=Go")))
        _ = read.apply(.setHTMLFields(["nope": "1"]))
        #expect(read.note?.contains("nope") == true)
    }

    @Test("HTML with several forms: activating a later form's button answers with that form's data only")
    func severalForms() throws {
        let page = try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))])
        let form = HTMLForm(
            controls: [
                HTMLForm.Control(kind: .text, name: "otp", value: "12", form: 0),
                HTMLForm.Control(kind: .submitInput, name: "go", value: "Verify", form: 0),
                HTMLForm.Control(kind: .hidden, name: "action", value: "resend", form: 1),
                HTMLForm.Control(kind: .submitButton, name: nil, value: "", label: "Send a new code", form: 1),
                HTMLForm.Control(kind: .submitButton, name: nil, value: "", label: "Continue", form: 2),
            ], formCount: 3)
        var state = ChallengeFormState(screen: page, htmlReader: FixedFormReader(form))
        let resend = try #require(
            state.layout.elements.firstIndex { $0 == .htmlControl(index: 3) }, "the second form's button is laid out")
        _ = state.apply(.focus(resend))
        #expect(state.apply(.activate) == ChallengeAnswer(.submitHTML("action=resend")))
        #expect(state.apply(.submit(button: "Continue")) == ChallengeAnswer(.submitHTML("")), "no fields, still sent")
        #expect(state.apply(.submit(button: "Verify")) == ChallengeAnswer(.submitHTML("otp=12&go=Verify")))
    }

    @Test("the reserved URL maps to challengeHTMLDataEntry; other URLs do not")
    func reservedURL() {
        #expect(HTMLForm.challengeQuery("https://emv3ds/challenge?otp=1&x=%20") == "otp=1&x=%20")
        #expect(HTMLForm.challengeQuery("HTTPS://EMV3DS/challenge") == "")
        #expect(HTMLForm.challengeQuery("https://emv3ds.example/challenge?otp=1") == nil)
        #expect(HTMLForm.challengeQuery("http://emv3ds/challenge?otp=1") == nil)
    }

    @Test("focus moves over focusable elements only, wrapping; accessibility labels state what and how")
    func focusAndAccessibility() throws {
        var state = ChallengeFormState(
            screen: try formScreen("03", ["whyInfoLabel": .string("Why?"), "whyInfoText": .string("Because.")]))
        let order = state.focusOrder
        #expect(order.allSatisfy { state.layout.elements[$0].isFocusable } && order.first == state.focus)
        for _ in order { _ = state.apply(.focusNext) }
        #expect(state.focus == order.first)
        _ = state.apply(.focusPrevious)
        #expect(state.focus == order.last)
        let option = try #require(order.first)
        #expect(state.accessibilityLabel(of: option) == "Alpha, not selected")
        _ = state.apply(.focus(option))
        _ = state.apply(.toggle)
        #expect(state.accessibilityLabel(of: option) == "Alpha, selected")
        let section = try #require(order.last)
        #expect(state.accessibilityLabel(of: section) == "Why?, Show")
    }
}
