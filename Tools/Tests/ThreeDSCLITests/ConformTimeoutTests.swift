import Clocks
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@testable import threeds

/// `threeds conform --slow`: the `timeout` suite, run in process on a test clock against an in-process TestLab (no
/// five-minute wait), its checks on the failures they must catch, and the option's help (issue 38).
@Suite("threeds conform --slow: the timeout suite", .timeLimit(.minutes(5)))
struct ConformTimeoutTests {
    /// A text card of the plan, with the suites given.
    static func textCard(_ suites: [ConformPlan.Suite]) -> ConformPlan.Card {
        ConformPlan.Card(
            name: "text code", number: Scenario.text.cardNumber, version: .v2_2_0, kind: .challenge(.text),
            answers: [.text("123456")], wrongAnswer: .text("000000"), expectedStatus: .authenticated, suites: suites)
    }

    /// A runner against `lab`, writing to a new folder.
    static func runner(_ lab: TestLab, cards: [ConformPlan.Card], output: String) throws -> ConformRunner {
        try FileManager.default.createDirectory(atPath: output + "/messages", withIntermediateDirectories: true)
        let config = try lab.sdkConfiguration(dataDirectory: scratchDirectory("conform-timeout-sdk"))
        return ConformRunner(
            plan: ConformPlan(cards: cards), configuration: config, requestor: .server(lab.baseURL),
            directoryServerID: TestLab.rsaDirectoryServerID, transport: try lab.makeTransport(),
            service: try PayFlow.initializedService(config, verbose: false), output: output, saveKeysFor: nil)
    }

    @Test("the first screen unanswered: at 5 minutes on the test clock, timed out, Erro 402 taken by the ACS")
    func timeoutOnTestClock() async throws {
        let (lab, _) = try await SharedLab.cli.get()
        let output = scratchDirectory("conform-timeout") + "/report"
        var runner = try Self.runner(lab, cards: [Self.textCard([.right, .timeout])], output: output)
        runner.slow = true
        let clock = TestClock()
        let shown = AsyncSignal()
        runner.clock = clock
        runner.screenShown = { shown.fire() }
        let run = Task { [runner] in await runner.run { _, _, _ in } }
        await shown.wait()
        await clock.advance(by: ConformRunner.challengeTimeout - .seconds(1))
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output + "/messages").first { $0.hasSuffix("timeout") })
        let ares = try #require(
            try JSONParser().parse(
                Array(Data(contentsOf: URL(fileURLWithPath: "\(output)/messages/\(folder)/ares.json")))
            )
            .objectValue)
        let acsTransID = try #require(ares["acsTransID"]?.stringValue)
        let before = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(before.requests.count == 1 && before.errors.isEmpty, "something was sent before the timeout")
        await clock.advance(by: .seconds(1) + .milliseconds(1))
        let cases = await run.value
        try await runner.transport.shutdown()
        #expect(cases.map(\.suite) == [.right, .timeout])
        let timeout = try #require(cases.last)
        #expect(timeout.outcome == "Challenge timed out")
        #expect(
            timeout.checks.map(\.name) == [
                "ARes conforms", "ACS signed content conforms", "CRes 1 conforms",
                "the SDK ends the challenge as timed out", "the SDK posts Erro 402 to the ACS",
                "the ACS takes the SDK's Erro", "the ACS sent exactly one RReq", "the 3DS Server accepted the RReq",
            ])
        #expect(timeout.checks.allSatisfy { $0.status == .passed }, "\(timeout.checks.map(\.message))")
        let taken = timeout.checks.first { $0.name == "the ACS takes the SDK's Erro" }
        #expect(taken?.message.hasPrefix("HTTP 200, empty body") == true)
        // What the lab's ACS saw: the first CReq only, then the SDK's Erro 402 for the CRes it never answered.
        let record = try #require(await lab.acsRecord(acsTransID: acsTransID))
        #expect(record.requests.count == 1)
        let erro = try #require(record.errors.first)
        #expect(record.errors.count == 1 && erro["errorCode"] == .string("402"))
        #expect(erro["errorComponent"] == .string("C") && erro["errorMessageType"] == .string("CRes"))
        #expect(erro["errorDetail"] == .string("Timeout expiry reached for the transaction"))
        // Reported as the other suites are.
        let result = ConformResult(server: lab.baseURL.absoluteString, cases: cases)
        #expect(ConformReport.line(timeout, 2, 2).hasPrefix("[2/2] PASS text code 2.2.0 timeout: 8 checks"))
        #expect(ConformReport.markdown(result).contains("| text code 2.2.0 timeout | Challenge timed out |"))
        #expect(ConformReport.junit(result).contains("name=\"the SDK posts Erro 402 to the ACS\"/>"))
        let reported = ConformReport.json(result)["cases"]?.arrayValue?.last?.objectValue
        #expect(reported?["suite"] == .string("timeout") && reported?["outcome"] == .string("Challenge timed out"))
    }

    @Test("without --slow the timeout suite is neither run nor counted; frictionless cards never get it")
    func notRunWithoutSlow() async throws {
        let (lab, _) = try await SharedLab.cli.get()
        let card = Self.textCard(ConformPlan.Suite.allCases)
        var frictionless = card
        frictionless.kind = .frictionless
        var runner = try Self.runner(lab, cards: [card], output: scratchDirectory("conform-noslow") + "/report")
        #expect(!runner.suites(of: card).contains(.timeout))
        runner.slow = true
        #expect(runner.suites(of: card).last == .timeout)
        #expect(runner.suites(of: frictionless) == [.right])
        try await runner.transport.shutdown()
    }

    @Test("the checks fail on what they must catch: another outcome, no Erro, another code, refused or unanswered")
    func checksFail() throws {
        let card = Self.textCard([.timeout])
        let url = try #require(URL(string: "https://acs.example/challenge"))
        func erro(_ code: String) -> [UInt8] {
            JSONObject([
                ("errorCode", .string(code)), ("errorComponent", .string("C")), ("errorMessageType", .string("CRes")),
            ]).serializedBytes
        }
        func checks(_ outcome: ChallengeOutcome, _ posts: [ConformExchangeLog.Exchange]) -> [ConformCheck.Status] {
            var payment = PaymentResult(flow: .challenge, outcome: .init(outcome), sdkTransID: "x")
            payment.challengeOutcome = outcome
            return ConformChecks(card: card, payment: payment, exchanges: [], problems: [], errorPosts: posts)
                .checks(.timeout).map(\.status)
        }
        let taken = ConformExchangeLog.Exchange(url: url, request: erro("402"), response: [], status: 204)
        #expect(checks(.timedOut, [taken]) == [.passed, .passed, .passed])
        #expect(checks(.cancelled, [taken]) == [.failed, .passed, .passed])
        #expect(checks(.timedOut, []) == [.passed, .failed, .skipped])
        let other = ConformExchangeLog.Exchange(url: url, request: erro("203"), response: [], status: 200)
        #expect(checks(.timedOut, [other]) == [.passed, .failed, .passed])
        #expect(checks(.timedOut, [taken, taken]) == [.passed, .failed, .passed])
        let refused = ConformExchangeLog.Exchange(
            url: url, request: erro("402"), response: Array("no".utf8), status: 500, contentType: "text/plain")
        #expect(checks(.timedOut, [refused]) == [.passed, .passed, .failed])
        let silent = ConformExchangeLog.Exchange(
            url: url, request: erro("402"), response: nil, failure: "timed out")
        #expect(checks(.timedOut, [silent]) == [.passed, .passed, .failed])
        #expect(ConformChecks.describe(refused) == "2 bytes, Content-Type text/plain")
        let acsErro = ConformExchangeLog.Exchange(url: url, request: erro("402"), response: erro("305"), status: 200)
        #expect(ConformChecks.describe(acsErro) == "an Erro 305 of its own")
    }

    @Test("--slow is in conform --help")
    func help() async throws {
        let run = try await runThreeds(["conform", "--help"])
        #expect(run.status == 0)
        let text = flattened(run.output)
        #expect(text.contains("--slow") && text.contains("Also run the timeout suite"), "\(run.output)")
        #expect(WidthTests.overflowing(run.output, columns: 80).isEmpty, "\(run.output)")
    }
}
