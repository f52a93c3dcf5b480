import Foundation
import Logging
import Testing
import ThreeDS2Messages
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

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

    @Test(
        "CLDR's parent chain, with the languages a table may add: es-MX → es-419 → es, no/nn → nb, zh-HK → zh-Hant-HK",
        arguments: [
            ("es_MX", "es-419"), ("es-AR", "es-419"), ("es_US", "es-419"), ("es_419", "es-419"), ("es_ES", "es"),
            ("es", "es"), ("no", "nb"), ("nn_NO", "nb"), ("nb_NO", "nb"), ("zh_HK", "zh-Hant-HK"),
            ("zh_MO", "zh-Hant-HK"), ("zh-Hant-HK", "zh-Hant-HK"), ("zh_TW", "zh-Hant"), ("zh-Hant", "zh-Hant"),
            ("zh_SG", "zh-Hans"), ("fr_CA", "fr-CA"), ("fr_BE", "fr"), ("pt_MZ", "pt-PT"), ("ru_RU", "ru"),
            ("uk_UA", "uk"), ("tr", "tr"), ("fa_IR", "fa"), ("ur_PK", "ur"),
        ])
    func parentChain(identifier: String, expected: String) {
        let added: Set<String> = ["es-419", "nb", "zh-Hant-HK", "fr-CA", "ru", "uk", "tr", "fa", "ur"]
        let available = Set(SDKStrings.languages).union(added)
        #expect(SDKStrings.language(for: Locale(identifier: identifier), among: available) == expected)
        // Whatever ships, the choice is a shipped table.
        let shipped = SDKStrings.language(for: Locale(identifier: identifier))
        #expect(SDKStrings.languages.contains(shipped))
    }

    @Test("Persian and Urdu are right to left with Arabic and Hebrew")
    func rightToLeft() {
        #expect(SDKStrings.rightToLeftLanguages == ["ar", "he", "fa", "ur"])
        #expect(SDKStrings.language(for: Locale(identifier: "es_MX")) == "es-419")
        #expect(SDKStrings.language(for: Locale(identifier: "zh_HK")) == "zh-Hant-HK")
        #expect(SDKStrings.language(for: Locale(identifier: "nn_NO")) == "nb")
        #expect(SDKStrings(locale: Locale(identifier: "fa_IR")).isRightToLeft)
        #expect(SDKStrings(locale: Locale(identifier: "ur")).isRightToLeft)
    }

    @Test("texts are read from the bundle's .lproj tables for the locale given, not the process's language")
    func readsTheLocalesTable() {
        let cases: [(String, SDKStrings.Key, String)] = [
            ("de_DE", .cancel, "Abbrechen"), ("ja_JP", .cancel, "キャンセル"), ("zh_TW", .submit, "送出"),
            ("zh_CN", .submit, "提交"), ("pt_BR", .processing, "Processando…"), ("pt_PT", .processing, "A processar…"),
            ("ar", .cancel, "إلغاء"), ("he", .cancel, "ביטול"), ("fi", .cancel, "Peruuta"),
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
        #expect(SDKStrings.Key.noteNoOption.placeholders == ["%@"])
    }

    @Test("every key has a column budget of the four sizes (the terminal presenter's tests measure the texts)")
    func columnBudgetSizes() {
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
        #expect(english.format(.noteNoOption, "q1") == "This screen has no option “q1”.")
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

@Suite("SDK texts without a resource folder")
struct MissingResourceFolderTests {
    @Test("no folder found: English from the binary, one warning however many texts are built, never a stop")
    func builtInEnglish() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-resources-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let folder = ResourceFolder.locate(StringsTables.folderName, in: [empty])
        #expect(folder == nil)
        let tables = StringsTables(folder: folder)
        let capture = LogCapture()
        let logger = Logger(label: "test", factory: capture.handler)
        let german = SDKStrings(locale: Locale(identifier: "de"), logger: logger, tables: tables)
        _ = SDKStrings(locale: Locale(identifier: "fr"), logger: logger, tables: tables)
        #expect(german[.submit] == "Submit" && german[.cancel] == "Cancel")
        #expect(german.format(.noteTooLong, 8) == SDKStrings.english.format(.noteTooLong, 8))
        let warnings = capture.text.split(separator: "\n").filter { $0.hasPrefix("warning") }
        #expect(warnings.count == 1 && warnings.first?.contains("ThreeDS2_ThreeDS2SDK.resources") == true)
    }

    @Test("the English compiled into the binary is the English table, entry for entry")
    func builtInMatchesTable() {
        #expect(StringsTables.shared.folder != nil)
        #expect(StringsTables.builtInEnglish == StringsTables.entries("en"))
        #expect(Set(StringsTables.builtInEnglish.keys) == Set(SDKStrings.Key.allCases.map(\.rawValue)))
    }

    @Test("the folder is found beside the executable, by either extension")
    func locate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(UUID())")
        let bundle = directory.appendingPathComponent("X_Y.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ResourceFolder.locate("X_Y", in: [directory])?.lastPathComponent == "X_Y.bundle")
        #expect(ResourceFolder.locate(StringsTables.folderName, in: ResourceFolder.searchDirectories) != nil)
    }
}

@Suite("Security warnings in the cardholder's language")
struct LocalizedWarningTests {
    @Test("SW01–SW05 read from the table of the locale; the developer's warnings and message stay English")
    func localized() {
        let ids: [Warning.ID] = [.jailbroken, .tampered, .emulator, .debuggerAttached, .unsupportedOS]
        let german = SDKStrings(locale: Locale(identifier: "de"))
        let japanese = SDKStrings(locale: Locale(identifier: "ja"))
        for id in ids {
            let warning = Warning(id: id, message: "found: /sbin/su", severity: .high)
            #expect(!warning.localizedMessage(german).contains("/sbin"))
            #expect(warning.localizedMessage(german) != warning.localizedMessage(SDKStrings.english))
            #expect(warning.localizedMessage(japanese).unicodeScalars.contains { $0.value >= 0x3040 })
            #expect(warning.message == "found: /sbin/su")
        }
        #expect(Warning(id: .jailbroken, message: "", severity: .high).localizedMessage(german).contains("Gerät"))
        let contrast = Warning(id: .lowContrast, message: "contrast 2:1", severity: .low)
        #expect(contrast.localizedMessage(german) == "contrast 2:1")
    }
}

@Suite("Overrides checked for placeholders")
struct OverridePlaceholderTests {
    @Test("overriding keeps the table's text for a replacement with other placeholders or a stray %")
    func overriding() {
        let strings = SDKStrings.english.overriding([
            .cancel: "100% sure %s %1$@", .submit: "Go", .noteTooLong: "max %d (100%% sure)", .noteNoOption: "none",
        ])
        #expect(strings[.cancel] == "Cancel")
        #expect(strings[.submit] == "Go")
        #expect(
            strings[.noteTooLong] == "max %d (100%% sure)" && strings.format(.noteTooLong, 3) == "max 3 (100% sure)")
        #expect(strings[.noteNoOption] == SDKStrings.english[.noteNoOption])
        let built = SDKStrings(locale: Locale(identifier: "de"), overrides: [.cancel: "%d"])
        #expect(built[.cancel] == "Abbrechen")
    }

    @Test("the problem is named: placeholders expected, or a percent sign to double")
    func problem() {
        #expect(SDKStrings.placeholderProblem(in: "100% sure", for: .cancel)?.contains("%%") == true)
        #expect(SDKStrings.placeholderProblem(in: "%@", for: .cancel)?.contains("none") == true)
        #expect(SDKStrings.placeholderProblem(in: "« %1$@ »", for: .noteNoOption)?.contains("%@") == true)
        #expect(SDKStrings.placeholderProblem(in: "« %@ »", for: .noteNoOption) == nil)
        #expect(SDKStrings.placeholderProblem(in: "Abbrechen", for: .cancel) == nil)
    }
}

@Suite("No dead text")
struct DeadKeyTests {
    @Test("every key is read somewhere outside its declaration (the SDK, its UI or the tools)")
    func everyKeyRead() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var sources = ""
        for folder in ["Sources", "Tools/Sources"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                guard url.pathExtension == "swift", url.lastPathComponent != "SDKStrings.swift",
                    url.lastPathComponent != "BuiltInEnglish.swift"
                else { continue }
                sources += try String(contentsOf: url, encoding: .utf8)
            }
        }
        #expect(sources.count > 100_000)
        for key in SDKStrings.Key.allCases {
            #expect(sources.contains(".\(key.rawValue)"), "\(key) is never read")
        }
    }
}
