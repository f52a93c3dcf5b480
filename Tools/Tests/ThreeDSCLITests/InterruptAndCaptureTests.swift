import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `threeds`, sends `signal` once `ready` holds (the run has reached the point the test is about: `load`
/// prints nothing until its summary, so the test looks at the lab it pays at), and returns the exit status, what it
/// printed and how long it ran after the signal. With `again`, the signal is sent again every 100 ms until the
/// process exits: the second arrives as a signal of its own, after the first was taken.
func runThreedsInterrupted(
    _ arguments: [String], signal number: Int32, once what: String, again: Bool = false,
    ready: () async -> Bool
) async throws -> (status: Int32, output: String, afterSignal: Duration) {
    let run = try ThreedsRun(arguments)
    try await waitUntil(what, ready)
    let signalled = ContinuousClock.now
    run.signal(number)
    if again {
        while !(await run.exited(within: .milliseconds(100))) { run.signal(number) }
    }
    let (status, output) = await run.exit()
    return (status, output, ContinuousClock.now - signalled)
}

/// How many payments with `card` the lab has seen since it had seen `before` in all.
func payments(_ lab: TestLab, card: Scenario, since before: Int) -> Int {
    lab.authentications.dropFirst(before).filter { $0.request["acctNumber"] == .string(card.cardNumber) }.count
}

extension MachineLoadingCLITests {
    @Suite(
        "threeds load interrupted; pay --save-messages and the files inspect reads", .serialized)
    struct InterruptAndCaptureTests {
        func load(_ lab: TestLab, _ pki: String, card: Scenario, _ extra: [String]) -> [String] {
            [
                "load", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
                "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
                "--tls-root", "\(pki)/tls-root.pem", "--card", card.cardNumber, "--amount", "1999", "--currency", "978",
                "--answers", LoadTests.answers,
            ] + extra
        }

        @Test("Ctrl-C during load: no new payment, the summary of what finished, the histogram log, exit 130")
        func interruptedBySIGINT() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let log = scratchDirectory("interrupt") + "/run.hlog"
            let before = lab.authentications.count
            let run = try await runThreedsInterrupted(
                load(
                    lab, pki, card: .frictionlessY,
                    ["--count", "1000000", "--concurrency", "2", "--histogram-log", log]),
                signal: SIGINT, once: "a few payments reached the lab"
            ) { payments(lab, card: .frictionlessY, since: before) >= 4 }
            #expect(run.status == 130, "\(run.output)")
            #expect(run.output.contains("Interrupted by SIGINT: no payment started after it"), "\(run.output)")
            #expect(run.output.contains("Outcomes:") && run.output.contains("frictionless Y"), "\(run.output)")
            #expect(run.output.contains("not started"), "\(run.output)")
            let written = try String(contentsOfFile: log, encoding: .utf8)
            #expect(written.contains("Tag=payment"), "the histogram log holds what finished")
        }

        @Test("SIGTERM during load: payments in flight get --stop-grace, then are cancelled; JSON says so; exit 143")
        func interruptedBySIGTERM() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let before = lab.authentications.count
            // The slow card's ACS answers after 11 s: the two payments in flight outlive a grace of 1 s.
            let run = try await runThreedsInterrupted(
                load(
                    lab, pki, card: .faultSlow, ["--count", "10", "--concurrency", "2", "--stop-grace", "1", "--json"]),
                signal: SIGTERM, once: "both payments are in flight"
            ) { payments(lab, card: .faultSlow, since: before) >= 2 }
            #expect(run.status == 143, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("{") })
            let json = try #require(try JSONParser().parse(String(line)).objectValue)
            #expect(json["interruptedBy"] == .string("SIGTERM"))
            #expect(json["started"] == .number("2") && json["notStarted"] == .number("8"), "\(line)")
            // The grace bounds the wait: both payments end cancelled, not as the SDK's own 10 s CRes timer would end
            // them (timedout) nor with the ACS's answer at 11 s. The clock is only a backstop against a run that
            // never ends; the outcomes say what ended it.
            #expect(json["outcomes"] == .object(["cancelled": .number("2")]), "\(line)")
            #expect(run.afterSignal < .seconds(60), "\(run.afterSignal)")
        }

        @Test("a second Ctrl-C ends the grace at once")
        func secondInterrupt() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let before = lab.authentications.count
            let run = try await runThreedsInterrupted(
                load(
                    lab, pki, card: .faultSlow,
                    ["--count", "10", "--concurrency", "2", "--stop-grace", "60", "--json"]),
                signal: SIGINT, once: "both payments are in flight", again: true
            ) { payments(lab, card: .faultSlow, since: before) >= 2 }
            #expect(run.status == 130, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("{") })
            let json = try #require(try JSONParser().parse(String(line)).objectValue)
            #expect(json["interruptedBy"] == .string("SIGINT"), "\(line)")
            // Ended by the second signal: both payments cancelled, before the SDK's own 10 s CRes timer would have
            // ended them (timedout), and before the 60 s grace.
            #expect(json["outcomes"] == .object(["cancelled": .number("2")]), "\(line)")
            #expect(run.afterSignal < .seconds(60), "the grace ran out instead: \(run.afterSignal)")
        }

        func pay(_ lab: TestLab, _ pki: String, _ extra: [String]) -> [String] {
            [
                "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
                "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
                "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999",
                "--currency", "978", "--ui", "auto", "--answers", LoadTests.answers,
            ] + extra
        }

        @Test("pay --save-messages writes areq.json, ares.json, creq-N.jwe and cres-N.jwe; inspect reads each as VALID")
        func saveMessages() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let directory = scratchDirectory("messages")
            let messages = directory + "/messages"
            let keys = directory + "/keys.json"
            let paid = try await runThreeds(
                pay(lab, pki, ["--save-messages", messages, "--save-transaction-keys", keys]))
            #expect(paid.status == 0, "\(paid.output)")
            #expect(paid.output.contains("warning: --save-messages writes this payment's messages"), "\(paid.output)")
            let files = try FileManager.default.contentsOfDirectory(atPath: messages).sorted()
            #expect(
                files == ["areq.json", "ares.json", "creq-1.jwe", "creq-2.jwe", "cres-1.jwe", "cres-2.jwe"], "\(files)")
            for file in files {
                let mode = try FileManager.default.attributesOfItem(atPath: "\(messages)/\(file)")[.posixPermissions]
                #expect((mode as? NSNumber)?.intValue == 0o600, "\(file)")
            }
            let areq = try String(contentsOfFile: "\(messages)/areq.json", encoding: .utf8)
            #expect(
                !areq.contains(Scenario.text.cardNumber) && areq.contains("sdkEncData"), "no card number in the file")
            let checks: [[String]] = [
                ["inspect", "signed-content", "\(messages)/ares.json", "--ds-root", "\(pki)/ds-root.pem"],
                [
                    "inspect", "device-data", "\(messages)/areq.json", "--ds-key", "\(pki)/ds-decryption-rsa-key.pem",
                    "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
                ],
                ["inspect", "creq", "\(messages)/creq-1.jwe", "--transaction-keys", keys],
                ["inspect", "cres", "\(messages)/cres-1.jwe", "--transaction-keys", keys],
                [
                    "inspect", "creq", "\(messages)/creq-2.jwe", "--transaction-keys", keys, "--answering",
                    "\(messages)/cres-1.jwe",
                ],
                ["inspect", "cres", "\(messages)/cres-2.jwe", "--transaction-keys", keys],
            ]
            for arguments in checks {
                let (status, output) = try await runThreeds(arguments)
                #expect(status == 0 && output.contains("VALID"), "\(arguments.prefix(3)): \(output)")
                #expect(!output.contains("INVALID"), "\(arguments.prefix(3)): \(output)")
            }
        }

        @Test("the Erro the SDK posts is saved as erro.json, not as a numbered CReq with an empty answer")
        func saveMessagesWithErro() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let messages = scratchDirectory("messages-erro") + "/messages"
            var arguments = pay(lab, pki, ["--save-messages", messages])
            let card = try #require(arguments.firstIndex(of: "--card"))
            arguments[card + 1] = Scenario.faultBadTag.cardNumber
            let paid = try await runThreeds(arguments)
            #expect(paid.status != 0, "\(paid.output)")
            let files = try FileManager.default.contentsOfDirectory(atPath: messages).sorted()
            #expect(files == ["areq.json", "ares.json", "creq-1.jwe", "cres-1.jwe", "erro.json"], "\(files)")
            let erro = try String(contentsOfFile: "\(messages)/erro.json", encoding: .utf8)
            #expect(erro.contains("\"messageType\":\"Erro\"") && erro.contains("\"errorCode\":\"302\""), "\(erro)")
        }

        @Test("--save-messages is refused off loopback, like --save-transaction-keys")
        func saveMessagesOffLoopback() async throws {
            let (status, output) = try await runThreeds(
                [
                    "pay", "--server", "https://acs.example.com", "--ds-id", "X", "--ds-cert", "/nonexistent",
                    "--ds-root",
                    "/nonexistent", "--card", "4000000000002000", "--amount", "1", "--currency", "978",
                    "--save-messages",
                    scratchDirectory("offloopback"),
                ])
            #expect(status == 2 && output.contains("--save-messages is for test systems on loopback"), "\(output)")
        }

        @Test("--save-transaction-keys to a path that cannot be written is a usage error before anything is sent")
        func unwritableKeyFile() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            // The lab is shared with tests paying beside this one: an amount of its own tells this run's AReq apart.
            let amount = "1986"
            let path = scratchDirectory("unwritable") + "/no-such-directory/keys.json"
            let arguments = pay(lab, pki, ["--save-transaction-keys", path]).map { $0 == "1999" ? amount : $0 }
            let (status, output) = try await runThreeds(arguments)
            #expect(status == 2, "\(output)")
            #expect(output.contains("--save-transaction-keys \(path): cannot be written"), "\(output)")
            #expect(
                !lab.authentications.contains { $0.request["purchaseAmount"] == .string(amount) }, "nothing was sent")
        }

        @Test("a TLS failure at the ACS names the roots used and the option to add, in words, not internal codes")
        func tlsFailureAtTheACS() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("scripts/testlab-requestor.sh").path
            let (status, output) = try await runThreeds([
                "pay", "--requestor-exec", "sh \(script) \(lab.baseURL.absoluteString) \(pki)/tls-root.pem",
                "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert", "\(pki)/ds-encryption-rsa.pem",
                "--ds-root",
                "\(pki)/ds-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999", "--currency", "978",
                "--ui", "auto", "--answers", LoadTests.answers,
            ])
            #expect(status == 1, "\(output)")
            #expect(flattened(output).contains("add the ACS's TLS root with --tls-root FILE"), "\(output)")
            #expect(output.contains("Runtime error: ") && !output.contains("Runtime error transport"), "\(output)")
        }
    }
}

/// One payment per saved folder and key file (issue 36, point 6).
@Suite("--save-messages and --save-transaction-keys never mix two payments")
struct OnePaymentPerFolderTests {
    @Test("a folder holding an earlier payment's messages, or an existing key file, is refused before anything is sent")
    func reusedFolder() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("reuse")
        // Private, whatever the process's umask is while other suites run: this test is about the earlier messages.
        #expect(chmod(directory, 0o700) == 0)
        let arguments = [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.frictionlessY.cardNumber, "--amount", "1999",
            "--currency", "978",
        ]
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/cres-3.jwe"))
        let stale = try await runThreeds(arguments + ["--save-messages", directory])
        #expect(stale.status == 2, "\(stale.output)")
        #expect(flattened(stale.output).contains("holds an earlier payment's messages (cres-3.jwe)"), "\(stale.output)")
        let keys = scratchDirectory("reuse-keys") + "/keys.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: keys))
        let existing = try await runThreeds(arguments + ["--save-transaction-keys", keys])
        // Usage errors (2) are found before anything is sent.
        #expect(existing.status == 2 && flattened(existing.output).contains("already exists"), "\(existing.output)")
    }
}
