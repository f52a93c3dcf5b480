import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("threeds inspect")
struct InspectTests {
    /// The real-world fixtures of the JOSE tests (UL test platform, from Stripe's SDK tests, MIT).
    static let fixtures = ReadmeCommands.root.appendingPathComponent("Tests/ThreeDS2JOSETests/Resources/RealWorld").path

    @Test("real-world signed content: valid inside its certificates' validity, expired now, tampered refused")
    func signedContent() async throws {
        let jws = "\(Self.fixtures)/ul-acs-signed-content-es256.jws"
        let root = "\(Self.fixtures)/ul-ts-3ds-root.pem"
        let valid = try await runThreeds([
            "inspect", "signed-content", jws, "--ds-root", root, "--at", "2019-06-01T00:00:00Z",
        ])
        #expect(valid.status == 0, "\(valid.output)")
        #expect(valid.output.contains("Verdict: VALID — ES256"))
        #expect(valid.output.contains("https://simulator-3ds.selftestplatform.com/v2.1.0/acs/946/"))
        #expect(valid.output.contains("subject:   C=NL, O=UL Transaction Security division"))
        #expect(valid.output.contains("key usage: digitalSignature, keyCertSign, cRLSign"))
        let expired = try await runThreeds(["inspect", "signed-content", jws, "--ds-root", root])
        #expect(expired.status == 1 && expired.output.contains("Verdict: INVALID") && expired.output.contains("not at"))
        // Pasted as JSON, across lines.
        let token = try String(contentsOfFile: jws, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var folded = ""
        for (index, character) in token.enumerated() {
            if index > 0, index % 64 == 0 { folded += "\n" }
            folded.append(character)
        }
        let pasted = try await runThreeds(
            ["inspect", "signed-content", "-", "--ds-root", root, "--at", "2019-06-01T00:00:00Z"],
            input: "{\"transStatus\":\"C\",\"acsSignedContent\":\"\(folded)\"}")
        #expect(pasted.status == 0, "\(pasted.output)")
        // A payload changed by one character fails the signature.
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = String(parts[1].dropLast()) + (parts[1].hasSuffix("A") ? "B" : "A")
        let tampered = try await runThreeds(
            ["inspect", "signed-content", "-", "--ds-root", root, "--at", "2019-06-01T00:00:00Z"],
            input: parts.joined(separator: "."))
        #expect(tampered.status == 1 && tampered.output.contains("Verdict: INVALID"), "\(tampered.output)")
        let (_, pki) = try await SharedLab.cli.get()
        let foreign = try await runThreeds(
            ["inspect", "signed-content", jws, "--ds-root", "\(pki)/ds-root.pem", "--at", "2019-06-01T00:00:00Z"])
        #expect(foreign.status == 1 && foreign.output.contains("trusted root"), "\(foreign.output)")
        let badTime = try await runThreeds(["inspect", "signed-content", jws, "--ds-root", root, "--at", "yesterday"])
        #expect(badTime.status == 2 && badTime.output.contains("ISO 8601"))
        // A root that is no PEM file (a JSON file given by mistake) is a usage error, not a verdict (issue 43).
        let notPEM = scratchDirectory("not-pem") + "/areq.json"
        try Data(#"{"messageType":"AReq"}"#.utf8).write(to: URL(fileURLWithPath: notPEM))
        let jsonRoot = try await runThreeds(["inspect", "signed-content", jws, "--ds-root", notPEM])
        #expect(jsonRoot.status == 2 && jsonRoot.output.contains("not a PEM certificate"), "\(jsonRoot.output)")
        #expect(!jsonRoot.output.contains("Verdict"), "\(jsonRoot.output)")
    }

    @Test("device data from the SDK decrypts with the directory server's RSA or EC key, elements named")
    func deviceData() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: scratchDirectory("inspect")))
        defer { try? service.cleanup() }
        for (id, key) in [
            (TestLab.rsaDirectoryServerID, "ds-decryption-rsa-key.pem"),
            (TestLab.ecDirectoryServerID, "ds-decryption-ec-key.pem"),
        ] {
            let transaction = try service.createTransaction(directoryServerID: id)
            let parameters = try transaction.getAuthenticationRequestParameters()
            let areq = "{\"messageType\":\"AReq\",\"sdkEncData\":\"\(parameters.deviceData)\"}"
            let result = try await runThreeds(
                ["inspect", "device-data", "-", "--ds-key", "\(pki)/\(key)", "--ds-id", id.rawValue], input: areq)
            #expect(result.status == 0, "\(id): \(result.output)")
            #expect(result.output.contains("\"C018\": \"\(parameters.sdkTransactionID)\"  (SDK transaction ID)"))
            #expect(
                result.output.contains("\"DV\": \"1.7\",  (data version)") && result.output.contains("Verdict: VALID"))
            transaction.close()
        }
        let transaction = try service.createTransaction(directoryServerID: TestLab.ecDirectoryServerID)
        let data = try transaction.getAuthenticationRequestParameters().deviceData
        let noID = try await runThreeds(
            ["inspect", "device-data", "-", "--ds-key", "\(pki)/ds-decryption-ec-key.pem"], input: data)
        #expect(noID.status == 2 && noID.output.contains("needs --ds-id"))
        let wrongKey = try await runThreeds(
            ["inspect", "device-data", "-", "--ds-key", "\(pki)/ds-decryption-rsa-key.pem"], input: data)
        #expect(wrongKey.status == 1 && wrongKey.output.contains("Verdict: INVALID"), "\(wrongKey.output)")
        let notKey = try await runThreeds(
            ["inspect", "device-data", "-", "--ds-key", "\(pki)/ds-root.pem"], input: data)
        #expect(notKey.status == 2 && notKey.output.contains("not an RSA or P-256 private key"))
    }
}
