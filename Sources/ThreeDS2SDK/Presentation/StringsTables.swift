public import Foundation
public import Logging

/// The `Localizable.strings` tables (and `Localizable.stringsdict` plural forms) of one resource folder, each read
/// once, over an English table compiled into the binary: a process whose resource folder is missing or unreadable
/// shows English and logs one warning, never stops.
///
/// The SDK's own texts (``SDKStrings``) are read through ``shared``; the tools' terminal presenter reads its own table
/// (its own resource folder and built-in English) through another instance, so that the lookup, the fallback and the
/// warning are written once.
@_spi(ThreeDS2Tools) public final class StringsTables: Sendable {
    /// The name of the SDK's resource folder, without its extension.
    static let folderName = "ThreeDS2_ThreeDS2SDK"

    /// The tables of the SDK's own resource folder, looked for once (``ResourceFolder/searchDirectories``).
    @_spi(ThreeDS2Tools) public static let shared = StringsTables(
        folder: ResourceFolder.locate(folderName, in: ResourceFolder.searchDirectories))

    /// The resource folder, `nil` when none was found.
    @_spi(ThreeDS2Tools) public let folder: URL?
    /// The resource folder's name without its extension, for the warning.
    private let folderName: String
    /// Whose texts the tables hold, for the warning (for example "The SDK's").
    private let owner: String
    private let builtInEnglish: [String: String]
    private let builtInPlurals: [String: [PluralCategory: String]]
    private let cache = Locked<[String: [String: String]]>([:])
    private let pluralCache = Locked<[String: [String: [PluralCategory: String]]]>([:])
    private let warned = Locked(false)

    /// The SDK's tables read from a resource folder.
    ///
    /// - Parameter folder: The folder, or `nil` for the built-in English alone.
    convenience init(folder: URL?) {
        self.init(
            folderName: Self.folderName, owner: "The SDK's", folder: folder, builtInEnglish: Self.builtInEnglish,
            builtInPlurals: Self.builtInEnglishPlurals)
    }

    /// Tables read from a resource folder, over a built-in English table.
    ///
    /// - Parameters:
    ///   - folderName: The folder's name without its extension, `<package>_<target>`, named in the warning.
    ///   - owner: Whose texts they are, the warning's first words (for example "The terminal presenter's").
    ///   - folder: The folder (found with ``ResourceFolder/locate(_:in:)``), or `nil` for the built-in English alone.
    ///   - builtInEnglish: The English texts compiled into the binary, by key.
    ///   - builtInPlurals: The English plural forms compiled into the binary, by key and CLDR category name.
    @_spi(ThreeDS2Tools) public init(
        folderName: String, owner: String, folder: URL?, builtInEnglish: [String: String],
        builtInPlurals: [String: [String: String]]
    ) {
        self.folderName = folderName
        self.owner = owner
        self.folder = folder
        self.builtInEnglish = builtInEnglish
        self.builtInPlurals = builtInPlurals.mapValues { entry in
            Dictionary(
                uniqueKeysWithValues: entry.compactMap { name, text in PluralCategory(rawValue: name).map { ($0, text) }
                })
        }
    }

    /// The texts of a language, by key: the built-in English, under the resource folder's English, under the
    /// language's own table (a key the language lacks is English).
    ///
    /// - Parameter language: The language folder's name without `.lproj` (`de`, `zh-Hant`).
    /// - Returns: Every text, by key.
    @_spi(ThreeDS2Tools) public func texts(_ language: String) -> [String: String] {
        var texts = table("en")
        if language != "en" {
            for (key, text) in table(language) { texts[key] = text }
        }
        return texts
    }

    /// The plural forms of a language, by key and CLDR category: the English forms, a key the language gives
    /// replacing them whole.
    ///
    /// - Parameter language: The language folder's name without `.lproj`.
    /// - Returns: The forms of every key that has them.
    @_spi(ThreeDS2Tools) public func pluralForms(_ language: String) -> [String: [PluralCategory: String]] {
        var forms = plurals("en")
        if language != "en" {
            for (key, entry) in plurals(language) { forms[key] = entry }
        }
        return forms
    }

    /// One language's table as read (the built-in English under English); empty for another language whose table
    /// cannot be read.
    private func table(_ language: String) -> [String: String] {
        if let cached = cache.withLock({ $0[language] }) { return cached }
        var table = language == "en" ? builtInEnglish : [:]
        for (name, text) in entries(language) { table[name] = text }
        cache.withLock { $0[language] = table }
        return table
    }

    /// One language's plural forms as read (the built-in English forms under English).
    private func plurals(_ language: String) -> [String: [PluralCategory: String]] {
        if let cached = pluralCache.withLock({ $0[language] }) { return cached }
        var forms = language == "en" ? builtInPlurals : [:]
        for (name, entry) in pluralEntries(language) { forms[name] = entry }
        pluralCache.withLock { $0[language] = forms }
        return forms
    }

    /// Every entry of a language's `Localizable.stringsdict`, as written; empty when it cannot be read.
    ///
    /// - Parameter language: The language folder's name without `.lproj`.
    /// - Returns: The plural forms by key and category.
    @_spi(ThreeDS2Tools) public func pluralEntries(_ language: String) -> [String: [PluralCategory: String]] {
        guard let url = ResourceFolder.file("Localizable.stringsdict", language: language, in: folder),
            let data = try? Data(contentsOf: url)
        else { return [:] }
        return StringsDictFile.parse(data) ?? [:]
    }

    /// Every entry of a language's `Localizable.strings`, as written (unknown keys included); empty when the file
    /// cannot be read.
    ///
    /// - Parameter language: The language folder's name without `.lproj`.
    /// - Returns: The texts by key.
    @_spi(ThreeDS2Tools) public func entries(_ language: String) -> [String: String] {
        guard let url = ResourceFolder.file("Localizable.strings", language: language, in: folder),
            let data = try? Data(contentsOf: url)
        else { return [:] }
        return StringsFile.parse(data) ?? [:]
    }

    /// Every entry of a language's file in the SDK's resource folder.
    static func entries(_ language: String) -> [String: String] { shared.entries(language) }

    /// Logs, once per tables, that the resource folder is missing and the built-in English is shown.
    ///
    /// - Parameter logger: Where the warning goes.
    @_spi(ThreeDS2Tools) public func warnIfMissing(_ logger: Logger) {
        guard folder == nil,
            warned.withLock({
                let first = !$0; $0 = true; return first
            })
        else { return }
        logger.warning(
            "\(owner) resource folder (\(folderName).resources on Linux, .bundle on Apple platforms) was not found beside the executable or in the app's resources; its texts are shown in English"
        )
    }
}
