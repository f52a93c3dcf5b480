import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TerminalUI

/// The terminal presenter speaks the locale's language: the screen's SDK texts, the key help and the plain mode's
/// words all come from the table, so no English text that has a translation is left on screen.
@Suite("Terminal texts per language")
struct LocalizedTerminalTests {
    /// Screens whose ACS texts are digits and symbols only, so every word on screen is the SDK's.
    static func screens() throws -> [ChallengeScreen] {
        let neutral: [String: JSONValue] = [
            "challengeInfoHeader": .string("№ 1"), "challengeInfoLabel": .string("№ 2"),
            "challengeInfoText": .string("№ 3"), "submitAuthenticationLabel": .string("№ 4"),
        ]
        let options: JSONValue = .array([.object(["q1": .string("№ 5")]), .object(["q2": .string("№ 6")])])
        return [
            try screen(
                neutral.merging([
                    "acsUiType": .string("01"), "resendInformationLabel": .string("№ 7"),
                    "whitelistingInfoText": .string("№ 8"), "whyInfoText": .string("№ 9"),
                ]) { $1 }),
            try screen(
                neutral.merging(["acsUiType": .string("03"), "challengeSelectInfo": options]) { $1 }),
            try screen(
                neutral.merging([
                    "acsUiType": .string("04"), "oobContinueLabel": .string("№ 10"),
                ]) { $1 }),
        ]
    }

    /// Everything the renderer draws for the screens in a language: full screen and plain, with a note shown.
    static func drawn(_ language: String, width: Int = 80, modes: [Bool] = [false, true]) throws -> [String] {
        var lines: [String] = []
        for screen in try screens() {
            var form = state(screen, locale: language)
            _ = form.perform(.resend)
            _ = form.perform(.submit())
            for plain in modes {
                lines += LayoutRenderer(width: width, style: TerminalStyle(depth: .none), plain: plain).lines(form)
            }
        }
        return lines
    }

    /// The fragments of an English text between its placeholders, long enough to be words.
    static func fragments(_ text: String) -> [String] {
        text.replacingOccurrences(of: #"%(\d+\$)?[@d]"#, with: "\u{0}", options: .regularExpression)
            .split(separator: "\u{0}").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 2 }
    }

    /// Whether a text holds a phrase as whole words.
    static func holds(_ text: String, phrase: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: phrase)
        return text.range(of: #"(?<![\p{L}\p{N}])"# + escaped + #"(?![\p{L}\p{N}])"#, options: .regularExpression)
            != nil
    }

    @Test("no English text that has a translation is drawn", arguments: SDKStrings.languages.filter { $0 != "en" })
    func noEnglishLeft(language: String) throws {
        let strings = SDKStrings(locale: Locale(identifier: language))
        #expect(strings.language == language)
        let screen = try Self.drawn(language).joined(separator: "\n")
        for key in SDKStrings.Key.allCases where strings[key] != SDKStrings.english[key] {
            for fragment in Self.fragments(SDKStrings.english[key]) {
                // A fragment the translation itself keeps (a key name such as "Enter") is not English left over.
                guard !strings[key].contains(fragment) else { continue }
                #expect(!Self.holds(screen, phrase: fragment), "\(language): English \"\(fragment)\" (\(key)) drawn")
            }
        }
        #expect(screen.contains(strings[.keysHelp].prefix(12)) && screen.contains(strings[.keysHelpPlain].prefix(12)))
        #expect(screen.contains(strings[.secureCheckout]) && screen.contains(strings[.cancel]))
    }

    @Test("the English screen draws the English texts the check looks for")
    func englishIsFound() throws {
        let screen = try Self.drawn("en").joined(separator: "\n")
        for phrase in ["Secure checkout", "Tab/↑↓ move", "Keys: Tab next", "Text field", "not selected", "Choice"] {
            #expect(Self.holds(screen, phrase: phrase), "\(phrase)")
        }
        #expect(!Self.holds("Entered", phrase: "Enter") && Self.holds("(Enter)", phrase: "Enter"))
    }

    @Test("every language's full screens fit 80 columns", arguments: SDKStrings.languages)
    func fitsEightyColumns(language: String) throws {
        for line in try Self.drawn(language, modes: [false]) {
            #expect(LayoutRenderer.displayWidth(line) <= 80, "\(language): \(line)")
        }
    }

    @Test("right-to-left languages are drawn in logical order, left-aligned, without bidirectional controls")
    func rightToLeftIsNotMirrored() throws {
        #expect(LayoutRenderer.mirrorsRightToLeft == false)
        let controls = Set((0x200E...0x200F).map { $0 } + (0x202A...0x202E).map { $0 } + (0x2066...0x2069).map { $0 })
        for language in ["ar", "he"] {
            let strings = SDKStrings(locale: Locale(identifier: language))
            #expect(strings.isRightToLeft)
            let lines = try Self.drawn(language)
            // The toolbar as in every language: the title first (at the left), the cancel key at the right.
            #expect(lines.first?.hasPrefix(strings[.secureCheckout]) == true, "\(language): \(lines.first ?? "")")
            #expect(lines.first?.hasSuffix("[\(strings[.cancel]): Esc]") == true)
            #expect(lines.allSatisfy { !$0.unicodeScalars.contains { controls.contains(Int($0.value)) } })
            #expect(lines.joined(separator: " ").contains(strings[.keysHelp]))
        }
    }
}

@Suite("The terminal presenter draws the transaction's presentation (issue 35)")
struct TerminalPresentationTests {
    @Test("the processing line is in the app's language and progress colour, before any screen")
    func processingLine() throws {
        var look = UiCustomization()
        try look.progress.setIndicatorColor("#0B3D91")
        let presentation = PresentationSettings(
            uiCustomizations: [.default: look], strings: SDKStrings(locale: Locale(identifier: "de_DE")))
        let presenter = TerminalPresenter(
            mode: .line, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], outputIsTerminal: true)
        let line = presenter.processingLine(
            scheme: ProcessingScheme(directoryServerID: "A000000004", name: "Test Scheme"), presentation: presentation)
        let colour = TerminalStyle(depth: .truecolor).foreground(try HexColor("#0B3D91"))
        #expect(line.hasPrefix(colour + SDKStrings(locale: Locale(identifier: "de"))[.processing]), "\(line)")
        #expect(line.hasSuffix(" — Test Scheme (A000000004)" + TerminalStyle(depth: .truecolor).reset))
        let plain = TerminalPresenter(mode: .plain, environment: ["TERM": "dumb"], outputIsTerminal: false)
            .processingLine(scheme: nil, presentation: presentation)
        #expect(plain == SDKStrings(locale: Locale(identifier: "de"))[.processing], "no colour in plain mode")
    }

    @Test("its own look, texts and appearance are overrides the SDK applies once; the rest stays the app's")
    func overrides() throws {
        var own = UiCustomization()
        try own.toolbar.setHeaderText("Terminal")
        let presenter = TerminalPresenter(mode: .line, customization: own, appearance: .dark, outputIsTerminal: false)
        let transaction = PresentationSettings(strings: SDKStrings(locale: Locale(identifier: "fr_FR")))
        let applied = transaction.applying(presenter.presentationOverrides)
        #expect(applied.strings.language == "fr" && applied.appearance == .dark && applied.htmlReader != nil)
        let first = try #require(try LocalizedTerminalTests.screens().first)
        #expect(applied.formState(for: first).style.toolbar.headerText == "Terminal")
    }
}
