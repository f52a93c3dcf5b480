import Foundation
public import Logging
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The terminal presenter's own texts: its key help, the plain mode's names of controls, the line mode's questions,
/// and the words and keys a person types (the commands, yes and no), in the language of the SDK's texts.
///
/// They are not the SDK's (``SDKStrings``), which hold only what an app shows: the terminal's texts ship with the
/// terminal presenter, one `Localizable.strings` table (and `Localizable.stringsdict` for the plural forms) per
/// language in its own resource folder, `ThreeDS2Tools_ThreeDS2TerminalUI.resources`. They are read with the SDK's
/// table loader, so a missing folder behaves as the SDK's does: English, compiled into the binary, and one warning.
public struct TerminalStrings: Sendable, Hashable {
    /// The table in use, as its `.lproj` folder is named (the SDK's texts' language; `en` when the terminal has no
    /// table of that language).
    public let language: String
    private let table: [String: String]
    private let plurals: [String: [PluralCategory: String]]

    /// The name of the terminal presenter's resource folder, without its extension.
    static let folderName = "ThreeDS2Tools_ThreeDS2TerminalUI"

    /// The terminal presenter's tables, looked for once where the SDK looks for its own.
    static let tables = TerminalStrings.tables(in: ResourceFolder.searchDirectories)

    /// The tables of the resource folder found in `directories`, over the built-in English.
    static func tables(in directories: [URL]) -> StringsTables {
        StringsTables(
            folderName: folderName, owner: "The terminal presenter's",
            folder: ResourceFolder.locate(folderName, in: directories), builtInEnglish: builtInEnglish,
            builtInPlurals: builtInEnglishPlurals)
    }

    /// The English texts.
    public static let english = TerminalStrings(language: "en")

    /// The texts of a language, English for a key its table lacks (and for a language without a table).
    ///
    /// - Parameter language: A table's name, as ``SDKStrings/language`` gives it (`de`, `zh-Hant`, `pt-BR`).
    public init(language: String) {
        self.init(language: language, tables: Self.tables)
    }

    /// The texts in the language of the SDK's texts.
    ///
    /// - Parameter strings: The SDK's texts in use.
    public init(for strings: SDKStrings) {
        self.init(language: strings.language)
    }

    /// The texts of a language read from the given tables.
    init(language: String, tables: StringsTables) {
        self.language = language
        self.table = tables.texts(language)
        self.plurals = tables.pluralForms(language)
    }

    /// Logs, once a process, that the terminal presenter's resource folder is missing and English is shown.
    ///
    /// - Parameter logger: Where the warning goes.
    public static func warnIfMissing(_ logger: Logger) {
        tables.warnIfMissing(logger)
    }

    /// The text for a key.
    public subscript(key: Key) -> String { table[key.rawValue] ?? key.rawValue }

    /// The text for a key with its placeholders filled (`%@` and `%d` in order, or positional `%1$@`), the plural
    /// form the first whole-number argument's CLDR category picks in the table's language.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - arguments: The values, in the English text's order.
    /// - Returns: The text.
    public func format(_ key: Key, _ arguments: any CustomStringConvertible...) -> String {
        var text = self[key]
        if let forms = plurals[key.rawValue],
            let count = arguments.lazy.compactMap({ ($0 as? any BinaryInteger).map { Int(clamping: $0) } }).first
        {
            text = forms[PluralCategory.of(count, language: language)] ?? forms[.other] ?? text
        }
        return SDKStrings.fill(text, arguments.map(\.description))
    }
}
