import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2TestLab

/// Runs `threeds` with arguments (and optional standard input); returns the exit status and what it printed. Nothing
/// blocks a cooperative thread (which could starve the in-process TestLab the child talks to; this machine has two):
/// ``ThreedsRun`` reads the output on a thread of its own.
func runThreeds(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> (
    status: Int32, output: String
) {
    try await OneShotSlots.shared.run { try await ThreedsRun(arguments, input: input, environment: environment).exit() }
}

/// ``runThreeds(_:input:environment:)`` with the time from its process's start to its exit: the wait for a slot
/// (``OneShotSlots``) is no part of what a test bounds.
func runThreedsTimed(_ arguments: [String]) async throws -> (status: Int32, output: String, elapsed: Duration) {
    try await OneShotSlots.shared.run {
        let started = ContinuousClock.now
        let (status, output) = try await ThreedsRun(arguments).exit()
        return (status, output, ContinuousClock.now - started)
    }
}

/// Output with its line breaks and indentation read as single spaces: the CLI wraps what it prints to the terminal's
/// width, so a test looks for words, not for where a line happened to break.
func flattened(_ output: String) -> String {
    output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// Every `threeds` command with a help text of its own, the groups (`load`, `inspect`) included.
let threedsCommands: [[String]] = [
    [], ["pay"], ["load"], ["load", "run"], ["load", "merge"], ["testlab"], ["demo"], ["inspect"],
    ["inspect", "signed-content"], ["inspect", "device-data"], ["inspect", "creq"], ["inspect", "cres"],
    ["inspect", "audit"],
    ["ds", "check"], ["conform"],
]

/// A `threeds` process, not started, with `environment` added to this process's own.
func threedsProcess(_ arguments: [String], environment: [String: String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TmuxSession.binary)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    return process
}

@Suite("threeds pay: what it refuses before anything is sent")
struct CLIValidationTests {
    private func pay(_ server: String, _ extra: [String] = ["--card", "4000000000002000"]) -> [String] {
        [
            "pay", "--server", server, "--ds-id", "X", "--ds-cert", "/nonexistent", "--ds-root", "/nonexistent",
            "--amount", "1", "--currency", "978",
        ] + extra
    }

    @Test("plain http to a host that is not loopback is refused, with or without --allow-http")
    func plainHTTPElsewhere() async throws {
        for extra in [[], ["--allow-http"]] {
            let (status, output) = try await runThreeds(
                pay("http://203.0.113.5:8080", ["--card", "4000000000002000"] + extra))
            #expect(status == 2)
            #expect(flattened(output).contains("card data is only ever sent over https"), "\(output)")
        }
    }

    @Test("plain http to loopback needs --allow-http; https passes this check")
    func plainHTTPLoopback() async throws {
        let refused = try await runThreeds(pay("http://127.0.0.1:1"))
        #expect(refused.status == 2 && refused.output.contains("--allow-http"))
        // Past validation, the missing PEM file is the next problem: not a usage error about the URL.
        let allowed = try await runThreeds(pay("http://127.0.0.1:1", ["--card", "4000000000002000", "--allow-http"]))
        #expect(!allowed.output.contains("plain http"))
    }

    @Test("the card comes from exactly one of --card or --card-file, and must be 12–19 ASCII digits")
    func cardSources() async throws {
        let both = try await runThreeds(pay("https://127.0.0.1:1", ["--card", "4000000000002000", "--card-file", "-"]))
        #expect(both.status == 2 && both.output.contains("exactly one"))
        let neither = try await runThreeds(pay("https://127.0.0.1:1", []))
        #expect(neither.status == 2 && neither.output.contains("exactly one"))
        let letters = try await runThreeds(pay("https://127.0.0.1:1", ["--card", "40000000000020٠٠"]))
        #expect(letters.status == 2 && letters.output.contains("12–19 digits"))
    }

    @Test("numbers out of range are usage errors, never a crash")
    func ranges() async throws {
        for value in ["999999999999999999", "4", "61", "-1"] {
            let (status, output) = try await runThreeds(
                pay("https://127.0.0.1:1", ["--card", "4000000000002000", "--timeout", value]))
            #expect(status == 2, "--timeout \(value): \(output)")
        }
    }

    @Test("an expired directory-server certificate is named by option and file, before anything is sent")
    func expiredCertificate() async throws {
        let (lab, pki) = try await SharedLab.terminal.get()
        let root = try CertificateAuthority.makeRoot(commonName: "Old DS Root", key: .makeP256())
        let expired = try CertificateAuthority.issue(
            commonName: "Old DS", key: .makeP256(), role: .encryption, issuer: root,
            notValidBefore: Date(timeIntervalSinceNow: -2 * 86400), notValidAfter: Date(timeIntervalSinceNow: -86400))
        let path = "\(pki)/expired-ds.pem"
        try Data(try expired.certificatePEM.utf8).write(to: URL(fileURLWithPath: path))
        // An amount of this test's own (``sent(_:amount:)``).
        let (status, output) = try await runThreeds([
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.ecDirectoryServerID.rawValue, "--ds-cert",
            path,
            "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber,
            "--amount", "1984", "--currency", "978",
        ])
        #expect(status == 1)
        #expect(
            flattened(output).contains("--ds-cert \(path): ") && flattened(output).contains("CN=Old DS) expired on"),
            "\(output)")
        #expect(!sent(lab, amount: "1984"), "nothing reached the 3DS Server")
    }

    @Test("a card read from standard input pays through the TestLab")
    func cardFromStandardInput() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let answers = "\(pki)/answers.json"
        try Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
        let arguments = [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card-file", "-", "--amount", "1999", "--currency", "978",
            "--ui", "auto", "--answers", answers, "--json",
        ]
        let (status, output) = try await runThreeds(arguments, input: Scenario.text.cardNumber + "\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""outcome":"completed""#) && output.contains(#""transStatus":"Y""#))
        #expect(!output.contains(Scenario.text.cardNumber), "the card number is never printed")
    }
}
