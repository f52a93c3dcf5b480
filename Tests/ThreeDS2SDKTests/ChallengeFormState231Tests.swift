import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

@Suite("Challenge form state, 2.3.1")
struct ChallengeFormState231Tests {
    let twoBoxes: [String: JSONValue] = [
        "challengeEntryBox": .object([
            "challengeDataEntryLabel": .string("Code"), "challengeDataEntryLengthMax": .string("06"),
            "challengeDataEntryMasking": .string("Y"), "challengeDataEntryToggle": .string("Y"),
        ]),
        "challengeEntryBoxTwo": .object([
            "challengeDataEntryLabel": .string("Year"), "challengeDataEntryLengthMax": .string("04"),
        ]),
    ]

    @Test("two entry boxes: each typed in its own field, bounded by its own length, both in the answer")
    func twoBoxesEntry() throws {
        var state = ChallengeFormState(screen: try formScreen("01", twoBoxes, version: .v2_3_1))
        #expect(state.entries == ["", ""])
        let fields = state.layout.elements.compactMap { element -> Int? in
            if case .textField(let box, _) = element { return box }
            return nil
        }
        #expect(fields == [0, 1])
        _ = state.perform(.type("1234567"))
        #expect(state.entries[0] == "123456" && state.note != nil, "cut at the box's 6 with a note")
        _ = state.perform(.focusNext)
        _ = state.perform(.type("19901"))
        #expect(state.entries[1] == "1990")
        #expect(
            state.perform(.setEntry("12345", box: 1))?.answer == nil && state.entries[1] == "1990",
            "a whole answer too long is refused")
        #expect(state.perform(.setEntry("x", box: 2))?.answer == nil && state.note?.contains("no entry box 3") == true)
        #expect(state.perform(.submit())?.answer == ChallengeAnswer(.submitText("123456", second: "1990")))
    }

    @Test("autofill only where the ACS enabled it in 2.3.1; a one-time code in 2.1.0 and 2.2.0, where it cannot ask")
    func autofillHints() throws {
        // No challengeDataEntryAutofill: 2.3.1 defines autofill as disabled, so no hint at all.
        let none = ChallengeFormState(screen: try formScreen("01", twoBoxes, version: .v2_3_1))
        #expect(none.autofill(box: 0) == nil && none.autofill(box: 1) == nil)
        func enabled(_ type: String) throws -> ChallengeFormState {
            let box: JSONValue = .object([
                "challengeDataEntryLabel": .string("Code"), "challengeDataEntryAutofill": .string("Y"),
                "challengeDataEntryAutofillType": .string(type),
            ])
            return ChallengeFormState(screen: try formScreen("01", ["challengeEntryBox": box], version: .v2_3_1))
        }
        #expect(try enabled("01").autofill(box: 0) == .smsOneTimeCode)
        #expect(try enabled("02").autofill(box: 0) == .password)
        // 2.1.0 and 2.2.0 carry no autofill elements: the documented choice is a one-time code.
        #expect(ChallengeFormState(screen: try formScreen("01")).autofill(box: 0) == .smsOneTimeCode)
        let v210 = ChallengeFormState(screen: try formScreen("01", version: .v2_1_0))
        #expect(v210.autofill(box: 0) == .smsOneTimeCode)
    }

    @Test("masking follows the ACS; the reveal toggle works only where offered")
    func reveal() throws {
        var state = ChallengeFormState(screen: try formScreen("01", twoBoxes, version: .v2_3_1))
        #expect(state.isMasked(box: 0) && !state.isMasked(box: 1))
        _ = state.perform(.toggleReveal)
        #expect(!state.isMasked(box: 0))
        _ = state.perform(.toggleReveal)
        #expect(state.isMasked(box: 0))
        _ = state.perform(.focusNext)
        _ = state.perform(.toggleReveal)
        #expect(!state.isMasked(box: 1) && state.revealed == [])
        // 2.2.0: one masked box, no toggle.
        var old = ChallengeFormState(screen: try formScreen("01"))
        _ = old.perform(.toggleReveal)
        #expect(old.isMasked(box: 0) && old.entries.count == 1)
    }

    @Test("consents: both asked, toggled by focus or set directly, above the buttons when asked; in every answer")
    func consents() throws {
        let fields: [String: JSONValue] = [
            "trustListInfoText": .string("Trust?"), "deviceBindingInfoText": .string("Bind?"),
            "togglePositionInd": .string("01"),
        ]
        var state = ChallengeFormState(screen: try formScreen("01", fields, version: .v2_3_1))
        let order = state.layout.elements.compactMap { element -> String? in
            switch element {
            case .consent(.trust, _): "trust"
            case .consent(.deviceBinding, _): "binding"
            case .button(.submit, _): "submit"
            default: nil
            }
        }
        #expect(order == ["trust", "binding", "submit"])
        _ = state.perform(.setDeviceBinding(true))
        _ = state.perform(.type("1"))
        #expect(state.perform(.submit())?.answer == ChallengeAnswer(.submitText("1", second: nil), deviceBinding: true))
        var below = ChallengeFormState(
            screen: try formScreen(
                "01", ["trustListInfoText": .string("Trust?"), "resendInformationLabel": .string("Again")],
                version: .v2_3_1))
        let last = below.layout.elements.lastIndex { if case .consent = $0 { true } else { false } } ?? -1
        let submit = below.layout.elements.firstIndex { if case .button(.submit, _) = $0 { true } else { false } } ?? -1
        #expect(last > submit, "without togglePositionInd the consents follow the buttons")
        _ = below.perform(.setDeviceBinding(true))
        #expect(below.deviceBinding == nil, "a question not asked cannot be answered")
        _ = below.perform(.setTrust(true))
        #expect(
            below.perform(.resend)?.answer == ChallengeAnswer(.resend, whitelisting: true),
            "the consent goes with a resend")
        // Resend: select screens before 2.3.1 only.
        var select220 = ChallengeFormState(screen: try formScreen("02", ["resendInformationLabel": .string("Again")]))
        #expect(select220.perform(.resend)?.answer == ChallengeAnswer(.resend))
        var select231 = ChallengeFormState(
            screen: try formScreen("02", ["resendInformationLabel": .string("Again")], version: .v2_3_1))
        #expect(select231.perform(.resend)?.answer == nil && select231.note != nil)
    }

    @Test("the additional-code button answers challengeAddCode with the consents; refused where not offered")
    func additional() throws {
        var state = ChallengeFormState(
            screen: try formScreen(
                "02", ["challengeAddLabel": .string("Another way"), "trustListInfoText": .string("T?")],
                version: .v2_3_1))
        #expect(state.layout.elements.contains(.button(.additional, label: "Another way")))
        _ = state.perform(.setTrust(true))
        #expect(state.perform(.additionalCode)?.answer == ChallengeAnswer(.additionalCode, whitelisting: true))
        var plain = ChallengeFormState(screen: try formScreen("01", [:], version: .v2_3_1))
        #expect(plain.perform(.additionalCode)?.answer == nil && plain.note != nil)
    }

    @Test("open app: returned continues with oobContinue 02; opened waits for continue; failed reports on continue")
    func openApp() async throws {
        let fields: [String: JSONValue] = [
            "oobContinueLabel": .string("Done"), "oobAppURL": .string("https://bank.example/app"),
            "oobAppLabel": .string("Open"),
        ]
        var state = ChallengeFormState(screen: try formScreen("04", fields, version: .v2_3_1))
        #expect(state.focusedElement == .button(.openOOBApp, label: "Open"))
        #expect(state.perform(.activate) == .openApp(URL(string: "https://bank.example/app")!))
        #expect(state.appToOpen == "https://bank.example/app")
        #expect(state.perform(.appOpenResult(.returned))?.answer == ChallengeAnswer(.oobContinue(automatic: true)))

        var opened = ChallengeFormState(screen: try formScreen("04", fields, version: .v2_3_1))
        _ = opened.perform(.openApp)
        #expect(opened.perform(.appOpenResult(.opened))?.answer == nil)
        #expect(opened.openedApp && opened.appToOpen == nil)
        #expect(opened.perform(.continueChallenge)?.answer == ChallengeAnswer(.oobContinue()))

        var failed = ChallengeFormState(screen: try formScreen("04", fields, version: .v2_3_1))
        _ = failed.perform(.openApp)
        #expect(failed.perform(.appOpenResult(.failed))?.answer == nil)
        #expect(failed.appOpenFailed && failed.note != nil)
        #expect(failed.perform(.continueChallenge)?.answer == ChallengeAnswer(.oobContinue(), oobAppOpenFailed: true))
        #expect(failed.perform(.cancel)?.answer == ChallengeAnswer(.cancel))

        // Nothing to open without a link; openApp without a request does nothing.
        var none = ChallengeFormState(
            screen: try formScreen("04", ["oobContinueLabel": .string("Done")], version: .v2_3_1))
        #expect(none.perform(.openApp)?.answer == nil && none.appToOpen == nil && none.note != nil)
        #expect(none.perform(.appOpenResult(.returned)) == nil && !none.openedApp)
    }

    @Test("UI 06: the page's submission carries the form data; back from the app continues with 02")
    func htmlOutOfBand() async throws {
        let html = Base64.urlEncode(Array("<form action=\"HTTPS://EMV3DS/challenge\"></form>".utf8))
        var state = ChallengeFormState(
            screen: try formScreen(
                "06", ["acsHTML": .string(html), "oobAppURL": .string("https://bank.example/app")], version: .v2_3_1))
        #expect(state.layout.elements.contains(.button(.openOOBApp, label: "Open app")))
        _ = state.perform(.openApp)
        #expect(state.perform(.appOpenResult(.returned))?.answer == ChallengeAnswer(.oobContinue(automatic: true)))
    }

    @Test("2.3.1 images follow the appearance in the layout")
    func images() throws {
        let shown = try formScreen(
            "01",
            [
                "issuerImage": .object([
                    "default": .string("https://i.example/d.png"), "monochrome": .string("https://i.example/m.png"),
                ])
            ], version: .v2_3_1)
        for (appearance, url) in [(ImageAppearance.default, "d"), (.dark, "d"), (.monochrome, "m")] {
            let state = ChallengeFormState(screen: shown, presentation: PresentationSettings(appearance: appearance))
            #expect(
                state.layout.elements.contains { element in
                    if case .images(let issuer?, _) = element { return issuer.url == "https://i.example/\(url).png" }
                    return false
                })
        }
    }
}

@Suite("Challenge form state: Enter as in a browser")
struct ChallengeFormStateEnterTests {
    @Test("Enter on a single-select option sends that option, even when it was already chosen")
    func singleSelectEnter() throws {
        var state = ChallengeFormState(screen: try formScreen("02"))
        _ = state.perform(.toggle)
        #expect(state.chosen == ["a"])
        #expect(state.perform(.activate)?.answer == ChallengeAnswer(.submitSelection(["a"])), "not unchosen by Enter")
    }

    @Test("a single select with nothing chosen asks instead of sending challengeNoEntry; a multi select may send none")
    func emptySingleSelect() throws {
        var single = ChallengeFormState(screen: try formScreen("02"))
        #expect(!single.canSubmit)
        #expect(single.perform(.submit())?.answer == nil && single.note != nil)
        var multi = ChallengeFormState(screen: try formScreen("03"))
        #expect(multi.perform(.submit())?.answer == ChallengeAnswer(.submitEmpty))
    }

    @Test("Enter on a multi-select checkbox ticks it, as Space does, and never sends; the submit button sends")
    func multiSelectEnter() throws {
        var state = ChallengeFormState(screen: try formScreen("03"))
        #expect(
            state.perform(.activate)?.answer == nil, "Enter on an unticked checkbox must not send an empty selection")
        #expect(state.chosen == ["a"])
        _ = state.perform(.focusNext)
        _ = state.perform(.focusNext)
        _ = state.perform(.toggle)
        #expect(state.perform(.activate)?.answer == nil && state.chosen == ["a"], "Enter unticks c again")
        _ = state.perform(.toggle)
        #expect(state.perform(.submit())?.answer == ChallengeAnswer(.submitSelection(["a", "c"])))
    }

    @Test("typed option numbers: out of range or not a number is refused, named, and nothing is chosen")
    func numberedSelection() throws {
        var multi = ChallengeFormState(screen: try formScreen("03"))
        for slip in ["5", "abc", "1,9", "0", "1, x"] {
            #expect(multi.perform(.selectNumbered(slip))?.answer == nil)
            #expect(multi.note != nil && multi.chosen.isEmpty, "\(slip)")
        }
        #expect(multi.perform(.selectNumbered(""))?.answer == nil && multi.note != nil, "nothing typed: asked again")
        #expect(multi.perform(.selectNumbered("3, 1"))?.answer == nil && multi.note == nil)
        #expect(multi.perform(.submit())?.answer == ChallengeAnswer(.submitSelection(["a", "c"])))
        var single = ChallengeFormState(screen: try formScreen("02"))
        _ = single.perform(.selectNumbered("2"))
        #expect(single.perform(.submit())?.answer == ChallengeAnswer(.submitSelection(["b"])))
    }

    @Test("a consent is yes or no in the language's words, their first letters or y/n; anything else is nil")
    func consentAnswers() throws {
        let english = ChallengeFormState(screen: try formScreen("03"))
        for (typed, answer) in [("y", true), ("Yes", true), (" n ", false), ("NO", false)] {
            #expect(english.consentAnswer(typed) == answer, "\(typed)")
        }
        for typed in ["maybe", "", "123456", "yes please"] { #expect(english.consentAnswer(typed) == nil, "\(typed)") }
        let german = ChallengeFormState(
            screen: try formScreen("03"),
            presentation: PresentationSettings(strings: SDKStrings(locale: Locale(identifier: "de_DE"))))
        #expect(german.consentAnswer("j") == true && german.consentAnswer("Ja") == true)
        #expect(german.consentAnswer("nein") == false && german.consentAnswer("n") == false)
    }

    @Test("Enter in an HTML text field submits its form with the first submit button")
    func htmlFieldEnter() throws {
        let form = HTMLForm(
            controls: [
                HTMLForm.Control(kind: .text, name: "otp", value: ""),
                HTMLForm.Control(kind: .submitButton, name: "action", value: "verify", label: "Verify"),
            ], action: "https://emv3ds/challenge", text: "Code")
        var state = ChallengeFormState(
            screen: try formScreen("05", ["acsHTML": .string(Base64.urlEncode(Array("<form></form>".utf8)))]),
            presentation: PresentationSettings(htmlReader: FixedFormReader(form)))
        _ = state.perform(.type("123456"))
        #expect(state.perform(.activate)?.answer == ChallengeAnswer(.submitHTML("otp=123456&action=verify")))
    }
}
