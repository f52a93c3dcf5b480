import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("threeds ds check and pay --trust-bundle", .serialized)
struct DSCheckTests {
    @Test("the TestLab's PKI folder checks out: both DSs, their certificate details, the one in use; exit 0")
    func testLabFolder() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let (status, output) = try await runThreeds(["ds", "check", pki])
        #expect(status == 0, "\(output)")
        #expect(WidthTests.overflowing(output, columns: 80).isEmpty, "within 80 columns:\n\(output)")
        let chain = try #require(output.split(separator: "\n").firstIndex { $0.hasPrefix("    chain:") })
        #expect(
            output.split(separator: "\n")[chain + 1].hasPrefix("               "),
            "a long chain goes on under its value")
        for text in [
            "Directory server F055545342 (Test DS (RSA))", "Directory server F155545342 (Test DS (EC))",
            "key 1 (key ID testlab-rsa): valid  <- in use", "key:       RSA, 2048 bits",
            "key:       EC P-256, 256 bits",
            "subject:   CN=ThreeDS2 TestLab DS encryption (RSA)", "key usage: keyEncipherment, keyAgreement",
            "<- CN=ThreeDS2 TestLab DS Root (root)", "the SDK uses key 1 (key ID testlab-ec)",
        ] {
            #expect(output.contains(text) || flattened(output).contains(flattened(text)), "\(text) in:\n\(output)")
        }
        let json = try await runJSON(["ds", "check", pki, "--json"])
        #expect(json.status == 0)
        let object = try #require(json.value.objectValue)
        #expect(object["usable"] == .bool(true))
        let servers = try #require(object["directoryServers"]?.arrayValue)
        #expect(servers.compactMap { $0.objectValue?["id"]?.stringValue } == ["F055545342", "F155545342"])
        let first = try #require(servers.first?.objectValue?["certificates"]?.arrayValue?.first?.objectValue)
        #expect(first["keyType"] == .string("RSA") && first["keySize"] == .number("2048"))
        #expect(first["chainsToRoot"] == .bool(true) && first["status"] == .string("valid"))
    }

    @Test(
        "--at a day after every certificate ended: exit 1 with the reason; a bad --at or a missing bundle is a usage error"
    )
    func otherDay() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let (status, output) = try await runThreeds(["ds", "check", pki, "--at", "2099-01-01"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("on 2099-01-01T00:00:00Z") && output.contains("UNUSABLE"), "\(output)")
        #expect(output.contains("expired on"), "\(output)")
        let json = try await runJSON(["ds", "check", pki, "--at", "2099-01-01T12:00:00Z", "--json"])
        #expect(json.status == 1 && json.value.objectValue?["usable"] == .bool(false))
        let bad = try await runThreeds(["ds", "check", pki, "--at", "tomorrow"])
        #expect(bad.status == 2 && bad.output.contains("--at must be YYYY-MM-DD"), "\(bad.output)")
        let missing = try await runThreeds(["ds", "check", "\(pki)/nothing-here"])
        #expect(missing.status == 2 && missing.output.contains("does not exist"), "\(missing.output)")
    }

    @Test("a certificate ending within 30 days: exit 0 with the named warning; a rotation shows the newest in use")
    func expiringAndRotation() async throws {
        let root = try CertificateAuthority.makeRoot(commonName: "Check Root", key: .makeP256())
        let soon = try CertificateAuthority.issue(
            commonName: "Ending", key: .makeP256(), role: .encryption, issuer: root,
            notValidBefore: Date(timeIntervalSinceNow: -86400 * 300),
            notValidAfter: Date(timeIntervalSinceNow: 86400 * 9))
        let successor = try CertificateAuthority.issue(
            commonName: "Successor", key: .makeP256(), role: .encryption, issuer: root,
            notValidBefore: Date(timeIntervalSinceNow: 86400 * 3),
            notValidAfter: Date(timeIntervalSinceNow: 86400 * 700))
        let directory = scratchDirectory("ds-check")
        try Data(try soon.certificatePEM.utf8).write(to: URL(fileURLWithPath: "\(directory)/soon.pem"))
        try Data(try successor.certificatePEM.utf8).write(to: URL(fileURLWithPath: "\(directory)/next.pem"))
        try Data(try root.certificatePEM.utf8).write(to: URL(fileURLWithPath: "\(directory)/root.pem"))
        let bundle = """
            {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
             "encryptionCertificates":[{"keyID":"old","file":"soon.pem"},{"keyID":"new","file":"next.pem"}],
             "rootCertificates":[{"file":"root.pem"}]}]}
            """
        try Data(bundle.utf8).write(to: URL(fileURLWithPath: "\(directory)/trust-bundle.json"))
        let (status, output) = try await runThreeds(["ds", "check", "\(directory)/trust-bundle.json"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Directory server A000000004 (Mastercard)"), "\(output)")
        #expect(
            output.contains("warning DSCERT01:") && flattened(output).contains("a successor becomes valid on"),
            "\(output)")
        #expect(WidthTests.overflowing(output, columns: 80).isEmpty, "within 80 columns:\n\(output)")
        #expect(output.contains("key 2 (key ID new): notYetValid"), "\(output)")
        // Ten days on, the successor is in use and nothing warns.
        let day = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: 86400 * 10))
        let later = try await runThreeds(["ds", "check", directory, "--at", day])
        #expect(later.status == 0 && later.output.contains("the SDK uses key 2 (key ID new)"), "\(later.output)")
        #expect(!later.output.contains("DSCERT01"), "\(later.output)")
    }

    @Test("pay takes the TestLab's bundle; mixing it with --ds-cert or naming a DS it lacks is a usage error")
    func payWithBundle() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let base = [
            "pay", "--server", lab.baseURL.absoluteString, "--tls-root", "\(pki)/tls-root.pem", "--card",
            Scenario.frictionlessY.cardNumber, "--amount", "1999", "--currency", "978",
        ]
        for id in [TestLab.rsaDirectoryServerID, TestLab.ecDirectoryServerID] {
            let (status, output) = try await runThreeds(base + ["--ds-id", id.rawValue, "--trust-bundle", pki])
            #expect(status == 0 && output.contains("Frictionless: transStatus Y"), "\(output)")
        }
        let mixed = try await runThreeds(
            base + [
                "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--trust-bundle", pki, "--ds-cert",
                "\(pki)/ds-root.pem",
            ])
        #expect(mixed.status == 2 && mixed.output.contains("leave out --ds-cert"), "\(mixed.output)")
        let unknown = try await runThreeds(base + ["--ds-id", "A000000004", "--trust-bundle", pki])
        #expect(unknown.status == 2, "\(unknown.output)")
        #expect(unknown.output.contains("has no directory server A000000004; it lists F055545342, F155545342"))
        let neither = try await runThreeds(base + ["--ds-id", TestLab.rsaDirectoryServerID.rawValue])
        #expect(neither.status == 2 && neither.output.contains("--trust-bundle PATH"), "\(neither.output)")
    }

    @Test("paths are printed as typed or relative to the current folder, never as the SDK's full paths")
    func relativePaths() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("ds-check-paths")
        try FileManager.default.createDirectory(atPath: "\(directory)/bundle", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(pki)/ds-root.pem", toPath: "\(directory)/bundle/root.pem")
        let bundle = """
            {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
             "encryptionCertificates":[{"file":"missing.pem"}],"rootCertificates":[{"file":"root.pem"}]}]}
            """
        try Data(bundle.utf8).write(to: URL(fileURLWithPath: "\(directory)/bundle/trust-bundle.json"))
        let failed = try runIn(directory, ["ds", "check", "bundle"])
        #expect(failed.status == 1, "\(failed.output)")
        #expect(flattened(failed.output).contains("bundle/missing.pem"), "the file named: \(failed.output)")
        #expect(!failed.output.contains(directory), "no full path: \(failed.output)")
        let checked = try runIn(pki, ["ds", "check", "."])
        #expect(checked.status == 0 && checked.output.hasPrefix("Trust bundle ., on "), "\(checked.output)")
        #expect(!checked.output.contains(pki), "\(checked.output)")
        // A folder elsewhere keeps its full path: it was typed so.
        let elsewhere = try runIn(directory, ["ds", "check", pki])
        #expect(flattened(elsewhere.output).hasPrefix("Trust bundle \(pki), on "), "\(elsewhere.output)")
    }

    /// Runs `threeds` in `folder`, its output and error together.
    private func runIn(_ folder: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = threedsProcess(arguments, environment: [:])
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `threeds` and parses the last line of its output as JSON.
    private func runJSON(_ arguments: [String]) async throws -> (status: Int32, value: JSONValue) {
        let (status, output) = try await ThreedsRun(arguments, errors: .discarded).exit()
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        return (status, try JSONParser().parse(line))
    }
}
