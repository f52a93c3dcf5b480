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

    /// Screens with every control the plain mode describes: masked and shown entry boxes with the reveal key,
    /// sections, a warning, consent rows, check boxes and radio buttons, and an HTML page's controls and link. Every
    /// ACS text and page name is digits and symbols only (so every word is ours).
    static func controlScreens() throws -> [ChallengeScreen] {
        let neutral: [String: JSONValue] = [
            "challengeInfoHeader": .string("№ 1"), "challengeInfoLabel": .string("№ 2"),
            "challengeInfoText": .string("№ 3"), "submitAuthenticationLabel": .string("№ 4"),
            "challengeInfoTextIndicator": .string("Y"), "whyInfoLabel": .string("№ 17"),
            "whyInfoText": .string("№ 18"), "expandInfoLabel": .string("№ 19"), "expandInfoText": .string("№ 20"),
        ]
        let box: JSONValue = .object([
            "challengeDataEntryLabel": .string("№ 2"), "challengeDataEntryMasking": .string("Y"),
            "challengeDataEntryToggle": .string("Y"),
        ])
        let page =
            "<form action='https://emv3ds/challenge'><input type=checkbox name=c1 checked><input type=checkbox name=c2>"
            + "<input type=radio name=r value=1 checked><input type=radio name=r value=2>"
            + "<select name=s><option>№ 21</option></select><input type=password name=pw value=12>"
            + "<input name=t value=34><button>№ 8</button></form><a href='https://emv3ds/challenge?x=1'>№ 22</a>"
        return [
            try screen(
                neutral.merging([
                    "acsUiType": .string("01"), "trustListInfoText": .string("№ 11"), "challengeEntryBox": box,
                ]) { $1 }, version: "2.3.1"),
            try screen(
                neutral.merging([
                    "acsUiType": .string("01"),
                    "challengeEntryBox": .object([
                        "challengeDataEntryLabel": .string("№ 2"), "challengeDataEntryMasking": .string("N"),
                    ]),
                ]) { $1 }, version: "2.3.1"),
            try screen(neutral.merging(["acsUiType": .string("02"), "challengeSelectInfo": selectOptions]) { $1 }),
            try screen(neutral.merging(["acsUiType": .string("03"), "challengeSelectInfo": selectOptions]) { $1 }),
            try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8)))]),
        ]
    }

    /// Two choices of a select screen, their labels digits.
    static let selectOptions: JSONValue = .array([
        .object(["q1": .string("№ 5")]), .object(["q2": .string("№ 6")]),
    ])

    /// Every line plain mode draws for the control screens in a language, in full screen (with the focus word) and
    /// in line mode, before and after each control is toggled, a code typed and revealed.
    static func descriptions(_ language: String) throws -> [String] {
        var lines: [String] = []
        for screen in try controlScreens() {
            var form = state(screen, locale: language)
            for changed in [false, true] {
                if changed {
                    _ = form.perform(.setEntry("123"))
                    for index in form.focusOrder {
                        _ = form.perform(.focus(index))
                        switch form.focusedElement {
                        case .option, .consent, .section, .htmlControl: _ = form.perform(.toggle)
                        case .textField: _ = form.perform(.toggleReveal)
                        default: break
                        }
                    }
                    _ = form.perform(.focus(form.focusOrder.first ?? 0))
                }
                for interactive in [true, false] {
                    let renderer = LayoutRenderer(
                        width: 1000, style: TerminalStyle(depth: .none), plain: true, interactive: interactive)
                    lines += renderer.lines(form).filter { !$0.contains("Tab") && !$0.isEmpty }
                }
            }
        }
        return lines
    }

    /// The words of the English descriptions of controls, which a translated description must not show.
    static let englishControlWords = [
        "choice", "button", "link", "section", "field", "text", "checkbox", "radio", "list", "password", "focus",
        "hidden", "open", "closed", "selected", "characters", "entered", "or", "shows", "hides", "warning",
    ]

    /// The words of that list a language writes as English does: German's *Link*, French's *focus* and *radio*.
    static let ownWords: [String: Set<String>] = ["de": ["link"], "fr": ["focus", "radio"]]

    @Test(
        "every plain description of a control in ar, ja, zh-Hans, de and fr: one sentence of the table, no English word or punctuation",
        arguments: ["ar", "ja", "zh-Hans", "de", "fr"])
    func noEnglishInDescriptions(language: String) throws {
        let lines = try Self.descriptions(language)
        #expect(lines.count >= 40, "\(language): \(lines.count) lines")
        let texts = TerminalStrings(language: language)
        let all = lines.joined(separator: "\n")
        for line in lines {
            // The ACS's texts and the page's names aside, and the warning mark `(!)`, a symbol in every language.
            let ours = line.replacingOccurrences(
                of: #"№ \d+|https://\S+|\(!\)"#, with: "", options: .regularExpression)
            for word in Self.englishControlWords where !(Self.ownWords[language] ?? []).contains(word) {
                #expect(!Self.holds(ours, word: word), "\(language): English \"\(word)\" in \"\(line)\"")
            }
            for mark in Self.foreignPunctuation[language] ?? [] {
                #expect(!ours.contains(mark), "\(language): \"\(mark)\" in \"\(line)\"")
            }
            if language == "fr" {
                // French: a no-break space before every colon.
                #expect(ours.range(of: "(?<![\u{00A0}\u{202F}]):", options: .regularExpression) == nil, "\(line)")
            }
        }
        // Every description was drawn, each one sentence of the table with the screen's values filled in.
        let count = { texts.format(.charactersEntered, $0) }
        let drawn: [String] = [
            texts[.plainFocus],
            texts.format(.plainCancelButton, SDKStrings(locale: Locale(identifier: language))[.cancel]),
            texts.format(.plainSectionClosed, "№ 17"), texts.format(.plainSectionOpen, "№ 19"),
            texts.format(.plainCheckboxOn, "№ 6"), texts.format(.plainCheckboxOff, "c2"),
            texts.format(.plainRadioOn, "r=1"), texts.format(.plainRadioOff, "№ 5"),
            texts.format(.plainList, "s", "№ 21"), texts.format(.plainTextField, "t", "34"),
            texts.format(.plainLink, "№ 22"), texts.format(.plainButton, "№ 8"),
            texts.format(.plainEntryHiddenToggle, "№ 2", count(0)),
            texts.format(.plainEntryToggle, "№ 2", count(3), "123"),
            texts.format(.plainEntry, "№ 2", count(3), "123"), texts.format(.plainPasswordField, "pw", count(2)),
            texts.format(.warningLead, SDKStrings(locale: Locale(identifier: language))[.warning]),
        ]
        for text in drawn {
            #expect(all.contains(text), "\(language): \"\(text)\" not drawn in \(all)")
        }
    }

    @Test("the English descriptions are found by the same check (it can fail)")
    func englishDescriptionsFound() throws {
        let all = try Self.descriptions("en").joined(separator: "\n")
        for word in ["Choice", "Button", "Link", "Section", "Checkbox", "Radio", "List", "Password", "focus", "hidden"]
        {
            #expect(Self.holds(all, word: word), "\(word)")
        }
        #expect(all.contains("[focus] ") && all.contains("Button: Cancel (Escape)") && all.contains("(!) Warning: "))
        #expect(all.contains("Text field: № 2, 3 characters entered: 123, Control-T shows or hides it"), "\(all)")
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
