import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The CLI against crafted tokens and commands.
@Suite("Security review: threeds CLI")
struct SecurityReviewCLITests {
    /// Bytes a terminal acts on: ESC, BEL, CSI (C1) and the bidi overrides.
    private func actionable(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value))
        }
    }

    @Test("inspect signed-content prints member names, certificate names and error details escaped")
    func inspectEscapes() async throws {
        let directory = scratchDirectory("inspect-escape")
        let root = try CertificateAuthority.makeRoot(
            commonName: "Evil\u{1B}]2;pwned\u{07}\u{202E}CA", key: .makeP256())
        try root.certificatePEM.write(toFile: "\(directory)/root.pem", atomically: true, encoding: .utf8)
        let header =
            #"{"alg":"ES256","x5c":[""# + Base64.standardEncode(try root.certificateDER)
            + #""],"\u001b]2;renamed\u0007":"\u001b[1A\u001b[2Kspoof\u009b31m"}"#
        let payload = #"{"acsURL":"https://acs.example/\u001b[2J","\u202eevil":1}"#
        let token =
            Base64.urlEncode(Array(header.utf8)) + "." + Base64.urlEncode(Array(payload.utf8)) + "."
            + Base64.urlEncode([UInt8](repeating: 1, count: 64))
        try token.write(toFile: "\(directory)/token.jws", atomically: true, encoding: .utf8)
        let result = try await runThreeds([
            "inspect", "signed-content", "\(directory)/token.jws", "--ds-root", "\(directory)/root.pem",
        ])
        #expect(result.status == 1, "\(result.output)")
        #expect(actionable(result.output).isEmpty, "raw control characters reached the terminal: \(result.output)")
        #expect(result.output.contains("Evil\\u{1B}]2;pwned\\u{7}\\u{202E}CA"), "\(result.output)")
        #expect(result.output.contains(#""\u001b]2;renamed\u0007""#), "\(result.output)")
        #expect(result.output.contains("Verdict: INVALID"))
    }

    @Test("--requestor-exec past its time limit stops grandchildren too (they hold the output pipe)")
    func grandchildrenStopped() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let result = try await runThreedsTimed([
            "pay", "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert", "\(pki)/ds-encryption-rsa.pem",
            "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem", "--card",
            Scenario.text.cardNumber, "--amount", "1999", "--currency", "978", "--json",
            "--requestor-exec", "sh -c 'sleep 90; true' & wait", "--requestor-timeout", "1",
        ])
        // A grandchild left running holds the output pipe until its own end, 90 s on: ending before then is the
        // behaviour (no speed claim).
        #expect(result.elapsed < .seconds(90))
        #expect(result.status == 1 && result.output.contains("ran past 1 s"), "\(result.output)")
    }
}
