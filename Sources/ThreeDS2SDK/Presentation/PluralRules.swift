public import Foundation

/// The CLDR plural categories of a whole number in each language the SDK and its tools ship, the cardinal rules of
/// CLDR 46's `plurals.xml` for integers (the operands `v`, `f`, `t` and `e` are 0 for a count, so only `n` and `i`
/// remain; categories that only decimals reach — Polish, Russian and Ukrainian `other`, Czech and Slovak `many`,
/// Lithuanian `many` — never come from a count).
///
/// A translator writes one form per category the language has in a `Localizable.stringsdict`
/// (`NSStringPluralRuleType`); the SDK picks the form with these rules on every platform, Linux included.
@_spi(ThreeDS2Tools) public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    /// CLDR `zero` (Arabic 0; Latvian 0, 10–20, 30, …).
    case zero
    /// CLDR `one`.
    case one
    /// CLDR `two`.
    case two
    /// CLDR `few`.
    case few
    /// CLDR `many`.
    case many
    /// CLDR `other`, which every language has.
    case other

    /// The category of a count in a language.
    ///
    /// - Parameters:
    ///   - count: The count (its absolute value is used).
    ///   - language: A table's language, as its `.lproj` folder is named (`pt-BR`, `zh-Hant`, `es-419`); a language
    ///     without a rule here has only `other`.
    /// - Returns: The category.
    @_spi(ThreeDS2Tools) public static func of(_ count: Int, language: String) -> PluralCategory {
        let n = count.magnitude
        let base = String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
        if base == "pt" { return language == "pt-PT" ? portugal(n) : brazil(n) }
        for (languages, rule) in rules where languages.contains(base) { return rule(n) }
        return .other
    }

    /// The rules, by the languages that share them.
    private static let rules: [(Set<String>, @Sendable (UInt) -> PluralCategory)] = [
        (["en", "de", "nl", "sv", "et", "fi", "ur"], oneIfOne),
        (["bg", "da", "el", "hu", "nb", "no", "nn", "tr"], oneIfOne),
        (["id", "ja", "ko", "th", "vi", "zh", "ms"], { _ in .other }),
        (["hi", "fa"], { $0 <= 1 ? .one : .other }),
        (["fr"], { $0 <= 1 ? .one : million($0) ? .many : .other }),
        (["es", "it", "ca"], { $0 == 1 ? .one : million($0) ? .many : .other }),
        (["ar"], arabic),
        (["he"], { $0 == 1 ? .one : $0 == 2 ? .two : .other }),
        (["cs", "sk"], { $0 == 1 ? .one : (2...4).contains($0) ? .few : .other }),
        (["pl"], polish),
        (["ru", "uk"], eastSlavic),
        (["hr", "bs", "sr"], croatian),
        (["sl"], slovenian),
        (["lt"], lithuanian),
        (["lv"], latvian),
        (["ro"], romanian),
        (["ga"], irish),
        (["mt"], maltese),
    ]

    private static func oneIfOne(_ n: UInt) -> PluralCategory { n == 1 ? .one : .other }

    /// `e = 0 and i != 0 and i % 1000000 = 0`: a whole number of millions (French, Spanish, Italian, Portuguese).
    private static func million(_ n: UInt) -> Bool { n != 0 && n % 1_000_000 == 0 }

    private static func brazil(_ n: UInt) -> PluralCategory { n <= 1 ? .one : million(n) ? .many : .other }

    private static func portugal(_ n: UInt) -> PluralCategory { n == 1 ? .one : million(n) ? .many : .other }

    private static func arabic(_ n: UInt) -> PluralCategory {
        switch (n, n % 100) {
        case (0, _): .zero
        case (1, _): .one
        case (2, _): .two
        case (_, 3...10): .few
        case (_, 11...99): .many
        default: .other
        }
    }

    private static func polish(_ n: UInt) -> PluralCategory {
        if n == 1 { return .one }
        return (2...4).contains(n % 10) && !(12...14).contains(n % 100) ? .few : .many
    }

    private static func eastSlavic(_ n: UInt) -> PluralCategory {
        if n % 10 == 1 && n % 100 != 11 { return .one }
        return (2...4).contains(n % 10) && !(12...14).contains(n % 100) ? .few : .many
    }

    private static func croatian(_ n: UInt) -> PluralCategory {
        if n % 10 == 1 && n % 100 != 11 { return .one }
        return (2...4).contains(n % 10) && !(12...14).contains(n % 100) ? .few : .other
    }

    private static func slovenian(_ n: UInt) -> PluralCategory {
        switch n % 100 {
        case 1: .one
        case 2: .two
        case 3, 4: .few
        default: .other
        }
    }

    private static func lithuanian(_ n: UInt) -> PluralCategory {
        if (11...19).contains(n % 100) { return .other }
        return n % 10 == 1 ? .one : n % 10 >= 2 ? .few : .other
    }

    private static func latvian(_ n: UInt) -> PluralCategory {
        if n % 10 == 0 || (11...19).contains(n % 100) { return .zero }
        return n % 10 == 1 ? .one : .other
    }

    private static func romanian(_ n: UInt) -> PluralCategory {
        if n == 1 { return .one }
        return n == 0 || (1...19).contains(n % 100) ? .few : .other
    }

    private static func irish(_ n: UInt) -> PluralCategory {
        switch n {
        case 1: .one
        case 2: .two
        case 3...6: .few
        case 7...10: .many
        default: .other
        }
    }

    private static func maltese(_ n: UInt) -> PluralCategory {
        switch (n, n % 100) {
        case (1, _): .one
        case (2, _): .two
        case (0, _), (_, 3...10): .few
        case (_, 11...19): .many
        default: .other
        }
    }
}

/// Reading a `Localizable.stringsdict`: Apple's property list of plural forms (XML, or binary as Xcode may compile
/// it), one entry per key with `NSStringLocalizedFormatKey` (`%#@count@`) and the variable's dictionary of
/// `NSStringPluralRuleType` forms (`zero`, `one`, `two`, `few`, `many`, `other`), each a whole sentence.
@_spi(ThreeDS2Tools) public enum StringsDictFile {
    /// The plural forms of a file, by key and category; `nil` when it is not a property list of dictionaries.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The forms; a key whose entry is malformed is left out.
    @_spi(ThreeDS2Tools) public static func parse(_ data: Data) -> [String: [PluralCategory: String]]? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
            let entries = plist as? [String: Any]
        else { return nil }
        var found: [String: [PluralCategory: String]] = [:]
        for (key, value) in entries {
            guard let entry = value as? [String: Any], let forms = forms(entry) else { continue }
            found[key] = forms
        }
        return found
    }

    /// The forms of one entry: the format key with its one `%#@name@` variable replaced by each form.
    private static func forms(_ entry: [String: Any]) -> [PluralCategory: String]? {
        guard let format = entry["NSStringLocalizedFormatKey"] as? String,
            let start = format.range(of: "%#@"),
            let end = format[start.upperBound...].firstIndex(of: "@"),
            let variable = entry[String(format[start.upperBound..<end])] as? [String: Any],
            variable["NSStringFormatSpecTypeKey"] as? String == "NSStringPluralRuleType"
        else { return nil }
        let prefix = format[..<start.lowerBound]
        let suffix = format[format.index(after: end)...]
        var forms: [PluralCategory: String] = [:]
        for category in PluralCategory.allCases {
            if let text = variable[category.rawValue] as? String { forms[category] = prefix + text + suffix }
        }
        return forms[.other] == nil ? nil : forms
    }
}
