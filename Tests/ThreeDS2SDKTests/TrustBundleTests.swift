import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

private let day: TimeInterval = 86400

/// A certificate of the fixture's root valid from `from` to `to` days around now.
private func certificate(
    _ name: String, from: Double, to: Double, role: CertificateAuthority.Role = .encryption, rsa: Bool = false
) throws -> IssuedCertificate {
    let ds = try DSFixture.get()
    return try CertificateAuthority.issue(
        commonName: name, key: rsa ? try .makeRSA() : .makeP256(), role: role, issuer: ds.root,
        notValidBefore: Date(timeIntervalSinceNow: from * day), notValidAfter: Date(timeIntervalSinceNow: to * day))
}

private func server(_ keys: [(IssuedCertificate, String)], id: DirectoryServerID = .mastercard) throws
    -> DirectoryServer
{
    DirectoryServer(
        id: id, encryptionKeys: try keys.map { .init(key: try $0.0.certificatePEM, keyID: $0.1) },
        rootCertificates: try DSFixture.get().root.certificatePEM)
}

@Suite("Card-scheme registry")
struct CardSchemeRegistryTests {
    @Test("every scheme of protocol reference §6.1 is built in with its RID and name")
    func registry() {
        let expected: [(DirectoryServerID, String, String)] = [
            (.visa, "A000000003", "Visa"), (.mastercard, "A000000004", "Mastercard"),
            (.americanExpress, "A000000025", "American Express"), (.discover, "A000000152", "Discover"),
            (.diners, "A000000324", "Diners Club"), (.jcb, "A000000065", "JCB"), (.unionPay, "A000000333", "UnionPay"),
            (.cartesBancaires, "A000000042", "Cartes Bancaires"), (.testRSA, "F055545342", "Test DS (RSA)"),
            (.testEC, "F155545342", "Test DS (EC)"),
        ]
        #expect(CardScheme.registered.count == expected.count)
        for (id, raw, name) in expected {
            #expect(id.rawValue == raw && id.isWellFormed)
            #expect(CardScheme.registered(id)?.name == name)
            #expect(CardScheme.registered(id)?.isTest == raw.hasPrefix("F"))
        }
        #expect(Set(CardScheme.registered.map(\.id)).count == expected.count)
        #expect(CardScheme.registered(DirectoryServerID("A000000999")) == nil)
        #expect(!DirectoryServerID("A00000000").isWellFormed && !DirectoryServerID("A00000000G").isWellFormed)
    }

    @Test("a scheme configured by its ID alone gets the registry's name on the progress view")
    func displayName() async throws {
        let ds = try DSFixture.get()
        var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        try config.addDirectoryServer(
            DirectoryServer(
                scheme: try #require(CardScheme.registered(.jcb)),
                encryptionKeys: [.init(key: try ds.ecEncryption.certificatePEM)],
                rootCertificates: try ds.root.certificatePEM))
        try config.addDirectoryServer(
            DirectoryServer(
                id: "A000000025",
                encryptionKey: try ds.ecEncryption.certificatePEM, rootCertificates: try ds.root.certificatePEM))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config)
        defer { try? service.cleanup() }
        let recorder = RecordingProgressIndicator()
        for id: DirectoryServerID in ["A000000065", "A000000025", "A000000003", "A000000004"] {
            let transaction = try service.createTransaction(directoryServerID: id, messageVersion: "2.2.0")
            await transaction.getProgressView(indicator: recorder, clock: ManualClock()).start()
            transaction.close()
        }
        // A configured name wins over the registry's ("Test Scheme" for A000000004).
        #expect(recorder.directoryServerNames == ["JCB", "American Express", "Visa", "Test Scheme"])
    }
}

@Suite("Encryption-certificate choice and expiry diagnostics")
struct CertificateChoiceTests {
    @Test("during a rotation the newest valid certificate is used, with its key ID, and no warning")
    func rotation() throws {
        let old = try certificate("DS 2025", from: -300, to: 10)
        let new = try certificate("DS 2026", from: -1, to: 700)
        let report = try server([(old, "k-2025"), (new, "k-2026")]).evaluate()
        #expect(report.failure == nil && report.warning == nil)
        #expect(report.chosen?.keyID == "k-2026" && report.chosen?.subject == "CN=DS 2026")
        #expect(report.keys.map(\.status) == [.valid, .valid])
        #expect(report.keys.allSatisfy(\.chainsToRoot) && report.keys[0].chain == ["CN=Test DS Root"])
        let resolved = try ResolvedDirectoryServer(try server([(old, "k-2025"), (new, "k-2026")]))
        #expect(resolved.keyID == "k-2026" && resolved.expiryWarning == nil)
        // Asked about a day after the old one ended, the new one alone is valid.
        let later = try server([(old, "k-2025"), (new, "k-2026")]).evaluate(at: Date(timeIntervalSinceNow: 20 * day))
        #expect(later.keys.map(\.status) == [.expired, .valid] && later.chosen?.keyID == "k-2026")
    }

    @Test("the certificate in use ending within 30 days raises the named warning, naming the DS and its successor")
    func expiringSoon() throws {
        let old = try certificate("DS old", from: -300, to: 12.5)
        let next = try certificate("DS next", from: 5, to: 700)
        let report = try server([(old, "a"), (next, "b")]).evaluate()
        #expect(report.failure == nil && report.chosen?.keyID == "a")
        #expect(report.keys.map(\.status) == [.valid, .notYetValid])
        let warning = try #require(report.warning)
        #expect(warning.id == Warning.ID.directoryServerCertificateExpiring && warning.severity == .medium)
        #expect(warning.message.contains("A000000004 (Mastercard)") && warning.message.contains("CN=DS old"))
        // 12.5 days from now is 12 or 13 calendar days away, by the hour of the run (DateText.days).
        #expect(
            (warning.message.contains("in 12 days") || warning.message.contains("in 13 days"))
                && warning.message.contains("a successor becomes valid on"), "\(warning.message)")
        let alone = try server([(old, "a")]).evaluate()
        #expect(alone.warning?.message.contains("no successor is configured") == true)
        // 31 days left: no warning.
        let fine = try server([(try certificate("DS fine", from: -1, to: 31), "c")]).evaluate()
        #expect(fine.warning == nil)
    }

    @Test("the service reports expiry warnings apart from the security warnings, and logs them")
    func serviceWarnings() throws {
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.dataDirectory = try temporaryDirectory()
        try config.addDirectoryServer(try server([(try certificate("DS soon", from: -300, to: 3), "s")]))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config)
        defer { try? service.cleanup() }
        #expect(try service.directoryServerWarnings.map(\.id) == [Warning.ID.directoryServerCertificateExpiring])
        #expect(try !service.warnings.contains { $0.id == Warning.ID.directoryServerCertificateExpiring })
        let transaction = try service.createTransaction(directoryServerID: "A000000004")
        let parameters = try transaction.getAuthenticationRequestParameters()
        #expect(!parameters.deviceData.isEmpty)
        transaction.close()
    }

    @Test("no valid certificate: initialize refuses the DS, naming it, every certificate and its dates")
    func noneValid() throws {
        let expired = try certificate("DS expired", from: -300, to: -2)
        let early = try certificate("DS early", from: 3, to: 300)
        let wrongUsage = try certificate("DS signer", from: -1, to: 300, role: .signer, rsa: true)
        let entry = try server([(expired, "x"), (early, "y"), (wrongUsage, "z")])
        let report = entry.evaluate()
        #expect(report.chosen == nil)
        #expect(report.keys.map(\.status) == [.expired, .notYetValid, .wrongKeyUsage])
        #expect(report.keys[2].keyUsage == ["digitalSignature"] && report.keys[2].keyType == "RSA")
        #expect(report.keys[2].keySize == 2048)
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.dataDirectory = try temporaryDirectory()
        try config.addDirectoryServer(entry)
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        let error = try #require(expectSDKError(.invalidInput) { try service.initialize(configParameters: config) })
        #expect(error.parameter == .directoryServer(.mastercard, .encryptionKey))
        #expect(error.message.contains("directory server A000000004 (Mastercard) has no encryption key usable on"))
        #expect(error.message.contains("(CN=DS expired) expired on 20"))
        #expect(error.message.contains("(CN=DS early) is not valid before 20"))
        #expect(error.message.contains("(CN=DS signer) does not allow key encipherment"))
        #expect(throws: ThreeDS2Error.self) { try service.warnings }
    }

    @Test("a bare public key is usable without dates; any valid certificate is preferred to it")
    func bareKey() throws {
        let ds = try DSFixture.get()
        let bare = DirectoryServer.EncryptionKey(
            key: try ds.ecEncryption.certificate.publicKey.serializeAsPEM().pemString, keyID: "bare")
        var entry = try server([(try certificate("DS cert", from: -1, to: 300), "cert")])
        entry.encryptionKeys.insert(bare, at: 0)
        #expect(entry.evaluate().chosen?.keyID == "cert")
        entry.encryptionKeys.removeLast()
        let report = entry.evaluate()
        #expect(report.chosen?.keyID == "bare" && report.chosen?.subject == nil && report.warning == nil)
        #expect(report.chosen?.keyType == "EC P-256" && report.chosen?.keySize == 256)
    }

    @Test("several keys survive the configuration's group/name/value store in order")
    func storeRoundTrip() throws {
        let entry = try server([
            (try certificate("A", from: -1, to: 300), "a"), (try certificate("B", from: -1, to: 300), "b"),
            (try certificate("C", from: -1, to: 300), "c"),
        ])
        var config = ConfigParameters()
        try config.addDirectoryServer(entry)
        #expect(config.directoryServer(id: "A000000004") == entry)
        var empty = entry
        empty.encryptionKeys = []
        var other = ConfigParameters()
        #expect(throws: ThreeDS2Error.self) { try other.addDirectoryServer(empty) }
    }
}

@Suite("Trust bundles")
struct TrustBundleTests {
    /// A bundle folder with the fixture root and the given certificates as files.
    private func folder(_ json: (String) -> String, files: [String: String]) throws -> URL {
        let directory = URL(fileURLWithPath: try temporaryDirectory()).appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        try Data(json(try DSFixture.get().root.certificatePEM).utf8).write(
            to: directory.appendingPathComponent(TrustBundle.fileName))
        return directory
    }

    private func quoted(_ text: String) -> String { JSONValue.string(text).serialized }

    @Test("a good bundle: files beside it and inline PEM, a folder or the file itself, names from the registry")
    func good() throws {
        let new = try certificate("DS new", from: -1, to: 700)
        let old = try certificate("DS old", from: -300, to: 100)
        let ec = try DSFixture.get().ecEncryption
        let newPEM = quoted(try new.certificatePEM)
        let directory = try folder(
            { root in
                """
                {"format": "threeds2-trust-bundle/1", "directoryServers": [
                  {"id": "A000000004", "encryptionCertificates": [
                     {"keyID": "old", "file": "mc-old.pem"}, {"keyID": "new", "pem": \(newPEM)}],
                   "rootCertificates": [{"file": "root.pem"}]},
                  {"id": "A000000003", "name": "Visa Secure", "deviceDataEncryption": "A128GCM",
                   "encryptionCertificates": [{"file": "sub/visa.pem"}], "rootCertificates": [{"pem": \(quoted(root))}]}]}
                """
            },
            files: ["mc-old.pem": try old.certificatePEM, "root.pem": try DSFixture.get().root.certificatePEM])
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(try ec.certificatePEM.utf8).write(to: directory.appendingPathComponent("sub/visa.pem"))
        for url in [directory, directory.appendingPathComponent(TrustBundle.fileName)] {
            let bundle = try TrustBundle(contentsOf: url)
            #expect(bundle.directoryServers.map(\.id) == ["A000000004", "A000000003"])
            let reports = bundle.evaluate()
            #expect(reports.map(\.name) == ["Mastercard", "Visa Secure"])
            #expect(reports.map { $0.chosen?.keyID } == ["new", nil])
            #expect(reports.allSatisfy { $0.failure == nil })
            #expect(bundle.directoryServers[1].deviceDataEncryption == .a128gcm)
            var config = ConfigParameters()
            try config.addDirectoryServers(from: bundle)
            #expect(config.directoryServerIDs == ["A000000003", "A000000004"])
        }
    }

    @Test("a bundle with an expired, a not-yet-valid or a wrongly used certificate reads, and says why it is unusable")
    func unusable() throws {
        let cases: [(IssuedCertificate, EncryptionKeyReport.Status, String)] = [
            (try certificate("E", from: -30, to: -1), .expired, "expired on"),
            (try certificate("N", from: 2, to: 30), .notYetValid, "is not valid before"),
            (try certificate("U", from: -1, to: 30, role: .keyEnciphermentOnly), .wrongKeyUsage, "key agreement"),
        ]
        for (cert, status, words) in cases {
            let json = """
                {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000152",
                 "encryptionCertificates":[{"pem":\(quoted(try cert.certificatePEM))}],
                 "rootCertificates":[{"pem":\(quoted(try DSFixture.get().root.certificatePEM))}]}]}
                """
            let report = try #require(TrustBundle(json: Array(json.utf8), baseDirectory: nil).evaluate().first)
            #expect(report.keys.first?.status == status)
            #expect(report.failure?.message.contains(words) == true, "\(String(describing: report.failure))")
            #expect(report.label == "A000000152 (Discover)")
        }
    }

    @Test("malformed bundles are refused with the place and the reason")
    func malformed() throws {
        let pem = quoted(try DSFixture.get().ecEncryption.certificatePEM)
        let root = quoted(try DSFixture.get().root.certificatePEM)
        func entry(_ body: String) -> String {
            "{\"format\":\"threeds2-trust-bundle/1\",\"directoryServers\":[\(body)]}"
        }
        let cases: [(String, String)] = [
            ("not json", "is not valid JSON"),
            ("{\"format\":\"other\",\"directoryServers\":[]}", "\"format\" must be"),
            (entry(""), "must be a non-empty array"),
            (
                entry("{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"pem\":\(pem)}],\"rootCertificates\":[]}"),
                "A000000004 has no root certificate"
            ),
            (
                entry("{\"id\":\"A000000004\",\"encryptionCertificates\":[],\"rootCertificates\":[{\"pem\":\(root)}]}"),
                "A000000004 has no encryption certificate"
            ),
            (
                entry(
                    "{\"id\":\"MC\",\"encryptionCertificates\":[{\"pem\":\(pem)}],\"rootCertificates\":[{\"pem\":\(root)}]}"
                ),
                "ten hexadecimal characters"
            ),
            (
                entry(
                    "{\"id\":\"A000000004\",\"encryptionCertificate\":[{\"pem\":\(pem)}],\"rootCertificates\":[{\"pem\":\(root)}]}"
                ),
                "unknown member \"encryptionCertificate\""
            ),
            (
                entry(
                    "{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"pem\":\(pem),\"file\":\"x.pem\"}],\"rootCertificates\":[{\"pem\":\(root)}]}"
                ),
                "exactly one of \"pem\" or \"file\""
            ),
            (
                entry(
                    "{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"file\":\"x.pem\"}],\"rootCertificates\":[{\"pem\":\(root)}]}"
                ),
                "need the bundle to be read from a file"
            ),
            (
                entry(
                    "{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"pem\":\(pem)}],\"rootCertificates\":[{\"pem\":\(root)}]},"
                        + "{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"pem\":\(pem)}],\"rootCertificates\":[{\"pem\":\(root)}]}"
                ),
                "is listed twice"
            ),
        ]
        for (json, words) in cases {
            // Not JSON at all, or JSON that breaks the bundle's format: each its own code.
            let code: ThreeDS2Error.Code = json == "not json" ? .malformedJSON : .malformedTrustBundle
            let error = expectSDKError(code) { try TrustBundle(json: Array(json.utf8), baseDirectory: nil) }
            #expect(error?.code.isInvalidInput == true)
            #expect(error?.message.contains(words) == true, "\(words): \(String(describing: error))")
        }
        // A root that is not a certificate is read, and the DS is unusable for it.
        let garbage = entry(
            "{\"id\":\"A000000004\",\"encryptionCertificates\":[{\"pem\":\(pem)}],\"rootCertificates\":[{\"pem\":\"garbage\"}]}"
        )
        let report = try #require(try TrustBundle(json: Array(garbage.utf8), baseDirectory: nil).evaluate().first)
        #expect(report.failure?.parameter == .directoryServer(.mastercard, .rootCertificates))
        #expect(report.failure?.code == .malformedPEM)
    }

    @Test("file references stay inside the bundle's folder; a missing bundle is named")
    func fileReferences() throws {
        for path in ["../outside.pem", "/etc/passwd", "a//b.pem", "sub/../../x.pem"] {
            let directory = try folder(
                { root in
                    """
                    {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
                     "encryptionCertificates":[{"file":\(quoted(path))}],"rootCertificates":[{"pem":\(quoted(root))}]}]}
                    """
                }, files: [:])
            let error = expectSDKError(.malformedTrustBundle) { try TrustBundle(contentsOf: directory) }
            #expect(error?.message.contains("relative path inside the bundle's folder") == true)
        }
        let missing = expectSDKError(.invalidInput) {
            try TrustBundle(contentsOf: URL(fileURLWithPath: "/nonexistent/bundle"))
        }
        #expect(missing?.message.contains("does not exist") == true)
        let noFile = try folder(
            { root in
                """
                {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
                 "encryptionCertificates":[{"file":"absent.pem"}],"rootCertificates":[{"pem":\(quoted(root))}]}]}
                """
            }, files: [:])
        let error = expectSDKError(.invalidInput) { try TrustBundle(contentsOf: noFile) }
        #expect(error?.message.contains("absent.pem cannot be read") == true)
    }

    @Test("the chain goes through the bundle's intermediates to a root; without them the key is untrusted")
    func intermediates() throws {
        let root = try DSFixture.get().root
        let intermediate = try CertificateAuthority.issue(
            commonName: "Scheme Issuing CA", key: .makeP256(), role: .authority(pathLength: 0), issuer: root)
        let leaf = try CertificateAuthority.issue(
            commonName: "DS via CA", key: .makeP256(), role: .encryption, issuer: intermediate)
        let stranger = try CertificateAuthority.makeRoot(commonName: "Stranger", key: .makeP256())
        let forged = try CertificateAuthority.issue(
            commonName: "Scheme Issuing CA", key: .makeP256(), role: .authority(pathLength: 0), issuer: stranger)
        func bundle(_ intermediates: [IssuedCertificate]?) throws -> DirectoryServerReport {
            let list =
                try intermediates.map {
                    ",\"intermediateCertificates\":["
                        + (try $0.map { "{\"pem\":\(quoted(try $0.certificatePEM))}" }.joined(separator: ",")) + "]"
                } ?? ""
            let json = """
                {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
                 "encryptionCertificates":[{"pem":\(quoted(try leaf.certificatePEM))}],
                 "rootCertificates":[{"pem":\(quoted(try root.certificatePEM))}]\(list)}]}
                """
            return try #require(try TrustBundle(json: Array(json.utf8), baseDirectory: nil).evaluate().first)
        }
        let through = try bundle([intermediate])
        #expect(through.chosen?.chainsToRoot == true)
        #expect(through.chosen?.chain == ["CN=Scheme Issuing CA", "CN=Test DS Root"])
        // Without its intermediate the certificate does not chain: untrusted and not used (issue 34).
        let without = try bundle(nil)
        #expect(without.keys.first?.status == .untrusted && without.keys.first?.chain == [])
        #expect(without.chosen == nil && without.failure != nil)
        // Same name, other key: the signature does not check, so no chain, so not used.
        #expect(try bundle([forged]).keys.first?.status == .untrusted)
        #expect(try bundle([forged]).chosen == nil)
        #expect(try bundle([forged, intermediate]).chosen?.chain == ["CN=Scheme Issuing CA", "CN=Test DS Root"])
        var config = ConfigParameters()
        var server = try #require(
            try TrustBundle(
                json: Array(
                    """
                    {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
                     "encryptionCertificates":[{"pem":\(quoted(try leaf.certificatePEM))}],
                     "rootCertificates":[{"pem":\(quoted(try root.certificatePEM))}],
                     "intermediateCertificates":[{"pem":\(quoted(try intermediate.certificatePEM))}]}]}
                    """.utf8), baseDirectory: nil
            ).directoryServers.first)
        try config.addDirectoryServer(server)
        #expect(config.directoryServer(id: "A000000004") == server)
        server.intermediateCertificates = "garbage"
        #expect(server.evaluate().failure?.parameter == .directoryServer(.mastercard, .intermediateCertificates))
    }
}

@Suite("DSCERT01's day count")
struct ExpiryDayCountTests {
    func date(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test("calendar days in UTC, as the dates are printed: ending on the 7th is in 10 days on the 27th at 05:00")
    func calendarDays() throws {
        #expect(DateText.days(from: try date("2026-11-27T05:00:00Z"), to: try date("2026-12-07T00:00:00Z")) == 10)
        #expect(DateText.days(from: try date("2026-11-27T23:59:00Z"), to: try date("2026-11-28T00:01:00Z")) == 1)
        #expect(DateText.days(from: try date("2026-11-27T00:00:00Z"), to: try date("2026-11-27T23:00:00Z")) == 0)
    }
}
