public import Foundation
import Logging

/// The SDK's own texts (not the ACS's, which are shown as sent), in the language of the `locale` the app passed to
/// `initialize`.
///
/// Each language is one `Localizable.strings` table in a `.lproj` folder of the SDK's resources (`en.lproj`,
/// `de.lproj`, `zh-Hant.lproj`, `pt-BR.lproj`, …), the format translators and Xcode's export tools use. The table is
/// read from the SDK's own bundle for the locale given, not for the process's preferred languages, the same way on
/// every platform. A key a table lacks falls back to English, key by key.
///
/// An app changes any text in one place: the ``ConfigParameters/textsGroup`` group of its configuration (see
/// ``ConfigParameters/setText(_:for:)``), checked at `initialize`. A presenter can also be handed its own
/// ``SDKStrings`` built with ``init(locale:overrides:)``.
public struct SDKStrings: Sendable, Hashable {
    /// The table in use, as its `.lproj` folder is named: for example `de`, `zh-Hant` or `pt-BR`; `en` when the
    /// locale's language has no table.
    public let language: String
    private let table: [Key: String]
    /// The plural forms of the keys that have them (a count in their text), by CLDR category.
    private let plurals: [Key: [PluralCategory: String]]

    /// The texts the SDK and its presenters show, each a key of the `Localizable.strings` tables (the raw value).
    ///
    /// A struct with a static member per text rather than an enum, so that a new text in a later release is an
    /// addition, not a change breaking an app's exhaustive `switch`. ``allCases`` lists every key of this release;
    /// ``init(rawValue:)`` accepts only those.
    public struct Key: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The key's name in the `Localizable.strings` tables and in ``ConfigParameters/textsGroup``.
        public let rawValue: String

        /// The most display columns the text may take in any language (an East Asian wide character takes two, as
        /// the tools' terminal presenter counts them; its tests hold every table to the budget), derived from the
        /// terminal's 80 columns:
        ///
        /// - 22 for a button or a word inside a line: three buttons fit one line with their `< ` and ` >` and a
        ///   space between them (3 × (22 + 4) + 2 = 80).
        /// - 40 for a title, a label or a status word beside something else: half a line.
        /// - 80 for a sentence on its own line: one line.
        /// - 160 for a longer message: two lines.
        public let columnBudget: Int

        private init(_ rawValue: String, columnBudget: Int) {
            self.rawValue = rawValue
            self.columnBudget = columnBudget
        }

        /// The key of a table entry's name; `nil` when the name is not one of this release's keys (``allCases``).
        ///
        /// - Parameter rawValue: The entry's name, for example `cancel`.
        public init?(rawValue: String) {
            guard let known = Self.byName[rawValue] else { return nil }
            self = known
        }

        /// The key's name (its ``rawValue``).
        public var description: String { rawValue }

        /// Two keys are the same when their names are.
        public static func == (lhs: Key, rhs: Key) -> Bool { lhs.rawValue == rhs.rawValue }

        /// Hashes the key's name.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// The placeholders of the English text, in order (`%@`, `%d`, or positional as `%1$@`): every translation
        /// and override has the same ones.
        public var placeholders: [String] { SDKStrings.placeholders(in: SDKStrings.english[self]) }

        // The core's texts.
        /// The toolbar's cancel button.
        public static let cancel = Key("cancel", columnBudget: 22)
        /// The processing indicator.
        public static let processing = Key("processing", columnBudget: 40)
        /// The continue button of out-of-band and information screens.
        public static let continueButton = Key("continueButton", columnBudget: 22)
        /// The submit button.
        public static let submit = Key("submit", columnBudget: 22)
        /// The resend-code button.
        public static let resend = Key("resend", columnBudget: 22)
        /// The toolbar's title.
        public static let secureCheckout = Key("secureCheckout", columnBudget: 40)
        /// The word before a warning text.
        public static let warning = Key("warning", columnBudget: 22)
        /// A closed section's action (and its label when the ACS gave none).
        public static let showMore = Key("showMore", columnBudget: 22)
        /// An open section's action.
        public static let showLess = Key("showLess", columnBudget: 22)
        /// The button opening the bank's app.
        public static let openApp = Key("openApp", columnBudget: 22)
        /// A yes answer.
        public static let yes = Key("yes", columnBudget: 22)
        /// A no answer.
        public static let no = Key("no", columnBudget: 22)
        /// A chosen option, for assistive technologies.
        public static let selected = Key("selected", columnBudget: 22)
        /// An option not chosen, for assistive technologies.
        public static let notSelected = Key("notSelected", columnBudget: 22)
        /// The note when a selection screen is submitted with nothing chosen.
        public static let chooseOption = Key("chooseOption", columnBudget: 80)
        /// The word before an image's description.
        public static let image = Key("image", columnBudget: 22)
        /// The code entry's label when the ACS gave none (and the note when it is submitted empty).
        public static let codeField = Key("codeField", columnBudget: 40)
        /// The challenge timed out (the cardholder text of a timed-out challenge).
        public static let timedOut = Key("timedOut", columnBudget: 80)
        /// The challenge was cancelled (the cardholder text of a cancelled authentication).
        public static let cancelled = Key("cancelled", columnBudget: 80)
        /// The challenge finished with an authenticated status (`Y` or `A`).
        public static let completed = Key("completed", columnBudget: 80)
        /// The challenge could not be completed.
        public static let genericError = Key("genericError", columnBudget: 80)
        /// The bank's app could not be opened.
        public static let appOpenFailed = Key("appOpenFailed", columnBudget: 160)
        /// The bank's app was opened; the cardholder comes back after approving.
        public static let finishInApp = Key("finishInApp", columnBudget: 160)
        /// The description of the issuer's image.
        public static let issuer = Key("issuer", columnBudget: 22)
        /// The description of the payment system's image.
        public static let paymentSystem = Key("paymentSystem", columnBudget: 22)

        // The form state's notes (``ChallengeFormState/note``).
        /// An entry for a box the screen does not have; `%d` is its number.
        public static let noteNoEntryBox = Key("noteNoEntryBox", columnBudget: 80)
        /// A choice the screen does not offer; `%@` is the option's key.
        public static let noteNoOption = Key("noteNoOption", columnBudget: 80)
        /// A resend the screen does not offer.
        public static let noteNoNewCode = Key("noteNoNewCode", columnBudget: 80)
        /// An additional code the screen does not offer.
        public static let noteNoAdditionalCode = Key("noteNoAdditionalCode", columnBudget: 80)
        /// An app the screen does not link.
        public static let noteNoApp = Key("noteNoApp", columnBudget: 80)
        /// Web-form data for a screen that is not an HTML page.
        public static let noteNotHTML = Key("noteNotHTML", columnBudget: 80)
        /// An HTML submission on a page without a form.
        public static let noteNoHTMLForm = Key("noteNoHTMLForm", columnBudget: 80)
        /// An entry longer than allowed; `%d` is the limit in characters.
        public static let noteTooLong = Key("noteTooLong", columnBudget: 80)
        /// A value for a field the page does not have; `%@` is the field's name.
        public static let noteUnknownField = Key("noteUnknownField", columnBudget: 80)
        /// A button the page does not have; `%@` is the button's name.
        public static let noteUnknownButton = Key("noteUnknownButton", columnBudget: 80)

        // The security warnings an app shows the cardholder (``Warning/localizedMessage(_:)``), EMVCo SW01–SW05.
        /// SW01: the device is rooted or jailbroken.
        public static let warningJailbroken = Key("warningJailbroken", columnBudget: 80)
        /// SW02: the SDK's integrity has been tampered with.
        public static let warningTampered = Key("warningTampered", columnBudget: 80)
        /// SW03: an emulator or a virtual machine is in use.
        public static let warningEmulator = Key("warningEmulator", columnBudget: 80)
        /// SW04: a debugger is attached.
        public static let warningDebugger = Key("warningDebugger", columnBudget: 80)
        /// SW05: the operating system's version is not supported.
        public static let warningUnsupportedOS = Key("warningUnsupportedOS", columnBudget: 80)
        // The cardholder texts of outcomes and failures (English in every table until the translations follow).
        /// A form answer the CReq cannot carry: the screen stays, with this note.
        public static let noteCannotSend = Key("noteCannotSend", columnBudget: 80)
        /// An outcome: the bank did not confirm the payment (a status other than `Y` or `A`).
        public static let outcomeNotAuthenticated = Key("outcomeNotAuthenticated", columnBudget: 80)
        /// An outcome: the bank's server could not be reached.
        public static let outcomeConnectionFailed = Key("outcomeConnectionFailed", columnBudget: 160)
        /// An outcome: the bank's server ended the authentication with an error.
        public static let outcomeBankError = Key("outcomeBankError", columnBudget: 160)
        /// An outcome: the payment could not be checked (the app's backend failed or did not answer).
        public static let outcomeUnavailable = Key("outcomeUnavailable", columnBudget: 160)

        /// Every key of this release, in the order of the English table.
        public static let allCases: [Key] = [
            .cancel, .processing, .continueButton, .submit, .resend, .secureCheckout, .warning, .showMore, .showLess,
            .openApp, .yes, .no, .selected, .notSelected, .chooseOption, .image, .codeField, .timedOut, .cancelled,
            .completed, .genericError, .appOpenFailed, .finishInApp, .issuer, .paymentSystem,
            .noteNoEntryBox, .noteNoOption, .noteNoNewCode, .noteNoAdditionalCode, .noteNoApp, .noteNotHTML,
            .noteNoHTMLForm, .noteTooLong, .noteUnknownField, .noteUnknownButton, .warningJailbroken,
            .warningTampered, .warningEmulator, .warningDebugger, .warningUnsupportedOS,
            .noteCannotSend, .outcomeNotAuthenticated, .outcomeConnectionFailed, .outcomeBankError, .outcomeUnavailable,
        ]

        private static let byName: [String: Key] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
    }

    /// The English texts.
    public static let english = SDKStrings(language: "en")

    /// The languages with a table, as their `.lproj` folders are named.
    public static let languages = [
        "ar", "bg", "cs", "da", "de", "el", "en", "es", "es-419", "et", "fa", "fi", "fr", "fr-CA", "ga", "he", "hi",
        "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "mt", "nb", "nl", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk",
        "sl", "sv", "th", "tr", "uk", "ur", "vi", "zh-Hans", "zh-Hant", "zh-Hant-HK",
    ]

    /// The languages whose table a native speaker has reviewed, so an app can decide which to offer: English (the
    /// source) only. Every other table, the seven that came first (`de`, `es`, `fr`, `it`, `ja`, `nl`, `pt-PT`)
    /// included, was written by the SDK's developers and awaits a native speaker's review (CONTRIBUTING.md,
    /// "Translations").
    public static let reviewedLanguages: Set<String> = ["en"]

    /// The languages written right to left: Arabic, Hebrew, Persian and Urdu (a table of each is right to left
    /// whether or not this release ships it).
    public static let rightToLeftLanguages: Set<String> = ["ar", "he", "fa", "ur"]

    /// Whether the table's language is written right to left (Arabic, Hebrew, Persian, Urdu).
    public var isRightToLeft: Bool { Self.rightToLeftLanguages.contains(language) }

    /// Whether a native speaker has reviewed the table in use (``reviewedLanguages``).
    public var isReviewed: Bool { Self.reviewedLanguages.contains(language) }

    /// The texts for a locale: the table of its language (chosen as ``language(for:)`` does), English for a key the
    /// table lacks, and the app's overrides over both.
    ///
    /// - Parameters:
    ///   - locale: The locale the app gave `initialize`; the process's preferred languages play no part.
    ///   - overrides: The app's own texts, by key (see ``ConfigParameters/setText(_:for:)``).
    public init(locale: Locale, overrides: [Key: String] = [:]) {
        self.init(locale: locale, overrides: overrides, logger: Logger(label: "threeds2.sdk"))
    }

    /// The texts for a locale, with a warning to `logger` when the SDK's resource folder is missing (once a process).
    init(locale: Locale, overrides: [Key: String] = [:], logger: Logger, tables: StringsTables = .shared) {
        tables.warnIfMissing(logger)
        self.init(language: Self.language(for: locale), overrides: overrides, tables: tables)
    }

    private init(language: String, overrides: [Key: String] = [:], tables: StringsTables = .shared) {
        self.language = language
        var table: [Key: String] = [:]
        for (name, text) in tables.texts(language) {
            if let key = Key(rawValue: name) { table[key] = text }
        }
        let overrides = overrides.filter { Self.placeholderProblem(in: $0.value, for: $0.key) == nil }
        for (key, text) in overrides { table[key] = text }
        self.table = table
        var plurals: [Key: [PluralCategory: String]] = [:]
        for (name, forms) in tables.pluralForms(language) {
            if let key = Key(rawValue: name) { plurals[key] = forms }
        }
        for key in overrides.keys { plurals[key] = nil }
        self.plurals = plurals
    }

    /// The texts with some replaced; a replacement whose placeholders are not the English text's
    /// (``placeholderProblem(in:for:)``) is left out, the text it would replace kept. `initialize` refuses such a
    /// text in ``ConfigParameters/textsGroup`` with the problem named.
    ///
    /// - Parameter overrides: The replacements, by key.
    /// - Returns: The texts, the replacements taking precedence.
    public func overriding(_ overrides: [Key: String]) -> SDKStrings {
        let overrides = overrides.filter { Self.placeholderProblem(in: $0.value, for: $0.key) == nil }
        var merged = table
        for (key, text) in overrides { merged[key] = text }
        return SDKStrings(language: language, merged: merged, plurals: plurals.filter { overrides[$0.key] == nil })
    }

    private init(language: String, merged: [Key: String], plurals: [Key: [PluralCategory: String]]) {
        self.language = language
        self.table = merged
        self.plurals = plurals
    }

    /// The text for a key.
    public subscript(key: Key) -> String { table[key] ?? key.rawValue }

    /// The text for a key with its placeholders filled: `%@` and `%d` in order, or positional (`%1$@`, `%2$@`).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The values, in the English text's order.
    /// - Returns: The text.
    public func format(_ key: Key, _ arguments: any CustomStringConvertible...) -> String {
        Self.fill(text(key, counting: arguments), arguments.map(\.description))
    }

    /// The text of a key for its arguments: the plural form the first whole-number argument's CLDR category picks
    /// in the table's language (``PluralCategory/of(_:language:)``), `other` for a category the table lacks, the
    /// plain text for a key without plural forms.
    private func text(_ key: Key, counting arguments: [any CustomStringConvertible]) -> String {
        guard let forms = plurals[key], let count = arguments.lazy.compactMap({ Self.count($0) }).first else {
            return self[key]
        }
        return forms[PluralCategory.of(count, language: language)] ?? forms[.other] ?? self[key]
    }

    /// A whole number's value, `nil` for anything else.
    private static func count(_ value: any CustomStringConvertible) -> Int? {
        guard let integer = value as? any BinaryInteger else { return nil }
        return Int(clamping: integer)
    }

    /// The table for a locale: the first of the locale's CLDR parent chain that has a table, then English.
    ///
    /// The chain is CLDR's (`parentLocales` of CLDR 46), as Apple's bundles also walk it: the language with its
    /// script or region, then its parents, then the language alone —
    ///
    /// - Spanish of Latin America and the United States (`es-MX`, `es-AR`, `es-US`, …) → `es-419` → `es`;
    /// - Chinese in a Traditional script, or of Taiwan, Hong Kong or Macao → `zh-Hant` (Hong Kong and Macao first
    ///   `zh-Hant-HK`); Chinese otherwise → `zh-Hans`;
    /// - Portuguese of Brazil or without a region → `pt-BR`; of any other region → `pt-PT`;
    /// - French of Canada → `fr-CA` → `fr`;
    /// - Norwegian (`no`), Bokmål (`nb`) and Nynorsk (`nn`) → `nb`; the old codes `iw` → `he`, `in` → `id`.
    ///
    /// - Parameter locale: The locale.
    /// - Returns: A member of ``languages``.
    public static func language(for locale: Locale) -> String {
        language(for: locale, among: Set(languages))
    }

    /// The table for a locale among the given languages (the tests name languages a release may not ship yet).
    static func language(for locale: Locale, among available: Set<String>) -> String {
        parentChain(LocaleParts(locale.identifier)).first { available.contains($0) } ?? "en"
    }

    /// The regions whose Spanish is `es-419`'s (CLDR's `parentLocales`).
    private static let latinAmericanSpanish: Set<String> = [
        "419", "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR",
        "PY", "SV", "US", "UY", "VE",
    ]

    /// A locale's candidate tables, most specific first.
    static func parentChain(_ parts: LocaleParts) -> [String] {
        let aliases = ["iw": "he", "in": "id", "no": "nb", "nn": "nb"]
        let language = aliases[parts.language] ?? parts.language
        let region = parts.region ?? ""
        switch language {
        case "zh":
            let traditional = parts.script == "Hant" || (parts.script == nil && ["TW", "HK", "MO"].contains(region))
            guard traditional else { return ["zh-Hans"] }
            return ["HK", "MO"].contains(region) ? ["zh-Hant-HK", "zh-Hant"] : ["zh-Hant"]
        case "pt":
            return [region.isEmpty || region == "BR" ? "pt-BR" : "pt-PT"]
        case "es" where latinAmericanSpanish.contains(region):
            return ["es-\(region)", "es-419", "es"]
        default:
            return [parts.script.map { "\(language)-\($0)" }, parts.region.map { "\(language)-\($0)" }, language]
                .compactMap { $0 }
        }
    }

    /// What is wrong with a text for a key, `nil` when nothing is: its placeholders must be the English text's
    /// (``Key/placeholders``, in any order), and every other `%` must be written `%%` (`%s`, `100% sure` are refused).
    ///
    /// - Parameters:
    ///   - text: An app's or a translator's text.
    ///   - key: The key it is for.
    /// - Returns: The problem, in a sentence, or `nil`.
    public static func placeholderProblem(in text: String, for key: Key) -> String? {
        let expected = key.placeholders
        let found = placeholders(in: text)
        if found.sorted() != expected.sorted() {
            return "\(key) must have the English text's placeholders: "
                + (expected.isEmpty ? "none" : expected.joined(separator: " "))
        }
        let specifiers = text.split(separator: "%", omittingEmptySubsequences: false).count - 1
        let escaped = text.components(separatedBy: "%%").count - 1
        if specifiers != found.count + 2 * escaped {
            return "\(key) has a % that is no placeholder: write a percent sign as %%"
        }
        return nil
    }

    /// The placeholders of a text, in order (`%@`, `%d`, positional `%1$@`; `%%` is none).
    ///
    /// - Parameter text: The text.
    /// - Returns: Its placeholders as written.
    @_spi(ThreeDS2Tools) public static func placeholders(in text: String) -> [String] {
        var found: [String] = []
        var scalars = Substring(text)
        while let percent = scalars.firstIndex(of: "%") {
            var rest = scalars[scalars.index(after: percent)...]
            var spec = "%"
            while let next = rest.first, next.isNumber || next == "$" {
                spec.append(next)
                rest = rest.dropFirst()
            }
            if let kind = rest.first, kind == "@" || kind == "d" {
                spec.append(kind)
                found.append(spec)
                rest = rest.dropFirst()
            } else if rest.first == "%" {
                rest = rest.dropFirst()
            }
            scalars = rest
        }
        return found
    }

    /// A text with its placeholders replaced: `%@` and `%d` in order, or positional (`%1$@`); `%%` is a percent sign.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - arguments: The values, in order.
    /// - Returns: The text filled.
    @_spi(ThreeDS2Tools) public static func fill(_ text: String, _ arguments: [String]) -> String {
        var out = ""
        var next = 0
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            var after = rest[rest.index(after: percent)...]
            var digits = ""
            while let character = after.first, character.isNumber {
                digits.append(character)
                after = after.dropFirst()
            }
            var index = next
            if after.first == "$", let position = Int(digits) {
                index = position - 1
                after = after.dropFirst()
                digits = ""
            }
            if digits.isEmpty, let kind = after.first, kind == "@" || kind == "d" {
                out += arguments.indices.contains(index) ? arguments[index] : ""
                next += 1
                after = after.dropFirst()
            } else if digits.isEmpty, after.first == "%" {
                out += "%"
                after = after.dropFirst()
            } else {
                out += "%" + digits
            }
            rest = after
        }
        return out + rest
    }
}

/// A locale identifier's language, script and region (`zh-Hant_TW`, `pt_BR`, `sr-Latn`, `de_DE@collation=phonebook`).
struct LocaleParts: Equatable {
    var language: String
    var script: String?
    var region: String?

    init(_ identifier: String) {
        let base = identifier.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        language = parts.first?.lowercased() ?? "en"
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(\.isLetter), script == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if (part.count == 2 && part.allSatisfy(\.isLetter))
                || (part.count == 3 && part.allSatisfy(\.isNumber)),
                region == nil
            {
                region = part.uppercased()
            }
        }
    }
}

/// Reading a `.strings` file: the text format translators edit (`"key" = "value";`, comments, `\"`, `\n`, `\U…`
/// escapes, UTF-8 or UTF-16), or the binary property list Xcode may compile it to.
enum StringsFile {
    /// The entries of a file; `nil` when it is not a strings file.
    static func parse(_ data: Data) -> [String: String]? {
        if data.starts(with: Array("bplist".utf8)) {
            return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: String]
        }
        let text: String?
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            text = String(data: data, encoding: .utf16)
        } else {
            text = String(data: data, encoding: .utf8)
        }
        guard let text else { return nil }
        return parse(text)
    }

    /// The entries of a strings file's text; `nil` when it is malformed.
    static func parse(_ text: String) -> [String: String]? {
        var scanner = StringsFileScanner(text)
        return scanner.entries()
    }
}
