import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `threeds` with its standard output in a pipe and returns once `text` appeared (or the bound passed, or the
/// output ended) with what it printed so far; the process is then terminated.
func firstOutput(
    _ arguments: [String], waitingFor text: String, seconds: Int = 20, environment: [String: String] = [:]
) async throws -> String {
    let run = try ThreedsRun(arguments, environment: environment, errors: .discarded)
    let seen = await run.output(containing: text, within: .seconds(seconds)) ?? run.text
    run.process.terminate()
    _ = await run.exit()
    return seen
}

@Suite("threeds: no crash, no hang, clear errors on a first run", .serialized)
struct CLIFirstRunTests {
    func pay(_ lab: TestLab, _ pki: String, _ extra: [String]) -> [String] {
        [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999",
            "--currency", "978",
        ] + extra
    }

    @Test("every problem with --answers is a usage error naming the option and file, never a crash")
    func answersProblems() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = "\(pki)/answers-cases"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cases: [(String, Data?, String)] = [
            ("missing.json", nil, "no such file"), ("empty.json", Data(), "is empty"),
            ("malformed.json", Data("[".utf8), "unexpected end of input"),
            ("large.json", Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1), "larger than 1024 KB"),
            ("binary.json", Data([0xFF, 0xFE, 0x00]), "is not UTF-8 text"),
            ("object.json", Data(#"{"action":"cancel"}"#.utf8), "the answers file must be a JSON array"),
        ]
        for (name, content, reason) in cases {
            let path = "\(directory)/\(name)"
            if let content { try content.write(to: URL(fileURLWithPath: path)) }
            let (status, output) = try await runThreeds(pay(lab, pki, ["--ui", "auto", "--answers", path]))
            #expect(status == 2, "\(name): \(output)")
            #expect(output.contains("--answers \(path): \(reason)"), "\(name): \(output)")
            #expect(!output.contains("Fatal error") && !output.contains("NSCocoaErrorDomain"), "\(output)")
        }
        let (status, output) = try await runThreeds(pay(lab, pki, ["--ui", "auto", "--answers", directory]))
        #expect(status == 2 && output.contains("is a directory"), "\(output)")
        let unused = try await runThreeds(pay(lab, pki, ["--answers", "\(directory)/empty.json"]))
        #expect(unused.status == 2 && unused.output.contains("--answers is read only with --ui auto"))
    }

    @Test("an answer that does not fit its screen is an error naming the screen, exit 1, not a cancel")
    func wrongAnswerKind() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let path = "\(pki)/wrong-kind.json"
        try Data(#"[{"action":"submit","select":["a"]}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let (status, output) = try await runThreeds(pay(lab, pki, ["--ui", "auto", "--answers", path, "--json"]))
        #expect(status == 1, "\(output)")
        #expect(output.contains("screen 1") && output.contains(#""outcome":"runtimeError""#), "\(output)")
    }

    @Test("amounts are digits, currencies ISO 4217 numeric codes, a Luhn failure only warns (not for lab cards)")
    func purchaseFields() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        for (option, value, message) in [
            ("--amount", "19.99", "--amount must be the amount in minor units"),
            ("--amount", "-5", "--amount must be the amount in minor units"),
            ("--currency", "EUR", "--currency must be an ISO 4217 numeric code"),
            ("--currency", "000", "--currency must be an ISO 4217 numeric code"),
        ] {
            var arguments = pay(lab, pki, [])
            let index = try #require(arguments.firstIndex(of: option))
            arguments[index + 1] = value
            let (status, output) = try await runThreeds(arguments)
            #expect(status == 2 && output.contains(message), "\(option) \(value): \(output)")
        }
        let answers = "\(pki)/luhn-answers.json"
        try Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
        let (status, output) = try await runThreeds(pay(lab, pki, ["--ui", "auto", "--answers", answers]))
        // The TestLab's scenario cards are test numbers by design: no warning for them.
        #expect(status == 0 && !output.contains("Luhn"), "\(output)")
        #expect(output.contains("security checks:") && !output.contains("security warning SW"), "one line, no details")
        // Another card (no scenario, not Luhn-valid) is warned about before anything is sent: a server that is not
        // there, so no payment reaches the shared lab the other suites count.
        var other = pay(lab, pki, [])
        other[try #require(other.firstIndex(of: "--card")) + 1] = "4000000000009999"
        other[try #require(other.firstIndex(of: "--server")) + 1] = "https://127.0.0.1:1"
        let unknown = try await runThreeds(other)
        #expect(unknown.status == 1 && unknown.output.contains("fails the Luhn check"), "\(unknown.output)")
        let demo = try await runThreeds(["demo", "--auto", "--card", "1234"])
        #expect(demo.status == 2 && demo.output.contains("12–19 digits"), "\(demo.output)")
        // An empty or overlong SDK reference number is a usage error, before anything is sent.
        for reference in ["", String(repeating: "R", count: 33)] {
            let refused = try await runThreeds(pay(lab, pki, ["--sdk-reference-number", reference]))
            #expect(
                refused.status == 2 && refused.output.contains("--sdk-reference-number must be the 1 to 32"),
                "\(refused.output)")
        }
        // The demo takes a card as people write it, as pay does: spaces and dashes between the digits.
        for written in ["4000 0000 0000 1000", "4000-0000-0000-1000"] {
            let spaced = try await runThreeds(["demo", "--auto", "--json", "--card", written])
            #expect(spaced.status == 0 && spaced.output.contains(#""transStatus":"Y""#), "\(written): \(spaced.output)")
        }
    }

    @Test(
        "the demo takes a piped code: the screen's question first, the consent after it; no input cancels, saying why")
    func pipedDemo() async throws {
        // The 2.3.1 text screen also asks the trust question; a piped code must answer the code, not the consent.
        let code = try await runThreeds(["demo"], input: "123456\n")
        #expect(code.status == 0 && code.output.contains("Challenge completed: transStatus Y"), "\(code.output)")
        let withConsent = try await runThreeds(["demo", "--json"], input: "123456\nyes\n")
        #expect(withConsent.output.contains(#""transStatus":"Y""#), "\(withConsent.output)")
        // No input at all: cancelled (the ACS hears challengeCancel), but not said to be the cardholder's doing.
        let nothing = try await runThreeds(["demo"], input: "")
        #expect(
            nothing.output.contains("Challenge cancelled: standard input ended before an answer"), "\(nothing.output)")
        #expect(!nothing.output.contains("by the cardholder"), "\(nothing.output)")
        // No one answered: a failure (exit 1), so that a CI job that forgot --ui auto does not pass (issue 43).
        #expect(nothing.status == 1, "\(nothing.output)")
    }

    @Test("negative numbers get a range message; an unknown option is named; an unknown locale warns")
    func usage() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let negative = try await runThreeds(pay(lab, pki, ["--timeout", "-1"]))
        #expect(negative.status == 2 && negative.output.contains("--timeout must be 5 to 60"), "\(negative.output)")
        let unknown = try await runThreeds(pay(lab, pki, ["--frobnicate"]))
        #expect(unknown.status == 2 && unknown.output.contains("--frobnicate"))
        let answers = "\(pki)/locale-answers.json"
        try Data(#"[{"action":"cancel"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
        let locale = try await runThreeds(pay(lab, pki, ["--ui", "auto", "--answers", answers, "--locale", "sw_KE"]))
        #expect(locale.status == 0 && locale.output.contains("no SDK texts for --locale sw_KE"), "\(locale.output)")
        let demo = try await runThreeds(["demo", "--card", "no-such-scenario"])
        #expect(demo.status == 2 && demo.output.contains("scenario name"), "\(demo.output)")
        let version = try await runThreeds(["--version"])
        #expect(version.status == 0 && version.output.contains("0.1.0"))
        let help = try await runThreeds(["pay", "--help"])
        #expect(
            help.output.contains("Example") && help.output.contains("Exit status") && help.output.contains("F055545342")
        )
    }

    @Test("testlab: ports out of range are refused; a busy port exits 1 and leaves the running lab's files alone")
    func testlabPorts() async throws {
        for port in ["70000", "-1"] {
            let (status, output) = try await runThreeds(["testlab", "--port", port])
            #expect(status == 2 && output.contains("--port must be 0 to 65535"), "\(port): \(output)")
        }
        // The busy port is held by this test itself, on the address the lab binds (127.0.0.1): no other test's lab
        // can free it meanwhile (a shared lab's port once came free and the command ran on, a lab of its own).
        let holder = try PortHolder()
        defer { holder.close() }
        let busy = holder.port
        let directory = scratchDirectory("busy") + "/pki"
        let run = try ThreedsRun(["testlab", "--port", "\(busy)", "--pki-dir", directory])
        // A backstop: a command that bound the port after all runs until stopped, and must fail the test, not hold it.
        guard await run.exited(within: .seconds(120)) else {
            run.signal(SIGKILL)
            Issue.record("threeds testlab ran on port \(busy), which this test holds")
            return
        }
        let (status, output) = await run.exit()
        #expect(status == 1 && output.contains("port \(busy) is in use"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: directory), "nothing written before the port was bound")
    }

    @Test("the testlab banner reaches a pipe at once, not when the process ends")
    func bannerFlushed() async throws {
        let directory = scratchDirectory("pipe") + "/pki"
        let output = try await firstOutput(
            ["testlab", "--port", "0", "--pki-dir", directory], waitingFor: "Press Ctrl-C to stop.")
        #expect(output.contains("TestLab listening on https://127.0.0.1:") && output.contains("Press Ctrl-C"))
    }
}

@Suite("threeds: errors a person can act on")
struct CLIErrorMessageTests {
    @Test("a refused connection fails at once naming the URL; a TLS failure names the trust roots and --tls-root")
    func connectionErrors() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let common = [
            "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root",
            "\(pki)/ds-root.pem", "--card", Scenario.frictionlessY.cardNumber, "--amount", "1", "--currency", "978",
        ]
        let refused = try await runThreedsTimed(["pay", "--server", "https://127.0.0.1:1"] + common)
        // Refused, not timed out: it ends before the 3DS Server client's own 30 s timeout (a speed bound of 5 s broke
        // on a busy 2-core machine, 6.1 s, with the other suites running).
        #expect(refused.elapsed < .seconds(30), "ended by the client's timeout, not by the refusal")
        #expect(refused.status == 1 && refused.output.contains("https://127.0.0.1:1/3ds/authenticate"))
        // Lines are wrapped to the terminal's width: read the words, not the line breaks.
        #expect(flattened(refused.output).contains("is the 3DS Server running"), "\(refused.output)")
        let untrusted = try await runThreeds(["pay", "--server", lab.baseURL.absoluteString] + common)
        #expect(
            flattened(untrusted.output).contains(
                "the 3DS Server's certificate did not validate against the system's trust roots; add the 3DS Server's "
                    + "TLS root with --tls-root FILE"), "\(untrusted.output)")
        let wrongRoot = try await runThreeds(
            ["pay", "--server", lab.baseURL.absoluteString, "--tls-root", "\(pki)/ds-root.pem"] + common)
        #expect(flattened(wrongRoot.output).contains("did not validate against --tls-root \(pki)/ds-root.pem"))
        for output in [refused.output, untrusted.output, wrongRoot.output] {
            #expect(
                !output.contains("connectionFailed") && !output.contains("tlsFailure") && !output.contains("runtime:"))
        }
    }
}

/// A TCP port this process listens on (127.0.0.1, the lab's address), for as long as the holder is not closed.
final class PortHolder: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestLabError(.failed, "no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 1) == 0 else {
            Glibc.close(socket)
            throw TestLabError(.failed, "no port could be bound")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        descriptor = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
