import Foundation
import Logging
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

@testable import ThreeDS2TerminalUI

/// The terminal presenter's own table: every language of the SDK, complete, with English's placeholders, within the
/// column budgets the terminal measures (its texts and the SDK's it draws).
@Suite("The terminal's own table")
struct TerminalTableTests {
    @Test("the terminal has a table for every language of the SDK's, and no other")
    func everyLanguage() throws {
        let folder = try #require(TerminalStrings.tables.folder)
        let folders = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(6)).lowercased() }.sorted()
        #expect(folders == SDKStrings.languages.map { $0.lowercased() }.sorted())
    }

    @Test("every language has every key and no other, each text not empty", arguments: SDKStrings.languages)
    func everyKey(language: String) {
        let entries = TerminalStrings.tables.entries(language)
        let keys = Set(TerminalStrings.Key.allCases.map(\.rawValue))
        #expect(Set(entries.keys) == keys, "\(language): \(Set(entries.keys).symmetricDifference(keys))")
        #expect(entries.values.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(language)")
        #expect(Set(TerminalStrings.Key.allCases).count == TerminalStrings.Key.allCases.count)
    }

    @Test("every translation has the English text's placeholders", arguments: SDKStrings.languages)
    func placeholders(language: String) {
        let entries = TerminalStrings.tables.entries(language)
        for key in TerminalStrings.Key.allCases {
            let expected = SDKStrings.placeholders(in: TerminalStrings.english[key]).sorted()
            #expect(SDKStrings.placeholders(in: entries[key.rawValue] ?? "").sorted() == expected, "\(language) \(key)")
        }
        for (name, forms) in TerminalStrings.tables.pluralEntries(language) {
            let reached = Set((0...1_200).map { PluralCategory.of($0, language: language) })
            #expect(reached.union([.other]).isSubset(of: Set(forms.keys)), "\(language) \(name)")
            #expect(forms.values.allSatisfy { SDKStrings.placeholders(in: $0) == ["%d"] }, "\(language) \(name)")
        }
        #expect(TerminalStrings.tables.pluralEntries(language).keys.sorted() == ["charactersEntered"])
    }

    @Test(
        "no text passes its key's column budget, the terminal's and the SDK's (wide characters count two)",
        arguments: SDKStrings.languages)
    func columnBudgets(language: String) {
        for (name, text) in TerminalStrings.tables.entries(language) {
            guard let key = TerminalStrings.Key.allCases.first(where: { $0.rawValue == name }) else { continue }
            #expect(LayoutRenderer.displayWidth(text) <= key.columnBudget, "\(language) \(key)")
        }
        for (_, forms) in TerminalStrings.tables.pluralEntries(language) {
            #expect(forms.values.allSatisfy { LayoutRenderer.displayWidth($0) <= 40 }, "\(language)")
        }
        for (name, text) in StringsTables.shared.entries(language) {
            guard let key = SDKStrings.Key(rawValue: name) else { continue }
            #expect(LayoutRenderer.displayWidth(text) <= key.columnBudget, "\(language) SDK \(key)")
        }
        let sdkForms = StringsTables.shared.pluralEntries(language)
        for (name, forms) in sdkForms {
            let budget = SDKStrings.Key(rawValue: name)?.columnBudget ?? 0
            #expect(forms.values.allSatisfy { LayoutRenderer.displayWidth($0) <= budget }, "\(language) SDK \(name)")
        }
    }

    @Test(
        "the words and keys a person types: one character per answer key, every word distinct",
        arguments: SDKStrings.languages)
    func typedWords(language: String) {
        let texts = TerminalStrings(language: language)
        let (yes, no) = texts.answerKeys
        #expect(yes.count == 1 && no.count == 1 && yes.lowercased() != no.lowercased(), "\(language)")
        // The universal y and n are taken in every language: no table's key may mean the other answer.
        #expect(yes.lowercased() != "n" && no.lowercased() != "y", "\(language)")
        let words = TerminalStrings.Command.allCases.map { texts.word($0).lowercased() }
        #expect(Set(words).count == words.count && !words.contains(""), "\(language): \(words)")
        for command in TerminalStrings.Command.allCases {
            #expect(texts.command(" \(texts.word(command).uppercased()) ") == command, "\(language) \(command)")
            #expect(texts.command(command.englishWord) == command, "English words work in every language")
        }
        #expect(texts.command("123456") == nil)
    }

    @Test("the English compiled into the binary is the English table, entry for entry")
    func builtInMatchesTable() {
        #expect(TerminalStrings.builtInEnglish == TerminalStrings.tables.entries("en"))
        #expect(Set(TerminalStrings.builtInEnglish.keys) == Set(TerminalStrings.Key.allCases.map(\.rawValue)))
        let plurals = TerminalStrings.tables.pluralEntries("en").mapValues { $0.mapKeys(\.rawValue) }
        #expect(TerminalStrings.builtInEnglishPlurals == plurals)
    }

    @Test("the independent review's findings on the terminal's texts stay fixed (moved from the SDK's tables)")
    func reviewFindings() {
        let wrong: [(String, TerminalStrings.Key, String)] = [
            ("vi", .plainSectionClosed, "đang"), ("nl", .plainLink, "Koppeling"), ("zh-Hans", .keysHelp, "选择"),
            ("zh-Hant", .keysHelp, "選取"), ("zh-Hant-HK", .keysHelp, "選取"),
        ]
        for (language, key, text) in wrong {
            #expect(!TerminalStrings(language: language)[key].contains(text), "\(language) \(key) says \(text)")
        }
        #expect(TerminalStrings(language: "da")[.plainSectionOpen].hasSuffix("åbent"), "da: Afsnit is neuter")
        for language in ["et", "lv"] {
            for (key, text) in TerminalStrings.tables.entries(language) {
                #expect(!text.contains("\u{201D}"), "\(language) \(key): ” instead of “")
            }
        }
    }
}

extension Dictionary {
    fileprivate func mapKeys<T: Hashable>(_ transform: (Key) -> T) -> [T: Value] {
        Dictionary<T, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}

@Suite("The terminal's texts without its resource folder")
struct MissingTerminalFolderTests {
    @Test("no folder found: English from the binary, one warning naming the folder, never a stop")
    func builtInEnglish() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-terminal-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let tables = TerminalStrings.tables(in: [empty])
        #expect(tables.folder == nil)
        let german = TerminalStrings(language: "de", tables: tables)
        #expect(german[.keysHelp] == TerminalStrings.english[.keysHelp] && german.word(.cancel) == "cancel")
        #expect(german.format(.charactersEntered, 1) == "1 character entered")
        let capture = LogCapture()
        let logger = Logger(label: "test", factory: capture.handler)
        tables.warnIfMissing(logger)
        _ = TerminalStrings(language: "fr", tables: tables)
        tables.warnIfMissing(logger)
        let warnings = capture.text.split(separator: "\n").filter { $0.hasPrefix("warning") }
        #expect(warnings.count == 1 && warnings[0].contains("ThreeDS2Tools_ThreeDS2TerminalUI.resources"))
        #expect(warnings.first?.contains("The terminal presenter's resource folder") == true)
    }

    @Test("the folder is found beside the executable under its SwiftPM name")
    func found() {
        #expect(TerminalStrings.tables.folder?.lastPathComponent.hasPrefix("ThreeDS2Tools_ThreeDS2TerminalUI") == true)
        #expect(TerminalStrings(language: "de")[.keysHelp] != TerminalStrings.english[.keysHelp])
    }
}
