import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The smaller problems a first use ran into (issue 24, point 7), each as it was reproduced.
@Suite("First use: messages, hints and files", .serialized)
struct FirstUseMessagesTests {
    func pay(_ lab: TestLab, _ pki: String, card: Scenario = .text, _ extra: [String]) -> [String] {
        [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", card.cardNumber, "--amount", "1999", "--currency", "978",
        ] + extra
    }

    @Test("an answers file's misspelt member (\"txt\") is a usage error naming it, not an empty code sent")
    func unknownAnswerMember() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let path = scratchDirectory("answers") + "/typo.json"
        try Data(#"[{"action":"submit","txt":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        // An amount of this test's own (``sent(_:amount:)``).
        let arguments = pay(lab, pki, ["--ui", "auto", "--answers", path]).map { $0 == "1999" ? "1985" : $0 }
        let (status, output) = try await runThreeds(arguments)
        #expect(status == 2, "\(output)")
        #expect(output.contains(#"unknown member "txt""#) && output.contains(#""text""#), "\(output)")
        #expect(!sent(lab, amount: "1985"))
    }

    @Test("load on a challenge card without --answers says the answers are missing, not that a file does not fit")
    func loadWithoutAnswers() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        var arguments = pay(lab, pki, ["--count", "3", "--concurrency", "1"])
        arguments[0] = "load"
        let (status, output) = try await runThreeds(arguments)
        #expect(status == 1, "\(output)")
        #expect(output.contains("3 × Runtime error: the challenge needs answers: give --answers FILE"), "\(output)")
        #expect(!output.contains("does not fit"), "\(output)")
    }

    @Test("a misspelt option (--ds-crt) is named with the option meant, not only reported as a missing --ds-cert")
    func misspeltOption() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        var arguments = pay(lab, pki, [])
        let index = try #require(arguments.firstIndex(of: "--ds-cert"))
        arguments[index] = "--ds-crt"
        let (status, output) = try await runThreeds(arguments)
        #expect(status == 2)
        #expect(output.contains("unknown option --ds-crt; did you mean --ds-cert?"), "\(output)")
    }

    @Test("testlab --pki-dir naming a file says so in one line, no NSCocoaErrorDomain dump, a usage error (exit 2)")
    func pkiDirectoryIsAFile() async throws {
        let file = scratchDirectory("pkifile") + "/README.md"
        try Data("# not a directory\n".utf8).write(to: URL(fileURLWithPath: file))
        let (status, output) = try await runThreeds(["testlab", "--port", "0", "--pki-dir", file])
        #expect(status == 2, "\(output)")
        #expect(flattened(output).contains("--pki-dir \(file) is a file"), "\(output)")
        #expect(!output.contains("NSCocoaErrorDomain") && !output.contains("Error Domain"), "\(output)")
    }

    @Test("a second TestLab on another port refuses the PKI directory of a running one instead of overwriting it")
    func secondLabSameDirectory() async throws {
        let directory = scratchDirectory("twolabs") + "/testlab-pki"
        let first = try await firstOutput(
            ["testlab", "--port", "0", "--pki-dir", directory], waitingFor: "Press Ctrl-C to stop.")
        #expect(first.contains("TestLab listening"))
        // firstOutput stopped that process: its lock went with it, so a lab in this process takes the directory.
        let lab = try await TestLab.start(options: TestLabOptions(pkiDirectory: URL(fileURLWithPath: directory)))
        defer { Task { await lab.stop() } }
        let root = try String(contentsOfFile: directory + "/ds-root.pem", encoding: .utf8)
        let (status, output) = try await runThreeds(["testlab", "--port", "0", "--pki-dir", directory])
        #expect(status == 1, "\(output)")
        #expect(output.contains("another TestLab (\(lab.baseURL.absoluteString)) is using \(directory)"), "\(output)")
        #expect(try String(contentsOfFile: directory + "/ds-root.pem", encoding: .utf8) == root, "files untouched")
    }

    @Test("protocol errors in words: the component named, the detail only when it adds something")
    func protocolErrorWording() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let (status, output) = try await runThreeds(
            pay(lab, pki, card: .faultBadTag, ["--ui", "auto", "--answers", LoadTests.answers]))
        #expect(status == 1, "\(output)")
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("Protocol error") })
        #expect(line.hasPrefix("Protocol error 302 from the SDK: "), "\(line)")
        #expect(!line.contains("component") && !line.contains("(Data Decryption Failure)"), "\(line)")
    }

    @Test("demo hints match the scenario and show inside the full screen; frictionless cards get none")
    func demoHints() async throws {
        let session = TmuxSession()
        defer { session.stop() }
        try await session.start("\(TmuxSession.binary) demo")
        let screen = try await session.wait(for: "One-time code: [_]")
        #expect(screen.contains("The one-time code is 123456"), "the hint is on the challenge screen: \(screen)")
        try await session.keys("Escape")
        _ = try await session.wait(for: "EXIT=0")
        let oob = TmuxSession()
        defer { oob.stop() }
        try await oob.start("\(TmuxSession.binary) demo --card outOfBand")
        let oobScreen = try await oob.wait(for: "< I have approved >")
        #expect(oobScreen.contains("Press “I have approved”") && !oobScreen.contains("Press continue"), "\(oobScreen)")
        try await oob.keys("Escape")
        let frictionless = try await runThreeds(["demo", "--card", "frictionlessY"])
        #expect(frictionless.status == 0 && !frictionless.output.contains("123456"), "\(frictionless.output)")
        let slow = try await runThreeds(["demo", "--card", "faultSlow", "--json"], input: "")
        #expect(!slow.output.contains("The one-time code is"), "\(slow.output)")
    }

    @Test("a requestor command's bad output is described once: no \"the command's answer's answer\"")
    func requestorWording() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        var arguments = pay(lab, pki, [])
        let index = try #require(arguments.firstIndex(of: "--server"))
        arguments.replaceSubrange(index...(index + 1), with: ["--requestor-exec", #"echo '{"acsTransID":"x"}'"#])
        let (status, output) = try await runThreeds(arguments)
        #expect(status == 1, "\(output)")
        #expect(output.contains("--requestor-exec: the command's output has no transStatus"), "\(output)")
        #expect(!output.contains("answer's answer") && !output.contains("runtime:"), "\(output)")
    }

    @Test("inspect names keys as people do and explains a device-data key or DS ID that does not fit")
    func inspectWording() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("wording")
        let keys = directory + "/keys.json"
        // Paid through the EC directory server (ECDH-ES), whose device data name the DS ID in the key derivation.
        var arguments = pay(
            lab, pki,
            [
                "--ui", "auto", "--answers", LoadTests.answers, "--save-messages", directory, "--save-transaction-keys",
                keys,
            ])
        arguments[arguments.firstIndex(of: TestLab.rsaDirectoryServerID.rawValue)!] =
            TestLab.ecDirectoryServerID.rawValue
        arguments[arguments.firstIndex(of: "\(pki)/ds-encryption-rsa.pem")!] = "\(pki)/ds-encryption-ec.pem"
        let paid = try await runThreeds(arguments)
        #expect(paid.status == 0, "\(paid.output)")
        let content = try await runThreeds(
            ["inspect", "signed-content", directory + "/ares.json", "--ds-root", "\(pki)/ds-root.pem"])
        let keyLines = content.output.split(separator: "\n").filter { $0.contains("key:  ") }
        #expect(
            !keyLines.isEmpty && keyLines.allSatisfy { $0.contains("RSA 2048-bit") || $0.contains("EC P-256") },
            "\(keyLines)")
        #expect(!content.output.contains(".PublicKey"), "\(content.output)")
        // The right EC key with another directory server's ID: the derived key differs, so the tag does not match.
        let wrong = try await runThreeds([
            "inspect", "device-data", directory + "/areq.json", "--ds-key", "\(pki)/ds-decryption-ec-key.pem",
            "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
        ])
        #expect(wrong.status == 1, "\(wrong.output)")
        #expect(wrong.output.contains("encrypted to another directory server's key"), "\(wrong.output)")
        #expect(!wrong.output.contains("authenticationFailed") && !wrong.output.contains("tag does not match"))
    }

    @Test("internal words stay out: an untrusted signed-content chain in a sentence; a bad version is a usage error")
    func noInternalWords() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        // The wrong root for ACS signed content (the TLS root). Since issue 34 the encryption certificate must chain
        // to the directory server's roots too, so the bundle opts out of that rule for this directory server to
        // reach the signed-content check.
        let bundle = scratchDirectory("wrong-root")
        try """
        {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"\(TestLab.rsaDirectoryServerID)",
         "allowUnchainedEncryptionCertificates":true,
         "encryptionCertificates":[{"pem":\(JSONValue.string(try String(contentsOfFile: "\(pki)/ds-encryption-rsa.pem", encoding: .utf8)).serialized)}],
         "rootCertificates":[{"pem":\(JSONValue.string(try String(contentsOfFile: "\(pki)/tls-root.pem", encoding: .utf8)).serialized)}]}]}
        """.write(toFile: "\(bundle)/trust-bundle.json", atomically: true, encoding: .utf8)
        var arguments = pay(lab, pki, ["--ui", "auto", "--answers", LoadTests.answers])
        for option in ["--ds-cert", "--ds-root"] {
            let index = arguments.firstIndex(of: option)!
            arguments.removeSubrange(index...(index + 1))
        }
        arguments += ["--trust-bundle", bundle]
        let (status, output) = try await runThreeds(arguments)
        #expect(status == 1, "\(output)")
        #expect(output.contains("Runtime error: the ACS signed content failed verification: x5c chain"), "\(output)")
        #expect(!output.contains("untrustedCertificateChain") && !output.contains("signedContent:"), "\(output)")
        let version = try await runThreeds(pay(lab, pki, ["--message-version", "9.9.9"]))
        #expect(version.status == 2 && version.output.contains("--message-version must be 2.1.0, 2.2.0 or 2.3.1"))
        let demo = try await runThreeds(["demo", "--message-version", "9.9.9"])
        #expect(demo.status == 2 && demo.output.contains("--message-version must be 2.1.0, 2.2.0 or 2.3.1"))
    }

    @Test("an HTML form with one field takes a bare code in line and plain mode; no attempt is spent on field names")
    func bareCodeOnHTML() async throws {
        for environment in [["TERM": "xterm-256color"], ["TERM": "dumb"]] {
            let (status, output) = try await runThreeds(
                ["demo", "--card", "html", "--line", "--json"], input: "123456\n", environment: environment)
            #expect(status == 0, "\(environment): \(output)")
            #expect(output.contains(#""outcome":"completed""#) && output.contains(#""transStatus":"Y""#), "\(output)")
            #expect(!output.contains("The code was not correct"), "no attempt was spent: \(output)")
        }
        let button = try await runThreeds(["demo", "--card", "html", "--line", "--json"], input: "123456 Verify\n")
        #expect(button.output.contains(#""transStatus":"Y""#), "\(button.output)")
    }
}
