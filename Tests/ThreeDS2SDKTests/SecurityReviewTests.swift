import Crypto
import Foundation
import Logging
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDKTesting
import X509

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

@Suite("Security review: core")
struct SecurityReviewTests {
    @Test("a challenge cancelled during setup ends as cancelled without sending anything")
    func cancelDuringSetup() async throws {
        let base = ChallengeSetupTests()
        let key = P256.KeyAgreement.PrivateKey()
        let prepared = try await base.setup().prepare(
            base.parameters(try base.signedContent(acsURL: "https://acs.example/c", sdkKey: key.publicKey)),
            ephemeralKey: key)
        let transport = FailingTransport()
        let session = ChallengeSession(
            acsURL: prepared.acsURL, machine: prepared.machine, presenter: ScriptedPresenter(answers: []),
            transport: transport, clock: ManualClock(), logger: Logger(label: "test"), emit: { _ in })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var session = session
            return await session.run(timeout: .seconds(300))
        }
        let outcome = await task.value
        guard case .cancelled = outcome else {
            Issue.record("outcome \(outcome)")
            return
        }
        #expect(transport.log.requests.isEmpty, "a CReq was sent after the app cancelled")
    }

    @Test("the channel key goes to a key log only for an ACS on loopback, whatever fronted the 3DS Server")
    func keyLogLoopbackRule() async throws {
        let base = ChallengeSetupTests()
        let key = P256.KeyAgreement.PrivateKey()
        let log = RecordingKeyLog()
        var setup = try base.setup()
        setup.keyLog = log
        let remote = base.parameters(try base.signedContent(acsURL: "https://acs.example/c", sdkKey: key.publicKey))
        do {
            _ = try await setup.prepare(remote, ephemeralKey: key)
            Issue.record("the key of a challenge with a remote ACS was exported")
        } catch {
            #expect(error.code == .acsURL, "\(error)")
        }
        #expect(log.entries.isEmpty)
        let local = base.parameters(try base.signedContent(acsURL: "https://127.0.0.1:8443/c", sdkKey: key.publicKey))
        _ = try await setup.prepare(local, ephemeralKey: key)
        #expect(log.entries.count == 1)
        // Without a key log a remote ACS is fine.
        _ = try await base.setup().prepare(remote, ephemeralKey: key)
    }

    @Test("secret files are created 0600 (never wider, whatever the umask) in folders made 0700")
    func secretFilePermissions() throws {
        let root = scratchDirectory("secret")
        let previous = umask(0)
        defer { umask(previous) }
        let path = "\(root)/a/b/key.json"
        try SecretFile.write(Array("secret".utf8), to: path)
        try SecretFile.write(Array("secret2".utf8), to: path)
        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode(path) == 0o600)
        #expect(try mode("\(root)/a") == 0o700 && mode("\(root)/a/b") == 0o700)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "secret2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/a/b") == ["key.json"])
        // The SDK App ID file.
        let store = SDKAppIDStore(directory: URL(fileURLWithPath: "\(root)/ids"))
        _ = try store.sdkAppID(appIdentifier: "com.example.app", appVersion: "1")
        #expect(try mode("\(root)/ids") == 0o700)
        #expect(try mode("\(root)/ids/sdk-app-id-com.example.app.json") == 0o600)
    }

    @Test("HTML page text and labels are neutralised once, in the core; submitted values are kept")
    func htmlFormNeutralised() {
        let form = HTMLForm(
            controls: [
                HTMLForm.Control(
                    kind: .text, name: "otp", value: "v\u{1B}", label: "Code\u{1B}[2J\u{202E}",
                    form: 0),
                HTMLForm.Control(
                    kind: .select, name: "s", value: "",
                    options: [HTMLForm.Option(value: "1\u{7}", label: "one\u{9B}", selected: true)]),
            ], links: [HTMLForm.SubmissionLink(label: "go\u{1B}]2;x\u{7}", query: "a=b")],
            text: "Hello\u{1B}]0;title\u{7} world")
        #expect(form.controls[0].label == "Code [2J ")
        #expect(form.controls[0].value == "v\u{1B}")
        #expect(form.controls[1].options[0].label == "one " && form.controls[1].options[0].value == "1\u{7}")
        #expect(form.links[0].label == "go ]2;x ")
        #expect(form.text == "Hello ]0;title  world")
    }
}

@Suite("Server identity (RFC 9525) rules")
struct ServiceIdentityTests {
    private func certificate(ips: [String], dns: [String]) throws -> [UInt8] {
        let root = try CertificateAuthority.makeRoot(commonName: "r", key: .makeP256())
        return try CertificateAuthority.issue(
            commonName: "localhost", key: .makeP256(), role: .tlsServer(ipAddresses: ips, dnsNames: dns),
            issuer: root
        ).certificateDER
    }

    @Test("IP names only for IP literals, DNS names only for host names, never the common name")
    func rules() throws {
        let ipOnly = try certificate(ips: ["127.0.0.1"], dns: [])
        #expect(ServiceIdentity.matches(certificateDER: ipOnly, host: "127.0.0.1"))
        #expect(!ServiceIdentity.matches(certificateDER: ipOnly, host: "localhost"))
        #expect(!ServiceIdentity.matches(certificateDER: ipOnly, host: "127.0.0.2"))
        let dnsOnly = try certificate(ips: [], dns: ["localhost", "*.acs.example"])
        #expect(ServiceIdentity.matches(certificateDER: dnsOnly, host: "LOCALHOST."))
        #expect(!ServiceIdentity.matches(certificateDER: dnsOnly, host: "127.0.0.1"))
        #expect(ServiceIdentity.matches(certificateDER: dnsOnly, host: "eu.acs.example"))
        #expect(!ServiceIdentity.matches(certificateDER: dnsOnly, host: "acs.example"))
        #expect(!ServiceIdentity.matches(certificateDER: dnsOnly, host: "a.b.acs.example"))
        // No subject alternative names: the common name "localhost" is not consulted.
        let root = try CertificateAuthority.makeRoot(commonName: "localhost", key: .makeP256())
        #expect(!ServiceIdentity.matches(certificateDER: try root.certificateDER, host: "localhost"))
        #expect(!ServiceIdentity.matches(certificateDER: [1, 2, 3], host: "localhost"))
    }

    @Test("wildcards stand for one whole left-most label, not a part of one, nor under a two-label name")
    func wildcards() {
        let names: [GeneralName] = [.dnsName("*.example"), .dnsName("f*o.bank.example"), .dnsName("*.pay.example")]
        #expect(!ServiceIdentity.matches(names: names, host: "a.example"))
        #expect(!ServiceIdentity.matches(names: names, host: "foo.bank.example"))
        #expect(ServiceIdentity.matches(names: names, host: "x.pay.example"))
        #expect(
            ServiceIdentity.matches(
                names: [.ipAddress(.init(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))],
                host: "[::1]"))
    }
}
