import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK

/// `threeds result`: asks a 3DS Server for a transaction's authoritative result (the RReq it received), as a
/// requestor backend does before it authorises: the TestLab contract's `GET /3ds/result`, or the tester's command.
struct ResultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "result", abstract: "Ask a 3DS Server for a transaction's result (the RReq it received).",
        usage:
            "threeds result (--server <url> | --result-exec <cmd>) (--sdk-trans-id <id> | --three-ds-server-trans-id <id>) [--wait <seconds>] [--json]",
        discussion: """
            Example (the TestLab's 3DS Server):
              threeds result --server https://127.0.0.1:8443 \\
                --tls-root testlab-pki/tls-root.pem --sdk-trans-id <sdkTransID>

            Prints the result's transStatus and where it came from (RReq after a
            challenge, ARes without one), or that it is pending.

            \(ExitStatus.help(
            success: "the result is final",
            failure: "the result is pending, the transaction is unknown, or the 3DS Server could not be asked"))
            """)

    @Option(help: "The 3DS Server base URL (it must implement GET /3ds/result).") var server: String?
    @Option(
        name: .customLong("result-exec"),
        help: "A command that asks your 3DS Server (run with /bin/sh -c; the query JSON on standard input).")
    var resultExec: String?
    @Option(name: .customLong("sdk-trans-id"), help: "The SDK's transaction ID (sdkTransID).") var sdkTransID: String?
    @Option(name: .customLong("three-ds-server-trans-id"), help: "The 3DS Server's transaction ID.")
    var threeDSServerTransID: String?
    @Option(parsing: .unconditional, help: "Seconds to wait for a pending result to become final (0 to 600).")
    var wait: Int = 0
    @Option(name: .customLong("tls-root"), help: "PEM file: an extra TLS trust root (repeatable).") var tlsRoot:
        [String] = []
    @Flag(
        name: .customLong("allow-http"), help: "Allow plain http to the 3DS Server on loopback (testing only).")
    var allowHTTP = false
    @Flag(help: "Print the 3DS Server's answer as JSON too.") var json = false

    func validate() throws {
        guard (server == nil) != (resultExec == nil) else {
            throw ValidationError("give exactly one of --server URL or --result-exec CMD")
        }
        if let server { try PlainHTTPPolicy.check(server, option: "--server", allowHTTP: allowHTTP) }
        guard (sdkTransID == nil) != (threeDSServerTransID == nil) else {
            throw ValidationError("give exactly one of --sdk-trans-id ID or --three-ds-server-trans-id ID")
        }
        for id in [sdkTransID, threeDSServerTransID].compactMap({ $0 }) where !TransactionIdentifiers.hasUUIDShape(id) {
            throw ValidationError("a transaction ID is a UUID (36 characters), got \"\(id.prefix(40))\"")
        }
        guard (0...600).contains(wait) else { throw ValidationError("--wait must be 0 to 600 seconds, got \(wait)") }
    }

    func run() async throws {
        let target: ResultQuery.Target
        if let server, let url = URL(string: server) {
            target = .server(url)
        } else {
            target = .exec(command: resultExec ?? "", timeLimit: .seconds(60))
        }
        let key: ResultQuery.Key =
            sdkTransID.map { .sdkTransID($0) } ?? .threeDSServerTransID(threeDSServerTransID ?? "")
        let transport = try HTTPClientTransport(
            additionalTrustRootsPEM: try tlsRoot.map { try readInputFile($0, option: "--tls-root") })
        defer { Task { try? await transport.shutdown() } }
        let result: AuthoritativeResult?
        do {
            result = try await ResultQuery(target: target).awaitFinal(key, transport: transport, wait: .seconds(wait))
        } catch {
            try? await transport.shutdown()
            throw CLIError(readable(error), exitStatus: 1)
        }
        try? await transport.shutdown()
        guard let result else {
            say("Result: the 3DS Server does not know this transaction")
            throw ExitCode(1)
        }
        say(TerminalWidth.wrap(result.line))
        if json { say(result.json.serialized) }
        throw ExitCode(result.isFinal ? 0 : 1)
    }
}
