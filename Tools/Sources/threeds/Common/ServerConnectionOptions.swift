import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// What `pay`, `load` and `conform` share: where the AReq parameters go (`--server` or `--requestor-exec`), the
/// directory server's keys, the TLS roots, and the SDK's settings.
struct ServerConnectionOptions: ParsableArguments {
    @Option(help: "The 3DS Server base URL (it must implement POST /3ds/authenticate).") var server: String?
    @Option(
        name: .customLong("requestor-exec"),
        help: ArgumentHelp(
            "A command that asks your 3DS Server instead of --server (run with /bin/sh -c).",
            discussion:
                "It gets the request JSON of the --server contract on standard input and must print one JSON object in ARes field names (transStatus; for C also threeDSServerTransID, acsTransID, acsReferenceNumber, acsSignedContent). Its standard error is shown."
        ))
    var requestorExec: String?
    @Option(
        name: .customLong("result-exec"),
        help: ArgumentHelp(
            "With --requestor-exec: a command that asks your 3DS Server for a transaction's result (/bin/sh -c).",
            discussion:
                "It gets {\"sdkTransID\": …} (or {\"threeDSServerTransID\": …}) on standard input and prints the result as the TestLab's GET /3ds/result answers it (state, transStatus, source, …), or nothing when the transaction is unknown."
        ))
    var resultExec: String?
    @Option(
        name: .customLong("requestor-timeout"), parsing: .unconditional,
        help: "Seconds --requestor-exec may run (1 to 600).")
    var requestorTimeout: Int = 60
    @Option(
        name: .customLong("ds-id"),
        help: "The directory server ID (the TestLab's: F055545342 with an RSA key, F155545342 with an EC key).")
    var dsID: String
    /// `--ds-id`, typed.
    var directoryServerID: DirectoryServerID { DirectoryServerID(dsID) }
    @Option(
        name: .customLong("trust-bundle"),
        help: ArgumentHelp(
            "A trust bundle file, or a folder holding trust-bundle.json (the TestLab's --pki-dir is one).",
            discussion:
                "The --ds-id entry's encryption certificates and roots come from it (instead of --ds-cert and --ds-root); of several certificates the newest valid one is used."
        ))
    var trustBundle: String?
    @Option(
        name: .customLong("ds-cert"), help: "PEM file: the directory server's encryption certificate or public key.")
    var dsCert: String?
    @Option(name: .customLong("ds-root"), help: "PEM file: a CA root for ACS signed content (repeatable).") var dsRoot:
        [String] = []
    @Option(name: .customLong("ds-key-id"), help: "The key ID for the device-data JWE.") var dsKeyID: String?
    @Option(name: .customLong("tls-root"), help: "PEM file: an extra TLS trust root (repeatable).") var tlsRoot:
        [String] = []
    @Option(
        name: .customLong("sdk-reference-number"),
        help: "The SDK reference number EMVCo assigned (sent in the AReq and used in the channel keys).")
    var sdkReferenceNumber: String = TestLab.exampleSDKReferenceNumber
    @Flag(
        name: .customLong("allow-http"),
        help: "Allow plain http to the 3DS Server and ACS on loopback (testing only); never to any other host.")
    var allowHTTP = false
    @Flag(help: "Log what the SDK does (never anything sensitive).") var verbose = false

    func validate() throws {
        guard (server == nil) != (requestorExec == nil) else {
            throw ValidationError("give exactly one of --server URL or --requestor-exec CMD")
        }
        if resultExec != nil, requestorExec == nil {
            throw ValidationError("--result-exec goes with --requestor-exec (with --server the result is asked there)")
        }
        if let server { try PlainHTTPPolicy.check(server, option: "--server", allowHTTP: allowHTTP) }
        // sdkReferenceNumber is AN 32 (at most 32 characters), never empty: an AReq without it is refused.
        guard !sdkReferenceNumber.isEmpty, sdkReferenceNumber.count <= 32,
            sdkReferenceNumber.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.generalCategory != .control })
        else {
            throw ValidationError(
                "--sdk-reference-number must be the 1 to 32 characters EMVCo assigned to the SDK, got "
                    + "\"\(sdkReferenceNumber)\"")
        }
        guard (1...600).contains(requestorTimeout) else {
            throw ValidationError("--requestor-timeout must be 1 to 600 seconds, got \(requestorTimeout)")
        }
    }

    /// The directory server's options: a trust bundle, or a certificate with its roots. Checked by each command whose
    /// SDK encrypts to the directory server (not by `load --split-server`: the Split-SDK Server is registered with the
    /// directory server and encrypts the device data itself).
    func validateDirectoryServer() throws {
        if trustBundle != nil {
            guard dsCert == nil, dsRoot.isEmpty, dsKeyID == nil else {
                throw ValidationError(
                    "--trust-bundle gives the certificates and key IDs: leave out --ds-cert, --ds-root and --ds-key-id")
            }
        } else {
            guard dsCert != nil else {
                throw ValidationError("give --ds-cert FILE (with --ds-root) or --trust-bundle PATH")
            }
            guard !dsRoot.isEmpty else { throw ValidationError("at least one --ds-root is required") }
        }
    }

    /// An error as the person who typed the command can act on it: configuration errors name the option and file.
    func describe(_ error: any Error) -> String {
        guard let error = error as? ThreeDS2Error else { return readable(error) }
        if let transport = error.underlying as? TransportError {
            return describe(transport, in: error.message, peer: "3DS Server", option: "--server")
        }
        guard case .directoryServer(let id, let field)? = error.parameter, id == directoryServerID else {
            return error.message
        }
        if let trustBundle { return "--trust-bundle \(trustBundle): \(error.message)" }
        switch field {
        case .encryptionKey: return "--ds-cert \(dsCert ?? ""): \(error.message)"
        case .rootCertificates: return "--ds-root \(dsRoot.joined(separator: ", ")): \(error.message)"
        default: return error.message
        }
    }

    /// A transport failure reaching `peer` (the 3DS Server, the ACS) with its cause and the fix: a server that answered
    /// `https://` in plain HTTP, a certificate that did not validate against the trust roots used, nothing listening.
    private func describe(_ transport: TransportError, in message: String, peer: String, option: String) -> String {
        switch transport.code {
        case .tlsFailure where transport.underlying is PlainHTTPAnswer:
            let fix =
                option == "--server"
                ? "give --server with http:// and --allow-http (loopback only), or the server's https port"
                : "the ACS URL in the ARes must be an https URL of a server that speaks TLS"
            return "\(message) (the \(peer) answered in plain HTTP, not HTTPS: \(fix))"
        case .tlsFailure:
            return "\(message) (the \(peer)'s certificate did not validate against \(trustRoots(peer)))"
        case .connectionFailed:
            return "\(message) (nothing answered there: is the \(peer) running on that address and port?)"
        case .timedOut:
            return "\(message) (the \(peer) did not answer in time: it may be overloaded; try again)"
        default:
            return message
        }
    }

    /// The trust roots a TLS connection to `server` was checked against, with the option that adds one when none was
    /// given (the TestLab's TLS root is the likeliest missing one).
    func trustRoots(_ server: String) -> String {
        tlsRoot.isEmpty
            ? "the system's trust roots; add the \(server)'s TLS root with --tls-root FILE"
            : "--tls-root " + tlsRoot.joined(separator: ", ")
    }

    /// A challenge's transport failure with what to check: for TLS, the trust roots used and the option that adds
    /// one; for a refused connection, whether the ACS runs there.
    func explain(_ result: PaymentResult) -> PaymentResult {
        guard let transport = result.transportFailure, let failure = result.runtimeError else { return result }
        var explained = result
        explained.runtimeError = (failure.code, describe(transport, in: failure.message, peer: "ACS", option: "acsURL"))
        return explained
    }

    /// The SDK configuration: the directory server --ds-id from --trust-bundle, or from --ds-cert, --ds-root and
    /// --ds-key-id.
    func configuration(opensOOBApps: Bool) throws -> ConfigParameters {
        var config = ConfigParameters()
        // Checked here rather than in validate(), so that the other options' usage errors keep their order; still
        // before anything is sent (the configuration is the first thing a command builds).
        if let problem = DirectoryServerChoice.idProblem(directoryServerID) { throw CLIError(problem) }
        config.sdkReferenceNumber = sdkReferenceNumber
        config.appIdentifier = "org.threeds2.cli"
        config.appVersion = ThreeDS2Service.version
        if let trustBundle {
            let bundle: TrustBundle
            do {
                bundle = try TrustBundle(contentsOf: URL(fileURLWithPath: trustBundle))
            } catch {
                throw CLIError("--trust-bundle \(trustBundle): \(error.message)")
            }
            guard let server = bundle.directoryServers.first(where: { $0.id == directoryServerID }) else {
                let listed = bundle.directoryServers.map(\.id.rawValue).joined(separator: ", ")
                throw CLIError("--trust-bundle \(trustBundle) has no directory server \(dsID); it lists \(listed)")
            }
            try config.addDirectoryServer(server)
        } else if let dsCert {
            let server = DirectoryServer(
                id: directoryServerID, encryptionKey: try readInputFile(dsCert, option: "--ds-cert"), keyID: dsKeyID,
                rootCertificates: try dsRoot.map { try readInputFile($0, option: "--ds-root") }.joined(separator: "\n"))
            if let problem = DirectoryServerChoice.keyProblem(server, certificatePath: dsCert) {
                throw CLIError(problem)
            }
            try config.addDirectoryServer(server)
        }
        config.allowsPlainHTTPLoopback = allowHTTP
        config.opensOOBApps = opensOOBApps
        return config
    }

    /// The TLS roots from --tls-root.
    func tlsRoots() throws -> [String] { try tlsRoot.map { try readInputFile($0, option: "--tls-root") } }

    /// Where the AReq parameters go.
    func requestor() throws -> Requestor {
        if let requestorExec { return .exec(command: requestorExec, timeLimit: .seconds(requestorTimeout)) }
        guard let server, let serverURL = URL(string: server) else { throw ValidationError("--server must be a URL") }
        return .server(serverURL)
    }
}
