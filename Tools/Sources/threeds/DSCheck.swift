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

            Exit status: 0 when every directory server has a usable encryption certificate (a warning may still say
            one ends within 30 days); 1 when one has none, or the bundle cannot be read; 2 usage error.
            """)

    @Argument(help: "A trust bundle file, or a folder holding trust-bundle.json.") var path: String
    @Option(help: "The day to ask about: YYYY-MM-DD (00:00 UTC) or an ISO 8601 time such as 2027-06-01T12:00:00Z.")
    var at: String?
    @Flag(help: "Print one JSON object instead of text.") var json = false

    func validate() throws {
        if let at, Self.date(at) == nil {
            throw ValidationError("--at must be YYYY-MM-DD or an ISO 8601 time such as 2027-06-01T12:00:00Z, got \(at)")
        }
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if let instant = formatter.date(from: text) { return instant }
        formatter.formatOptions = [.withFullDate]
        guard text.count == 10 else { return nil }
        return formatter.date(from: text)
    }

    func run() throws {
        let date = at.flatMap(Self.date) ?? Date()
        let bundle: TrustBundle
        do {
            bundle = try TrustBundle(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError(error.message, exitStatus: 1)
        }
        let reports = bundle.evaluate(at: date)
        if json {
            print(Self.json(reports, date: date).serialized)
        } else {
            print(Self.text(reports, date: date, path: path))
        }
        let unusable = reports.filter { $0.failure != nil }
        if !unusable.isEmpty {
            if json {
                for report in unusable { warn("threeds: \(safe(report.failure?.message ?? ""))") }
            }
            throw ExitCode(1)
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
/// (``PeerText/isControlOrBidi(_:)``; the bidi controls were missed before issue 34) written as a visible `\u{…}`
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
