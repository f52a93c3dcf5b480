import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The CLI names a slip as what it is, before anything is sent, with the option and the fix (issue 43, point 3), and
/// takes a card number as people write it (point 4).
@Suite("Diagnoses at first contact: the option and the fix, before anything is sent", .serialized)
struct FirstContactDiagnosisTests {
    /// A lab of this suite's own: "nothing was sent" counts its authentications, which no other suite adds to.
    static let lab = SharedLab(name: "diagnosis-lab")

    /// `threeds pay` against the CLI tests' lab with the frictionless Y card, the options given replacing the
    /// defaults of the same name.
    static func pay(_ changes: [String: String], extra: [String] = []) async throws -> (
        status: Int32, output: String, sent: Int
    ) {
        let (lab, pki) = try await Self.lab.get()
        var options: [(String, String)] = [
            ("--server", lab.baseURL.absoluteString), ("--ds-id", TestLab.rsaDirectoryServerID.rawValue),
            ("--ds-cert", "\(pki)/ds-encryption-rsa.pem"), ("--ds-root", "\(pki)/ds-root.pem"),
            ("--tls-root", "\(pki)/tls-root.pem"), ("--card", Scenario.frictionlessY.cardNumber),
            ("--amount", "1999"), ("--currency", "978"),
        ]
        options = options.map { ($0.0, changes[$0.0].map { $0.replacingOccurrences(of: "PKI", with: pki) } ?? $0.1) }
        let before = lab.authentications.count
        let result = try await runThreeds(["pay"] + options.flatMap { [$0.0, $0.1] } + extra)
        return (result.status, flattened(result.output), lab.authentications.count - before)
    }

    @Test("an EC --ds-cert for the RSA directory server (and the reverse) is named before the AReq, exit 2")
    func keyTypeMismatch() async throws {
        let ec = try await Self.pay(["--ds-cert": "PKI/ds-encryption-ec.pem"])
        #expect(ec.status == 2 && ec.sent == 0, "\(ec.output)")
        #expect(ec.output.contains("holds an EC P-256 key") && ec.output.contains("uses RSA"), "\(ec.output)")
        #expect(ec.output.contains("--ds-id F155545342") && !ec.output.contains("authentication tag"), "\(ec.output)")
        let rsa = try await Self.pay(["--ds-id": TestLab.ecDirectoryServerID.rawValue])
        #expect(rsa.status == 2 && rsa.sent == 0 && rsa.output.contains("uses EC P-256"), "\(rsa.output)")
    }

    @Test("--ds-id XYZ is refused as no directory server ID; an ID the trust bundle beside --ds-cert lacks, too")
    func unknownDirectoryServerID() async throws {
        let malformed = try await Self.pay(["--ds-id": "XYZ"])
        #expect(malformed.status == 2 && malformed.sent == 0, "\(malformed.output)")
        #expect(malformed.output.contains("--ds-id must be a directory server ID"), "\(malformed.output)")
        let unlisted = try await Self.pay(["--ds-id": "F255545342"])
        #expect(unlisted.status == 2 && unlisted.sent == 0, "\(unlisted.output)")
        #expect(
            unlisted.output.contains("is the encryption certificate of directory server F055545342")
                && unlisted.output.contains("not of --ds-id F255545342"), "\(unlisted.output)")
    }

    @Test(
        "--requestor-app-url is checked before anything is sent, for a frictionless card too; a 2.2.0 custom scheme passes",
        arguments: ["http://shop.example/x", "not a url", "https://", "myapp://return"])
    func requestorAppURL(_ url: String) async throws {
        let refused = try await Self.pay([:], extra: ["--requestor-app-url", url])
        #expect(refused.status == 2 && refused.sent == 0, "\(url): \(refused.output)")
        #expect(refused.output.contains("--requestor-app-url"), "\(url): \(refused.output)")
        let customScheme = url == "myapp://return"
        let v220 = try await Self.pay([:], extra: ["--requestor-app-url", url, "--message-version", "2.2.0"])
        #expect(v220.status == (customScheme ? 0 : 2), "\(url) 2.2.0: \(v220.output)")
        #expect(v220.sent == (customScheme ? 1 : 0), "\(url) 2.2.0: \(v220.output)")
    }

    @Test("a card written with spaces or dashes is taken without them")
    func cardWithSeparators() async throws {
        let (lab, _) = try await Self.lab.get()
        for written in ["4000 0000 0000 1000", "4000-0000-0000-1000"] {
            let result = try await Self.pay(["--card": written], extra: ["--json"])
            #expect(result.status == 0 && result.sent == 1, "\(written): \(result.output)")
        }
        #expect(lab.authentications.last?.request["acctNumber"] == .string(Scenario.frictionlessY.cardNumber))
    }

    @Test("https:// to a plain-HTTP 3DS Server is named as plain HTTP, not as a certificate that did not validate")
    func plainHTTPBehindHTTPS() async throws {
        let directory = URL(fileURLWithPath: scratchDirectory("plain-http-lab"))
        let lab = try await TestLab.start(options: TestLabOptions(useTLS: false, pkiDirectory: directory))
        let https = lab.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "https://")
        let pki = directory.path
        let result = try await runThreeds([
            "pay", "--server", https, "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert",
            "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem",
            "--card", Scenario.frictionlessY.cardNumber, "--amount", "1999", "--currency", "978",
        ])
        await lab.stop()
        let output = flattened(result.output)
        #expect(result.status == 1, "\(output)")
        #expect(output.contains("answered in plain HTTP, not HTTPS") && output.contains("--allow-http"), "\(output)")
        #expect(!output.contains("did not validate"), "\(output)")
    }
}
