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
        #expect(state.perform(.type("12"))?.answer == nil && state.perform(.type("39"))?.answer == nil)
        #expect(state.perform(.deleteBackward)?.answer == nil && state.entry == "123")
        #expect(state.perform(.type(String(repeating: "9", count: 60)))?.answer == nil && state.entry.count == 45)
        _ = state.perform(.setEntry("4242"))
        #expect(state.perform(.submit())?.answer == ChallengeAnswer(.submitText("4242")))
        #expect(state.entry.isEmpty, "the entered code leaves the form state once its answer is sent")
        _ = state.perform(.setEntry("4242"))
        #expect(state.perform(.activate)?.answer == ChallengeAnswer(.submitText("4242")), "Enter in the field submits")
    }

    @Test("entry limits are UTF-8 bytes, enforced on the screen: typing stops, a whole answer is refused with a note")
    func entryLimits() throws {
        var state = ChallengeFormState(screen: try formScreen("01"))
        _ = state.perform(.type(String(repeating: "é", count: 30)))
        #expect(state.entry == String(repeating: "é", count: 22) && state.note != nil, "44 of 45 bytes kept")
        #expect(state.perform(.setEntry(String(repeating: "1", count: 46)))?.answer == nil && state.note != nil)
        #expect(state.entry.utf8.count == 44, "a refused answer leaves the entry as it was")
        #expect(state.perform(.setEntry(String(repeating: "1", count: 45)))?.answer == nil && state.note == nil)
        #expect(state.perform(.submit())?.answer == ChallengeAnswer(.submitText(String(repeating: "1", count: 45))))

        let longKeys: JSONValue = .array((0..<4).map { .object(["option-key-number-\($0)": .string("L\($0)")]) })
        var multi = ChallengeFormState(screen: try formScreen("03", ["challengeSelectInfo": longKeys]))
        #expect(multi.perform(.select((0..<4).map { "option-key-number-\($0)" }))?.answer == nil && multi.note != nil)
        _ = multi.perform(.select(["option-key-number-0", "option-key-number-1"]))
        #expect(
            multi.perform(.submit())?.answer
                == ChallengeAnswer(.submitSelection(["option-key-number-0", "option-key-number-1"])))

        let page = try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))])
        let form = HTMLForm(controls: [HTMLForm.Control(kind: .textarea, name: "t", value: "")])
        var html = ChallengeFormState(
            screen: page, presentation: PresentationSettings(htmlReader: FixedFormReader(form)))
        _ = html.perform(.setHTMLFields(["t": String(repeating: "x", count: 300)]))
        #expect(html.perform(.submit())?.answer == nil && html.note?.contains("256") == true)
    }

    @Test("an empty submission: challengeNoEntry from 2.2.0, refused on the screen in 2.1.0")
    func emptySubmission() throws {
        var modern = ChallengeFormState(screen: try formScreen("01"))
        #expect(modern.canSubmit && modern.perform(.submit())?.answer == ChallengeAnswer(.submitEmpty))
        var old = ChallengeFormState(screen: try formScreen("01", version: .v2_1_0))
        #expect(!old.canSubmit)
        #expect(old.perform(.submit())?.answer == nil && old.note != nil, "the screen says why; nothing is sent")
        var select = ChallengeFormState(screen: try formScreen("02", version: .v2_1_0))
        #expect(select.perform(.submit())?.answer == nil && select.note == SDKStrings.english[.chooseOption])
    }

    @Test("select: unknown keys are refused, a single select keeps one, answers go in option order")
    func select() throws {
        var multi = ChallengeFormState(screen: try formScreen("03"))
        #expect(multi.perform(.select(["z"]))?.answer == nil && multi.note?.contains("z") == true)
        _ = multi.perform(.select(["c", "a"]))
        #expect(multi.perform(.submit())?.answer == ChallengeAnswer(.submitSelection(["a", "c"])))
        var single = ChallengeFormState(screen: try formScreen("02"))
        _ = single.perform(.select(["b", "c"]))
        #expect(single.chosen == ["b"])
        var keyboard = ChallengeFormState(screen: try formScreen("02"))
        _ = keyboard.perform(.focusNext)
        #expect(
            keyboard.perform(.activate)?.answer == ChallengeAnswer(.submitSelection(["b"])),
            "Enter on an option picks it")
    }

    @Test("continue means oobContinue on UI 04 and informationContinue on UI 07, nothing elsewhere")
    func continueMapping() throws {
        var oob = ChallengeFormState(screen: try formScreen("04", ["oobContinueLabel": .string("Done")]))
        #expect(oob.perform(.continueChallenge)?.answer == ChallengeAnswer(.oobContinue()))
        var info = ChallengeFormState(
            screen: try formScreen("07", ["infoContinueLabel": .string("OK")], version: .v2_3_1))
        #expect(info.perform(.continueChallenge)?.answer == ChallengeAnswer(.informationContinue))
        var text = ChallengeFormState(screen: try formScreen("01"))
        #expect(text.perform(.continueChallenge)?.answer == nil)
    }

    @Test("resend only where the ACS offers it; cancel anywhere; the trust answer travels with the action")
    func resendCancelTrust() throws {
        var plain = ChallengeFormState(screen: try formScreen("01"))
        #expect(plain.perform(.resend)?.answer == nil && plain.note != nil)
        #expect(plain.perform(.cancel)?.answer == ChallengeAnswer(.cancel))
        var offered = ChallengeFormState(
            screen: try formScreen(
                "01", ["resendInformationLabel": .string("New"), "whitelistingInfoText": .string("Trust?")]))
        #expect(offered.perform(.resend)?.answer == ChallengeAnswer(.resend))
        _ = offered.perform(.setTrust(true))
        _ = offered.perform(.setEntry("1"))
        #expect(offered.perform(.submit())?.answer == ChallengeAnswer(.submitText("1"), whitelisting: true))
        var unasked = ChallengeFormState(screen: try formScreen("01"))
        _ = unasked.perform(.setTrust(true))
        #expect(unasked.trust == nil, "no question, no answer")
    }

    @Test("HTML: without a reader there are no controls; with one, fields fill and the button submits")
    func html() throws {
        let page = try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))])
        var bare = ChallengeFormState(screen: page)
        #expect(bare.form == nil && bare.perform(.submit())?.answer == nil && bare.note != nil)
        let form = HTMLForm(
            controls: [
                HTMLForm.Control(kind: .text, name: "otp", value: ""),
                HTMLForm.Control(kind: .submitInput, name: "go", value: "Go"),
            ], method: "post", action: "https://emv3ds/challenge")
        var read = ChallengeFormState(
            screen: page, presentation: PresentationSettings(htmlReader: FixedFormReader(form)))
        _ = read.perform(.setHTMLFields(["otp": "12 34"]))
        #expect(read.perform(.submit(button: "Go"))?.answer == ChallengeAnswer(.submitHTML("otp=12+34&go=Go")))
        _ = read.perform(.setHTMLFields(["nope": "1"]))
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
        var state = ChallengeFormState(
            screen: page, presentation: PresentationSettings(htmlReader: FixedFormReader(form)))
        let resend = try #require(
            state.layout.elements.firstIndex { $0 == .htmlControl(index: 3) }, "the second form's button is laid out")
        _ = state.perform(.focus(resend))
        #expect(state.perform(.activate)?.answer == ChallengeAnswer(.submitHTML("action=resend")))
        #expect(
            state.perform(.submit(button: "Continue"))?.answer == ChallengeAnswer(.submitHTML("")),
            "no fields, still sent")
        #expect(state.perform(.submit(button: "Verify"))?.answer == ChallengeAnswer(.submitHTML("otp=12&go=Verify")))
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
        for _ in order { _ = state.perform(.focusNext) }
        #expect(state.focus == order.first)
        _ = state.perform(.focusPrevious)
        #expect(state.focus == order.last)
        let option = try #require(order.first)
        #expect(state.accessibilityLabel(of: option) == "Alpha, not selected")
        _ = state.perform(.focus(option))
        _ = state.perform(.toggle)
        #expect(state.accessibilityLabel(of: option) == "Alpha, selected")
        let section = try #require(order.last)
        #expect(state.accessibilityLabel(of: section) == "Why?, Show")
    }
}
