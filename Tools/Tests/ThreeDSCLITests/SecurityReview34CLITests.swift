import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// Runs `threeds` in a child shell under a data-segment limit (`ulimit -d`, KiB) and a wall-clock limit
/// (`timeout -s KILL`), so an input that costs gigabytes or for ever fails the test instead of exhausting the machine.
/// The output ends with `EXIT=<status>` (137 when killed at the time limit). The tests give two minutes: a backstop,
/// not a speed claim (a refusal takes well under a second, also with both cores busy); the exit status and the
/// message say which way a run went.
func runThreedsLimited(_ arguments: [String], memoryKiB: Int, seconds: Int) async throws -> (
    exit: Int32, output: String
) {
    let (_, text) = try await OneShotSlots.shared.run {
        try await ThreedsRun(
            arguments, launcher: .shell("ulimit -d \(memoryKiB); timeout -s KILL \(seconds) \"$@\"; echo EXIT=$?")
        ).exit()
    }
    let status = text.components(separatedBy: "EXIT=").last.flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return (status ?? -1, text)
}

/// Bytes a terminal acts on: C0 (but the line feed), DEL, C1, and the bidi embeddings, overrides and isolates.
private func actionable(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter {
        $0 != "\n"
            && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value))
    }
}

/// A one-line HdrHistogram log entry in the plain V2 encoding (one value of 1 µs), tagged `tag`.
private func histogramLine(tag: String) -> String {
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    let payload: [UInt8] = [0x00, 0x02]
    append(UInt32(0x1c84_9313))
    append(UInt32(payload.count))
    append(UInt32(0))
    append(UInt32(3))
    append(UInt64(1))
    append(UInt64(3_600_000_000))
    append((1.0 as Double).bitPattern)
    bytes += payload
    return "Tag=\(tag),0.000,1.000,0.001,\(Data(bytes).base64EncodedString())"
}

@Suite("Issue 34: threeds against crafted bundles, logs, folders and commands")
struct SecurityReview34CLITests {
    private func quoted(_ text: String) -> String { JSONValue.string(text).serialized }

    @Test("ds check: a 1 MiB certificate file referenced 400 times is refused at once, within 1.5 GB and 60 s")
    func repeatedReferences() async throws {
        let directory = scratchDirectory("bundle-repeat")
        let root = try CertificateAuthority.makeRoot(commonName: "Root", key: .makeP256())
        let pem = try root.certificatePEM
        try String(repeating: pem, count: 1_000_000 / pem.utf8.count).write(
            toFile: "\(directory)/big.pem", atomically: true, encoding: .utf8)
        let references = Array(repeating: "{\"file\":\"big.pem\"}", count: 400).joined(separator: ",")
        try """
        {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
         "encryptionCertificates":[{"pem":\(quoted(pem))}],"rootCertificates":[\(references)]}]}
        """.write(toFile: "\(directory)/trust-bundle.json", atomically: true, encoding: .utf8)
        // Unbounded code reads 400 MB and parses 660,000 certificates (over two minutes on this machine): killed at the
        // time or the memory limit (exit 137), without the message. The bound refuses it at the first reference.
        let run = try await runThreedsLimited(["ds", "check", directory], memoryKiB: 1_500_000, seconds: 120)
        #expect(run.exit == 1, "\(run.output)")
        #expect(run.output.contains("more than 16 certificates"), "\(run.output)")
    }

    @Test("ds check: a bundle file that is a FIFO is refused at once, not waited on")
    func fifo() async throws {
        let directory = scratchDirectory("bundle-fifo")
        let root = try CertificateAuthority.makeRoot(commonName: "Root", key: .makeP256())
        try """
        {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
         "encryptionCertificates":[{"file":"pipe.pem"}],"rootCertificates":[{"pem":\(quoted(try root.certificatePEM))}]}]}
        """.write(toFile: "\(directory)/trust-bundle.json", atomically: true, encoding: .utf8)
        #expect(mkfifo("\(directory)/pipe.pem", 0o600) == 0)
        let run = try await runThreedsLimited(["ds", "check", directory], memoryKiB: 1_500_000, seconds: 120)
        #expect(run.exit == 1, "\(run.output)")
        #expect(run.output.contains("not a regular file"), "\(run.output)")
    }

    @Test("ds check: a key that does not chain to the roots is untrusted, not in use, and the exit is 1")
    func untrustedKey() async throws {
        // The bundle's path carries a bidi override: ds check's escaping must cover it (it missed bidi controls).
        let directory = scratchDirectory("bundle-rogue") + "/x\u{202E}gnp.pem"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let root = try CertificateAuthority.makeRoot(commonName: "Scheme Root", key: .makeP256())
        let rogueRoot = try CertificateAuthority.makeRoot(commonName: "Rogue \u{202E}Root", key: .makeP256())
        let rogue = try CertificateAuthority.issue(
            commonName: "Rogue DS\u{2067}", key: .makeP256(), role: .encryption, issuer: rogueRoot)
        try """
        {"format":"threeds2-trust-bundle/1","directoryServers":[{"id":"A000000004",
         "encryptionCertificates":[{"keyID":"rogue","pem":\(quoted(try rogue.certificatePEM))}],
         "rootCertificates":[{"pem":\(quoted(try root.certificatePEM))}]}]}
        """.write(toFile: "\(directory)/trust-bundle.json", atomically: true, encoding: .utf8)
        let run = try await runThreedsLimited(["ds", "check", directory], memoryKiB: 1_500_000, seconds: 120)
        #expect(run.exit == 1, "\(run.output)")
        #expect(run.output.contains("key 1 (key ID rogue): untrusted"), "\(run.output)")
        #expect(!run.output.contains("<- in use"), "\(run.output)")
        // ds check's own escaping covers the bidi controls too.
        #expect(actionable(run.output).isEmpty, "\(run.output)")
        #expect(run.output.contains("x\\u{202E}gnp.pem"), "\(run.output)")
    }

    @Test("load merge: 9,000 small lines merge as read within 600 MB; over 10,000 are refused; a Tag is escaped")
    func loadMerge() async throws {
        let directory = scratchDirectory("load-merge")
        let many = Array(repeating: histogramLine(tag: "payment"), count: 9_000).joined(separator: "\n")
        try many.write(toFile: "\(directory)/many.hlog", atomically: true, encoding: .utf8)
        let merged = try await runThreedsLimited(
            ["load", "merge", "\(directory)/many.hlog"], memoryKiB: 600_000, seconds: 120)
        #expect(merged.exit == 0, "\(merged.output)")
        #expect(merged.output.contains("payment"), "\(merged.output)")
        let tooMany = Array(repeating: histogramLine(tag: "payment"), count: 10_001).joined(separator: "\n")
        try tooMany.write(toFile: "\(directory)/too-many.hlog", atomically: true, encoding: .utf8)
        let refused = try await runThreedsLimited(
            ["load", "merge", "\(directory)/too-many.hlog"], memoryKiB: 600_000, seconds: 120)
        #expect(
            refused.exit == 1 && refused.output.contains("more than 10000 interval histograms"), "\(refused.output)")
        try histogramLine(tag: "pay\u{1B}]0;owned\u{07}\u{1B}[2J\u{202E}").write(
            toFile: "\(directory)/tag.hlog", atomically: true, encoding: .utf8)
        let tagged = try await runThreedsLimited(
            ["load", "merge", "\(directory)/tag.hlog"], memoryKiB: 600_000, seconds: 120)
        #expect(tagged.exit == 0, "\(tagged.output)")
        #expect(actionable(tagged.output).isEmpty, "\(tagged.output)")
        #expect(tagged.output.contains("pay\\u{1B}]0;owned"), "\(tagged.output)")
    }

    @Test("pay: --save-messages into a folder others can write to is refused; a new one is made 0700")
    func saveFolder() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let open = scratchDirectory("save-open")
        #expect(chmod(open, 0o777) == 0)
        let arguments = [
            "pay", "--server", "https://127.0.0.1:9", "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert",
            "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem",
            "--card", Scenario.text.cardNumber, "--amount", "1999", "--currency", "978", "--json", "--timeout", "5",
        ]
        let refused = try await runThreeds(arguments + ["--save-messages", open])
        #expect(refused.status != 0 && refused.output.contains("group or others can write to it"), "\(refused.output)")
        let fresh = scratchDirectory("save-new") + "/nested/messages"
        _ = try await runThreeds(arguments + ["--save-messages", fresh])
        let mode = try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("pay --ui-customization: a 1 GB sparse file is refused at its size within 300 MB, not read whole")
    func customizationBound() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("custom-sparse")
        let path = "\(directory)/huge.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{}".utf8)))
        #expect(truncate(path, 1 << 30) == 0)
        let run = try await runThreedsLimited(
            [
                "pay", "--server", "https://127.0.0.1:9", "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert",
                "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem", "--tls-root",
                "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999", "--currency", "978",
                "--ui-customization", path,
            ], memoryKiB: 300_000, seconds: 120)
        #expect(run.output.contains("larger than 65536 bytes"), "\(run.output)")
    }

    @Test("--requestor-exec starts its command with standard input, output and error only")
    func noInheritedDescriptors() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("requestor-fds")
        let result = try await runThreeds([
            "pay", "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert", "\(pki)/ds-encryption-rsa.pem",
            "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem", "--card",
            Scenario.text.cardNumber, "--amount", "1999", "--currency", "978", "--json",
            "--requestor-exec", "ls -l /proc/self/fd > \(directory)/fds; exit 3", "--requestor-timeout", "60",
        ])
        #expect(result.status != 0)
        // `ls` lists its own descriptors: 0, 1, 2, the folder it reads, and whatever it inherited.
        let text = try String(contentsOfFile: "\(directory)/fds", encoding: .utf8)
        let inherited = text.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.components(separatedBy: " -> ")
            guard parts.count == 2, !parts[1].hasSuffix("/fd") else { return nil }
            return parts[0].split(separator: " ").last.flatMap { Int($0) }
        }.sorted()
        #expect(inherited == [0, 1, 2], "inherited: \(text)")
    }

    @Test("the TestLab's --pki-dir is 0700 from its creation, whatever the umask")
    func pkiDirectory() async throws {
        let directory = URL(fileURLWithPath: scratchDirectory("pki-dir")).appendingPathComponent("new/pki")
        let previous = umask(0)
        defer { umask(previous) }
        let lab = try await TestLab.start(options: TestLabOptions(pkiDirectory: directory))
        for path in [directory.path, directory.deletingLastPathComponent().path] {
            let mode = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
        await lab.stop()
    }
}
