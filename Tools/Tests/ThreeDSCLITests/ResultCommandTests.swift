import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2TestLab

@Suite("The authoritative result: pay's result line, threeds result, --result-exec")
struct ResultCommandTests {
    func pay(_ lab: TestLab, _ pki: String, card: String, _ extra: [String] = []) throws -> [String] {
        let directory = scratchDirectory("result-pay")
        let answers = "\(directory)/answers.json"
        try Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
        return [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--trust-bundle", pki, "--tls-root", "\(pki)/tls-root.pem", "--card", card, "--amount", "1999",
            "--currency", "978", "--ui", "auto", "--answers", answers, "--json",
        ] + extra
    }

    /// The `--json` object pay printed last.
    func lastJSON(_ output: String) throws -> JSONObject {
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
        return try #require(try JSONParser().parse(Array(line.utf8)).objectValue)
    }

    @Test("pay prints the 3DS Server's result under the CRes status, and --json holds it; threeds result finds it")
    func payAndResult() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let run = try await runThreeds(try pay(lab, pki, card: Scenario.text.cardNumber))
        #expect(run.status == 0, "\(run.output)")
        #expect(
            run.output.contains("Challenge completed: transStatus Y\nResult (RReq): transStatus Y"), "\(run.output)")
        #expect(!run.output.contains("DISAGREES"))
        let json = try lastJSON(run.output)
        let result = try #require(json["result"]?.objectValue)
        #expect(result["state"] == .string("final") && result["agreesWithFinalCRes"] == .bool(true))
        let sdkTransID = try #require(json["sdkTransID"]?.stringValue)
        let asked = try await runThreeds([
            "result", "--server", lab.baseURL.absoluteString, "--tls-root", "\(pki)/tls-root.pem", "--sdk-trans-id",
            sdkTransID, "--json",
        ])
        #expect(asked.status == 0 && asked.output.contains("Result (RReq): transStatus Y"), "\(asked.output)")
        #expect(asked.output.contains(#""authenticationValue""#), "the backend's view holds the value")
        let unknown = try await runThreeds([
            "result", "--server", lab.baseURL.absoluteString, "--tls-root", "\(pki)/tls-root.pem", "--sdk-trans-id",
            "00000000-0000-4000-8000-000000000000",
        ])
        #expect(unknown.status == 1 && unknown.output.contains("does not know this transaction"), "\(unknown.output)")
    }

    @Test("a result that contradicts the final CRes is flagged (fault profile results-contradicting)")
    func disagreement() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let card = try #require(ACSFaultProfile.all.first { $0.name == "results-contradicting" }?.cardNumber)
        let run = try await runThreeds(try pay(lab, pki, card: card))
        #expect(run.output.contains("Result (RReq): transStatus N, reason 01"), "\(run.output)")
        #expect(
            run.output.contains("Result DISAGREES with the final CRes: the final CRes said Y but the RReq says N"),
            "\(run.output)")
        #expect(try lastJSON(run.output)["result"]?.objectValue?["agreesWithFinalCRes"] == .bool(false))
    }

    @Test("a refused RReq shows as pending with the Erro the 3DS Server answered (results-missing-value)")
    func refused() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let card = try #require(ACSFaultProfile.all.first { $0.name == "results-missing-value" }?.cardNumber)
        let run = try await runThreeds(try pay(lab, pki, card: card, []))
        #expect(run.output.contains("Result: pending"), "\(run.output)")
        #expect(run.output.contains("refused: 201 authenticationValue"), "\(run.output)")
        #expect(run.output.contains("Result DISAGREES with the final CRes: the final CRes said Y but the 3DS Server"))
    }

    @Test("threeds result --result-exec: the command gets the query and prints the result")
    func resultExec() async throws {
        let directory = scratchDirectory("result-exec")
        let captured = "\(directory)/query.json"
        let command =
            #"cat > "# + captured
            + #"; echo '{"state":"final","source":"RReq","transStatus":"N","transStatusReason":"01"}'"#
        let id = "8a880dc0-d2d2-4067-bcb1-b08d1690b26e"
        let run = try await runThreeds(["result", "--result-exec", command, "--three-ds-server-trans-id", id])
        #expect(run.status == 0 && run.output.contains("Result (RReq): transStatus N, reason 01"), "\(run.output)")
        let query = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: captured))))
        #expect(query.objectValue?["threeDSServerTransID"] == .string(id))
        let pending = try await runThreeds([
            "result", "--result-exec", #"cat >/dev/null; echo '{"state":"pending"}'"#, "--sdk-trans-id", id,
        ])
        #expect(pending.status == 1 && pending.output.contains("Result: pending"), "\(pending.output)")
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["result", "--sdk-trans-id", "8a880dc0-d2d2-4067-bcb1-b08d1690b26e"],
            ["result", "--server", "https://127.0.0.1:1", "--result-exec", "true", "--sdk-trans-id", "x"],
            ["result", "--server", "https://127.0.0.1:1"],
            ["result", "--server", "https://127.0.0.1:1", "--sdk-trans-id", "not-a-uuid"],
            ["result", "--server", "http://127.0.0.1:1", "--sdk-trans-id", "8a880dc0-d2d2-4067-bcb1-b08d1690b26e"],
        ])
    func usage(arguments: [String]) async throws {
        let run = try await runThreeds(arguments)
        #expect(run.status == 2, "\(run.output)")
    }
}
