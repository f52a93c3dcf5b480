import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// `threeds conform` against an ACS at an address no loopback rule covers (issue 42): the audit reads the SDK's own
/// trace of each challenge, so no channel key has to leave the SDK and a real ACS can be audited.
@Suite("threeds conform off loopback: audited without a channel key")
struct ConformOffLoopbackTests {
    /// The worked example's plan: a text card (right, wrong, resend, cancel), an out-of-band card, a frictionless one.
    static var plan: String { ReadmeCommands.root.appendingPathComponent("Tools/scripts/conform-plan.json").path }

    /// What a passing run of the worked example's plan must show, and that no channel key was written.
    static func expectConformant(_ run: (status: Int32, output: String), output: String) throws {
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("loopback"), "\(run.output)")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: output + "/conform.json")))
        let report = try #require(
            try JSONParser(limits: .init(maxBytes: 1 << 24, maxDepth: 16)).parse(bytes).objectValue)
        #expect(report["broken"] == .bool(false), "\(report.serialized)")
        let checks = (report["cases"]?.arrayValue ?? []).flatMap { $0.objectValue?["checks"]?.arrayValue ?? [] }
        // Every CRes was audited: the text card's right answer alone shows two screens and the final CRes.
        #expect(checks.filter { $0.objectValue?["name"]?.stringValue?.hasPrefix("CRes ") == true }.count >= 6)
        let saved = try FileManager.default.subpathsOfDirectory(atPath: output + "/messages")
        #expect(saved.contains { $0.hasSuffix("cres-2.jwe") }, "\(saved)")
        // No channel key left the SDK: none saved, none asked for.
        #expect(!saved.contains { $0.hasSuffix("keys.json") }, "\(saved)")
        // The results leg was asked at the same address: every challenge case has the RReq's result, none pending.
        let results = (report["cases"]?.arrayValue ?? []).compactMap { $0.objectValue?["result"]?.stringValue }
        #expect(results.count >= 2, "\(report.serialized)")
        #expect(results.allSatisfy { $0.hasPrefix("Result (") && $0.contains("transStatus") }, "\(results)")
    }

    @Test("a conformant TestLab ACS at 127.0.0.2 passes, no channel key exported")
    func secondLoopbackAddress() async throws {
        let directory = scratchDirectory("conform-127-0-0-2")
        let lab = try await TestLab.start(
            options: TestLabOptions(host: "127.0.0.2", pkiDirectory: URL(fileURLWithPath: directory + "/pki")))
        defer { Task { await lab.stop() } }
        #expect(lab.baseURL.host == "127.0.0.2")
        let output = directory + "/report"
        let run = try await runThreeds(
            ConformTests.command(lab, directory + "/pki", plan: Self.plan, output: output))
        try Self.expectConformant(run, output: output)
    }

    /// The script run inside the namespace: a veth pair with an address of 10.213.0.0/30 on each end, the lab on
    /// one of them, then `conform` against it. `$1` is the `threeds` binary.
    static func namespaceScript(directory: String) -> String {
        """
        set -e
        ip link set lo up
        ip link add c42a type veth peer name c42b
        ip addr add 10.213.0.1/30 dev c42a
        ip addr add 10.213.0.2/30 dev c42b
        ip link set c42a up
        ip link set c42b up
        cd '\(directory)'
        mkfifo lab.out
        "$1" testlab --host 10.213.0.1 --port 8443 --pki-dir pki > lab.out 2>&1 &
        lab=$!
        trap 'kill $lab 2>/dev/null; wait $lab 2>/dev/null || true' EXIT
        exec 3< lab.out
        while IFS= read -r line <&3; do
            echo "lab: $line"
            case "$line" in *"Press Ctrl-C"*) break ;; esac
        done
        cat <&3 > lab.log &
        set +e
        "$1" conform --server https://10.213.0.1:8443 --ds-id \(TestLab.rsaDirectoryServerID.rawValue) \\
            --trust-bundle pki --tls-root pki/tls-root.pem --plan '\(plan)' --output report
        echo "CONFORM-EXIT=$?"
        """
    }

    @Test("a conformant TestLab ACS in a network namespace of the test's own (10.213.0.1) passes, no key exported")
    func networkNamespace() async throws {
        let directory = scratchDirectory("conform-netns")
        let script = directory + "/netns.sh"
        try Data(Self.namespaceScript(directory: directory).utf8).write(to: URL(fileURLWithPath: script))
        let launcher: String
        let name = "threeds-conform-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        if getuid() == 0 {
            // As root (CI): a named namespace, deleted after.
            launcher = "ip netns add \(name) && ip netns exec \(name) sh '\(script)' \"$1\"; ip netns del \(name)"
        } else {
            // Anyone else: a namespace of a user namespace of one's own, gone with its last process.
            launcher = "unshare --user --map-root-user --net sh '\(script)' \"$1\""
        }
        let (_, text) = try await ThreedsRun([], launcher: .shell(launcher)).exit()
        let status = text.components(separatedBy: "CONFORM-EXIT=").last.flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try Self.expectConformant((status ?? -1, text), output: directory + "/report")
        if getuid() == 0 {
            let (_, left) = try await ThreedsRun([], launcher: .shell("ip netns list")).exit()
            #expect(!left.contains(name), "the namespace was not removed: \(left)")
        }
    }
}
