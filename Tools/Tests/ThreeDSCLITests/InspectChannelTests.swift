import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// `threeds pay --save-transaction-keys` and `threeds inspect creq|cres` on what the TestLab ACS captured.
@Suite("threeds inspect creq and cres")
struct InspectChannelTests {
    struct Capture {
        let keys: String
        let requests: [String]
        let responses: [String]
        let directory: String
    }

    /// One text challenge (a wrong code, then the right one) with its key saved, and the bodies the ACS captured.
    func makeCapture() async throws -> Capture {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("inspect-channel")
        let answers = "\(directory)/answers.json"
        try Data(#"[{"action":"submit","text":"000000"},{"action":"submit","text":"123456"}]"#.utf8)
            .write(to: URL(fileURLWithPath: answers))
        let keys = "\(directory)/keys-\(UUID().uuidString).json"
        let result = try await runThreeds([
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999",
            "--currency", "978", "--ui", "auto", "--answers", answers, "--save-transaction-keys", keys,
            "--message-version", "2.3.1",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("anyone with the file can decrypt"), "the warning is shown")
        let attributes = try FileManager.default.attributesOfItem(atPath: keys)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "the key file is private")
        let saved = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: keys))))
        let acsTransID = try #require(saved.objectValue?["acsTransID"]?.stringValue)
        let record = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(record.capturedRequests.count == 3 && record.capturedResponses.count == 3)
        return Capture(
            keys: keys, requests: record.capturedRequests, responses: record.capturedResponses, directory: directory)
    }

    func file(_ text: String, in directory: String) throws -> String {
        let path = "\(directory)/\(UUID().uuidString).txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("every captured CReq and CRes decrypts with the saved key and passes the checks")
    func valid() async throws {
        let capture = try await makeCapture()
        let first = try await runThreeds([
            "inspect", "creq", try file(capture.requests[0], in: capture.directory), "--transaction-keys", capture.keys,
        ])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains(#""sdkCounterStoA": "000""#) && first.output.contains("Verdict: VALID"))
        // A later CReq, checked against the CRes it answers; pasted as JSON with line breaks inside the token.
        let split = capture.requests[1].enumerated().map { $0.offset % 60 == 59 ? "\($0.element)\n" : "\($0.element)" }
        let pasted = "{\"creq\": \"\(split.joined())\"}"
        let second = try await runThreeds([
            "inspect", "creq", try file(pasted, in: capture.directory), "--transaction-keys", capture.keys,
            "--answering", try file(capture.responses[0], in: capture.directory),
        ])
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains(#""challengeDataEntry": "000000""#))
        for (index, response) in capture.responses.enumerated() {
            let result = try await runThreeds(
                [
                    "inspect", "cres", "-", "--transaction-keys", capture.keys,
                ], input: response)
            #expect(result.status == 0, "CRes \(index): \(result.output)")
            #expect(result.output.contains(index == 2 ? "final CRes, transStatus Y" : "a challenge screen"))
        }
    }

    @Test("tampered, mismatched or unpaired input is INVALID with the reason; a bad key file is a usage error")
    func invalid() async throws {
        let capture = try await makeCapture()
        let other = try await makeCapture()
        var tampered = Array(capture.responses[0])
        let middle = tampered.count / 2
        tampered[middle] = tampered[middle] == "A" ? "B" : "A"
        let cases: [([String], String?, Int32, String)] = [
            (["cres", "-", "--transaction-keys", capture.keys], String(tampered), 1, "does not decrypt"),
            (["cres", "-", "--transaction-keys", other.keys], capture.responses[0], 1, "does not decrypt"),
            // A128CBC-HS256 keys both directions alike: a CRes decrypts as a CReq, and its messageType gives it away.
            (["creq", "-", "--transaction-keys", capture.keys], capture.responses[0], 1, #"messageType is "CRes""#),
            (["cres", "-", "--transaction-keys", capture.keys, "--counter", "2"], capture.responses[0], 1, "Erro"),
            (["creq", "-", "--transaction-keys", capture.keys], capture.requests[1], 0, "--answering FILE"),
            (
                [
                    "creq", "-", "--transaction-keys", capture.keys, "--answering",
                    try file(
                        capture.responses[2], in: capture.directory),
                ],
                capture.requests[1], 1, "an ACS answers Erro"
            ),
            // CReq 002 answers CRes 001, not CRes 000, though both are text screens (issue 43).
            (
                [
                    "creq", "-", "--transaction-keys", capture.keys, "--answering",
                    try file(capture.responses[0], in: capture.directory),
                ],
                capture.requests[2], 1, "answers the CRes with acsCounterAtoS 001"
            ),
            (
                ["cres", "-", "--transaction-keys", try file("{}", in: capture.directory)], "x", 2,
                "not a transaction-keys file"
            ),
            (["cres", "-", "--transaction-keys", "/nonexistent"], "x", 2, "no such file"),
        ]
        for (arguments, input, status, message) in cases {
            let result = try await runThreeds(["inspect"] + arguments, input: input)
            #expect(result.status == status, "\(arguments): \(result.output)")
            #expect(result.output.contains(message), "\(arguments): \(result.output)")
        }
    }

    @Test("--save-transaction-keys is refused for a server that is not on loopback")
    func notLoopback() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds([
            "pay", "--server", "https://acs.example.com", "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem", "--card",
            Scenario.text.cardNumber, "--amount", "1999", "--currency", "978", "--save-transaction-keys", "/tmp/k.json",
        ])
        #expect(result.status == 2)
        #expect(result.output.contains("is not on loopback"), "\(result.output)")
    }
}
