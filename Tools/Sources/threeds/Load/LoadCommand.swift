import ArgumentParser
import Foundation
import Histogram
import ThreeDS2JOSE
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

struct Load: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load runs: many payments through a 3DS Server and its ACS, and merging their histogram logs.",
        discussion: """
            Without a subcommand, `threeds load` is `threeds load run`; `threeds load
            run --help` lists its options. Example (the log of a run, and others):
              threeds load merge run.hlog

            \(ExitStatus.help(success: "every payment succeeded (merge: the logs were merged)", failure: "otherwise"))
            """,
        subcommands: [LoadRun.self, Merge.self], defaultSubcommand: LoadRun.self)
}

struct LoadRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Drive many payments through a 3DS Server and its ACS and report outcomes and latencies (the default).",
        usage: "threeds load run --ds-id <id> --amount <n> --currency <code> [<options>]",
        discussion: """
            Each payment is the whole SDK flow: AReq parameters, the 3DS Server
            (--server or --requestor-exec), the signed-content checks and the
            challenge, answered from --answers. Example against `threeds testlab`:
              echo '[{"action":"submit","text":"123456"}]' > answers.json
              threeds load --server https://127.0.0.1:8443 --ds-id F055545342 \\
                --ds-cert testlab-pki/ds-encryption-rsa.pem \\
                --ds-root testlab-pki/ds-root.pem --tls-root testlab-pki/tls-root.pem \\
                --card 4000000000002000 --amount 1999 --currency 978 \\
                --answers answers.json --count 200 --concurrency 20

            With --split-server, each payment goes through a Split-SDK Server
            (`threeds testlab --split-port 8444` runs one): the tool plays the
            merchant's backend and the client, and times the same phases.

            Latencies are in milliseconds. With --rate, a payment's latency counts
            from when it should have started, so queueing in a slow server shows.

            Ctrl-C (SIGINT) or SIGTERM stops starting payments and gives those in
            flight --stop-grace seconds (a second Ctrl-C: none), then prints the
            summary of what finished and writes the --histogram-log.

            \(ExitStatus.help(
            success: "every payment completed, was frictionless or was cancelled", failure: "otherwise",
            interrupted: "130 after Ctrl-C, 143 after SIGTERM, the summary printed first"))
            """)

    @OptionGroup var payment: PaymentOptions
    @Option(parsing: .unconditional, help: "Payments to run (1 to 1000000).") var count: Int = 100
    @Option(parsing: .unconditional, help: "Payments in flight at once (1 to 5000).") var concurrency: Int = 10
    @Option(
        parsing: .unconditional,
        help: "Start this many payments per second (0.01 to 100000) instead of as fast as --concurrency allows.")
    var rate: Double?
    @Option(
        name: .customLong("max-duration"), parsing: .unconditional,
        help: "Seconds after which no payment starts and those running are cancelled (1 to 86400).")
    var maxDuration: Int = 3600
    @Option(
        parsing: .unconditional, help: "HTTP connections to each host (1 to 1000; default: --concurrency, at most 64).")
    var connections: Int?
    @Option(help: "JSON answers file for the challenges (the format of `pay --ui auto --answers`).") var answers:
        String?
    @Flag(help: "Print the results as one JSON object instead of the table.") var json = false
    @Option(
        name: .customLong("histogram-log"),
        help: "Write the latency histograms to this file as an HdrHistogram log (merge with `threeds load merge`).")
    var histogramLog: String?
    @Option(
        name: .customLong("stop-grace"), parsing: .unconditional,
        help: "Seconds the payments in flight get to end after Ctrl-C or SIGTERM before they are cancelled (0 to 600).")
    var stopGrace: Int = 10

    @Option(
        name: .customLong("split-server"),
        help: "Run each payment through this Split-SDK Server (as `threeds testlab --split-port` prints it).")
    var splitServer: String?
    @Option(
        name: .customLong("split-api-key-file"),
        help: "The merchant's API key for --split-server (the lab writes split-merchant-api-key).")
    var splitAPIKeyFile: String?

    func validate() throws {
        if (splitServer == nil) != (splitAPIKeyFile == nil) {
            throw ValidationError("--split-server and --split-api-key-file go together")
        }
        if let splitServer, URL(string: splitServer)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--split-server must be an http or https address, got \(splitServer)")
        }
        if splitServer == nil { try payment.connection.validateDirectoryServer() }
        guard (0...600).contains(stopGrace) else { throw ValidationError("--stop-grace must be 0 to 600 seconds") }
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be 1 to 1000000") }
        guard (1...5000).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 5000") }
        if let rate, !(0.01...100_000).contains(rate) {
            throw ValidationError("--rate must be 0.01 to 100000 payments per second")
        }
        guard (1...86_400).contains(maxDuration) else { throw ValidationError("--max-duration must be 1 to 86400") }
        if let connections, !(1...1000).contains(connections) {
            throw ValidationError("--connections must be 1 to 1000")
        }
    }

    func run() async throws {
        let tlsRoots = try payment.tlsRoots()
        let script = try answers.map(PaymentOptions.script) ?? []
        let number = try payment.cardNumber()
        let requestor = try payment.requestor()
        if let histogramLog { try checkWritable(histogramLog) }
        let transport = try HTTPClientTransport(
            additionalTrustRootsPEM: tlsRoots, maxConnectionsPerHost: connections ?? min(concurrency, 64))
        let plan = LoadPlan(
            count: count, concurrency: concurrency, rate: rate, maxDuration: .seconds(maxDuration))
        let recorder = LoadRecorder()
        let purchase = Purchase(cardNumber: number, amount: payment.amount, currency: payment.currency)
        if let split = try splitPayment(
            purchase: purchase, script: script, requestor: requestor, transport: transport, recorder: recorder)
        {
            let progress = isatty(STDERR_FILENO) == 1 ? ProgressLine(total: count, recorder: recorder) : nil
            try await measure(plan, recorder: recorder, transport: transport, progress: progress) { _ in
                await split.run()
            }
            return
        }
        let config = try payment.configuration(opensOOBApps: true)
        // One service for the run, initialized once as at an app's launch (security checks, configuration); each
        // payment is a transaction of it, the whole flow from the AReq parameters on. Its findings are said once,
        // before the run, on standard error.
        let service = try PayFlow.initializedService(config, verbose: false)
        defer { try? service.cleanup() }
        try PayFlow.showFindings(of: service, verbose: false) { warn(TerminalWidth.wrap($0)) }
        let progress = isatty(STDERR_FILENO) == 1 ? ProgressLine(total: count, recorder: recorder) : nil
        try await measure(
            plan, recorder: recorder, transport: transport, progress: progress,
            payment: onePayment(
                service: service, configuration: config, requestor: requestor, purchase: purchase, script: script,
                transport: transport, recorder: recorder))
    }

    /// Runs the plan with `payment`, then reports: the summary (or JSON), the histogram log, the exit status.
    private func measure(
        _ plan: LoadPlan, recorder: LoadRecorder, transport: HTTPClientTransport, progress: ProgressLine?,
        payment: @escaping @Sendable (Int) async -> PaymentResult
    ) async throws {
        let startTime = Date().timeIntervalSince1970
        progress?.start()
        let cpuBefore = processCPUSeconds()
        let interruption = Interruption()
        let handlers = interruption.install()
        let (started, elapsed) = await runLoad(
            plan, recorder: recorder, interruption: interruption, stopGrace: .seconds(stopGrace), payment: payment)
        let cpuSeconds = processCPUSeconds() - cpuBefore
        await progress?.stop()
        try? await transport.shutdown()
        var report = LoadReport(
            plan: plan, started: started, elapsed: elapsed, state: recorder.snapshot,
            peakRSSBytes: peakResidentBytes(), cpuSeconds: cpuSeconds)
        report.interruptedBy = interruption.received
        if json { print(report.json.serialized) } else { print(report.text, terminator: "") }
        if let histogramLog {
            try HistogramLog.write(report.taggedHistograms(), startTime: startTime, to: histogramLog)
        }
        withExtendedLifetime(handlers) {}
        if let signal = report.interruptedBy { throw ExitCode(128 + signal) }
        throw ExitCode(report.allSucceeded ? 0 : 1)
    }

    /// The payment of a run through `--split-server`, or `nil` without it.
    private func splitPayment(
        purchase: Purchase, script: [ScriptedAnswer], requestor: Requestor, transport: HTTPClientTransport,
        recorder: LoadRecorder
    ) throws -> SplitLoadPayment? {
        guard let splitServer, let splitAPIKeyFile, let serverURL = URL(string: splitServer) else { return nil }
        let key = try readInputFile(splitAPIKeyFile, option: "--split-api-key-file", maxBytes: 4096)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw CLIError("--split-api-key-file \(splitAPIKeyFile): not one API key on one line")
        }
        return SplitLoadPayment(
            merchant: SplitMerchant(serverURL: serverURL, apiKey: key), directoryServerID: payment.dsID,
            messageVersion: payment.messageVersion.flatMap { MessageVersion($0) } ?? .v2_3_1, purchase: purchase,
            script: script, requestor: requestor, resultExec: payment.connection.resultExec, transport: transport,
            recorder: recorder)
    }

    /// One payment of the run, as ``runLoad(_:recorder:interruption:stopGrace:payment:)`` starts it: a transaction of
    /// `service` (the whole flow from the AReq parameters on), answered from `script`, its phases measured by
    /// `recorder`; a failure to set it up is that payment's runtime error.
    private func onePayment(
        service: ThreeDS2Service, configuration: ConfigParameters, requestor: Requestor, purchase: Purchase,
        script: [ScriptedAnswer], transport: HTTPClientTransport, recorder: LoadRecorder
    ) -> @Sendable (Int) async -> PaymentResult {
        let options = payment
        let answersGiven = answers != nil
        return { _ in
            var flow = PayFlow(
                configuration: configuration, requestor: requestor, directoryServerID: options.directoryServerID,
                messageVersion: options.messageVersion, purchase: purchase, requestorAppURL: options.requestorAppURL,
                timeout: .seconds(options.timeout * 60),
                presenter: ScriptedPresenter(answers: script, htmlReader: LibXML2FormReader()),
                transport: transport, observer: recorder)
            flow.service = service
            flow.resultExec = options.connection.resultExec
            do {
                var result = options.explain(try await flow.run { _ in })
                if !answersGiven, result.runtimeError?.code == "answers" {
                    result.runtimeError = ("answers", "the challenge needs answers: give --answers FILE")
                }
                return result
            } catch {
                return PaymentResult(
                    flow: .none, outcome: .runtimeError, sdkTransID: "",
                    runtimeError: ("setup", options.describe(error)))
            }
        }
    }
}

extension Load {
    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge HdrHistogram logs from several load runs and report the combined latencies.",
            discussion: """
                Histograms with the same tag (phase) are added. Example (the logs of
                runs on several machines):
                  threeds load merge run.hlog --json

                \(ExitStatus.help(success: "merged", failure: "a log is malformed"))
                """)

        @Argument(help: "HdrHistogram log files (from `threeds load --histogram-log`).") var files: [String]
        @Flag(help: "Print the results as one JSON object instead of the table.") var json = false
        @Option(name: .customLong("histogram-log"), help: "Also write the merged histograms as a log to this file.")
        var histogramLog: String?

        func validate() throws {
            guard files.count <= 1000 else { throw ValidationError("at most 1000 log files") }
        }

        func run() async throws {
            var merged: [String: LatencyHistogram] = [:]
            var order: [String] = []
            var lines = 0
            for file in files {
                let text = try readInputFile(file, option: "log", maxBytes: HistogramLog.maxLogBytes)
                var found = 0
                // Merged as read: one decoded histogram at a time, whatever the log's length.
                do {
                    try HistogramLog.parse(text, source: file, lines: &lines) { item in
                        found += 1
                        if merged[item.tag] == nil {
                            guard order.count < HistogramLog.maxTags else {
                                throw HistogramLog.LogError(
                                    "more than \(HistogramLog.maxTags) tags (phases) in all")
                            }
                            order.append(item.tag)
                            merged[item.tag] = .latencies()
                        }
                        merged[item.tag]?.add(item.histogram)
                    }
                } catch let error as HistogramLog.LogError {
                    throw CLIError(error.description, exitStatus: 1)
                }
                guard found > 0 else { throw CLIError("\(file): holds no histogram", exitStatus: 1) }
            }
            let phases = order.map { (tag: $0, histogram: merged[$0]!) }
            if json {
                print(
                    JSONObject([
                        ("files", .number(String(files.count))),
                        ("phases", .object(LoadReport.phasesJSON(phases))),
                    ]).serialized)
            } else {
                print("Merged \(files.count) log\(files.count == 1 ? "" : "s")")
                print(LoadReport.latencyTable(phases), terminator: "")
            }
            if let histogramLog {
                try HistogramLog.write(
                    phases.map { TaggedHistogram(tag: $0.tag, start: 0, length: 0, histogram: $0.histogram) },
                    startTime: Date().timeIntervalSince1970, to: histogramLog)
            }
        }
    }
}

/// Fails early, before any payment, when the log file cannot be created.
private func checkWritable(_ path: String) throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
        FileManager.default.isWritableFile(atPath: directory)
    else { throw CLIError("--histogram-log \(path): the directory does not exist or is not writable") }
}

/// The CPU time (user and system) this process has used so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(Int(usage.ru_utime.tv_usec) + Int(usage.ru_stime.tv_usec)) / 1e6
}

/// The process's peak resident memory.
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
}

/// The live line on a terminal: done/total, rate, current p99 and errors, redrawn twice a second.
final class ProgressLine: Sendable {
    let total: Int
    let recorder: LoadRecorder
    private let task = Locked<Task<Void, Never>?>(nil)

    init(total: Int, recorder: LoadRecorder) {
        self.total = total
        self.recorder = recorder
    }

    func start() {
        let clock = ContinuousClock()
        let began = clock.now
        let total = total
        let recorder = recorder
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(500))
                    let state = recorder.snapshot
                    let seconds = max(0.001, Double(began.duration(to: clock.now).microseconds) / 1e6)
                    let p99 = Double(state.histograms[.payment]?.valueAtPercentile(99) ?? 0) / 1000
                    let line = String(
                        format: "\r\u{1B}[K%d/%d done  %.1f/s  p99 %.1f ms  %d errors", state.finished, total,
                        Double(state.finished) / seconds, p99, state.failed)
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
        }
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
