import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

/// `threeds ds`: directory-server tools.
struct DirectoryServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ds", abstract: "Directory-server tools: check a trust bundle.", subcommands: [DSCheck.self])
}

/// `threeds ds check PATH`: what the SDK would make of a trust bundle on a day.
struct DSCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a trust bundle: every directory server's certificates and the one the SDK would use.",
        discussion: """
            Example (the TestLab's --pki-dir folder is a bundle folder):
              threeds ds check testlab-pki
              threeds ds check trust-bundle.json --at 2027-06-01 --json

            \(ExitStatus.help(
            success: "every directory server has a usable encryption certificate (a warning may still say one ends within 30 days)",
            failure: "one has none, or the bundle is malformed"))
            """)

    @Argument(help: "A trust bundle file, or a folder holding trust-bundle.json.") var path: String
    @Option(help: ArgumentHelp(TimeSyntax.help)) var at: String?
    @Flag(help: "Print one JSON object instead of text.") var json = false

    func validate() throws {
        try TimeSyntax.validate(at)
    }

    func run() throws {
        let date = at.flatMap(TimeSyntax.date) ?? Date()
        try Self.checkInput(path)
        let bundle: TrustBundle
        do {
            bundle = try TrustBundle(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError(Self.relative(error.message), exitStatus: 1)
        }
        let reports = bundle.evaluate(at: date)
        if json {
            print(Self.json(reports, date: date).serialized)
        } else {
            // Within 80 columns (or a narrower COLUMNS): a long line goes on under its value.
            print(TerminalWidth.wrap(Self.relative(Self.text(reports, date: date, path: path)), indent: Self.hanging))
        }
        let unusable = reports.filter { $0.failure != nil }
        if !unusable.isEmpty {
            if json {
                for report in unusable { complain("threeds: \(Self.relative(safe(report.failure?.message ?? "")))") }
            }
            throw ExitCode(1)
        }
    }

    /// How far a wrapped line goes on to the right of its start: under the value of `chain:     …`.
    static let hanging = String(repeating: " ", count: 11)

    /// Text with the paths under the current folder written relative to it, as a person types them: the SDK names
    /// the files it read by their full path. A path elsewhere stays whole; `--json` keeps full paths.
    static func relative(_ text: String) -> String {
        let here = FileManager.default.currentDirectoryPath
        var folders = [here]
        if let real = realpath(here, nil) {
            folders.append(String(cString: real))
            free(real)
        }
        var result = text
        for folder in Set(folders) where folder != "/" {
            // Only where a path starts: at the start of the text, or after a space, a quote or a parenthesis.
            let pattern = #"(?<![^\s"'(])"# + NSRegularExpression.escapedPattern(for: folder + "/")
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            result = expression.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "")
        }
        return result
    }

    /// Refuses, as a usage error naming the fix, a path that is not a bundle: nothing readable there, a folder without
    /// `trust-bundle.json`, or a PEM file (a certificate goes inside a bundle).
    static func checkInput(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw CLIError("trust bundle \(safe(path)) does not exist or cannot be read", exitStatus: ExitStatus.usage)
        }
        if isFolder.boolValue {
            let bundle = URL(fileURLWithPath: path).appendingPathComponent(TrustBundle.fileName).path
            guard FileManager.default.fileExists(atPath: bundle) else {
                throw CLIError(
                    "the folder \(safe(path)) holds no \(TrustBundle.fileName): give a bundle file or its folder",
                    exitStatus: ExitStatus.usage)
            }
            return
        }
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 64)) ?? nil
        if let head, String(decoding: head, as: UTF8.self).contains("-----BEGIN") {
            throw CLIError(
                "\(safe(path)) is a PEM file, not a trust bundle: give the bundle's JSON file or the folder holding "
                    + "\(TrustBundle.fileName) (certificates are listed inside it)", exitStatus: ExitStatus.usage)
        }
    }

    static func text(_ reports: [DirectoryServerReport], date: Date, path: String) -> String {
        var lines = ["Trust bundle \(safe(path)), on \(stamp(date)):"]
        for report in reports {
            lines.append("")
            lines.append("Directory server \(safe(report.label))")
            lines.append("  roots: \(report.roots.map(safe).joined(separator: "; "))")
            for key in report.keys {
                let inUse = key.position == report.chosenPosition ? "  <- in use" : ""
                let id = key.keyID.map { " (key ID \(safe($0)))" } ?? ""
                lines.append("  key \(key.position)\(id): \(key.status.rawValue)\(inUse)")
                if let subject = key.subject { lines.append("    subject:   \(safe(subject))") }
                if let type = key.keyType { lines.append("    key:       \(type), \(key.keySize ?? 0) bits") }
                if let start = key.notValidBefore, let end = key.notValidAfter {
                    lines.append("    validity:  \(stamp(start)) to \(stamp(end))")
                }
                if key.subject != nil {
                    lines.append("    key usage: \(key.keyUsage.map { $0.joined(separator: ", ") } ?? "(not stated)")")
                    lines.append(
                        key.chainsToRoot
                            ? "    chain:     \(safe(key.subject ?? "")) <- \(key.chain.map(safe).joined(separator: " <- ")) (root)"
                            : "    chain:     does not chain to a root of this directory server (issuer \(safe(key.issuer ?? "")))"
                    )
                } else if key.keyType != nil {
                    lines.append("    a bare public key: no dates, no key usage, no chain")
                }
                if let problem = key.problem { lines.append("    problem:   \(safe(problem))") }
            }
            if let chosen = report.chosen {
                lines.append(
                    "  the SDK uses key \(chosen.position)\(chosen.keyID.map { " (key ID \(safe($0)))" } ?? "")")
            }
            if let warning = report.warning { lines.append("  warning \(warning.id): \(safe(warning.message))") }
            if let failure = report.failure { lines.append("  UNUSABLE: \(safe(failure.message))") }
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ reports: [DirectoryServerReport], date: Date) -> JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            "date": .string(stamp(date)),
            "usable": .bool(reports.allSatisfy { $0.failure == nil }),
            "directoryServers": .array(
                reports.map { report in
                    .object([
                        "id": .string(report.id.rawValue), "name": optional(report.name),
                        "roots": .array(report.roots.map(JSONValue.string)),
                        "inUse": report.chosenPosition.map { .integer($0) } ?? .null,
                        "warning": optional(report.warning?.message),
                        "error": optional(report.failure?.message),
                        "certificates": .array(
                            report.keys.map { key in
                                .object([
                                    "position": .integer(key.position), "keyID": optional(key.keyID),
                                    "status": .string(key.status.rawValue), "subject": optional(key.subject),
                                    "issuer": optional(key.issuer), "keyType": optional(key.keyType),
                                    "keySize": key.keySize.map { .integer($0) } ?? .null,
                                    "notValidBefore": optional(key.notValidBefore.map(stamp)),
                                    "notValidAfter": optional(key.notValidAfter.map(stamp)),
                                    "keyUsage": key.keyUsage.map { .array($0.map(JSONValue.string)) } ?? .null,
                                    "chainsToRoot": .bool(key.chainsToRoot),
                                    "chain": .array(key.chain.map(JSONValue.string)),
                                    "problem": optional(key.problem),
                                ])
                            }),
                    ])
                }),
        ])
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

/// Text from a certificate or file as the terminal shows it: every control character and bidirectional control
/// (``PeerText/isControlOrBidi(_:)``, the bidi controls included) written as a visible `\u{…}`
/// escape, so a crafted subject, name, key ID or path cannot move the cursor, change colours or reorder the line.
/// Certificate names arrive already escaped (`CertificateName.readable`), so a backslash is left as it is.
private func safe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: PeerText.isControlOrBidi) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if PeerText.isControlOrBidi(scalar) {
            out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}
