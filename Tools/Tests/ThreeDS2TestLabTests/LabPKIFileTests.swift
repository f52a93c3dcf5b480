import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("The TestLab's PKI files")
struct LabPKIFileTests {
    @Test("the TestLab's PKI folder is a trust bundle of its two directory servers")
    func testLabBundle() throws {
        let pki = try LabPKI.make()
        let directory = URL(fileURLWithPath: scratchDirectory("lab-pki")).appendingPathComponent("pki")
        try pki.writeClientFiles(to: directory)
        let bundle = try TrustBundle(contentsOf: directory)
        let reports = bundle.evaluate()
        #expect(reports.map(\.id) == [.testRSA, .testEC])
        #expect(reports.map { $0.chosen?.keyType } == ["RSA", "EC P-256"])
        #expect(reports.allSatisfy { $0.failure == nil && $0.chosen?.chainsToRoot == true })
        #expect(reports.map(\.name) == ["Test DS (RSA)", "Test DS (EC)"])
        // Written by the SDK's writer, certificates as the files beside it: it reads back as the lab's bundle.
        #expect(bundle == (try pki.trustBundle))
        let json = try String(contentsOf: directory.appendingPathComponent(TrustBundle.fileName), encoding: .utf8)
        #expect(json == (try pki.trustBundle.json(referencing: try pki.clientFiles)))
        #expect(json.contains("\"file\":\"ds-encryption-rsa.pem\"") && !json.contains("\"pem\""))
    }

    @Test("the TestLab's private keys are 0600, its certificates and bundle 0644, in a 0700 folder")
    func fileModes() throws {
        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        let pki = scratchDirectory("lab-pki") + "/pki"
        // Whatever the umask: the keys never wider than 0600, the public files exactly 0644.
        let previous = umask(0)
        defer { umask(previous) }
        try LabPKI.make().writeClientFiles(to: URL(fileURLWithPath: pki))
        #expect(try mode(pki) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: pki)
        let keys = names.filter(LabPKI.isPrivateKeyFile)
        #expect(Set(keys) == ["ds-decryption-rsa-key.pem", "ds-decryption-ec-key.pem", "split-sdk-server-key.pem"])
        for name in names {
            let expected = keys.contains(name) ? 0o600 : 0o644
            #expect(try mode("\(pki)/\(name)") == expected, "\(name)")
        }
        #expect(names.contains("tls-root.pem") && names.contains("trust-bundle.json"))
    }
}
