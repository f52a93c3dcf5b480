import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

/// An error found while running a command, as the person who typed it can act on it: one line, naming the option
/// and file at fault, printed as `threeds: …`, with the exit status to use (2 for what the user gave, 1 otherwise).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitStatus: Int32

    init(_ description: String, exitStatus: Int32 = 2) {
        self.description = description
        self.exitStatus = exitStatus
    }
}

/// An error as the person at the terminal reads it: an error of the package's shape as `code: message (cause)`
/// without the source location its description adds for logs (a TestLab error, written for that person, as its
/// message alone); anything else as it describes itself.
func readable(_ error: any Error) -> String {
    if let error = error as? TestLabError { return error.message }
    guard let error = error as? any CodedError else { return "\(error)" }
    return "\(error.code): \(error.message)" + (error.underlying.map { " (\(readable($0)))" } ?? "")
}

/// An error shown by its ``readable(_:)`` text.
struct ReadableError: Error, CustomStringConvertible {
    let description: String
}

/// Reads a text file an option names: bounded in size, UTF-8 only, with a reason a person can act on (missing, a
/// directory, unreadable, empty, too large, not UTF-8) instead of a platform error dump.
///
/// - Parameters:
///   - path: The path as given.
///   - option: The option that named it, for the message (`--answers`).
///   - maxBytes: The largest file accepted.
func readInputFile(_ path: String, option: String, maxBytes: Int = 1 << 20) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CLIError("\(option) \(path): no such file")
    }
    guard !isDirectory.boolValue else { throw CLIError("\(option) \(path): is a directory, not a file") }
    // Opened without blocking and read only up to the bound: a FIFO or device is refused, not waited on.
    let data: [UInt8]
    do {
        data = try BoundedFile.read(path, maxBytes: maxBytes, what: option)
    } catch {
        if access(path, R_OK) != 0 { throw CLIError("\(option) \(path): cannot be read (permission denied?)") }
        if error.message.contains("larger than") {
            throw CLIError("\(option) \(path): larger than \(maxBytes / 1024) KB")
        }
        throw CLIError(
            "\(option) \(path): \(error.message.contains("regular") ? "is not a regular file" : "cannot be read")")
    }
    guard !data.isEmpty else { throw CLIError("\(option) \(path): is empty") }
    guard let text = String(bytes: data, encoding: .utf8) else {
        throw CLIError("\(option) \(path): is not UTF-8 text")
    }
    return text
}

/// Checks of what the user types, before anything is sent.
enum InputCheck {
    /// A card number: 12–19 ASCII digits.
    static func card(_ card: String) throws {
        guard (12...19).contains(card.count), card.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError("the card number must be 12–19 digits (spaces and dashes between them are fine)")
        }
    }

    /// A card number as people write it (`4000 0000 0000 2000`, `4000-0000-0000-2000`, with a line break after it)
    /// reduced to its digits: leading and trailing whitespace, and spaces and dashes inside, are removed; anything
    /// else stays for ``card(_:)`` to refuse.
    static func normalizedCard(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).filter { $0 != " " && $0 != "-" && $0 != "\t" }
    }

    /// An amount in minor units: 1–48 ASCII digits (the AReq's purchaseAmount).
    static func amount(_ amount: String) throws {
        guard (1...48).contains(amount.count), amount.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError(
                "--amount must be the amount in minor units, digits only (1999 for 19.99), got \"\(amount)\"")
        }
    }

    /// A currency: an ISO 4217 numeric code.
    static func currency(_ code: String) throws {
        guard iso4217Numeric.contains(code) else {
            throw ValidationError(
                "--currency must be an ISO 4217 numeric code (978 for EUR, 840 for USD, 826 for GBP), got \"\(code)\"")
        }
    }

    /// The ISO 4217 numeric codes in use (2026), without 999 ("no currency").
    static let iso4217Numeric: Set<String> = Set(
        ("008,012,032,036,044,048,050,051,052,060,064,068,072,084,090,096,104,108,116,124,132,136,144,152,156,170,174,"
            + "188,192,203,208,214,222,230,232,238,242,262,270,292,320,324,328,332,340,344,348,352,356,360,364,368,376,"
            + "388,392,396,398,400,404,408,410,414,417,418,422,426,430,434,446,454,458,462,480,484,496,498,504,512,516,"
            + "524,532,533,548,554,558,566,578,586,590,598,600,604,608,634,643,646,654,682,690,702,704,706,710,728,748,"
            + "752,756,760,764,776,780,784,788,800,807,818,826,834,840,858,860,882,886,901,924,925,926,927,928,929,930,"
            + "933,934,936,938,940,941,943,944,946,947,948,949,950,951,952,953,955,956,957,958,959,960,961,962,963,964,"
            + "965,967,968,969,970,971,972,973,976,977,978,979,980,981,984,985,986,990,994,997")
            .split(separator: ",").map(String.init))

    /// A warning when the SDK has no texts in the locale's language (it then speaks English).
    static func localeWarning(_ locale: String?) -> String? {
        guard let locale else { return nil }
        let language = Locale(identifier: locale).language.languageCode?.identifier ?? locale
        guard language != "en", SDKStrings.language(for: Locale(identifier: locale)) == "en" else { return nil }
        return "warning: no SDK texts for --locale \(locale); using English (available: "
            + SDKStrings.languages.joined(separator: ", ") + ")"
    }
}

/// Writes one line to standard error, made safe for a terminal (``terminalSafe(_:)``).
func warn(_ line: String) {
    FileHandle.standardError.write(Data((terminalSafe(line) + "\n").utf8))
}

/// Writes a `threeds:` error line to standard error, made safe for a terminal (``terminalSafe(_:)``) and broken at
/// spaces to fit the terminal's width when standard error is a terminal (``TerminalWidth/errorColumns``): a person
/// reads it whole however narrow the window. To a file or a pipe it stays one line, for a log or a `grep`.
func complain(_ line: String) {
    let safe = terminalSafe(line)
    let text = TerminalWidth.errorColumns.map { TerminalWidth.wrap(safe, width: $0) } ?? safe
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Prints one line to standard output, made safe for a terminal (``terminalSafe(_:)``): every line the CLI prints
/// may quote a peer (a token's JSON, a certificate name, an ACS's error text).
func say(_ line: String) {
    print(terminalSafe(line))
}

/// Text with every control character other than the line feed, and every bidirectional control, written as a
/// visible `\u{…}` escape, so nothing a peer wrote can act on the terminal (rename it, move the cursor, reorder
/// what is read).
func terminalSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0 != "\n" && PeerText.isControlOrBidi($0) }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if scalar != "\n", PeerText.isControlOrBidi(scalar) {
            out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}
