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
