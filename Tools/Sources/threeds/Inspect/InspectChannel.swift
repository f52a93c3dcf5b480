import ArgumentParser
import Crypto
import Foundation
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

/// The file `threeds pay --save-transaction-keys` writes: one JSON object with the transaction's identifiers, its
/// message version and the 32-byte channel key (base64url), readable by its owner only (mode 0600).
final class TransactionKeyFile: ChannelKeyLog {
    let path: String
    private let failures = Locked<[String]>([])

    /// A key file at `path`, created empty (mode 0600) now so that a path that cannot be written is a usage error
    /// before the payment, not a warning after it.
    init(checking path: String) throws {
        self.path = path
        // Created 0600 from the start, in a folder that exists: a mistyped folder is not made.
        var isDirectory: ObjCBool = false
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("--save-transaction-keys \(path): cannot be written")
        }
        // One payment per key file: another payment's key, overwritten, would make its saved messages undecryptable
        // and a later `inspect` report a mismatch that looks like an SDK bug.
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError("--save-transaction-keys \(path): already exists; give a new file for each payment")
        }
        do {
            try SecretFile.write([], to: path)
        } catch {
            throw CLIError("--save-transaction-keys \(path): cannot be written")
        }
    }

    /// The files that could not be written.
    var failed: [String] { failures.withLock { $0 } }

    func record(_ entry: ChannelKeyEntry) {
        let object = JSONObject([
            ("threeDSServerTransID", .string(entry.identifiers.threeDSServerTransID)),
            ("acsTransID", .string(entry.identifiers.acsTransID)),
            ("sdkTransID", .string(entry.identifiers.sdkTransID)),
            ("messageVersion", .string(entry.messageVersion.rawValue)),
            ("channelKey", .string(entry.derivedKey.withUnsafeBytes { Base64.urlEncode(Array($0)) })),
        ])
        do {
            try SecretFile.write(object.serializedBytes, to: path)
        } catch {
            failures.withLock { $0.append(path) }
        }
    }

    /// What a saved file holds.
    struct Saved {
        let identifiers: TransactionIdentifiers
        let messageVersion: MessageVersion
        let keys: ChannelKeys
    }

    /// Reads a saved file, naming what is wrong with it.
    static func read(_ path: String) throws -> Saved {
        let text = try readInputFile(path, option: "--transaction-keys", maxBytes: 4096)
        guard case .object(let object)? = try? JSONParser().parse(Array(text.utf8)) else {
            throw CLIError("--transaction-keys \(path): not a JSON object")
        }
        // Another saved file given by mistake (areq.json, ares.json) has no channel key at all.
        guard object["channelKey"] != nil else {
            throw CLIError(
                "--transaction-keys \(path): not a transaction-keys file (no channelKey; threeds pay "
                    + "--save-transaction-keys FILE writes one)")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name]?.stringValue, !value.isEmpty else {
                throw CLIError("--transaction-keys \(path): \(name) is missing")
            }
            return value
        }
        guard let version = MessageVersion(try field("messageVersion")) else {
            throw CLIError("--transaction-keys \(path): messageVersion is not 2.1.0, 2.2.0 or 2.3.1")
        }
        let encodedKey = try field("channelKey")
        guard let key = try? Base64.urlDecode(encodedKey), key.count == 32 else {
            throw CLIError("--transaction-keys \(path): channelKey is not 32 bytes of base64url")
        }
        return Saved(
            identifiers: TransactionIdentifiers(
                threeDSServerTransID: try field("threeDSServerTransID"), acsTransID: try field("acsTransID"),
                sdkTransID: try field("sdkTransID")),
            messageVersion: version, keys: ChannelKeys(derived: SymmetricKey(data: key)))
    }
}

/// What both channel inspectors share: the input, the key file, the decryption, the printing.
struct ChannelInspection {
    let saved: TransactionKeyFile.Saved
    let token: String

    init(input: String, keysPath: String, field: String) throws {
        saved = try TransactionKeyFile.read(keysPath)
        let text = try Inspect.read(input)
        // Read as the SDK reads the channel (``ChallengeChannelBody``): a saved answer may be an Erro or a plaintext
        // message, which no key opens; JSON holding the token in a member is a wrapper, read on.
        switch ChallengeChannelBody(Array(text.utf8)) {
        case .error(let erro):
            let code = ReportText.line(erro["errorCode"]?.stringValue ?? "none")
            let description = ReportText.line(erro["errorDescription"]?.stringValue ?? "")
            say(
                "Verdict: INVALID — an Erro in plain JSON, not a \(field == "cres" ? "CRes" : "CReq"): \(code) \(description)"
            )
            throw ExitCode(1)
        case .plaintext(let object) where object[field] == nil && MessageType(in: object) != nil:
            say(
                "Verdict: INVALID — a \(field == "cres" ? "CRes" : "CReq") in plaintext: only an Erro may be unencrypted"
            )
            throw ExitCode(1)
        case .plaintext, .encrypted, .unreadable:
            token = try Inspect.token(in: text, field: field)
        }
    }

    /// Decrypts `compact`, a CReq (`fromSDK`) or a CRes, holding the header to what the SDK accepts.
    func decrypt(_ compact: String, fromSDK: Bool) throws(JOSEError) -> JWE.Decrypted {
        try saved.keys.decrypt(compact, fromSDK: fromSDK, acsTransID: saved.identifiers.acsTransID)
    }

    /// Decrypts the input with the key of one direction; prints header and content.
    func open(fromSDK: Bool, what: String) throws -> JSONObject {
        let decrypted: JWE.Decrypted
        do {
            decrypted = try decrypt(token, fromSDK: fromSDK)
        } catch {
            say("Verdict: INVALID — the \(what) does not decrypt with this transaction's key: \(error.message)")
            throw ExitCode(1)
        }
        say("JWE header: \(decrypted.header.serialized)")
        guard case .object(let object)? = try? JSONParser().parse(decrypted.plaintext) else {
            say("Verdict: INVALID — the decrypted \(what) is not a JSON object")
            throw ExitCode(1)
        }
        say("\(what) (decrypted, \(decrypted.encryption.rawValue)):")
        say(Inspect.pretty(.object(object)))
        return object
    }

    /// The identifiers and version the message must carry, as the key file names them.
    func identifierProblems(_ object: JSONObject, messageType: MessageType) -> [String] {
        var problems: [String] = []
        let ids = saved.identifiers
        for (name, expected) in [
            ("threeDSServerTransID", ids.threeDSServerTransID), ("acsTransID", ids.acsTransID),
            ("sdkTransID", ids.sdkTransID), ("messageVersion", saved.messageVersion.rawValue),
            ("messageType", messageType.rawValue),
        ] where object[name] != .string(expected) {
            problems.append("\(name) is \(object[name]?.serialized ?? "missing"), expected \"\(expected)\"")
        }
        return problems
    }
}

/// `threeds inspect creq`.
struct InspectCReq: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "creq",
        abstract: "Decrypt a captured CReq with a transaction's saved key and check it as a conforming ACS does.",
        usage: "threeds inspect creq <input> --transaction-keys <file> [<options>]",
        discussion: """
            The files come from `threeds pay --save-transaction-keys FILE
            --save-messages DIR` (test systems only). Example:
              threeds inspect creq messages/creq-2.jwe --transaction-keys keys.json \\
                --answering messages/cres-1.jwe

            The first CReq (sdkCounterStoA 000) is checked in full; a later one
            needs the CRes it answers (--answering) for the action checks.

            \(ExitStatus.help(success: "valid", failure: "invalid"))
            """)

    @Argument(help: "A file holding the CReq JWE (or JSON with creq), or - for standard input.") var input: String
    @Option(name: .customLong("transaction-keys"), help: "The file `threeds pay --save-transaction-keys` wrote.")
    var transactionKeys: String
    @Option(help: "A file holding the encrypted CRes this CReq answers.") var answering: String?

    func run() async throws {
        let inspection = try ChannelInspection(input: input, keysPath: transactionKeys, field: "creq")
        let object = try inspection.open(fromSDK: true, what: "CReq")
        var problems = inspection.identifierProblems(object, messageType: .challengeRequest)
        var previous: JSONObject?
        if let answering {
            let cres = try Inspect.token(in: try Inspect.read(answering), field: "cres")
            guard let decrypted = try? inspection.decrypt(cres, fromSDK: false),
                case .object(let object)? = try? JSONParser().parse(decrypted.plaintext)
            else { throw CLIError("--answering \(answering): not a CRes of this transaction", exitStatus: 1) }
            previous = object
        }
        let counter = object["sdkCounterStoA"]?.stringValue
        if let previous, let problem = Self.pairingProblem(object, answering: previous) { problems.append(problem) }
        if counter != "000", previous == nil {
            say("Note: the action checks need the CRes this CReq answers (--answering FILE); identifiers only.")
        } else {
            do {
                try RequestCheck(version: inspection.saved.messageVersion, previous: previous).check(object)
            } catch {
                problems.append("an ACS answers Erro \(error.code) for \(error.detail)")
            }
        }
        guard problems.isEmpty else {
            say("Verdict: INVALID — " + problems.joined(separator: "; "))
            throw ExitCode(1)
        }
        say("Verdict: VALID — CReq \(counter ?? "?") of transaction \(inspection.saved.identifiers.sdkTransID)")
    }
}

extension InspectCReq {
    /// Why `creq` is not the answer to `cres`, or `nil`: a CReq answers the CRes whose acsCounterAtoS is one less than
    /// its sdkCounterStoA (CReq 000 answers none); a final CRes (challengeCompletionInd Y) is answered by no CReq.
    static func pairingProblem(_ creq: JSONObject, answering cres: JSONObject) -> String? {
        let sdkCounter = creq["sdkCounterStoA"]?.stringValue
        let acsCounter = cres["acsCounterAtoS"]?.stringValue
        guard let sent = sdkCounter.flatMap({ Int($0) }), let received = acsCounter.flatMap({ Int($0) }) else {
            return "--answering: the counters cannot be paired (sdkCounterStoA \(sdkCounter ?? "missing"), "
                + "acsCounterAtoS \(acsCounter ?? "missing"))"
        }
        if cres["challengeCompletionInd"]?.stringValue == "Y" {
            return "--answering: that CRes (acsCounterAtoS \(acsCounter ?? "")) is final; no CReq answers it"
        }
        guard sent == received + 1 else {
            let answered =
                sent == 0
                ? "no CRes (it is the first)" : "the CRes with acsCounterAtoS \(String(format: "%03d", sent - 1))"
            return "--answering: CReq \(sdkCounter ?? "") answers \(answered), not this one (acsCounterAtoS "
                + "\(acsCounter ?? ""))"
        }
        return nil
    }
}

/// `threeds inspect cres`.
struct InspectCRes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cres",
        abstract: "Decrypt a captured CRes with a transaction's saved key and validate it as the SDK does.",
        usage: "threeds inspect cres <input> --transaction-keys <file> [<options>]",
        discussion: """
            The files come from `threeds pay --save-transaction-keys FILE
            --save-messages DIR` (test systems only). Example:
              threeds inspect cres messages/cres-1.jwe --transaction-keys keys.json

            The counter the SDK expects is the CRes's position in the challenge (0
            for the first); by default the CRes's own acsCounterAtoS is taken.

            \(ExitStatus.help(success: "valid", failure: "invalid"))
            """)

    @Argument(help: "A file holding the CRes JWE (or JSON with cres), or - for standard input.") var input: String
    @Option(name: .customLong("transaction-keys"), help: "The file `threeds pay --save-transaction-keys` wrote.")
    var transactionKeys: String
    @Option(parsing: .unconditional, help: "The acsCounterAtoS the SDK expects (0 to 255).") var counter: Int?
    @Flag(
        name: .customLong("no-oob-app"),
        help: "Check as an SDK that does not open the bank's app (as `pay --no-oob-app`): an oobAppURL is then ignored."
    )
    var noOOBApp = false

    func validate() throws {
        if let counter, !(0...255).contains(counter) { throw ValidationError("--counter must be 0 to 255") }
    }

    func run() async throws {
        let inspection = try ChannelInspection(input: input, keysPath: transactionKeys, field: "cres")
        let object = try inspection.open(fromSDK: false, what: "CRes")
        let expected = counter ?? object["acsCounterAtoS"]?.stringValue.flatMap { Int($0) } ?? 0
        do {
            let response = try ChallengeResponseValidator.validate(
                object,
                expecting: ChallengeResponseExpectation(
                    identifiers: inspection.saved.identifiers, messageVersion: inspection.saved.messageVersion,
                    acsCounter: expected, opensOOBApps: !noOOBApp))
            say("Verdict: VALID — \(Self.describe(response))")
        } catch {
            say(
                "Verdict: INVALID — the SDK answers Erro \(error.code.rawValue) (\(error.detail)): \(error.explanation)"
            )
            throw ExitCode(1)
        }
    }

    static func describe(_ response: ChallengeResponse) -> String {
        switch response {
        case .final(let status): "final CRes, transStatus \(status)"
        case .screen(let screen): "a challenge screen (acsUiType \(screen.uiType.rawValue))"
        }
    }
}
