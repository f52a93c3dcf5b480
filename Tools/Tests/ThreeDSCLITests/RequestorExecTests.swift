import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("threeds pay --requestor-exec")
struct RequestorExecTests {
    func pay(_ pki: String, card: String, _ extra: [String]) -> [String] {
        [
            "pay", "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--ds-cert", "\(pki)/ds-encryption-rsa.pem",
            "--ds-root", "\(pki)/ds-root.pem", "--tls-root", "\(pki)/tls-root.pem", "--card", card,
            "--amount", "1999", "--currency", "978", "--json",
        ] + extra
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/testlab-requestor.sh").path

    @Test("the example script joins the CLI to the TestLab: a challenge completes; the command got the AReq fields")
    func exampleScript() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("exec")
        let answers = "\(directory)/answers.json"
        try Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: answers))
        let captured = "\(directory)/request.json"
        let command = "tee \(captured) | sh \(Self.script) \(lab.baseURL.absoluteString) \(pki)/tls-root.pem"
        let result = try await runThreeds(
            pay(
                pki, card: Scenario.text.cardNumber,
                ["--requestor-exec", command, "--ui", "auto", "--answers", answers]))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(#""outcome":"completed""#) && result.output.contains(#""transStatus":"Y""#))
        let request = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: captured))))
        let object = try #require(request.objectValue)
        for field in [
            "sdkTransID", "sdkAppID", "sdkReferenceNumber", "sdkEncData", "messageVersion", "sdkMaxTimeout",
            "deviceRenderOptions", "acctNumber", "purchaseAmount", "purchaseCurrency",
        ] {
            #expect(object[field] != nil, "\(field) missing")
        }
        #expect(object["sdkEphemPubKey"]?.objectValue?["kty"] == .string("EC"), "the key as a JWK object")
    }

    @Test(
        "each kind of bad output is a runtime error naming what was wrong; stderr passes through",
        arguments: [
            ("echo broken >&2; exit 3", "the command exited with status 3"),
            ("cat >/dev/null; echo hello", "is not one JSON object: hello"),
            ("cat >/dev/null", "the command printed nothing"),
            (
                #"echo '{"transStatus":"C","acsTransID":"x"}'"#,
                "without threeDSServerTransID, acsReferenceNumber, acsSignedContent"
            ),
            (#"echo '{"acsTransID":"x"}'"#, "has no transStatus"),
            // An invalid ARes is caught, as a strict SDK client would (issue 36, point 4): no "Frictionless: Z".
            (#"cat >/dev/null; echo '{"transStatus":"Z"}'"#, "not a status an ARes of 2.3.1 carries"),
        ])
    func badOutput(command: String, message: String) async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(pay(pki, card: Scenario.text.cardNumber, ["--requestor-exec", command]))
        #expect(result.status == 1, "\(result.output)")
        #expect(
            result.output.contains("--requestor-exec: ") && flattened(result.output).contains(message),
            "\(result.output)")
        if command.contains("broken") { #expect(result.output.contains("broken"), "stderr is passed through") }
    }

    @Test("a command stopped at its time limit leaks no shell `Terminated` line; the message names the limit")
    func timeoutQuiet() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        // A compound command keeps the shell waiting on `sleep`: a shell that saw it killed would say `Terminated`.
        let result = try await runThreeds(
            pay(
                pki, card: Scenario.text.cardNumber,
                ["--requestor-exec", "sleep 20; echo late", "--requestor-timeout", "1"]))
        #expect(result.status == 1, "\(result.output)")
        #expect(!result.output.contains("Terminated"), "\(result.output)")
        #expect(!result.output.contains("late"), "\(result.output)")
        #expect(
            flattened(result.output).contains("--requestor-exec: the command ran past 1 s (--requestor-timeout)"),
            "\(result.output)")
    }

    @Test("a command that runs too long is stopped; one that ignores its input still works")
    func timeAndInput() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let slow = try await runThreedsTimed(
            pay(pki, card: Scenario.text.cardNumber, ["--requestor-exec", "sleep 60", "--requestor-timeout", "1"]))
        // Stopped before the command's own end, 60 s on: the message says the limit stopped it, and the clock that
        // it was not waited for (a bound of 10 s, then 18 s, claimed a speed a busy machine broke).
        #expect(slow.elapsed < .seconds(60))
        #expect(slow.status == 1 && slow.output.contains("ran past 1 s"), "\(slow.output)")
        let frictionless = try await runThreeds(
            pay(pki, card: Scenario.text.cardNumber, ["--requestor-exec", #"echo '{"transStatus":"Y"}'"#]))
        #expect(frictionless.status == 0 && frictionless.output.contains(#""outcome":"frictionless""#))
        let both = try await runThreeds(
            pay(pki, card: Scenario.text.cardNumber, ["--requestor-exec", "true", "--server", "https://127.0.0.1:1"]))
        #expect(both.status == 2 && both.output.contains("exactly one of --server"))
    }
}
