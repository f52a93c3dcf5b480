import ArgumentParser
import Crypto
import Foundation
import SwiftASN1
import ThreeDS2JOSE
import ThreeDS2SDK
import X509
import _CryptoExtras

/// `threeds inspect`: decode and check the messages people debug, with the SDK's own checks.
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode and check ACS signed content, the SDK's device data, or a captured CReq or CRes.",
        discussion: """
            Each takes what people paste: the raw token, or JSON holding it (an ARes
            with acsSignedContent, an AReq with sdkEncData), with whitespace and line
            breaks anywhere; `threeds pay --save-messages DIR` writes such files.

            \(ExitStatus.help(success: "valid", failure: "invalid"))
            """,
        subcommands: [
            InspectSignedContent.self, InspectDeviceData.self, InspectCReq.self, InspectCRes.self, InspectAudit.self,
        ])

    /// A certificate's key as a person names it (`RSA 2048-bit`, `EC P-256`), never a Swift type name.
    static func describe(_ key: Certificate.PublicKey) -> String {
        if let rsa = _RSA.Signing.PublicKey(key) { return "RSA \(rsa.keySizeInBits)-bit" }
        if P256.Signing.PublicKey(key) != nil { return "EC P-256" }
        if P384.Signing.PublicKey(key) != nil { return "EC P-384" }
        if P521.Signing.PublicKey(key) != nil { return "EC P-521" }
        if Curve25519.Signing.PublicKey(key) != nil { return "Ed25519" }
        return "a key of an algorithm 3-D Secure does not use"
    }

    /// The token in what was pasted: the raw compact form, or the named member of a JSON object (at any depth), with
    /// whitespace, line breaks and surrounding quotes removed.
    static func token(in text: String, field: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") {
            // A token pasted across lines puts line breaks inside a JSON string: without them it parses.
            let parser = JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 16))
            let joined = trimmed.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
            guard
                let value = (try? parser.parse(Array(trimmed.utf8))) ?? (try? parser.parse(Array(joined.utf8)))
            else { throw CLIError("the input starts like JSON but is not valid JSON") }
            guard let found = find(field, in: value) else { throw CLIError("the JSON has no \(field)") }
            return found.filter { !$0.isWhitespace }
        }
        return trimmed.filter { !$0.isWhitespace && $0 != "\"" }
    }

    private static func find(_ field: String, in value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            if let direct = object[field]?.stringValue { return direct }
            for member in object.members { if let found = find(field, in: member.value) { return found } }
            return nil
        case .array(let items):
            for item in items { if let found = find(field, in: item) { return found } }
            return nil
        default:
            return nil
        }
    }

    /// The input of FILE or `-` (standard input), bounded.
    static func read(_ path: String) throws -> String {
        guard path == "-" else { return try readInputFile(path, option: "input") }
        let data = FileHandle.standardInput.readData(ofLength: (1 << 20) + 1)
        guard data.count <= 1 << 20 else { throw CLIError("standard input: larger than 1024 KB") }
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON value printed with two-space indentation, members in order.
    static func pretty(_ value: JSONValue, indent: String = "") -> String {
        switch value {
        case .object(let object):
            guard !object.members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let members = object.members.map {
                "\(inner)\(JSONValue.string($0.name).serialized): \(pretty($0.value, indent: inner))"
            }
            return "{\n" + members.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        default:
            return value.serialized
        }
    }
}

/// `threeds inspect signed-content`.
struct InspectSignedContent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signed-content",
        abstract:
            "Decode acsSignedContent and check it as the SDK does (chain, signature, algorithm, the payload's rules).",
        usage: "threeds inspect signed-content <input> --ds-root <file>... [--areq <file>] [--at <time>]",
        discussion: """
            Example (the TestLab's roots; ares.json from `pay --save-messages`):
              threeds inspect signed-content messages/ares.json \\
                --ds-root testlab-pki/ds-root.pem

            \(ExitStatus.help(success: "valid", failure: "invalid"))
            """)

    @Argument(help: "A file holding the JWS (or JSON with acsSignedContent), or - for standard input.") var input:
        String
    @Option(name: .customLong("ds-root"), help: "PEM file: a directory server root (repeatable).") var dsRoot: [String]
    @Option(help: ArgumentHelp(TimeSyntax.help + " Default: now.")) var at: String?
    @Option(
        help: ArgumentHelp(
            "The AReq the signed content answers (areq.json of --save-messages): its sdkEphemPubKey must be the payload's."
        ))
    var areq: String?

    /// The certificates of the `--ds-root` files. A file without any PEM block (a JSON file given by mistake) parses
    /// as no certificates: a usage error (exit 2), as a file that is not a certificate, never a verdict on the signed
    /// content.
    static func roots(_ paths: [String]) throws -> [Certificate] {
        try paths.flatMap { path -> [Certificate] in
            let pem = try readInputFile(path, option: "--ds-root")
            let certificates = try? PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
            guard let certificates, !certificates.isEmpty else {
                throw CLIError(
                    "--ds-root \(path): not a PEM certificate (no -----BEGIN CERTIFICATE----- block); give the "
                        + "directory server's root, such as testlab-pki/ds-root.pem")
            }
            return certificates
        }
    }

    func validate() throws {
        guard !dsRoot.isEmpty else { throw ValidationError("at least one --ds-root is required") }
        try TimeSyntax.validate(at)
    }

    func run() async throws {
        let token = try Inspect.token(in: try Inspect.read(input), field: "acsSignedContent")
        let roots = try Self.roots(dsRoot)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            say("Verdict: INVALID — a compact JWS has 3 parts, this has \(parts.count)")
            throw ExitCode(1)
        }
        Self.showHeader(parts[0])
        if let bytes = try? Base64.urlDecode(parts[1]), let payload = try? JSONParser().parse(bytes) {
            say("Payload:")
            say(Inspect.pretty(payload))
        } else {
            say("Payload: not base64url JSON")
        }
        let time = at.flatMap(TimeSyntax.date)
        let sdkKey = try areq.map { path in
            guard let key = MessageAudits.sdkKey(inAReq: try InspectAudit.object(in: path, option: "--areq")) else {
                throw CLIError("--areq \(path): carries no sdkEphemPubKey that is a P-256 JWK")
            }
            return key
        }
        let verified: X5CVerifier.Verified
        do {
            verified = try await X5CVerifier(roots: roots, validationTime: time).verify(token)
        } catch {
            say("Verdict: INVALID — \(error.message)")
            throw ExitCode(1)
        }
        // The payload's rules, as the SDK applies them next: a JWS the SDK would refuse is never valid.
        let findings = MessageAudits.signedContent(token, sdkKey: sdkKey)
        guard findings.isEmpty else {
            InspectAudit.show(findings)
            say("Verdict: INVALID — the signature checks, but the payload breaks \(InspectAudit.count(findings))")
            throw ExitCode(1)
        }
        say(
            "Verdict: VALID — \(verified.algorithm.rawValue) signature by "
                + "\(CertificateName.readable(verified.chain[0].subject)), chain of \(verified.chain.count) to a "
                + "given root, checked at \(time.map { "\($0)" } ?? "now")")
    }
}

extension InspectSignedContent {
    /// The JWS header, each x5c certificate described.
    static func showHeader(_ part: Substring) {
        if let bytes = try? Base64.urlDecode(part), let header = try? JSONParser().parse(bytes) {
            say("Header:")
            var shown = header.objectValue ?? [:]
            shown["x5c"] = nil
            say(Inspect.pretty(.object(shown)))
            for (index, entry) in (header.objectValue?["x5c"]?.arrayValue ?? []).enumerated() {
                guard let text = entry.stringValue, let der = Data(base64Encoded: text),
                    let certificate = try? Certificate(derEncoded: Array(der))
                else {
                    say("x5c[\(index)]: not a DER certificate")
                    continue
                }
                say("x5c[\(index)]:")
                say("  subject:   \(CertificateName.readable(certificate.subject))")
                say("  issuer:    \(CertificateName.readable(certificate.issuer))")
                say("  validity:  \(certificate.notValidBefore) to \(certificate.notValidAfter)")
                say("  key:       \(Inspect.describe(certificate.publicKey))")
                let algorithm = "\(certificate.signatureAlgorithm)"
                say("  signature: \(algorithm.replacingOccurrences(of: "SignatureAlgorithm.", with: ""))")
                var usage = "none"
                if let keyUsage = try? certificate.extensions.keyUsage { usage = "\(keyUsage)" }
                say("  key usage: \(usage)")
            }
        } else {
            say("Header: not base64url JSON")
        }
    }
}

/// `threeds inspect device-data`.
struct InspectDeviceData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-data",
        abstract: "Decrypt the SDK's device data (sdkEncData) with a directory server's private key.",
        discussion: """
            Example (the TestLab's RSA directory server; `pay --save-messages`):
              threeds inspect device-data messages/areq.json \\
                --ds-key testlab-pki/ds-decryption-rsa-key.pem --ds-id F055545342

            An RSA key decrypts RSA-OAEP-256; an EC key decrypts ECDH-ES with the
            EMVCo profile, which needs --ds-id (the TestLab's: F155545342).

            \(ExitStatus.help(success: "valid", failure: "invalid"))
            """)

    @Argument(help: "A file holding the JWE (or JSON with sdkEncData), or - for standard input.") var input: String
    @Option(name: .customLong("ds-key"), help: "PEM file: the directory server's private key (RSA or P-256).")
    var dsKey: String
    @Option(name: .customLong("ds-id"), help: "The directory server ID (the ECDH-ES PartyVInfo; EC keys only).")
    var dsID: String?

    /// The names of the EMVCo Device Information data elements: the parameters' from the SDK's registry
    /// (C001–C018, I001–I015), the members', the reasons' and the warnings' here.
    static let names: [String: String] = [
        "DV": "data version", "DD": "device data", "DPNA": "parameters not available", "SW": "security warnings",
        "RE01": "market or regional restriction", "RE02": "platform or version does not support it",
        "RE03": "permission not granted", "RE04": "not captured", "SW01": "rooted or jailbroken",
        "SW02": "tampered", "SW03": "emulator", "SW04": "debugger attached", "SW05": "OS version not supported",
    ].merging(DeviceParameter.registry.map { ($0.id.rawValue, $0.title) }) { own, _ in own }

    func run() async throws {
        let token = try Inspect.token(in: try Inspect.read(input), field: "sdkEncData")
        let pem = try readInputFile(dsKey, option: "--ds-key")
        let key: JWEDecryptionKey
        if let rsa = try? _RSA.Encryption.PrivateKey(pemRepresentation: pem) {
            key = .rsaOAEP256(privateKeyDER: Array(rsa.derRepresentation))
        } else if let ec = try? P256.KeyAgreement.PrivateKey(pemRepresentation: pem) {
            guard let dsID else { throw CLIError("--ds-key \(dsKey) is an EC key: ECDH-ES needs --ds-id") }
            key = .ecdhES(ec, derivation: .emvco(partyVInfo: dsID))
        } else {
            throw CLIError("--ds-key \(dsKey): not an RSA or P-256 private key in PEM")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try JWE.decrypt(token, using: key).plaintext
        } catch {
            // A tag that does not match almost always means the wrong key, or for ECDH-ES the wrong DS ID.
            let reason =
                error.code == .authenticationFailed
                ? "the device data do not decrypt with --ds-key \(dsKey)"
                    + (dsID.map { " and --ds-id \($0)" } ?? "")
                    + ": they were encrypted to another directory server's key (or, for an EC key, another DS ID)"
                : error.message
            say("Verdict: INVALID — \(reason)")
            throw ExitCode(1)
        }
        guard let value = try? JSONParser().parse(plaintext) else {
            say("Verdict: INVALID — the plaintext is not JSON")
            throw ExitCode(1)
        }
        say(Self.annotated(Inspect.pretty(value)))
        say("Verdict: VALID — decrypted with \(key.algorithm)")
    }

    /// Each line naming a data element gets its name as a comment.
    static func annotated(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\""), let end = trimmed.dropFirst().firstIndex(of: "\"") else {
                return String(line)
            }
            let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
            let value = trimmed[trimmed.index(after: end)...]
            let named = names[key].map { "  (\($0))" } ?? ""
            let valueName = names[value.trimmingCharacters(in: CharacterSet(charactersIn: ":\", "))].map {
                "  (\($0))"
            }
            return String(line) + (named.isEmpty ? (valueName ?? "") : named)
        }.joined(separator: "\n")
    }
}
