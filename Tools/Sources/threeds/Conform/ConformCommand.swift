import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

/// `threeds conform`: an ACS conformance run through a 3DS Server, every rule broken reported.
struct Conform: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a conformance plan against an ACS through a 3DS Server; report every rule it breaks.",
        usage: "threeds conform --plan <file> --ds-id <id> [<options>]",
        discussion: """
            Example (against `threeds testlab`, with the plan in Tools/scripts):
              threeds conform --server https://127.0.0.1:8443 \\
                --ds-id F055545342 --trust-bundle testlab-pki \\
                --tls-root testlab-pki/tls-root.pem \\
                --plan Tools/scripts/conform-plan.json --output conform-help

            Per card of the plan: the right answer, wrong answers to the ACS's
            limit, resend, cancel and the app switch where offered; every CRes
            audited in full. Writes conform.md, conform-junit.xml, conform.json
            and each case's messages (as --save-messages) to --output.
            With --slow, also the timeout suite per challenge card: five
            minutes each; without it that suite is neither run nor listed.

            \(ExitStatus.help(
            success: "nothing broken",
            failure: "a rule broken or a check failed, or a report that could not be written",
            interrupted: "3 a setup failure (TLS, reachability, the 3DS Server or the command) and nothing broken; "
                + "130 after Ctrl-C, 143 after SIGTERM, with the reports of the finished cases written"))
            """)

    @OptionGroup var connection: ServerConnectionOptions
    @Option(help: "The plan: a JSON file naming the cards, their kind, version and answers (see Tools/README.md).")
    var plan: String
    @Option(help: "A new or empty folder for the reports and the messages (mode 0700).") var output =
        "conform-report"
    @Option(
        name: .customLong("save-channel-keys-for"),
        help: ArgumentHelp(
            "Save the channel key of each challenge whose ACS is on this host, for `threeds inspect creq|cres`.",
            discussion:
                "Your own test ACS only: anyone with the files can read those challenges. Written as keys.json beside each case's messages (mode 0600)."
        ))
    var saveChannelKeysFor: String?
    @Option(
        name: .customLong("requestor-app-url"),
        help: "The app's URL for the bank's app to return to (2.3.1: an https universal or app link).")
    var requestorAppURL: String?
    @Flag(
        help: ArgumentHelp(
            "Also run the timeout suite: 5 minutes per challenge card.",
            discussion:
                "Per challenge card, the first screen is left unanswered until the SDK's challenge timeout (5 minutes, its minimum) ends the challenge: checked are the timed-out outcome, the SDK's Erro 402 to the ACS and the ACS's answer to it."
        ))
    var slow = false
    @Flag(
        help: ArgumentHelp(
            "Report the specification's letter: also the rules the SDK deliberately tolerates.",
            discussion:
                "Without it, each rule applies the SDK's tolerance where it differs from the letter (docs/conformance-rules.md says where and why)."
        ))
    var strict = false
    @Flag(
        name: .customLong("no-app-opener"),
        help: "Run as an app that cannot open the bank's app: the CReqs announce no app, no app-switch suite.")
    var noAppOpener = false

    func validate() throws {
        try connection.validateDirectoryServer()
        if let host = saveChannelKeysFor, host.isEmpty || host.contains(where: { "/@ ".contains($0) }) {
            throw ValidationError("--save-channel-keys-for takes a host name or address, got \(host)")
        }
    }

    /// Runs the cases until the end or the first SIGINT or SIGTERM, which cancels the case in flight; returns the
    /// cases that finished and the signal, if one came.
    static func run(_ runner: ConformRunner) async -> ([ConformCase], Int32?) {
        let interruption = Interruption()
        let handlers = interruption.install()
        let work = Task {
            await runner.run {
                say(ConformReport.line($0, $1, $2))
                // Seen as each case ends, also through a pipe (`| tee`).
                fflush(nil)
            }
        }
        let watcher = Task {
            for await number in interruption.signals {
                warn("threeds: \(Interruption.name(number)): stopping; writing the reports of the finished cases")
                work.cancel()
                return
            }
        }
        let cases = await work.value
        watcher.cancel()
        withExtendedLifetime(handlers) {}
        return (cases, interruption.received)
    }

    func run() async throws {
        let plan = try ConformPlan.read(self.plan)
        guard ConformRunner.caseCount(plan, slow: slow) > 0 else {
            throw CLIError(
                "--plan \(self.plan): runs no case ("
                    + (plan.cards.isEmpty ? "it names no card" : "its only suite is timeout, which runs with --slow")
                    + ")",
                exitStatus: ExitStatus.usage)
        }
        try Self.prepare(output)
        do throws(PrivateFolder.Refusal) {
            try PrivateFolder.make(output + "/messages")
        } catch {
            throw CLIError("--output \(output)/messages: \(error.reason)")
        }
        if let host = saveChannelKeysFor {
            warn(
                TerminalWidth.wrap(
                    "warning: --save-channel-keys-for writes the channel key of every challenge with the ACS at \(host) "
                        + "to \(output)/messages: anyone with the files can read those challenges. Use it with your own "
                        + "test ACS only; delete them after."))
        }
        let config = try connection.configuration(opensOOBApps: !noAppOpener)
        let transport = try HTTPClientTransport(additionalTrustRootsPEM: try connection.tlsRoots())
        let service: ThreeDS2Service
        do {
            service = try PayFlow.initializedService(config, verbose: connection.verbose)
        } catch {
            try? await transport.shutdown()
            throw CLIError(connection.describe(error), exitStatus: 1)
        }
        var runner = ConformRunner(
            plan: plan, configuration: config, requestor: try connection.requestor(),
            directoryServerID: connection.directoryServerID, transport: transport, service: service, output: output,
            saveKeysFor: saveChannelKeysFor)
        runner.requestorAppURL = requestorAppURL
        runner.resultExec = connection.resultExec
        runner.verbose = connection.verbose
        runner.slow = slow
        runner.strict = strict
        runner.opensApps = !noAppOpener
        runner.describe = { [connection] in connection.describe($0) }
        if slow {
            runner.screenShown = {
                say("    first screen up; waiting for the SDK's challenge timeout (5 minutes) …")
                fflush(nil)
            }
        }
        let (cases, signal) = await Self.run(runner)
        try? service.cleanup()
        try? await transport.shutdown()
        let result = ConformResult(server: connection.server ?? "--requestor-exec", cases: cases)
        let written = Self.writeReports(result, to: output)
        say(ConformReport.summary(result, output: output))
        throw ExitCode(signal.map { 128 + $0 } ?? (written ? result.exitStatus : 1))
    }

    /// Writes the three reports; returns whether every one was written.
    static func writeReports(_ result: ConformResult, to output: String) -> Bool {
        var written = true
        for (name, bytes) in [
            (ConformReport.markdownFile, Array(ConformReport.markdown(result).utf8)),
            (ConformReport.junitFile, Array(ConformReport.junit(result).utf8)),
            (ConformReport.jsonFile, ConformReport.json(result).serializedBytes),
        ] {
            do {
                try SecretFile.write(bytes, to: output + "/" + name)
            } catch {
                warn("threeds: \(output)/\(name): cannot be written")
                written = false
            }
        }
        return written
    }

    /// Creates the output folder (0700) exclusively, or accepts an empty one that this user owns and that group and
    /// others cannot write to (``PrivateFolder``): another local user who wins a race to the
    /// name cannot hand over a folder of theirs.
    static func prepare(_ output: String) throws {
        // An earlier run's folder is named as such, whoever's it is; any folder is then taken only if private.
        if !((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty {
            throw CLIError("--output \(output): holds an earlier run; give a new or empty folder")
        }
        let created: Bool
        do throws(PrivateFolder.Refusal) {
            created = try PrivateFolder.make(output)
        } catch {
            throw CLIError("--output \(output): \(error.reason)")
        }
        guard created || ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty else {
            throw CLIError("--output \(output): holds an earlier run; give a new or empty folder")
        }
    }
}
