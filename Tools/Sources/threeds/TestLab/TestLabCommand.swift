import ArgumentParser
import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SplitServer
import ThreeDS2TerminalUI
import ThreeDS2TestLab

struct TestLabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testlab", abstract: "Run the TestLab (DS, 3DS Server, ACS) on loopback.",
        usage:
            "threeds testlab [--port <port>] [--pki-dir <dir>] [--http] [--verbose] [--results-timing <timing>] [--acs-timeout <seconds>] [--split-port <port> --merchant-origin <origin>]",
        discussion: """
            Example:
              threeds testlab --port 8443 --pki-dir testlab-pki

            The PEM files a client needs are written once the port is bound.
            Directory server IDs: F055545342 (RSA key), F155545342 (EC key).

            With --split-port, a Split-SDK Server registered with the lab's
            directory server runs beside it (docs/split-sdk.md); its merchant
            API key is written to split-merchant-api-key in the PKI folder:
              threeds testlab --split-port 9443 \
                --merchant-origin https://shop.example

            Ctrl-C (SIGINT) or SIGTERM stops the TestLab: requests in flight get
            5 seconds to finish, then the listener closes, also when the signal
            was inherited as ignored (a script's background job).

            \(ExitStatus.help(
            success: "after such a stop",
            failure: "the port is in use or cannot be bound, the PKI directory is in use by another TestLab, or the lab did not stop within 5 seconds",
            interrupted: "Ctrl-C and SIGTERM stop the lab (0)"))
            """)

    @Option(parsing: .unconditional, help: "The port, 1–65535 (0 picks a free one).") var port: Int = 8443
    @Option(name: .customLong("pki-dir"), help: "Where to write the PEM files a client needs.") var pkiDir: String =
        "testlab-pki"
    @Option(help: "The IPv4 address to listen on, named in the lab's URLs and TLS certificate.") var host =
        "127.0.0.1"
    @Flag(help: "Serve plain HTTP instead of HTTPS.") var http = false
    @Flag(help: "Log every request the TestLab handles.") var verbose = false
    @Option(
        name: .customLong("results-timing"),
        help: ArgumentHelp(
            "When the ACS sends its RReq after a bank's-app decision: after-final-creq or on-approval.",
            discussion:
                "after-final-creq (the default): with the final CRes, or a timeout RReq when the SDK never comes back; on-approval: at once, when POST /acs/oob-decision arrives."
        ))
    var resultsTiming: String = TestLabOptions.ResultsTiming.afterFinalRequest.rawValue
    @Option(
        name: .customLong("acs-timeout"), parsing: .unconditional,
        help: "Seconds the ACS waits for the next CReq before it sends a timeout RReq (1 to 3600).")
    var acsTimeout: Int = 600
    @Option(
        name: .customLong("split-port"), parsing: .unconditional,
        help: "Also run a Split-SDK Server on this port (0 picks a free one), registered with the lab's DS.")
    var splitPort: Int?
    @Option(
        name: .customLong("merchant-origin"),
        help: "With --split-port: the origin of the merchant's page that opens the challenge frame.")
    var merchantOrigin: String?

    func validate() throws {
        guard TestLabOptions.ResultsTiming(rawValue: resultsTiming) != nil else {
            throw ValidationError("--results-timing is after-final-creq or on-approval, got \(resultsTiming)")
        }
        guard (1...3600).contains(acsTimeout) else {
            throw ValidationError("--acs-timeout must be 1 to 3600 seconds, got \(acsTimeout)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        try validateSplit()
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil && !$0.hasPrefix("+") }) else {
            throw ValidationError("--host takes an IPv4 address such as 127.0.0.1, got \(host)")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: pkiDir, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ValidationError(
                "--pki-dir \(pkiDir) is a file; give a folder the TestLab may write its PEM files to (it is created)")
        }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: pkiDir)
        var logger = Logger(label: "threeds2.testlab")
        logger.logLevel = verbose ? .info : .notice
        let lab: TestLab
        do {
            lab = try await TestLab.start(
                options: TestLabOptions(
                    port: port, host: host, useTLS: !http, pkiDirectory: directory, logsRequests: verbose,
                    resultsTiming: TestLabOptions.ResultsTiming(rawValue: resultsTiming) ?? .afterFinalRequest,
                    acsTimeout: .seconds(acsTimeout)),
                logger: logger)
        } catch let error as TestLabError {
            throw CLIError(error.message, exitStatus: 1)
        }
        let split: TestLabSplitServer?
        if let splitPort, let merchantOrigin {
            do {
                split = try await TestLabSplitServer.start(
                    lab: lab, host: host, port: splitPort, merchantOrigin: merchantOrigin, pkiDirectory: directory)
            } catch {
                await lab.stop()
                throw error
            }
        } else {
            split = nil
        }
        // Taken before the banner says Ctrl-C stops the lab.
        let interruption = Interruption()
        let handlers = interruption.install()
        printBanner(lab: lab, directory: directory)
        if let split {
            print(TerminalWidth.wrap("Split-SDK Server on \(split.running.baseURL) for \(merchantOrigin ?? "")"))
            print(TerminalWidth.wrap("  its merchant API key: \(split.apiKeyFile.path)"))
        }
        print("Press Ctrl-C to stop.")
        // Seen at once even when standard output is a pipe or a file.
        fflush(nil)
        // The dispatch sources live until the lab has stopped.
        defer { withExtendedLifetime(handlers) {} }
        var signals = interruption.signals.makeAsyncIterator()
        guard let number = await signals.next() else { return }
        print("\(Interruption.name(number)): stopping the TestLab")
        fflush(nil)
        try await stop(lab, split: split)
    }

    /// `--split-port` and `--merchant-origin` go together; the port is a port, the origin an origin.
    private func validateSplit() throws {
        switch (splitPort, merchantOrigin) {
        case (nil, nil): return
        case (nil, _): throw ValidationError("--merchant-origin goes with --split-port")
        case (_, nil): throw ValidationError("--split-port needs --merchant-origin (the merchant page's origin)")
        case (let port?, let origin?):
            guard (0...65535).contains(port) else {
                throw ValidationError("--split-port must be 0 to 65535, got \(port)")
            }
            // The server's own rule, checked before anything starts.
            guard SplitServer.isOrigin(origin) else {
                throw ValidationError(
                    "--merchant-origin takes an origin as a browser writes it, such as https://shop.example (http only "
                        + "on loopback, no path, lower case), got \(origin)")
            }
        }
    }

    /// Prints where the lab listens, where the PEM files a client needs are, a `threeds pay` command that pays
    /// through it, and the scenarios by card number.
    private func printBanner(lab: TestLab, directory: URL) {
        // Every line fits 80 columns: the command breaks with ` \` continuations, runnable as printed.
        func show(_ line: String) { print(TerminalWidth.wrap(line)) }
        show("TestLab listening on \(lab.baseURL)")
        show("Client PEM files in \(directory.path):")
        show("  ds-root.pem, ds-encryption-rsa.pem, ds-encryption-ec.pem, tls-root.pem")
        show("Trust bundle of both directory servers: \(directory.appendingPathComponent(TrustBundle.fileName).path)")
        show("  (threeds pay --trust-bundle \(pkiDir); threeds ds check \(pkiDir))")
        print("Try:")
        // Absolute paths, so that the command runs from any folder (`swift run --package-path Tools` ran only from the
        // repository's root).
        let pki = directory.standardizedFileURL.path
        print(
            TerminalWidth.command(
                "echo \(Scenario.text.cardNumber) | \(Self.invokedBinary) pay --server \(lab.baseURL) "
                    + "--ds-id \(TestLab.rsaDirectoryServerID) --ds-cert \(pki)/ds-encryption-rsa.pem "
                    + "--ds-root \(pki)/ds-root.pem "
                    + "\(http ? "--allow-http" : "--tls-root \(pki)/tls-root.pem") --card-file - --amount 1999 "
                    + "--currency 978"))
        show("Scenarios by card number:")
        for scenario in Scenario.allCases {
            print(TerminalWidth.wrap("  \(scenario.cardNumber)  \(scenario.summary)", indent: "                  "))
        }
    }

    /// Stops the lab (and the Split-SDK Server beside it, its key file first) after a signal: requests in flight get
    /// ``stopGrace`` to finish; a lab that cannot close by then exits anyway (not a task group: that would wait for a
    /// stop that does not end).
    ///
    /// - Throws: ``CLIError`` (exit status 1) when the lab did not stop within ``stopGrace``.
    private func stop(_ lab: TestLab, split: TestLabSplitServer?) async throws {
        let (ends, end) = AsyncStream.makeStream(of: Bool.self)
        Task {
            await split?.stop()
            await lab.stop()
            end.yield(true)
        }
        let timer = Task {
            try await Task.sleep(for: Self.stopGrace)
            end.yield(false)
        }
        var first = ends.makeAsyncIterator()
        let stopped = await first.next() ?? false
        timer.cancel()
        guard stopped else {
            throw CLIError("the TestLab did not stop within \(Self.stopGrace); exiting", exitStatus: 1)
        }
    }

    /// This binary as a shell runs it from any folder: its absolute path when it was started by path (`swift run`
    /// starts `.build/debug/threeds`), else `threeds`, found on the `PATH`.
    static var invokedBinary: String {
        let first = CommandLine.arguments.first ?? "threeds"
        guard first.contains("/") else { return "threeds" }
        let path = URL(fileURLWithPath: first).standardizedFileURL.path
        return path.contains(" ") ? "'\(path)'" : path
    }

    /// How long requests in flight get to finish after SIGINT or SIGTERM.
    static let stopGrace = Duration.seconds(5)
}
