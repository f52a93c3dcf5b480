import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The sockets on the lab's side that hold a file descriptor: local port `port`, by TCP state (`0A` listening, `01`
/// established, `08` close-wait: the peer closed and the lab has not). Sockets in TIME_WAIT after the lab closed
/// first hold none (their inode is 0) and are left out.
func socketStates(port: Int) -> [String] {
    let hexPort = String(format: ":%04X", port)
    return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path -> [String] in
        // Read to the end: a /proc file reports size 0, and a long table spans several reads.
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let table = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[9] != "0" else { return nil }
            return String(fields[3])
        }
    }
}

/// A `threeds testlab` process: its own process, so that the concurrent payments do not take the cooperative threads the
/// other tests' in-process labs and timers run on.
final class LabProcess: Sendable {
    let run: ThreedsRun
    let baseURL: URL

    /// The lab's process.
    var process: Process { run.process }

    init(pkiDirectory: String) async throws {
        // Started with SIGINT ignored, as a script's background job (and a CI runner's) starts it: the lab still
        // stops on it. `exec` keeps the process identifier, so the signal reaches the lab itself.
        run = try ThreedsRun(
            ["testlab", "--port", "0", "--pki-dir", pkiDirectory], launcher: .shell(#"trap "" INT; exec "$@""#),
            errors: .discarded)
        let printed = await run.output(containing: "\n") ?? run.text
        let first = printed.prefix { $0 != "\n" }
        guard first.hasPrefix("TestLab listening on "), let url = URL(string: String(first.dropFirst(21))) else {
            run.process.terminate()
            throw TestLabError(.failed, "threeds testlab did not start: \(first)")
        }
        // The PEM files are written once the port is bound, before the line is printed.
        baseURL = url
    }

    /// Sends `signal` and waits for the lab to exit: a lab stops within its own grace (`threeds testlab`'s 5 s,
    /// after which it exits 1 by itself), so the minute given is only a backstop for a lab that kept the signal
    /// ignored (it would hold the suite for ever). Such a lab is killed and waited for; the result says whether it
    /// stopped by itself.
    func stop(with signal: Int32) async throws -> Bool {
        run.signal(signal)
        let stopped = await run.exited(within: .seconds(60))
        if !stopped {
            run.signal(SIGKILL)
            _ = await run.exit()
        }
        return stopped
    }
}

extension MachineLoadingCLITests {
    @Suite("The TestLab under load")
    struct LabUnderLoadTests {
        /// How many payments run, all at once. Throughput and stress figures (1,000 payments at once, challenges per
        /// second per core, p99 per exchange, peak memory) are the benchmarks' "TestLab under load" row
        /// (`Tools/Benchmarks/`, `threeds-benchmarks --only "under load"`): in the default suite 1,000 at once beside the
        /// rest of the suite on 2 busy cores finished 529 and 729 of 1,000 (issue 43). What stays here is behaviour:
        /// every payment gets exactly one outcome and nothing is left open, at a size a loaded 2-core machine holds.
        static let payments = 40

        @Test("40 concurrent challenges end with exactly 40 outcomes; no connection is left over")
        func concurrentChallenges() async throws {
            let directory = scratchDirectory("lab-under-load")
            let lab = try await LabProcess(pkiDirectory: directory)
            let port = try #require(lab.baseURL.port)
            let answers = directory + "/answers.json"
            try Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
            let total = Self.payments
            let result = try await runThreeds([
                "load", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
                "--ds-cert", "\(directory)/ds-encryption-rsa.pem", "--ds-root", "\(directory)/ds-root.pem",
                "--tls-root", "\(directory)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999",
                "--currency", "978", "--answers", answers, "--count", "\(total)", "--concurrency", "\(total)", "--json",
            ])
            let line = try #require(result.output.split(separator: "\n").last { $0.hasPrefix("{") })
            let report = try #require(try JSONParser().parse(String(line)).objectValue)
            #expect(report["finished"] == .number("\(total)"), "exactly one outcome per payment")
            // Every payment completes, except that an exchange that waits more than the protocol's 10 s for its CRes
            // ends as `timedout` with Erro 402: the SDK doing its job on a machine busier than that. Nothing else is
            // accepted; no threshold on how many completed (a figure, not a behaviour).
            let outcomes = try #require(report["outcomes"]?.objectValue)
            func count(_ kind: String) -> Int {
                if case .number(let text)? = outcomes[kind] { return Int(text) ?? -1 }
                return 0
            }
            let completed = count("completed Y")
            let timedOut = count("timedout")
            #expect(completed + timedOut == total, "\(outcomes)")
            let errors = try #require(report["errors"]?.objectValue)
            #expect(errors.names.allSatisfy { $0 == "Challenge timed out" }, "\(errors)")
            #expect(result.status == (timedOut == 0 ? 0 : 1), "\(result.output.suffix(2000))")
            // The client has exited: the lab closes every connection it accepted; only the listener remains.
            try? await waitUntil("only the listener remains", within: .seconds(10)) {
                socketStates(port: port) == ["0A"]
            }
            let states = socketStates(port: port)
            #expect(states == ["0A"], "sockets on the lab's port: \(states.count), states \(Set(states))")
            // A graceful stop: the lab exits on SIGINT, as `threeds testlab` does on Ctrl-C, even though it was started
            // with SIGINT ignored; within its own grace, which exit 0 says (past it, it exits 1: "did not stop within").
            if try await !lab.stop(with: SIGINT) {
                Issue.record("the lab did not stop on SIGINT")
            } else {
                #expect(
                    lab.process.terminationReason == .exit && lab.process.terminationStatus == 0,
                    "a clean exit within the lab's grace: \(lab.run.text)")
            }
            #expect(socketStates(port: port).isEmpty, "the listener is closed")
        }
    }
}

@Suite("threeds testlab stops on a signal")
struct LabStopTests {
    @Test("SIGTERM stops a lab started with SIGINT ignored: exit 0, and its PKI directory is free for the next lab")
    func stopsOnSIGTERM() async throws {
        let directory = scratchDirectory("lab-sigterm")
        for _ in 0..<2 {
            let lab = try await LabProcess(pkiDirectory: directory)
            try #require(try await lab.stop(with: SIGTERM), "the lab did not stop on SIGTERM")
            #expect(lab.process.terminationReason == .exit && lab.process.terminationStatus == 0)
        }
    }
}
