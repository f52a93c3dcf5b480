import Foundation
import Testing

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// One CLDR cardinal rule under test: the languages that share it, the `@integer` samples CLDR 46's `plurals.xml`
/// gives for each category (`a~b` a range), and the categories of 0, 1, 2, 12, 22 and 101.
struct PluralCase: Sendable, CustomTestStringConvertible {
    let languages: [String]
    let samples: [PluralCategory: String]
    let fixed: [PluralCategory]

    var testDescription: String { languages.joined(separator: ", ") }

    /// The sample numbers of a category, ranges expanded.
    func numbers(_ category: PluralCategory) -> [Int] {
        (samples[category] ?? "").split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.split(separator: "~").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
        }
    }
}

private let millions = "1000000, 2000000, 3000000, 4000000, 5000000, 6000000"
private let largeOther = "100, 1000, 10000, 100000, 1000000"
private let one21 = "1, 21, 31, 41, 51, 61, 71, 81, 101, 1001"
private let few22 = "2~4, 22~24, 32~34, 42~44, 52~54, 62, 102, 1002"

/// Every rule the shipped languages use, with CLDR 46's integer samples.
let pluralCases: [PluralCase] = [
    PluralCase(
        languages: ["en", "de", "nl", "sv", "et", "fi", "ur", "bg", "da", "el", "hu", "nb", "no", "nn", "tr"],
        samples: [.one: "1", .other: "0, 2~16, \(largeOther)"], fixed: [.other, .one, .other, .other, .other, .other]),
    PluralCase(
        languages: ["id", "ja", "ko", "th", "vi", "zh-Hans", "zh-Hant", "zh-Hant-HK"],
        samples: [.other: "0~15, \(largeOther)"], fixed: Array(repeating: .other, count: 6)),
    PluralCase(
        languages: ["hi", "fa"], samples: [.one: "0, 1", .other: "2~17, \(largeOther)"],
        fixed: [.one, .one, .other, .other, .other, .other]),
    PluralCase(
        languages: ["fr", "fr-CA", "pt-BR"],
        samples: [.one: "0, 1", .many: millions, .other: "2~17, 100, 1000, 10000, 100000"],
        fixed: [.one, .one, .other, .other, .other, .other]),
    PluralCase(
        languages: ["es", "es-419", "it", "pt-PT"],
        samples: [.one: "1", .many: millions, .other: "0, 2~16, 100, 1000, 10000, 100000"],
        fixed: [.other, .one, .other, .other, .other, .other]),
    PluralCase(
        languages: ["ar"],
        samples: [
            .zero: "0", .one: "1", .two: "2", .few: "3~10, 103~110, 1003", .many: "11~26, 111, 1011",
            .other: "100~102, 200~202, 300~302, 400~402, 500~502, 600, 1000, 10000, 100000, 1000000",
        ], fixed: [.zero, .one, .two, .many, .many, .other]),
    PluralCase(
        languages: ["he"], samples: [.one: "1", .two: "2", .other: "0, 3~17, \(largeOther)"],
        fixed: [.other, .one, .two, .other, .other, .other]),
    PluralCase(
        languages: ["cs", "sk"], samples: [.one: "1", .few: "2~4", .other: "0, 5~19, \(largeOther)"],
        fixed: [.other, .one, .few, .other, .other, .other]),
    PluralCase(
        languages: ["pl"], samples: [.one: "1", .few: few22, .many: "0, 5~19, \(largeOther)"],
        fixed: [.many, .one, .few, .many, .few, .many]),
    PluralCase(
        languages: ["ru", "uk"], samples: [.one: one21, .few: few22, .many: "0, 5~19, \(largeOther)"],
        fixed: [.many, .one, .few, .many, .few, .one]),
    PluralCase(
        languages: ["hr"], samples: [.one: one21, .few: few22, .other: "0, 5~19, \(largeOther)"],
        fixed: [.other, .one, .few, .other, .few, .one]),
    PluralCase(
        languages: ["sl"],
        samples: [
            .one: "1, 101, 201, 301, 401, 501, 601, 701, 1001", .two: "2, 102, 202, 302, 402, 502, 602, 702, 1002",
            .few: "3, 4, 103, 104, 203, 204, 303, 304, 403, 404, 503, 504, 603, 604, 703, 704, 1003",
            .other: "0, 5~19, \(largeOther)",
        ], fixed: [.other, .one, .two, .other, .other, .one]),
    PluralCase(
        languages: ["lt"],
        samples: [.one: one21, .few: "2~9, 22~29, 102, 1002", .other: "0, 10~20, 30, 40, 50, 60, \(largeOther)"],
        fixed: [.other, .one, .few, .other, .few, .one]),
    PluralCase(
        languages: ["lv"],
        samples: [.zero: "0, 10~20, 30, 40, 50, 60, \(largeOther)", .one: one21, .other: "2~9, 22~29, 102, 1002"],
        fixed: [.zero, .one, .other, .zero, .other, .one]),
    PluralCase(
        languages: ["ro"], samples: [.one: "1", .few: "0, 2~16, 101, 1001", .other: "20~35, \(largeOther)"],
        fixed: [.few, .one, .few, .few, .other, .few]),
    PluralCase(
        languages: ["ga"],
        samples: [.one: "1", .two: "2", .few: "3~6", .many: "7~10", .other: "0, 11~25, \(largeOther)"],
        fixed: [.other, .one, .two, .other, .other, .other]),
    PluralCase(
        languages: ["mt"],
        samples: [
            .one: "1", .two: "2", .few: "0, 3~10, 103~109, 1003", .many: "11~19, 111~117, 1011",
            .other: "20~35, \(largeOther)",
        ], fixed: [.few, .one, .two, .many, .other, .other]),
]

@Suite("Plural forms by CLDR 46's cardinal rules")
struct PluralRulesTests {
    @Test("each category's CLDR integer samples, and 0, 1, 2, 12, 22, 101", arguments: pluralCases)
    func samples(rule: PluralCase) {
        for language in rule.languages {
            for (category, _) in rule.samples {
                for number in rule.numbers(category) {
                    #expect(PluralCategory.of(number, language: language) == category, "\(language) \(number)")
                }
            }
            let fixed = [0, 1, 2, 12, 22, 101].map { PluralCategory.of($0, language: language) }
            #expect(fixed == rule.fixed, "\(language)")
        }
    }

    @Test("every shipped language has a rule under test")
    func everyLanguageCovered() {
        let covered = Set(pluralCases.flatMap(\.languages))
        #expect(Set(SDKStrings.languages).subtracting(covered).isEmpty)
    }

    @Test(
        "each language's stringsdict has a form for every category a count reaches, with English's placeholders",
        arguments: SDKStrings.languages)
    func stringsdict(language: String) throws {
        let forms = StringsTables.shared.pluralEntries(language)
        let reached = Set(((0...1_200) + [1_000_000, 2_000_000]).map { PluralCategory.of($0, language: language) })
        #expect(Set(forms.keys) == Set(StringsTables.builtInEnglishPlurals.keys), "\(language)")
        for (name, entry) in forms {
            let key = try #require(SDKStrings.Key(rawValue: name))
            #expect(reached.union([.other]).isSubset(of: Set(entry.keys)), "\(language) \(name): \(entry.keys)")
            for (category, text) in entry {
                #expect(SDKStrings.placeholders(in: text) == key.placeholders, "\(language) \(name) \(category)")
            }
        }
    }

    @Test("a count picks its form: one character, few and many in Polish, six Arabic forms, French 0 and 1")
    func forms() {
        let english = SDKStrings(locale: Locale(identifier: "en"))
        #expect(english.format(.noteTooLong, 1) == "The entry is too long: at most 1 character.")
        #expect(english.format(.noteTooLong, 0) == "The entry is too long: at most 0 characters.")
        let polish = SDKStrings(locale: Locale(identifier: "pl"))
        #expect(polish.format(.noteTooLong, 3).hasSuffix("3 znaki."))
        #expect(polish.format(.noteTooLong, 5).hasSuffix("5 znaków."))
        #expect(polish.format(.noteTooLong, 22).hasSuffix("22 znaki."))
        let french = SDKStrings(locale: Locale(identifier: "fr"))
        #expect(french.format(.noteTooLong, 0).contains(" 0 caractère au"))
        #expect(french.format(.noteTooLong, 1).contains(" 1 caractère au"))
        #expect(french.format(.noteTooLong, 2).contains(" 2 caractères au"))
        let arabic = SDKStrings(locale: Locale(identifier: "ar"))
        let arabicForms = [0, 1, 2, 3, 11, 100].map { arabic.format(.noteTooLong, $0) }
        #expect(Set(arabicForms).count == 6)
        #expect(arabic.format(.noteTooLong, 3).contains("3 أحرف"))
        let czech = SDKStrings(locale: Locale(identifier: "cs"))
        #expect(
            czech.format(.noteTooLong, 1).hasSuffix("1 znak.") && czech.format(.noteTooLong, 4).hasSuffix("4 znaky."))
        #expect(english.overriding([.noteTooLong: "max %d"]).format(.noteTooLong, 1) == "max 1")
    }

    @Test("a stringsdict: XML read, the format key around the variable kept, a malformed entry left out")
    func reader() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>(%#@n@)</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d item</string><key>other</key><string>%d items</string></dict></dict>
            <key>b</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string></dict>
            </dict></plist>
            """
        let parsed = try #require(StringsDictFile.parse(Data(xml.utf8)))
        #expect(parsed == ["a": [.one: "(%d item)", .other: "(%d items)"]])
        #expect(StringsDictFile.parse(Data("not a plist".utf8)) == nil)
    }
}

@Suite("Pseudo-localization for the preview screens")
struct PseudoLocalizationTests {
    @Test("every text 40 % longer, accented, its placeholders kept; overrides still checked")
    func pseudo() {
        let pseudo = SDKStrings.english.pseudoLocalized()
        for key in SDKStrings.Key.allCases {
            let english = SDKStrings.english[key]
            let text = pseudo[key]
            #expect(text.count >= Int((Double(english.count) * 1.4).rounded(.up)), "\(key): \(text)")
            #expect(SDKStrings.placeholders(in: text) == SDKStrings.placeholders(in: english), "\(key)")
            #expect(text.hasPrefix("⟦") && text.hasSuffix("⟧") && !text.contains("Cancel"), "\(key)")
        }
        #expect(SDKStrings.pseudoLocalized("Cancel") == "⟦Çåñçéļ~⟧")
        #expect(pseudo.format(.noteTooLong, 3).contains("3"))
        #expect(SDKStrings.pseudoLocalized("100%% %1$@", growth: 0) == "⟦100%% %1$@⟧")
    }
}
