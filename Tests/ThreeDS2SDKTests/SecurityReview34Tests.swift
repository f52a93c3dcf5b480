import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

// Issue 34 (security review, third pass): the crafted trust bundles, customizations and directory-server keys that
// broke the SDK, each held to the rule that now refuses or bounds it.

private func quoted(_ text: String) -> String { JSONValue.string(text).serialized }

/// A bundle folder holding `json` (the fixture root substituted for `ROOT`) and the given files.
private func bundleFolder(_ json: String, files: [String: String] = [:]) throws -> URL {
    let directory = URL(fileURLWithPath: try temporaryDirectory()).appendingPathComponent("bundle")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
    let root = quoted(try DSFixture.get().root.certificatePEM)
    try Data(json.replacingOccurrences(of: "ROOT", with: root).utf8).write(
        to: directory.appendingPathComponent(TrustBundle.fileName))
    return directory
}

/// One directory server whose encryption certificates are `keys` (JSON array members) and roots the fixture's.
private func oneServer(_ keys: String, extra: String = "", id: String = "A000000004") -> String {
    """
    {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"\(id)"\(extra),
     "encryptionCertificates":[\(keys)],"rootCertificates":[{"pem":ROOT}]}]}
    """
}

/// A certificate issued by the fixture root with exactly these extensions.
private func custom(_ extensions: Certificate.Extensions, name: String = "Crafted") throws -> String {
    let root = try DSFixture.get().root
    let key = LabPrivateKey.makeP256()
    let certificate = try Certificate(
        version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.certificatePublicKey,
        notValidBefore: Date(timeIntervalSinceNow: -3600), notValidAfter: Date(timeIntervalSinceNow: 86400 * 300),
        issuer: root.certificate.subject, subject: try DistinguishedName { CommonName(name) },
        signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: root.privateKey.certificateKey)
    return try certificate.serializeAsPEM().pemString
}

@Suite("Issue 34: bounded trust bundles")
struct TrustBundleBoundsTests {
    @Test("a bundle referencing one file many times is refused at the total budget; the file is read once")
    func repeatedReferences() throws {
        // The reported bundle: one file near the 1 MiB per-file bound, referenced again and again.
        let pem = try DSFixture.get().root.certificatePEM
        let big = String(repeating: pem, count: (TrustBundle.maxFileBytes - 1) / pem.utf8.count)
        let references = Array(repeating: "{\"file\":\"big.pem\"}", count: 100).joined(separator: ",")
        let json = """
            {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
             "encryptionCertificates":[{"pem":ROOT}],"rootCertificates":[\(references)]}]}
            """
        let directory = try bundleFolder(json, files: ["big.pem": big])
        let clock = ContinuousClock()
        let started = clock.now
        let error = expectSDKError(.malformedTrustBundle) { try TrustBundle(contentsOf: directory) }
        // Refused on the certificate count of the first reference (1,400-odd PEM blocks), well before any budget.
        #expect(
            error?.message.contains("more than \(TrustBundle.maxCertificatesPerDirectoryServer) certificates") == true)
        // The message says where it stopped; the clock is only a backstop against reading the 1 MiB file a hundred
        // times over (it claims no speed, and holds with both cores busy).
        #expect(clock.now - started < .seconds(60))
    }

    @Test("the total byte budget counts every use of a file, not each file once")
    func totalBudget() throws {
        // One certificate padded with PEM-legal text to 900 KB: five references are 4.5 MB of certificate text.
        let pem = try DSFixture.get().root.certificatePEM
        let padded = String(repeating: "# padding\n", count: 90_000) + pem
        let references = Array(repeating: "{\"file\":\"padded.pem\"}", count: 5).joined(separator: ",")
        let json = """
            {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
             "encryptionCertificates":[{"pem":ROOT}],"rootCertificates":[\(references)]}]}
            """
        let error = expectSDKError(.malformedTrustBundle) {
            try TrustBundle(contentsOf: try bundleFolder(json, files: ["padded.pem": padded]))
        }
        #expect(error?.message.contains("more than \(TrustBundle.maxTotalBytes) bytes") == true)
        // Four uses fit: the bound is the stated one, not lower.
        let four = json.replacingOccurrences(
            of: references + "]",
            with: Array(repeating: "{\"file\":\"padded.pem\"}", count: 4).joined(separator: ",") + "]")
        #expect(throws: Never.self) {
            try TrustBundle(contentsOf: try bundleFolder(four, files: ["padded.pem": padded]))
        }
    }

    @Test("more certificates than the per-directory-server cap are refused")
    func certificateCap() throws {
        let pem = quoted(try DSFixture.get().ecEncryption.certificatePEM)
        let keys = Array(repeating: "{\"pem\":\(pem)}", count: TrustBundle.maxCertificatesPerDirectoryServer)
            .joined(separator: ",")
        let error = expectSDKError(.malformedTrustBundle) {
            try TrustBundle(
                json: Array(oneServer(keys).replacingOccurrences(of: "ROOT", with: pem).utf8), baseDirectory: nil)
        }
        #expect(error?.message.contains("more than 16 certificates") == true)
    }

    @Test("a file reference through a symbolic link out of the bundle's folder is refused; one inside is fine")
    func symlinks() throws {
        let outside = URL(fileURLWithPath: try temporaryDirectory()).appendingPathComponent("secret.pem")
        try Data(try DSFixture.get().ecEncryption.certificatePEM.utf8).write(to: outside)
        let directory = try bundleFolder(oneServer("{\"file\":\"link.pem\"}"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("link.pem").path, withDestinationPath: outside.path)
        let error = expectSDKError(.malformedTrustBundle) { try TrustBundle(contentsOf: directory) }
        #expect(error?.message.contains("outside the bundle's folder") == true)
        let inside = try bundleFolder(
            oneServer("{\"file\":\"link.pem\"}"), files: ["real.pem": try DSFixture.get().ecEncryption.certificatePEM])
        try FileManager.default.createSymbolicLink(
            atPath: inside.appendingPathComponent("link.pem").path, withDestinationPath: "real.pem")
        #expect(throws: Never.self) { try TrustBundle(contentsOf: inside) }
    }

    @Test("a FIFO named by a bundle is refused at once, not waited on")
    func fifo() throws {
        let directory = try bundleFolder(oneServer("{\"file\":\"pipe.pem\"}"))
        #expect(mkfifo(directory.appendingPathComponent("pipe.pem").path, 0o600) == 0)
        // Code that opens the FIFO blocks here for ever: run the read on a thread; the minute is only a backstop
        // that tells "refused" from "blocked for ever" (a refusal takes milliseconds, also with both cores busy).
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<ThreeDS2Error?>(nil)
        Thread {
            do {
                _ = try TrustBundle(contentsOf: directory)
            } catch {
                outcome.withLock { $0 = error as? ThreeDS2Error }
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("reading a bundle that names a FIFO blocked")
            return
        }
        #expect(outcome.withLock { $0 }?.message.contains("not a regular file") == true)
    }

    @Test("directory-server IDs differing only in case are one server listed twice")
    func caseInsensitiveIDs() throws {
        let pem = quoted(try DSFixture.get().ecEncryption.certificatePEM)
        let json = """
            {"format":"threeds2-trust-bundle/1","directoryServers":[
             {"id":"A00000000F","encryptionCertificates":[{"pem":\(pem)}],"rootCertificates":[{"pem":ROOT}]},
             {"id":"a00000000f","encryptionCertificates":[{"pem":\(pem)}],"rootCertificates":[{"pem":ROOT}]}]}
            """
        let error = expectSDKError(.malformedTrustBundle) { try TrustBundle(contentsOf: try bundleFolder(json)) }
        #expect(error?.message.contains("listed twice") == true)
        var config = ConfigParameters()
        try config.addDirectoryServer(
            DirectoryServer(
                id: "A00000000F", encryptionKey: try DSFixture.get().ecEncryption.certificatePEM, rootCertificates: ""))
        #expect(throws: ThreeDS2Error.self) {
            try config.addDirectoryServer(
                DirectoryServer(
                    id: "a00000000f", encryptionKey: try DSFixture.get().ecEncryption.certificatePEM,
                    rootCertificates: ""))
        }
    }

    @Test(
        "a bundle's DS name or key ID with a terminal escape or a bidi override is refused; Arabic, Hebrew, LRM and RLM are not",
        arguments: [
            ("\u{1B}]0;owned\u{07}Visa", false), ("Visa\u{1B}[2J", false), ("Visa \u{202E}drac", false),
            ("Visa\u{2067}x\u{2069}", false), ("Visa\u{85}", false), ("Visa\nSecure", false),
            ("مدى", true), ("ישראכרט", true), ("\u{200F}ישראכרט\u{200E} Visa", true),
        ])
    func displayText(text: String, allowed: Bool) throws {
        let pem = quoted(try DSFixture.get().ecEncryption.certificatePEM)
        for json in [
            oneServer("{\"pem\":\(pem)}", extra: ",\"name\":\(quoted(text))"),
            oneServer("{\"keyID\":\(quoted(text)),\"pem\":\(pem)}"),
        ] {
            let directory = try bundleFolder(json)
            if allowed {
                let bundle = try TrustBundle(contentsOf: directory)
                #expect(
                    bundle.directoryServers.first?.displayName == text || bundle.directoryServers.first?.keyID == text)
            } else {
                let error = expectSDKError(.malformedTrustBundle) { try TrustBundle(contentsOf: directory) }
                #expect(error?.message.contains("control character") == true)
            }
        }
        var config = ConfigParameters()
        let server = DirectoryServer(
            id: "A000000004", encryptionKey: try DSFixture.get().ecEncryption.certificatePEM, keyID: text,
            rootCertificates: "", displayName: text)
        if allowed {
            try config.addDirectoryServer(server)
        } else {
            _ = expectSDKError(.invalidInput) { try config.addDirectoryServer(server) }
        }
    }
}

@Suite("Issue 34: directory-server keys chosen only if trusted")
struct TrustedKeyChoiceTests {
    @Test("a newer certificate that does not chain to the roots is untrusted and not used; the chaining one is")
    func rogueRotation() throws {
        let ds = try DSFixture.get()
        let rogueRoot = try CertificateAuthority.makeRoot(commonName: "Rogue", key: .makeP256())
        let rogue = try CertificateAuthority.issue(
            commonName: "Rogue DS", key: .makeP256(), role: .encryption, issuer: rogueRoot,
            notValidBefore: Date(timeIntervalSinceNow: -60))
        let server = DirectoryServer(
            id: "A000000004",
            encryptionKeys: [
                .init(key: try ds.ecEncryption.certificatePEM, keyID: "genuine"),
                .init(key: try rogue.certificatePEM, keyID: "rogue"),
            ], rootCertificates: try ds.root.certificatePEM)
        let report = server.evaluate()
        #expect(report.chosen?.keyID == "genuine")
        #expect(report.keys[1].status == .untrusted)
        #expect(report.keys[1].problem?.contains("does not chain") == true)
        #expect(report.failure == nil)
        // Alone, the rogue certificate leaves no usable key: initialize and `ds check` fail.
        let alone = DirectoryServer(
            id: "A000000004", encryptionKeys: [.init(key: try rogue.certificatePEM, keyID: "rogue")],
            rootCertificates: try ds.root.certificatePEM)
        #expect(alone.evaluate().chosen == nil && alone.evaluate().failure != nil)
        // The explicit per-DS opt-out restores the old choice, and survives the configuration store and a bundle.
        var optedOut = alone
        optedOut.allowsUnchainedEncryptionCertificates = true
        #expect(optedOut.evaluate().chosen?.keyID == "rogue" && optedOut.evaluate().chosen?.status == .untrusted)
        var both = server
        both.allowsUnchainedEncryptionCertificates = true
        #expect(both.evaluate().chosen?.keyID == "genuine")
        var config = ConfigParameters()
        try config.addDirectoryServer(optedOut)
        #expect(config.directoryServer(id: "A000000004")?.allowsUnchainedEncryptionCertificates == true)
        let json = oneServer(
            "{\"keyID\":\"rogue\",\"pem\":\(quoted(try rogue.certificatePEM))}",
            extra: ",\"allowUnchainedEncryptionCertificates\":true")
        let bundle = try TrustBundle(
            json: Array(json.replacingOccurrences(of: "ROOT", with: quoted(try ds.root.certificatePEM)).utf8),
            baseDirectory: nil)
        #expect(bundle.evaluate().first?.chosen?.keyID == "rogue")
    }

    @Test("a malformed critical key usage is unreadable, not \"not stated\"")
    func malformedKeyUsage() throws {
        let pem = try custom(
            try Certificate.Extensions {
                Certificate.Extension(oid: .X509ExtensionID.keyUsage, critical: true, value: [0x04, 0x00])
            })
        let report = DirectoryServer(
            id: "A000000004", encryptionKey: pem, rootCertificates: try DSFixture.get().root.certificatePEM
        ).evaluate()
        #expect(report.keys.first?.status == .unreadable)
        #expect(report.keys.first?.problem?.contains("malformed key usage") == true)
        #expect(report.chosen == nil)
    }

    @Test("a CA certificate, or one whose extended key usage is TLS only, is not an encryption key")
    func purposes() throws {
        let ca = try custom(
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyEncipherment: true, keyAgreement: true, keyCertSign: true))
            })
        let tls = try custom(
            try Certificate.Extensions {
                Critical(KeyUsage(keyEncipherment: true, keyAgreement: true))
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
            })
        let anyPurpose = try custom(
            try Certificate.Extensions {
                Critical(KeyUsage(keyEncipherment: true, keyAgreement: true))
                try ExtendedKeyUsage([.serverAuth, .any])
            })
        for (pem, usable, words) in [
            (ca, false, "CA certificate"), (tls, false, "extended key usage"), (anyPurpose, true, ""),
        ] {
            let report = DirectoryServer(
                id: "A000000004", encryptionKey: pem, rootCertificates: try DSFixture.get().root.certificatePEM
            ).evaluate()
            #expect((report.chosen != nil) == usable)
            if !usable {
                #expect(report.keys.first?.status == .wrongKeyUsage)
                #expect(report.keys.first?.problem?.contains(words) == true)
            }
        }
    }
}

@Suite("Issue 34: app-supplied customization text and bounds")
struct CustomizationInputTests {
    @Test(
        "header and button texts and font names refuse controls and bidi overrides; Arabic, Hebrew, LRM and RLM pass",
        arguments: [
            ("\u{1B}]52;c;cm0gLXJm\u{07}Pay", false), ("Pay\u{1B}[2J", false), ("Pay \u{202D}x", false),
            ("Pay\u{9D}", false), ("Pay\u{7F}", false), ("Pay\u{2068}x\u{2069}", false),
            ("الدفع الآمن", true), ("תשלום מאובטח", true), ("\u{200F}תשלום\u{200E} 3DS", true),
        ])
    func texts(text: String, allowed: Bool) throws {
        var toolbar = ToolbarCustomization()
        var style = TextStyle()
        if allowed {
            try toolbar.setHeaderText(text)
            try toolbar.setButtonText(text)
            try style.setFontName(text)
            #expect(toolbar.headerText == text)
        } else {
            _ = expectSDKError(.invalidInput) { try toolbar.setHeaderText(text) }
            _ = expectSDKError(.invalidInput) { try toolbar.setButtonText(text) }
            _ = expectSDKError(.invalidInput) { try style.setFontName(text) }
            let json = "{\"default\":{\"toolbar\":{\"headerText\":\(quoted(text))}}}"
            _ = expectSDKError(.invalidInput) { try UiCustomization.appearances(fromJSON: Array(json.utf8)) }
        }
    }

    @Test("colours are hex digits only, and sizes and texts have an upper bound")
    func bounds() throws {
        for colour in ["#+FFFFF", "#-FFFFF", "#+FFFFFFF", "# FFFFF"] {
            _ = expectSDKError(.invalidInput) { try HexColor(colour) }
        }
        #expect(try HexColor("#aBcDeF").description == "#ABCDEF")
        var style = TextStyle()
        _ = expectSDKError(.invalidInput) { try style.setFontSize(1_000_000) }
        try style.setFontSize(1000)
        var toolbar = ToolbarCustomization()
        _ = expectSDKError(.invalidInput) { try toolbar.setHeaderText(String(repeating: "x", count: 257)) }
        try toolbar.setHeaderText(String(repeating: "x", count: 256))
        var button = ButtonCustomization()
        _ = expectSDKError(.invalidInput) { try button.setCornerRadius(Int.max) }
    }

    @Test("a customization file is bounded before reading: a 1 GB sparse file costs 64 KiB, a FIFO is refused")
    func fileBound() throws {
        let directory = URL(fileURLWithPath: try temporaryDirectory())
        let sparse = directory.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: Data("{}".utf8)))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let error = expectSDKError(.invalidInput) { try UiCustomization.appearances(contentsOf: sparse) }
        #expect(error?.message.contains("larger than \(UiCustomization.maxJSONBytes) bytes") == true)
        let fifo = directory.appendingPathComponent("pipe.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let refused = expectSDKError(.invalidInput) { try UiCustomization.appearances(contentsOf: fifo) }
        #expect(refused?.message.contains("not a regular file") == true)
    }
}
