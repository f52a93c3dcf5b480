import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// `threeds inspect audit`: saved messages audited offline against the rules `conform` reports
/// (docs/conformance-rules.md): an ARes (and its ACS signed content's payload), a plaintext CRes, or a signed content
/// alone.
struct InspectAudit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit saved messages (ARes, plaintext CRes, ACS signed content) against conform's rules.",
        usage: "threeds inspect audit <file>... [--version <v>] [--counter <n>] [--areq <file>] [--strict]",
        discussion: """
            Each file is read by what it holds: an ARes (ares.json of --save-messages;
            its acsSignedContent's payload is audited too, its signature is not: see
            `inspect signed-content`), a decrypted CRes (messageType CRes), or a
            compact JWS of ACS signed content. Every rule broken is named, as
            `conform` names it.

            A CRes is checked against its own transaction IDs (their UUID form,
            not which transaction), its own messageVersion unless --version
            is given, and its own counter unless --counter is given.

            \(ExitStatus.help(success: "nothing broken", failure: "a rule broken"))
            """)

    @Argument(help: "The saved messages (JSON files, or a file holding a compact JWS).") var files: [String]
    @Option(help: "The transaction's message version (2.1.0, 2.2.0 or 2.3.1). Default: the message's own.")
    var version: String?
    @Option(parsing: .unconditional, help: "The acsCounterAtoS the SDK expects of a CRes (0 to 255).") var counter: Int?
    @Option(help: "The AReq (areq.json of --save-messages): the SDK's key the signed content must name.")
    var areq: String?
    @Flag(help: "Report the specification's letter: also the rules the SDK deliberately tolerates.") var strict = false

    func validate() throws {
        if let version, MessageVersion(version)?.isSupported != true {
            throw ValidationError("--version must be 2.1.0, 2.2.0 or 2.3.1, got \(version)")
        }
        if let counter, !(0...255).contains(counter) { throw ValidationError("--counter must be 0 to 255") }
    }

    func run() async throws {
        // As `inspect signed-content --areq`: an AReq without the SDK's key is a usage error, not an audit without it.
        let sdkKey = try areq.map { path in
            guard let key = MessageAudits.sdkKey(inAReq: try Self.object(in: path, option: "--areq")) else {
                throw CLIError("--areq \(path): carries no sdkEphemPubKey that is a P-256 JWK")
            }
            return key
        }
        var broken = false
        for file in files {
            let findings = try audit(file, sdkKey: sdkKey)
            if findings.isEmpty {
                say("\(file): CONFORMS")
            } else {
                broken = true
                say("\(file): BROKEN — \(Self.count(findings))")
                Self.show(findings)
            }
        }
        if broken { throw ExitCode(1) }
    }

    /// The findings of one file, by what it holds.
    func audit(_ file: String, sdkKey: P256PublicJWK?) throws -> [ConformanceFinding] {
        let text = try readInputFile(file, option: "input").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else {
            return MessageAudits.signedContent(text.filter { !$0.isWhitespace }, sdkKey: sdkKey)
        }
        let object: JSONObject
        do {
            guard case .object(let parsed) = try Self.parser.parse(Array(text.utf8)) else {
                throw CLIError("input \(file): not a JSON object")
            }
            object = parsed
        } catch let error as JOSEError {
            // A saved CRes that names a member twice: the finding the SDK makes of it (Erro 204).
            if error.code == .duplicateMember, text.contains("\"acsCounterAtoS\"") { return [.payload(error)] }
            throw CLIError("input \(file): not JSON (\(error.message))")
        }
        let own = (object["messageVersion"]?.stringValue).flatMap { MessageVersion($0) }
        let version = self.version.flatMap { MessageVersion($0) } ?? own ?? .v2_2_0
        switch Self.kind(of: object) {
        case .challengeResponse: return cres(object, version: version)
        case .authenticationResponse: break
        case .other(let type):
            let what = type.map { "a " + PeerText.escapedForTerminal(String($0.prefix(40))) + " message" }
            throw CLIError(
                "input \(file): \(what ?? "no messageType"), neither an ARes nor a CRes; inspect audit reads a "
                    + "saved ARes, a plaintext CRes or an ACS signed content")
        }
        var findings = MessageAudits.authenticationResponse(object, version: version)
        if object["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:)) == .challengeRequired,
            let token = object["acsSignedContent"]?.stringValue, !token.isEmpty
        {
            findings += MessageAudits.signedContent(token, sdkKey: sdkKey)
        }
        return findings
    }

    /// What a saved message is.
    enum SavedMessage: Equatable {
        case authenticationResponse, challengeResponse
        /// Neither: its `messageType`, if any.
        case other(String?)
    }

    /// What a saved message is: its `messageType` when that says ARes or CRes; otherwise (a type that is missing or
    /// wrong, which the audit then reports) the members only that message has: a CRes's counter or completion
    /// indicator, an ARes's DS transaction ID, signed content or status.
    static func kind(of object: JSONObject) -> SavedMessage {
        switch MessageType(in: object) {
        case .challengeResponse?: return .challengeResponse
        case .authenticationResponse?: return .authenticationResponse
        default: break
        }
        if object["acsCounterAtoS"] != nil || object["challengeCompletionInd"] != nil { return .challengeResponse }
        if object["dsTransID"] != nil || object["acsSignedContent"] != nil || object["transStatus"] != nil {
            return .authenticationResponse
        }
        return .other(object["messageType"]?.stringValue)
    }

    static let parser = JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 16))

    /// A plaintext CRes against its own identifiers, the version and the counter.
    func cres(_ object: JSONObject, version: MessageVersion) -> [ConformanceFinding] {
        let identifiers = TransactionIdentifiers(
            threeDSServerTransID: object["threeDSServerTransID"]?.stringValue ?? "",
            acsTransID: object["acsTransID"]?.stringValue ?? "", sdkTransID: object["sdkTransID"]?.stringValue ?? "")
        let own = (object["acsCounterAtoS"]?.stringValue).flatMap { Int($0) }
        let expectation = ChallengeResponseExpectation(
            identifiers: identifiers, messageVersion: version, acsCounter: counter ?? own ?? 0, opensOOBApps: true,
            announcedBridging: true)
        return ChallengeResponseValidator.audit(object, expecting: expectation, strict: strict).findings
    }

    /// A file's JSON object; anything else is a usage error naming the option.
    static func object(in path: String, option: String) throws -> JSONObject {
        let text = try readInputFile(path, option: option)
        guard
            case .object(let object)? = try? JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 16)).parse(
                Array(text.utf8))
        else { throw CLIError("\(option) \(path): not a JSON object") }
        return object
    }

    /// `2 rules: a, b`.
    static func count(_ findings: [ConformanceFinding]) -> String {
        var seen: Set<ConformanceRule> = []
        let rules = findings.map(\.rule).filter { seen.insert($0).inserted }
        return "\(rules.count) rule\(rules.count == 1 ? "" : "s"): " + rules.map(\.rawValue).joined(separator: ", ")
    }

    /// Each finding on its own line: the rule, the field, the explanation, the value seen.
    static func show(_ findings: [ConformanceFinding]) {
        for finding in findings {
            say("  \(finding.rule.rawValue) \(finding.field): \(finding.explanation)")
            if let value = finding.value { say("    seen: \(value)") }
        }
    }
}
