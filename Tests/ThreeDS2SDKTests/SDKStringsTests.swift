import Foundation
import Testing
import ThreeDS2Messages
import ThreeDS2SDKTesting

@testable import ThreeDS2SDK

/// The SDK's texts: one `Localizable.strings` table per language read from the SDK's bundle for the locale the app
/// gave (on Linux too), English key by key, the app's overrides, and the checks every translation must pass.
@Suite("SDK texts")
struct SDKStringsTests {
    @Test(
        "the table is chosen as Apple does: language, then script or region where a language is split",
        arguments: [
            ("de_DE", "de"), ("de-AT", "de"), ("fr_CA", "fr-CA"), ("fr_FR", "fr"), ("en_GB", "en"), ("sv_FI", "sv"),
            ("ar_EG", "ar"),
            ("he_IL", "he"), ("iw_IL", "he"), ("in_ID", "id"), ("zh_CN", "zh-Hans"), ("zh", "zh-Hans"),
            ("zh_SG", "zh-Hans"), ("zh_TW", "zh-Hant"), ("zh_HK", "zh-Hant-HK"), ("zh_MO", "zh-Hant-HK"),
            ("zh-Hant_HK", "zh-Hant-HK"), ("zh-Hant_TW", "zh-Hant"),
            ("zh-Hant", "zh-Hant"), ("zh-Hans_HK", "zh-Hans"), ("zh-Hant_CN", "zh-Hant"), ("pt_BR", "pt-BR"),
            ("pt", "pt-BR"), ("pt_PT", "pt-PT"), ("pt_AO", "pt-PT"), ("pt-PT", "pt-PT"), ("ga_IE", "ga"),
            ("mt_MT", "mt"), ("ru_RU", "ru"), ("uk_UA", "uk"), ("tr_TR", "tr"),
            ("nb_NO", "nb"), ("es_419", "es-419"), ("fa_IR", "fa"), ("ur_PK", "ur"), ("sw_KE", "en"), ("", "en"),
            ("de_DE@collation=phonebook", "de"),
        ])
    func languageChoice(identifier: String, expected: String) {
        #expect(SDKStrings.language(for: Locale(identifier: identifier)) == expected)
        #expect(SDKStrings(locale: Locale(identifier: identifier)).language == expected)
    }

    @Test("texts are read from the bundle's .lproj tables for the locale given, not the process's language")
    func readsTheLocalesTable() {
        let cases: [(String, SDKStrings.Key, String)] = [
            ("de_DE", .cancel, "Abbrechen"), ("ja_JP", .cancel, "キャンセル"), ("zh_TW", .submit, "送出"),
            ("zh_CN", .submit, "提交"), ("pt_BR", .processing, "Processando…"), ("pt_PT", .processing, "A processar…"),
            ("ar", .cancel, "إلغاء"), ("he", .cancel, "ביטול"), ("fi", .keysAnswer, "y/n vastaa"),
            ("sw", .cancel, "Cancel"),
        ]
        for (identifier, key, text) in cases {
            #expect(SDKStrings(locale: Locale(identifier: identifier))[key] == text, "\(identifier) \(key)")
        }
        // The process's own language plays no part: Linux runs these tests in English (or POSIX).
        #expect(SDKStrings(locale: Locale(identifier: "ko_KR"))[.cancel] == "취소")
    }

    @Test("the languages listed are exactly the .lproj folders of the bundle; the reviewed and RTL ones are listed")
    func languagesAreTheFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Bundle.module.bundlePath)
            .filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)).lowercased() }.sorted()
        #expect(folders == SDKStrings.languages.map { $0.lowercased() }.sorted())
        #expect(SDKStrings.languages.count >= 44)
        let required = [
            "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu", "it", "lt", "lv", "mt",
            "nl", "pl", "pt-PT", "ro", "sk", "sl", "sv", "ja", "ko", "zh-Hans", "zh-Hant", "th", "vi", "id", "hi",
            "ar", "he", "pt-BR", "ru", "tr", "uk", "nb", "es-419", "fr-CA", "zh-Hant-HK", "fa", "ur",
        ]
        #expect(Set(required).isSubset(of: SDKStrings.languages))
        #expect(SDKStrings.reviewedLanguages.isSubset(of: Set(SDKStrings.languages)))
        #expect(SDKStrings(locale: Locale(identifier: "ar_SA")).isRightToLeft)
        #expect(SDKStrings(locale: Locale(identifier: "he")).isRightToLeft)
        #expect(SDKStrings(locale: Locale(identifier: "fa_IR")).isRightToLeft)
        #expect(SDKStrings(locale: Locale(identifier: "ur_PK")).isRightToLeft)
        #expect(!SDKStrings(locale: Locale(identifier: "de")).isRightToLeft)
        #expect(SDKStrings.english.isReviewed && !SDKStrings(locale: Locale(identifier: "mt")).isReviewed)
    }

    @Test("every language has every key and no other, each text not empty", arguments: SDKStrings.languages)
    func everyKey(language: String) {
        let entries = StringsTables.entries(language)
        let keys = Set(SDKStrings.Key.allCases.map(\.rawValue))
        #expect(Set(entries.keys).subtracting(keys).isEmpty, "unknown keys in \(language)")
        for key in SDKStrings.Key.allCases {
            let text = entries[key.rawValue]
            #expect(text != nil && text?.trimmingCharacters(in: .whitespaces).isEmpty == false, "\(language) \(key)")
        }
    }

    @Test("a key is a value found by its table name: every key of the release, no other name, unique names")
    func keyByName() {
        for key in SDKStrings.Key.allCases {
            #expect(SDKStrings.Key(rawValue: key.rawValue) == key && key.description == key.rawValue)
        }
        #expect(Set(SDKStrings.Key.allCases).count == SDKStrings.Key.allCases.count)
        #expect(SDKStrings.Key(rawValue: "notAKey") == nil)
        // A struct, not an enum: a switch over keys needs a default, so a key added later breaks no app.
        let described = String(describing: SDKStrings.Key.self)
        #expect(described == "Key" && SDKStrings.Key.cancel.description == "cancel")
    }

    @Test("every translation has the English text's placeholders", arguments: SDKStrings.languages)
    func placeholders(language: String) {
        let entries = StringsTables.entries(language)
        for key in SDKStrings.Key.allCases {
            let found = SDKStrings.placeholders(in: entries[key.rawValue] ?? "")
            #expect(found.sorted() == key.placeholders.sorted(), "\(language) \(key): \(found)")
        }
        #expect(SDKStrings.Key.noteTooLong.placeholders == ["%d"])
        #expect(SDKStrings.Key.htmlFields.placeholders == ["%1$@", "%2$@"])
    }

    @Test(
        "no text passes its key's column budget (East Asian wide characters count two)", arguments: SDKStrings.languages
    )
    func columnBudgets(language: String) {
        for (name, text) in StringsTables.entries(language) {
            guard let key = SDKStrings.Key(rawValue: name) else { continue }
            #expect(
                SDKStrings.displayColumns(text) <= key.columnBudget,
                "\(language) \(key): \(SDKStrings.displayColumns(text)) > \(key.columnBudget) columns")
        }
        #expect(SDKStrings.displayColumns("送出") == 4 && SDKStrings.displayColumns("ที่") == 1)
        #expect(Set(SDKStrings.Key.allCases.map(\.columnBudget)) == [22, 40, 80, 160])
    }

    @Test("a key a table lacks is English; overrides win over both")
    func fallbackAndOverrides() throws {
        let german = SDKStrings(locale: Locale(identifier: "de"))
        #expect(german[.submit] == "Senden")
        let overridden = SDKStrings(locale: Locale(identifier: "de"), overrides: [.submit: "Bestätigen"])
        #expect(overridden[.submit] == "Bestätigen" && overridden[.cancel] == "Abbrechen")
        #expect(german.overriding([.cancel: "Zurück"])[.cancel] == "Zurück")
        // A table read without a key: the English text takes its place.
        let partial = try #require(StringsFile.parse(#""cancel" = "Peruuta";"#))
        #expect(partial.count == 1)
        #expect(SDKStrings.english.overriding([.cancel: "Peruuta"])[.submit] == "Submit")
    }

    @Test("placeholders are filled in order or by position")
    func formatting() {
        let english = SDKStrings.english
        #expect(english.format(.noteTooLong, 6) == "The entry is too long: at most 6 characters.")
        #expect(english.format(.htmlFields, "otp", "Verify") == "field=value&… (fields: otp) then a button (Verify)")
        #expect(SDKStrings.fill("%2$@ – %1$@ (100%%)", ["a", "b"]) == "b – a (100%)")
        #expect(SDKStrings(locale: Locale(identifier: "ja")).format(.noteTooLong, 6) == "入力が長すぎます（最大 6 文字）。")
    }

    @Test("the strings-file reader takes comments, escapes and UTF-16, and refuses a malformed file")
    func stringsFileReader() throws {
        let text = """
            /* A comment. */
            // Another.
            "a" = "x \\"quoted\\" \\\\ \\n \\U00e9";
            "b"="y";
            """
        #expect(StringsFile.parse(text) == ["a": "x \"quoted\" \\ \n é", "b": "y"])
        let utf16 = try #require(#""k" = "ü";"#.data(using: .utf16))
        #expect(StringsFile.parse(utf16) == ["k": "ü"])
        #expect(StringsFile.parse(#""a" = "x""#) == nil)
        #expect(StringsFile.parse(#""a" "x";"#) == nil)
        #expect(StringsFile.parse("/* open") == nil)
    }

    @Test("the app's texts group overrides any text; an unknown name or wrong placeholders are refused at initialize")
    func configurationOverrides() throws {
        var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        config.setText("Abort", for: .cancel)
        config.setText("Max %d!", for: .noteTooLong)
        #expect(config.texts == [.cancel: "Abort", .noteTooLong: "Max %d!"])
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config, locale: Locale(identifier: "de_DE"))
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(directoryServerID: "A000000004")
        let strings = transaction.strings
        #expect(strings.language == "de" && strings[.cancel] == "Abort" && strings[.submit] == "Senden")
        #expect(strings.format(.noteTooLong, 3) == "Max 3!")

        var unknown = try makeConfiguration(dataDirectory: try temporaryDirectory())
        try unknown.addParam(group: ConfigParameters.textsGroup, name: "cancelButton", value: "Stop")
        let error = expectSDKError(.invalidInput) {
            try ThreeDS2Service(systemProbe: FakeSystemProbe.clean()).initialize(configParameters: unknown)
        }
        #expect(error?.message.contains("texts.cancelButton") == true)
        var placeholders = try makeConfiguration(dataDirectory: try temporaryDirectory())
        placeholders.setText("Too long.", for: .noteTooLong)
        let second = expectSDKError(.invalidInput) {
            try ThreeDS2Service(systemProbe: FakeSystemProbe.clean()).initialize(configParameters: placeholders)
        }
        #expect(second?.message.contains("%d") == true)
    }

    @Test("the form state's notes are keys of the table, in the locale's language")
    func formNotes() throws {
        let screen = try formScreen("01", ["challengeInfoLabel": .string("Code")])
        var english = ChallengeFormState(screen: screen)
        #expect(english.perform(.resend)?.answer == nil && english.noteKey == .noteNoNewCode)
        #expect(english.note == "This screen offers no new code.")
        var german = ChallengeFormState(
            screen: screen, presentation: PresentationSettings(strings: SDKStrings(locale: Locale(identifier: "de"))))
        #expect(german.perform(.setEntry("x", box: 3))?.answer == nil && german.noteKey == .noteNoEntryBox)
        #expect(german.note == "Dieser Bildschirm hat kein Eingabefeld 4.")
        #expect(
            german.perform(.setEntry(String(repeating: "1", count: 46)))?.answer == nil
                && german.noteKey == .noteTooLong)
        #expect(german.note == "Die Eingabe ist zu lang: höchstens 45 Zeichen.")
        #expect(german.perform(.submitWebForm("a=1"))?.answer == nil && german.noteKey == .noteNotHTML)
        #expect(german.perform(.openApp)?.answer == nil && german.noteKey == .noteNoApp)
        #expect(german.perform(.focusNext)?.answer == nil && german.note == nil && german.noteKey == nil)
    }
}
