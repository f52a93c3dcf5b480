import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
import ThreeDS2SDKTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `threeds testlab --split-port`: the Split-SDK Server as a command of its own, beside the TestLab whose directory
/// server registers it; the merchant's API key in the PKI folder for the merchant's backend, readable by its owner
/// only, and gone when the command stops.
@Suite("threeds testlab --split-port: the Split-SDK Server as a command")
struct TestLabSplitCommandTests {
    @Test("usage errors: each option without the other, a port out of range, an origin that is not one (exit 2)")
    func usageErrors() async throws {
        for (arguments, said) in [
            (["--split-port", "0"], "--split-port needs --merchant-origin"),
            (["--merchant-origin", "https://shop.example"], "--merchant-origin goes with --split-port"),
            (
                ["--split-port", "70000", "--merchant-origin", "https://shop.example"],
                "--split-port must be 0 to 65535"
            ),
            (
                ["--split-port", "0", "--merchant-origin", "https://shop.example/pay"],
                "--merchant-origin takes an origin"
            ),
            (["--split-port", "0", "--merchant-origin", "shop.example"], "--merchant-origin takes an origin"),
            (["--split-port", "0", "--merchant-origin", "https://Shop.example/"], "--merchant-origin takes an origin"),
        ] {
            try await SplitDemoTests.expectRefused(["testlab", "--port", "0"] + arguments, saying: said)
        }
    }

    @Test("the server answers the merchant with the key from the PKI folder (0600), refuses another; SIGINT ends it")
    func runsTheServer() async throws {
        let pki = scratchDirectory("testlab-split") + "/pki"
        let (process, output) = try SplitDemoTests.launch(
            [
                "testlab", "--port", "0", "--http", "--pki-dir", pki, "--split-port", "0", "--merchant-origin",
                "http://127.0.0.2:7000",
            ], columns: 200)
        defer { if process.isRunning { process.terminate() } }
        let line = try await output.wait(for: "Split-SDK Server on http://127\\.0\\.0\\.1:[0-9]+")
        let server = String(line.dropFirst("Split-SDK Server on ".count))
        _ = try await output.wait(for: "Press Ctrl-C to stop")
        let keyFile = pki + "/split-merchant-api-key"
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count >= 16)
        let body: JSONObject = [
            "messageVersion": .string("2.3.1"), "directoryServerID": .string("F055545342"),
        ]
        let created = try await Self.post(server + "/merchant/v1/sessions", key: key, body)
        #expect(created.status == .created)
        let answer = try JSONParser().parse(created.body).objectValue
        #expect(answer?["clientURL"]?.stringValue == server + "/client/v1/frame.html")
        #expect(
            try await Self.post(server + "/merchant/v1/sessions", key: "wrong-key-wrong-key", body).status
                == .unauthorized)
        var frame = HTTPClientRequest(url: server + "/client/v1/frame.html")
        frame.method = .GET
        let served = try await HTTPClient.shared.execute(frame, timeout: .seconds(60))
        #expect(served.status == .ok)
        #expect(
            served.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors http://127.0.0.2:7000")
                == true)
        kill(process.processIdentifier, SIGINT)
        try await SplitDemoTests.awaitExit(process)
        #expect(!process.isRunning, "\(output.printed)")
        if !process.isRunning { #expect(process.terminationStatus == 0, "\(output.printed)") }
        #expect(!FileManager.default.fileExists(atPath: keyFile), "the key file outlived the server")
        #expect(!output.printed.contains(key), "the key was printed")
    }

    @Test(
        "threeds load --split-server: 12 payments through the lab's Split-SDK Server, every phase timed; a wrong key fails"
    )
    func loadRun() async throws {
        let folder = scratchDirectory("testlab-split-load")
        let pki = folder + "/pki"
        let (lab, output) = try SplitDemoTests.launch(
            [
                "testlab", "--port", "0", "--http", "--pki-dir", pki, "--split-port", "0", "--merchant-origin",
                "https://shop.example",
            ], columns: 200)
        defer { if lab.isRunning { lab.terminate() } }
        let labLine = try await output.wait(for: "TestLab listening on http://127\\.0\\.0\\.1:[0-9]+")
        let labURL = String(labLine.dropFirst("TestLab listening on ".count))
        let splitLine = try await output.wait(for: "Split-SDK Server on http://127\\.0\\.0\\.1:[0-9]+")
        let server = String(splitLine.dropFirst("Split-SDK Server on ".count))
        _ = try await output.wait(for: "Press Ctrl-C to stop")
        let answers = folder + "/answers.json"
        try #"[{"action":"submit","text":"123456"}]"#.write(toFile: answers, atomically: true, encoding: .utf8)
        let histograms = folder + "/split.hlog"
        func load(keyFile: String, count: Int, extra: [String] = []) async throws -> (Int32, String) {
            let (run, printed) = try SplitDemoTests.launch(
                [
                    "load", "--server", labURL, "--allow-http", "--ds-id", "F055545342", "--card",
                    "4000000000002000", "--amount", "1999", "--currency", "978", "--answers", answers,
                    "--split-server", server, "--split-api-key-file", keyFile, "--count", "\(count)",
                    "--concurrency", "4", "--json",
                ] + extra)
            try await SplitDemoTests.awaitExit(run)
            if run.isRunning {
                run.terminate()
                run.waitUntilExit()
            }
            return (run.terminationStatus, printed.printed)
        }
        let (status, printed) = try await load(
            keyFile: pki + "/split-merchant-api-key", count: 12, extra: ["--histogram-log", histograms])
        #expect(status == 0, "\(printed)")
        let json = printed.split(separator: "\n").first { $0.hasPrefix("{") } ?? ""
        let report = try JSONParser().parse(Array(json.utf8)).objectValue
        #expect(report?["outcomes"]?.objectValue?["completed Y"] == .number("12"), "\(printed)")
        // The 3DS Server's result, asked after each challenge as for the Default-SDK.
        #expect(report?["results"]?.objectValue?["RReq Y"] == .number("12"), "\(printed)")
        let log = try String(contentsOfFile: histograms, encoding: .utf8)
        for phase in ["payment", "server", "exchange", "challenge", "results"] {
            #expect(log.contains("Tag=\(phase),"), "no \(phase) histogram in the log")
        }
        let wrongKey = folder + "/wrong-key"
        try "not-the-merchant-key-0000\n".write(toFile: wrongKey, atomically: true, encoding: .utf8)
        let (refused, said) = try await load(keyFile: wrongKey, count: 2)
        #expect(refused == 1, "\(said)")
        #expect(said.contains("HTTP 401"), "\(said)")
        kill(lab.processIdentifier, SIGINT)
        try await SplitDemoTests.awaitExit(lab)
    }

    @Test("threeds load: --split-server without its key file, or not an address, is a usage error (exit 2)")
    func loadUsageErrors() async throws {
        let common = [
            "load", "--server", "http://127.0.0.1:9", "--allow-http", "--ds-id", "F055545342", "--card",
            "4000000000002000", "--amount", "1999", "--currency", "978",
        ]
        try await SplitDemoTests.expectRefused(
            common + ["--split-server", "http://127.0.0.1:9"],
            saying: "--split-server and --split-api-key-file go together")
        try await SplitDemoTests.expectRefused(
            common + ["--split-server", "ftp://x", "--split-api-key-file", "/nonexistent"],
            saying: "--split-server must be an http or https address")
    }

    static func post(_ url: String, key: String, _ body: JSONObject) async throws -> (
        status: HTTPResponseStatus, body: [UInt8]
    ) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status, Array(bytes.readableBytesView))
    }
}
