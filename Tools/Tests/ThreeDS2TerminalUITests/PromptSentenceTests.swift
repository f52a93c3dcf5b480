import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

@testable import ThreeDS2TerminalUI

/// Every terminal prompt is one sentence of the terminal's table in the screen's language: no English command word,
/// no English punctuation around a translated sentence; the keys a person types are the table's, in both modes.
@Suite("Terminal prompts as whole sentences")
struct PromptSentenceTests {
    /// Screens offering every prompt and command, their ACS texts digits and symbols only (so every word is ours).
    static func screens() throws -> [ChallengeScreen] {
        let neutral: [String: JSONValue] = [
            "challengeInfoHeader": .string("№ 1"), "challengeInfoLabel": .string("№ 2"),
            "challengeInfoText": .string("№ 3"), "submitAuthenticationLabel": .string("№ 4"),
        ]
        let options: JSONValue = .array([.object(["q1": .string("№ 5")]), .object(["q2": .string("№ 6")])])
        let oneField =
            "<form action='https://emv3ds/challenge'><input name=otp><button name=a value=v>№ 8</button>"
            + "<button name=b value=w>№ 9</button></form>"
        let twoFields =
            "<form action='https://emv3ds/challenge'><input name=u><input name=p><button>№ 8</button></form>"
        func make(_ fields: [String: JSONValue], _ version: String = "2.3.1") throws -> ChallengeScreen {
            try screen(neutral.merging(fields) { $1 }, version: version)
        }
        return [
            try make([
                "acsUiType": .string("01"), "resendInformationLabel": .string("№ 7"),
                "challengeAddLabel": .string("№ 10"), "trustListInfoText": .string("№ 11"),
                "deviceBindingInfoText": .string("№ 12"),
                "challengeEntryBox": .object(["challengeDataEntryLabel": .string("№ 2")]),
            ]),
            try make(["acsUiType": .string("02"), "challengeSelectInfo": options]),
            try make(["acsUiType": .string("03"), "challengeSelectInfo": options]),
            try make([
                "acsUiType": .string("04"), "oobContinueLabel": .string("№ 13"),
                "oobAppURL": .string("https://b.example/a"),
                "oobAppLabel": .string("№ 14"),
            ]),
            try make(["acsUiType": .string("07"), "infoContinueLabel": .string("№ 15")]),
            try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(oneField.utf8)))]),
            try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(twoFields.utf8)))]),
        ]
    }

    /// Every prompt of the terminal in a language: each screen's command lines and question, its consent questions,
    /// the full screen's key help and consent row with a consent focused, and the plain consent row.
    static func prompts(_ language: String) throws -> [String] {
        let strings = SDKStrings(locale: Locale(identifier: language))
        let presenter = TerminalPresenter(
            mode: .line, strings: strings, environment: ["TERM": "xterm"], outputIsTerminal: false)
        var prompts: [String] = []
        for screen in try screens() {
            var form = state(screen, locale: language)
            let (lines, question) = presenter.lineQuestion(form, width: 1000)
            prompts += lines.filter { !$0.hasPrefix("  ") } + [question]
            prompts += presenter.consentPrompts(screen).map(\.prompt)
            guard !presenter.consentPrompts(screen).isEmpty else { continue }
            prompts.append(TerminalStrings(for: strings).format(.answer, "№ 16"))
            Self.focusTrust(&form)
            // The full screen's consent row and key help; the plain mode's key help.
            for plain in [false, true] {
                let drawn = LayoutRenderer(width: 1000, style: TerminalStyle(depth: .none), plain: plain).lines(form)
                prompts += drawn.filter { (!plain && $0.contains("№ 11")) || $0.contains("Tab") }
            }
        }
        return prompts
    }

    /// Moves the focus to the trust-list consent row.
    static func focusTrust(_ form: inout ChallengeFormState) {
        for _ in form.focusOrder {
            if case .consent(.trust, _) = form.focusedElement { return }
            _ = form.perform(.focusNext)
        }
    }

    /// The typed words and answers of English, which a translated prompt must not show.
    static let englishWords = ["cancel", "resend", "additional", "open", "yes", "no", "or", "type", "press"]

    /// Whether a text holds a word as a whole word, whatever the case.
    static func holds(_ text: String, word: String) -> Bool {
        text.range(
            of: #"(?<![\p{L}\p{N}])"# + word + #"(?![\p{L}\p{N}])"#, options: [.regularExpression, .caseInsensitive])
            != nil
    }

    /// The punctuation a language does not write, as English does.
    static let foreignPunctuation: [String: [String]] = [
        // Arabic writes its own comma, semicolon and question mark; its quotation marks are « ».
        "ar": [",", ";", "?", "“", "”", "'"],
        // Japanese and Chinese: full-width comma, colon and brackets, 「」 or “” around a quoted word.
        "ja": [",", ":", "(", ")", "'", "“", "”"],
        "zh-Hans": [",", ":", "(", ")", "'", "「", "」"],
        // German quotes „…“, never “…” or '…'.
        "de": ["”", "'", "\""],
        // French: « … » with no-break spaces, a no-break space before : ; ? !, never “…” or '…'.
        "fr": ["“", "”", "'", " :", " ?", " ;", "«\u{20}", "\u{20}»"],
    ]

    @Test(
        "every prompt in ar, ja, zh-Hans, de and fr: no English command word, no English punctuation",
        arguments: ["ar", "ja", "zh-Hans", "de", "fr"])
    func noEnglishInPrompts(language: String) throws {
        let prompts = try Self.prompts(language)
        #expect(prompts.count >= 15, "\(language): \(prompts.count) prompts")
        let texts = TerminalStrings(language: language)
        for prompt in prompts {
            // The ACS's own texts (№ n) and the page's field names (otp, u, p) are not the prompt's words.
            let ours = prompt.replacingOccurrences(of: #"№ \d+|https://\S+"#, with: "", options: .regularExpression)
            for word in Self.englishWords {
                #expect(!Self.holds(ours, word: word), "\(language): English \"\(word)\" in \"\(prompt)\"")
            }
            for mark in Self.foreignPunctuation[language] ?? [] {
                #expect(!ours.contains(mark), "\(language): \"\(mark)\" in \"\(prompt)\"")
            }
        }
        let all = prompts.joined(separator: "\n")
        for command in TerminalStrings.Command.allCases {
            #expect(all.contains(texts.word(command)), "\(language): the word for \(command) is offered")
        }
        #expect(all.contains("\(texts.answerKeys.yes)/\(texts.answerKeys.no)"), "\(language): the answer keys")
    }

    @Test("the English prompts are found by the same check (it can fail)")
    func englishIsFound() throws {
        let all = try Self.prompts("en").joined(separator: "\n")
        for word in ["cancel", "resend", "additional", "open", "Type", "Press"] {
            #expect(Self.holds(all, word: word), "\(word)")
        }
        #expect(all.contains("[y/n]: ") && all.contains("(y/n)") && all.contains(" (type “cancel” to cancel):"))
    }

    @Test("both modes take the table's answer keys (and y/n) alike, in every language", arguments: SDKStrings.languages)
    func sameKeysBothModes(language: String) throws {
        let texts = TerminalStrings(language: language)
        var form = state(try Self.screens()[0], locale: language)
        Self.focusTrust(&form)
        let (yes, no) = texts.answerKeys
        for (key, meaning) in [(yes, true), (no, false), ("y", true), ("n", false), (yes.uppercased(), true)] {
            let character = try #require(key.first)
            // Full screen: the key pressed on the focused consent row.
            #expect(form.action(for: .character(character)) == .setTrust(meaning), "\(language) \(key)")
            // Line mode: the line typed at the consent question.
            #expect(texts.consentKey(key) == meaning, "\(language) \(key)")
        }
        #expect(form.action(for: .character("?")) == nil && texts.consentKey("?") == nil)
    }

    @Test("German: j answers yes on a full-screen consent row, as the German key help says")
    func germanJ() throws {
        var form = state(try Self.screens()[0], locale: "de")
        Self.focusTrust(&form)
        guard case .consent(.trust, _) = form.focusedElement else {
            Issue.record("no consent row")
            return
        }
        #expect(form.action(for: .character("j")) == .setTrust(true))
        let help = LayoutRenderer(width: 200, style: TerminalStyle(depth: .none)).lines(form).joined(separator: "\n")
        #expect(help.contains("j/n") && !help.contains("y/n"), "\(help)")
    }
}

@Suite("Column arithmetic of CJK, Arabic and ambiguous-width text")
struct DisplayWidthTests {
    @Test("wide, narrow, zero-width and ambiguous characters")
    func widths() {
        #expect(LayoutRenderer.displayWidth("送出") == 4 && LayoutRenderer.displayWidth("キャンセル") == 10)
        #expect(LayoutRenderer.displayWidth("취소") == 4 && LayoutRenderer.displayWidth("：（）") == 6)
        // Arabic letters take one column each; its vowel marks (harakat) none.
        #expect(LayoutRenderer.displayWidth("إلغاء") == 5 && LayoutRenderer.displayWidth("حَرْف") == 3)
        // Persian writes a zero-width non-joiner inside words: it takes no column.
        #expect(LayoutRenderer.displayWidth("دکمه\u{200C}ها") == 6)
        #expect(LayoutRenderer.displayWidth("ที่") == 1 && LayoutRenderer.displayWidth("e\u{301}") == 1)
        // East Asian ambiguous: one column (LayoutRenderer.ambiguousIsWide is false).
        #expect(!LayoutRenderer.ambiguousIsWide)
        #expect(LayoutRenderer.displayWidth("“”…·•─▸▾›±×") == 11 && LayoutRenderer.displayWidth("Ωж") == 2)
    }

    @Test("a Japanese, Chinese and Arabic prompt wraps within the width, never inside a word")
    func wrapsWideText() throws {
        for language in ["ja", "zh-Hans", "ar"] {
            let strings = SDKStrings(locale: Locale(identifier: language))
            let presenter = TerminalPresenter(
                mode: .line, strings: strings, environment: ["TERM": "xterm"], outputIsTerminal: false)
            let form = state(try PromptSentenceTests.screens()[0], locale: language)
            for width in [20, 31, 40] {
                let (lines, question) = presenter.lineQuestion(form, width: width)
                let all = lines + TerminalPresenter.promptLines(question, width: width)
                #expect(all.allSatisfy { LayoutRenderer.displayWidth($0) <= width }, "\(language) \(width): \(all)")
            }
        }
    }
}
