import Clocks
import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TerminalUI

private let ids = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

/// A screen from CRes fields, through the real validator.
func screen(_ fields: [String: JSONValue], version: String = "2.2.0") throws -> ChallengeScreen {
    var object: JSONObject = [
        "threeDSServerTransID": .string(ids.threeDSServerTransID), "acsTransID": .string(ids.acsTransID),
        "sdkTransID": .string(ids.sdkTransID),
        "acsCounterAtoS": .string("000"), "messageType": .string("CRes"), "messageVersion": .string(version),
        "challengeCompletionInd": .string("N"),
    ]
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) { object[name] = value }
    guard
        case .screen(let screen) = try ChallengeResponseValidator.validate(
            object,
            expecting: ChallengeResponseExpectation(
                identifiers: ids, messageVersion: try #require(MessageVersion(version)), acsCounter: 0,
                opensOOBApps: true))
    else {
        throw ProtocolViolation(.messageReceivedInvalid, detail: "not a screen")
    }
    return screen
}

let native: [String: JSONValue] = [
    "challengeInfoHeader": .string("Confirm"), "challengeInfoLabel": .string("Code"),
    "challengeInfoText": .string("Enter the code\nwe sent you."),
    "submitAuthenticationLabel": .string("Verify"),
]

func state(_ screen: ChallengeScreen, locale: String = "en_US", customization: UiCustomization = UiCustomization())
    -> ChallengeFormState
{
    ChallengeFormState(
        screen: screen,
        presentation: PresentationSettings(
            uiCustomizations: [.default: customization], strings: SDKStrings(locale: Locale(identifier: locale)),
            htmlReader: LibXML2FormReader()))
}

func render(_ state: ChallengeFormState, plain: Bool = false, width: Int = 48) -> String {
    LayoutRenderer(width: width, style: TerminalStyle(depth: .none), plain: plain).lines(state).joined(separator: "\n")
}

@Suite("Screen snapshots (text)")
struct SnapshotTests {
    @Test("text screen")
    func text() throws {
        let s = try screen(
            native.merging([
                "acsUiType": .string("01"), "resendInformationLabel": .string("New code"),
                "challengeInfoTextIndicator": .string("Y"), "whyInfoLabel": .string("Why?"),
                "whyInfoText": .string("Because."),
            ]) { $1 })
        #expect(
            render(state(s)) == """
                Secure checkout                    [Cancel: Esc]
                ────────────────────────────────────────────────
                Confirm
                (!) Warning: Enter the code
                we sent you.
                › Code: [_]
                  < Verify >
                  < New code >
                  ▸ Why?

                Tab/↑↓ move · Space toggle · Enter submit · Esc
                cancel
                """)
    }

    @Test("single and multi select")
    func selects() throws {
        let options: JSONValue = .array([.object(["a": .string("Alpha")]), .object(["b": .string("Beta")])])
        let single = try screen(native.merging(["acsUiType": .string("02"), "challengeSelectInfo": options]) { $1 })
        #expect(render(state(single)).contains("Code\n› ( ) Alpha\n  ( ) Beta\n  < Verify >"))
        var multi = state(
            try screen(native.merging(["acsUiType": .string("03"), "challengeSelectInfo": options]) { $1 }))
        _ = multi.handle(.space)
        #expect(render(multi).contains("› [x] Alpha\n  [ ] Beta"))
    }

    @Test("out of band, with the app link in 2.3.1 and the add-info after returning")
    func outOfBand() async throws {
        var oob = state(
            try screen(
                [
                    "acsUiType": .string("04"), "challengeInfoHeader": .string("Approve"),
                    "challengeInfoText": .string("Open your app."),
                    "oobContinueLabel": .string("Done"), "oobAppURL": .string("https://bank.example/app"),
                    "oobAppLabel": .string("Open bank"),
                    "challengeAddInfo": .string("Welcome back."),
                ], version: "2.3.1"))
        #expect(render(oob).contains("Open your app.\n› < Open bank >\n  < Done >"))
        #expect(oob.handle(.enter) == nil)
        #expect(oob.appToOpen == "https://bank.example/app")
        // The link handed on (the cardholder opens it): the screen stays with a note.
        #expect(oob.perform(.appOpenResult(.opened))?.answer == nil)
        #expect(oob.appToOpen == nil && oob.note?.contains("bank") == true)
        _ = oob.handle(.tab)
        #expect(oob.handle(.enter) == ChallengeAnswer(.oobContinue()))
        // Without opening the app, coming back shows the add-info and continues only on the button.
        var plain = state(
            try screen(
                [
                    "acsUiType": .string("04"), "challengeInfoHeader": .string("Approve"),
                    "challengeInfoText": .string("Open your app."), "oobContinueLabel": .string("Done"),
                    "challengeAddInfo": .string("Welcome back."),
                ], version: "2.3.1"))
        #expect(plain.perform(.returnedFromApp)?.answer == nil)
        #expect(render(plain).contains("Welcome back.") && !render(plain).contains("Open your app."))
    }

    @Test("HTML as readable text with its controls, each label once; no script text")
    func html() throws {
        let page =
            "<html><head><script>evil()</script></head><body><p>Enter code</p><form><input type=hidden name=t value=1><input name=otp><input type=checkbox name=keep value=y><button name=go value=ok>OK</button></form><a href='https://emv3ds/challenge?x=1'>Help</a></body></html>"
        let s = try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8)))])
        let text = render(state(s))
        #expect(!text.contains("evil"))
        // The page's paragraph, then each control and link once: no "Enter code OK Help" line repeating them.
        #expect(text.contains("Enter code\n› otp: []\n  [ ] keep\n  < OK >\n  <Help>"), "\(text)")
        #expect(text.components(separatedBy: "OK").count == 2 && text.components(separatedBy: "Help").count == 2)
    }

    @Test("2.3.1 information screen")
    func information() throws {
        let s = try screen(
            [
                "acsUiType": .string("07"), "challengeInfoHeader": .string("Note"),
                "challengeInfoText": .string("Read this."), "infoContinueLabel": .string("Next"),
            ], version: "2.3.1")
        #expect(render(state(s)).contains("Note\nRead this.\n› < Next >"))
    }

    @Test("plain mode names every control in words, nothing by colour or symbol alone")
    func plain() throws {
        let options: JSONValue = .array([.object(["a": .string("Alpha")])])
        let s = try screen(
            native.merging([
                "acsUiType": .string("03"), "challengeSelectInfo": options, "whitelistingInfoText": .string("Trust?"),
            ]) { $1 })
        let text = render(state(s), plain: true)
        #expect(text.contains("[focus] Checkbox Alpha, not selected"))
        #expect(text.contains("Button: Verify") && text.contains("Choice: Trust? — (y or n)"))
        #expect(text.contains("Button: Cancel (Esc)"))
        #expect(!text.contains("›") && !text.contains("▸"))
    }

    @Test(
        "SDK texts follow the locale; ACS texts are shown as sent",
        arguments: [
            ("de_DE", "Abbrechen"), ("fr_FR", "Annuler"), ("es_ES", "Cancelar"), ("it_IT", "Annulla"),
            ("nl_NL", "Annuleren"), ("pt_PT", "Cancelar"), ("ja_JP", "キャンセル"), ("sv_SE", "Avbryt"),
            ("zh_TW", "取消"), ("ar_EG", "إلغاء"), ("sw_KE", "Cancel"),
        ])
    func localization(locale: String, cancel: String) throws {
        let text = render(state(try screen(native.merging(["acsUiType": .string("01")]) { $1 }), locale: locale))
        #expect(text.contains("[\(cancel): Esc]") && text.contains("Enter the code"))
    }

    @Test("the customization's contrast warning is shown; colours follow the depth")
    func customization() throws {
        var ui = UiCustomization()
        try ui.toolbar.text.setColor("#777777")
        try ui.toolbar.setBackgroundColor("#888888")
        let s = try screen(native.merging(["acsUiType": .string("01")]) { $1 })
        #expect(render(state(s, customization: ui)).contains("(customization) toolbar text #777777 on #888888"))
        let colored =
            LayoutRenderer(width: 40, style: TerminalStyle(depth: .truecolor)).lines(state(s, customization: ui)).first
            ?? ""
        #expect(colored.contains("\u{1B}[38;2;119;119;119m") && colored.contains("\u{1B}[48;2;136;136;136m"))
        #expect(TerminalStyle(depth: .ansi256).foreground(try HexColor("#FF0000")) == "\u{1B}[38;5;196m")
        #expect(TerminalStyle(depth: .ansi16).background(try HexColor("#0000AA")) == "\u{1B}[44m")
        #expect(TerminalStyle(depth: .none).foreground(try HexColor("#FF0000")).isEmpty)
    }

    @Test("colour depth from the environment")
    func depth() {
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth.detect(["TERM": "dumb"]) == .none)
        #expect(ColorDepth.detect(["TERM": "xterm", "COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorDepth.detect(["TERM": "screen-256color"]) == .ansi256)
        #expect(ColorDepth.detect(["TERM": "vt100"]) == .ansi16)
        #expect(
            TerminalPresenter(
                mode: .fullScreen, customization: UiCustomization(),
                strings: SDKStrings(locale: Locale(identifier: "en")), environment: ["TERM": "dumb"]
            ).mode == .plain)
    }
}

@Suite("Keyboard interaction")
struct InteractionTests {
    @Test("typing, backspace, masked rendering, submit; Esc and Ctrl-C cancel")
    func text() throws {
        var s = state(try screen(native.merging(["acsUiType": .string("01")]) { $1 }))
        for key: TerminalKey in [.character("1"), .character("2"), .character("9"), .backspace, .character("3")] {
            #expect(s.handle(key) == nil)
        }
        #expect(render(s).contains("Code: [•••_]") && !render(s).contains("123"))
        #expect(s.handle(.enter) == ChallengeAnswer(.submitText("123")))
        #expect(s.handle(.escape) == ChallengeAnswer(.cancel))
        #expect(s.handle(.controlC) == ChallengeAnswer(.cancel))
    }

    @Test("focus moves with Tab and arrows, wrapping; resend and why-info")
    func focus() throws {
        var s = state(
            try screen(
                native.merging([
                    "acsUiType": .string("01"), "resendInformationLabel": .string("Again"),
                    "expandInfoLabel": .string("More"), "expandInfoText": .string("Details"),
                ]) { $1 }))
        _ = s.handle(.backTab)
        #expect(render(s).contains("› ▸ More"))
        _ = s.handle(.space)
        #expect(render(s).contains("› ▾ More\n    Details"))
        _ = s.handle(.tab)
        #expect(render(s).contains("› Code"))
        _ = s.handle(.down)
        _ = s.handle(.down)
        #expect(s.handle(.enter) == ChallengeAnswer(.resend))
    }

    @Test("selects: Space toggles, answers in option order, Enter on a single choice submits")
    func selects() throws {
        let options: JSONValue = .array([
            .object(["a": .string("A")]), .object(["b": .string("B")]), .object(["c": .string("C")]),
        ])
        var multi = state(
            try screen(native.merging(["acsUiType": .string("03"), "challengeSelectInfo": options]) { $1 }))
        _ = multi.handle(.down)
        _ = multi.handle(.down)
        _ = multi.handle(.space)
        _ = multi.handle(.up)
        _ = multi.handle(.up)
        _ = multi.handle(.space)
        _ = multi.handle(.tab)
        _ = multi.handle(.tab)
        _ = multi.handle(.tab)
        #expect(multi.handle(.enter) == ChallengeAnswer(.submitSelection(["a", "c"])))
        var single = state(
            try screen(native.merging(["acsUiType": .string("02"), "challengeSelectInfo": options]) { $1 }))
        _ = single.handle(.tab)
        #expect(single.handle(.enter) == ChallengeAnswer(.submitSelection(["b"])))
    }

    @Test("the trust question travels with the answer")
    func trust() throws {
        var s = state(
            try screen(native.merging(["acsUiType": .string("01"), "whitelistingInfoText": .string("Trust?")]) { $1 }))
        _ = s.handle(.character("7"))
        _ = s.handle(.backTab)
        _ = s.handle(.character("y"))
        _ = s.handle(.tab)
        #expect(s.handle(.enter) == ChallengeAnswer(.submitText("7"), whitelisting: true))
    }

    @Test("HTML: fields, checkbox, submit button and link; Ctrl-R applies acsHTMLRefresh")
    func html() throws {
        let page =
            "<form><input type=hidden name=t value=1><input name=otp><input type=checkbox name=keep value=y><button name=go value=ok>OK</button></form><a href='https://emv3ds/challenge?x=1'>Help</a>"
        let refresh = "<form><input name=otp2><button name=go value=again>Again</button></form>"
        var s = state(
            try screen([
                "acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8))),
                "acsHTMLRefresh": .string(Base64.urlEncode(Array(refresh.utf8))),
            ]))
        _ = s.handle(.character("4"))
        _ = s.handle(.character("2"))
        _ = s.handle(.tab)
        _ = s.handle(.space)
        _ = s.handle(.tab)
        #expect(s.handle(.enter) == ChallengeAnswer(.submitHTML("t=1&otp=42&keep=y&go=ok")))
        _ = s.handle(.tab)
        #expect(s.handle(.enter) == ChallengeAnswer(.submitHTML("x=1")))
        _ = s.handle(.refresh)
        #expect(s.refreshed && render(s).contains("Ctrl-R"))
        #expect(s.form?.controls.map(\.name) == ["otp2", "go"])
    }

    @Test("key decoding of terminal input bytes")
    func decoding() {
        #expect(
            TerminalKeyDecoder.decode([27, 91, 65, 27, 91, 90, 9, 13, 32, 3, 18, 127, 27]) == [
                .up, .backTab, .tab, .enter, .space, .controlC, .refresh, .backspace, .escape,
            ])
        #expect(TerminalKeyDecoder.decode(Array("aé".utf8)) == [.character("a"), .character("é")])
    }

    @Test("unknown escape sequences are ignored whole: never a cancel, never a character in a field")
    func unknownSequences() {
        let sequences: [(String, [UInt8])] = [
            ("Delete", [27, 91, 51, 126]), ("Home", [27, 91, 72]), ("Home (vt)", [27, 91, 49, 126]),
            ("End", [27, 91, 70]), ("End (vt)", [27, 91, 52, 126]), ("F1", [27, 79, 80]),
            ("F5", [27, 91, 49, 53, 126]),
            ("Page Down", [27, 91, 54, 126]), ("Alt-x", [27, 120]), ("Ctrl-Right", [27, 91, 49, 59, 53, 67]),
            ("Alt-é", [27, 0xC3, 0xA9]),
        ]
        for (name, bytes) in sequences {
            #expect(TerminalKeyDecoder.decode([49] + bytes + [50]) == [.character("1"), .character("2")], "\(name)")
        }
        // Application-mode arrows (Esc O A…) still move; a lone Esc and a double Esc cancel once each.
        #expect(TerminalKeyDecoder.decode([27, 79, 65, 27, 79, 66]) == [.up, .down])
        #expect(TerminalKeyDecoder.decode([27]) == [.escape])
        #expect(TerminalKeyDecoder.decode([27, 27]) == [.escape, .escape])
    }
}

@Suite("Progress dialog")
struct ProgressTests {
    static let scheme = ProcessingScheme(directoryServerID: "A000000004", name: "Scheme DS")

    @Test("stays visible at least 2 seconds once shown (test clock)")
    func minimumTime() async throws {
        let clock = TestClock()
        let indicator = RecordingProgressIndicator()
        let dialog = ProgressDialog(indicator: indicator, clock: clock, scheme: Self.scheme)
        await dialog.start()
        await dialog.start()
        let stopped = Task { await dialog.stop() }
        await clock.advance(by: .seconds(1))
        // Give a dialog that hid too early every chance to do so, without waiting in real time.
        for _ in 0..<1000 { await Task.yield() }
        #expect(indicator.events == [.show(Self.scheme)])
        // Past the 2 s (not onto them): a stop that starts its sleep only now finds its deadline gone.
        await clock.advance(by: .seconds(1) + .milliseconds(1))
        await stopped.value
        #expect(indicator.events == [.show(Self.scheme), .hide])
        let late = ProgressDialog(indicator: indicator, clock: clock, scheme: nil)
        await late.start()
        await clock.advance(by: .seconds(3))
        await late.stop()
        #expect(indicator.events.suffix(2) == [.show(nil), .hide])
    }
}

@Suite("Branding zone")
struct BrandingTests {
    @Test("images by density with fallback; alternative text, or inline where the terminal draws images")
    func images() throws {
        let s = try screen(
            native.merging([
                "acsUiType": .string("01"),
                "issuerImage": .object([
                    "medium": .string("https://a.example/m.png"), "extraHigh": .string("https://a.example/x.png"),
                ]),
            ]) { $1 })
        let high = ChallengeLayout(
            screen: s, customization: UiCustomization(), strings: SDKStrings(locale: Locale(identifier: "en")),
            density: .high)
        guard
            case .images(let issuer, let ps)? = high.elements.first(where: {
                if case .images = $0 { true } else { false }
            })
        else {
            Issue.record("no branding zone"); return
        }
        #expect(issuer?.url == "https://a.example/x.png" && ps == nil)
        let medium = ChallengeLayout(
            screen: s, customization: UiCustomization(), strings: SDKStrings(locale: Locale(identifier: "en")),
            density: .medium)
        #expect(
            medium.elements.contains(
                .images(
                    issuer: ImageReference(url: "https://a.example/m.png", alternativeText: "Image: issuer"),
                    paymentSystem: nil)))
        var state = ChallengeFormState(screen: s, presentation: PresentationSettings(density: .high))
        #expect(LayoutRenderer(width: 60, style: TerminalStyle(depth: .none)).lines(state).contains("[Image: issuer]"))
        state.images["https://a.example/x.png"] = [1, 2, 3]
        let inline = LayoutRenderer(width: 60, style: TerminalStyle(depth: .truecolor), inlineImages: true).lines(state)
        #expect(inline.contains { $0.contains("\u{1B}]1337;File=inline=1") && $0.contains("AQID") })
    }
}
