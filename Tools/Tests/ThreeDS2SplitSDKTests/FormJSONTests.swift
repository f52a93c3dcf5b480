import Clocks
import Foundation
import Logging
import NIOHTTP1
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SplitServer

/// The `present` step's form: the core's layout as JSON, texts in the session's language, the direction, the entry
/// rules and the resolved customization.
@Suite("Split-SDK form JSON")
struct FormJSONTests {
    static func screen() -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .text, messageVersion: .v2_3_1)
        screen.header = "Header"
        screen.infoText = "Enter the **code**"
        screen.entryBoxes = [EntryBox(label: "Code", keyboard: .numeric, autofill: .smsOneTimeCode, maxLength: 6)]
        screen.submitLabel = "Verify"
        screen.resendLabel = "New code"
        return screen
    }

    static func elements(_ form: JSONObject) -> [JSONObject] { objects(form["elements"]) }

    @Test("an Arabic session's form is right to left, with the core's texts and the entry's rules")
    func arabic() throws {
        let presentation = PresentationSettings(strings: SDKStrings(locale: Locale(identifier: "ar")))
        let form = FormJSON.form(ChallengeFormState(screen: Self.screen(), presentation: presentation))
        #expect(form["direction"] == .string("rtl"))
        #expect(form["language"] == .string("ar"))
        let elements = Self.elements(form)
        let toolbar = try #require(elements.first)
        #expect(toolbar["kind"] == .string("toolbar"))
        #expect(toolbar["cancelLabel"] == .string(presentation.strings[.cancel]))
        let entry = try #require(elements.first { $0["kind"] == .string("entry") })
        #expect(entry["keyboard"] == .string("numeric"))
        #expect(entry["autofill"] == .string("one-time-code"))
        guard case .object(let rules)? = entry["rules"] else { throw SplitTestError("no rules") }
        #expect(rules["maxLength"] == .number("6"))
        #expect(rules["maxBytes"] == .number("45"))
        let actions = elements.filter { $0["kind"] == .string("button") }.compactMap { $0["action"]?.stringValue }
        #expect(actions.contains("submit"))
        #expect(actions.contains("resend"))
    }

    @Test("the app's customization arrives resolved to colours and sizes")
    func customization() throws {
        var customization = UiCustomization()
        try customization.toolbar.setBackgroundColor("#123456")
        let presentation = PresentationSettings(uiCustomizations: [.default: customization])
        let form = FormJSON.form(ChallengeFormState(screen: Self.screen(), presentation: presentation))
        guard case .object(let style)? = form["style"], case .object(let toolbar)? = style["toolbar"] else {
            throw SplitTestError("no style")
        }
        #expect(toolbar["backgroundColor"] == .string("#123456"))
    }
}
