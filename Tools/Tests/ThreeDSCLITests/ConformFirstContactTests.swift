import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@testable import threeds

#if canImport(Glibc)
    import Glibc
#endif

/// `threeds conform` at first contact with a real ACS (issue 42): reports the peer cannot edit, setup failures named
/// as such, SKIP hints only when true, folders made safely, hosts compared as URLs compare them.
@Suite("threeds conform at first contact")
struct ConformFirstContactTests {
    /// What a hostile peer writes: a terminal title and clear, C1 CSI, a bidi override and isolate, a line break
    /// starting a Markdown heading and a "nothing broken" line of its own, an HTML comment that would hide the rest,
    /// an image with an error handler, and letters of other scripts that must stay as they are.
    static let hostile =
        "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}evil\u{2066}x\u{7F}\n# heading\n**Nothing broken.**\n"
        + "<!-- <img src=x onerror=alert(1)> Ελληνικά 日本語"

    /// The printable-ASCII part of ``hostile``, what survives as a `Content-Type` (the CLI keeps only those).
    static let hostileHeader = "text/html # heading <!-- <img src=x onerror=alert(1)> **Nothing broken.**"

    static let card = ConformPlan.Card(
        name: "text code", number: Scenario.text.cardNumber, version: .v2_2_0, kind: .challenge(.text),
        answers: [.text("123456")],
        wrongAnswer: .text("000000"), expectedStatus: .authenticated, suites: [.right, .timeout])

    /// Characters a terminal or a layout engine acts on: C0 (LF too: one line), DEL, C1, bidi controls.
    static func actionable(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.filter(PeerText.isControlOrBidi) }

    /// Checks one report writer's text of one source: nothing the peer can use, the letters kept.
    static func expectInert(
        _ text: String, _ source: String, markup: Bool = false, markdown: Bool = false, keepsLetters: Bool = true
    ) {
        #expect(actionable(text).isEmpty, "\(source): \(actionable(text))")
        // Markup only acts in the Markdown and XML reports; JSON and the terminal keep `<` as a character.
        if markup || markdown { #expect(!text.contains("<!--") && !text.contains("<img"), "\(source): \(text)") }
        if keepsLetters { #expect(text.contains("Ελληνικά 日本語"), "\(source): \(text)") }
        if markdown { #expect(!text.contains("# heading") || text.contains("\\# heading"), "\(source): \(text)") }
    }

    /// A plan card of the TestLab's text scenario, its right answer only unless told.
    static func textPlanCard(suites: [String] = ["right"]) -> JSONValue {
        .object([
            "name": .string("text"), "card": .string(Scenario.text.cardNumber), "version": .string("2.2.0"),
            "kind": .string("text"),
            "answers": .array([.object(["action": .string("submit"), "text": .string("123456")])]),
            "suites": .array(suites.map(JSONValue.string)),
        ])
    }

    /// The case of a payment and its checks, as the runner makes it.
    static func conformCase(
        _ payment: PaymentResult, suite: ConformPlan.Suite = .right, posts: [ConformExchangeLog.Exchange] = []
    )
        -> ConformCase
    {
        let checks = ConformChecks(card: card, payment: payment, exchanges: [], problems: [], errorPosts: posts)
            .checks(suite)
        return ConformCase(
            card: card, suite: suite, checks: checks,
            outcome: payment.flow == .none ? "not run: setup failure" : payment.summary)
    }

    /// Every writer's text for a case: the terminal line, Markdown, JSON, JUnit, and the summary.
    static func expectReportsInert(_ item: ConformCase, _ source: String, keepsLetters: Bool = true) {
        let result = ConformResult(server: "https://3ds.example", cases: [item])
        expectInert(
            ConformReport.line(item, 1, 1).replacingOccurrences(of: "\n", with: " "), source + " line",
            keepsLetters: false)
        let markdown = ConformReport.markdown(result)
        for line in markdown.split(separator: "\n") where line.hasPrefix("#") {
            #expect(
                [
                    "# `threeds conform` report", "## Rules broken", "## Behaviour checks that failed", "## Cases",
                    "## Setup failures",
                ].contains(String(line)), "\(source): a heading of the peer's: \(line)")
        }
        // The verdict line is ours alone: the peer's "**Nothing broken.**" does not survive as one.
        #expect(
            markdown.components(separatedBy: "**Nothing broken.**").count == (result.broken ? 1 : 2),
            "\(source): \(markdown)")
        expectInert(
            markdown.replacingOccurrences(of: "\n", with: " "), source + " md", markdown: true,
            keepsLetters: keepsLetters)
        let json = String(decoding: ConformReport.json(result).serializedBytes, as: UTF8.self)
        expectInert(json, source + " json", keepsLetters: keepsLetters)
        let junit = ConformReport.junit(result).replacingOccurrences(of: "\n", with: " ")
        expectInert(junit, source + " junit", markup: true, keepsLetters: keepsLetters)
        let summary = ConformReport.summary(result, output: "out").replacingOccurrences(of: "\n", with: " ")
        expectInert(summary, source + " summary", keepsLetters: false)
    }

    @Test("an ACS's Erro text: the reports and pay's Erro line keep it on one inert line")
    func acsErroText() {
        let erro = ErrorMessage(
            received: [
                "messageType": .string("Erro"), "errorCode": .string("203"), "errorComponent": .string("A"),
                "errorDescription": .string(Self.hostile), "errorDetail": .string(Self.hostile),
            ])
        var payment = PaymentResult(flow: .challenge, outcome: .protocolError, sdkTransID: "x")
        payment.error = erro
        payment.challengeOutcome = .protocolError(erro)
        // pay's line: a line break would print a forged "Challenge completed: transStatus Y" of the ACS's.
        let line = payment.summary
        #expect(!line.contains("\n") && Self.actionable(line).isEmpty, "\(line)")
        #expect(line.contains("Ελληνικά 日本語"))
        Self.expectReportsInert(Self.conformCase(payment), "ACS Erro")
    }

    @Test("a 3DS Server's error member: a setup failure, reported inert")
    func serverErrorMember() {
        let payment = PaymentResult(
            flow: .none, outcome: .runtimeError, sdkTransID: "",
            runtimeError: ("setup", "the 3DS Server refused the request: " + Self.hostile))
        let item = Self.conformCase(payment)
        #expect(item.checks.map(\.status) == [.error])
        Self.expectReportsInert(item, "3DS Server")
    }

    @Test("a 3DS Server's refusal (HTTP 400 with a JSON body) is not audited as an ARes; its 200 answer is")
    func serverRefusalIsNoARes() async throws {
        let refusal = Data(#"{"error":"the amount is not a number"}"#.utf8)
        let ares = Data(#"{"messageType":"ARes","messageVersion":"2.2.0"}"#.utf8)
        let transport = ScriptedTransport(replies: [
            .respond(TransportResponse(status: 400, contentType: "application/json", body: Array(refusal))),
            .respond(TransportResponse(status: 200, contentType: "application/json", body: Array(ares))),
        ])
        let log = ServerRoundTripLog()
        let auditing = ServerAuditingTransport(base: transport, log: log)
        let request = TransportRequest(
            method: .post, url: URL(string: "https://127.0.0.1:1/areq")!, body: Array(#"{"a":1}"#.utf8),
            timeout: .seconds(5), maxResponseBytes: 4096)
        _ = try await auditing.send(request)
        #expect(log.checks(version: .v2_2_0, allowsPlainHTTPLoopback: false).isEmpty)
        _ = try await auditing.send(request)
        let checks = log.checks(version: .v2_2_0, allowsPlainHTTPLoopback: false)
        #expect(checks.map(\.name) == ["ARes conforms"] && checks.first?.status == .failed, "\(checks)")
    }

    @Test("a --requestor-exec command's output: a setup failure, reported inert")
    func requestorExecOutput() async throws {
        let directory = scratchDirectory("conform-exec-hostile")
        let script = directory + "/hostile.sh"
        try Data(("printf '%s' '" + Self.hostile.replacingOccurrences(of: "'", with: "") + "'\n").utf8).write(
            to: URL(fileURLWithPath: script))
        var message = ""
        do {
            _ = try await RequestorExec(command: "sh '\(script)'", timeLimit: .seconds(30)).authenticate(
                ["messageType": .string("AReq")], messageVersion: .v2_2_0, requestorAppURL: nil)
        } catch {
            message = readable(error)
        }
        #expect(message.contains("onerror"), "\(message)")
        let payment = PaymentResult(
            flow: .none, outcome: .runtimeError, sdkTransID: "", runtimeError: ("setup", message))
        // The command's output is quoted cut short: the letters at its end may be cut.
        Self.expectReportsInert(Self.conformCase(payment), "requestor-exec", keepsLetters: false)
    }

    @Test("a Content-Type with --slow: the timeout suite's check, reported inert")
    func contentType() throws {
        let url = try #require(URL(string: "https://acs.example/challenge"))
        let erro = JSONObject([
            ("errorCode", .string("402")), ("errorComponent", .string("C")), ("errorMessageType", .string("CRes")),
        ]).serializedBytes
        // Refused (HTTP 500): the check fails, and its message, with the header, is in every report.
        let post = ConformExchangeLog.Exchange(
            url: url, request: erro, response: Array("x".utf8), status: 500, contentType: Self.hostileHeader)
        var payment = PaymentResult(flow: .challenge, outcome: .timedOut, sdkTransID: "x")
        payment.challengeOutcome = .timedOut
        let item = Self.conformCase(payment, suite: .timeout, posts: [post])
        #expect(item.checks.last?.message.contains("onerror") == true, "\(item.checks.map(\.message))")
        Self.expectReportsInert(item, "Content-Type", keepsLetters: false)
    }

    @Test("setup failures: JUnit <error>, not <failure>; exit status 3; named once with their reason")
    func setupFailuresAreErrors() throws {
        let reason =
            "cannot reach the 3DS Server (nothing answered there: is the server running on that address and port?)"
        let payment = PaymentResult(
            flow: .none, outcome: .runtimeError, sdkTransID: "", runtimeError: ("setup", reason))
        let cases = [Self.conformCase(payment), Self.conformCase(payment, suite: .wrong)]
        let result = ConformResult(server: "https://127.0.0.1:9", cases: cases)
        #expect(!result.broken && result.exitStatus == ExitStatus.setup)
        let junit = ConformReport.junit(result)
        #expect(junit.contains("failures=\"0\" errors=\"2\""), "\(junit)")
        #expect(junit.contains("<error message=") && !junit.contains("<failure"), "\(junit)")
        let line = ConformReport.line(cases[0], 1, 2)
        #expect(line.contains("ERROR") && !line.contains("FAIL"), "\(line)")
        let summary = ConformReport.summary(result, output: "out")
        #expect(flattened(summary).components(separatedBy: "nothing answered there").count == 2, "\(summary)")
        let markdown = ConformReport.markdown(result)
        #expect(markdown.contains("## Setup failures") && markdown.contains("**Nothing broken.**"), "\(markdown)")
        #expect(markdown.components(separatedBy: "nothing answered there").count == 2, "named once: \(markdown)")
    }

    @Test("the app-switch SKIP names --requestor-app-url only for 2.2.0 when it was not given")
    func skipHintOnlyWhenTrue() {
        let first = ConformRunner.FirstScreen(offersResend: false, offersApp: false)
        let hint = "--requestor-app-url"
        var card = Self.card
        #expect(ConformRunner.notApplicable(.appSwitch, card: card, first: first)?.contains(hint) == true)
        #expect(
            ConformRunner.notApplicable(.appSwitch, card: card, first: first, hasRequestorAppURL: true)?.contains(hint)
                == false)
        card.version = .v2_1_0
        #expect(ConformRunner.notApplicable(.appSwitch, card: card, first: first)?.contains(hint) == false)
    }

    @Test("--save-channel-keys-for compares hosts as URLs do: case, a trailing dot, IPv6 brackets")
    func hostComparison() {
        #expect(ConformRunner.sameHost("localhost", "LOCALHOST"))
        #expect(ConformRunner.sameHost("127.0.0.1", "127.0.0.1."))
        #expect(ConformRunner.sameHost("acs.example.", "ACS.Example"))
        #expect(ConformRunner.sameHost("[::1]", "::1"))
        #expect(!ConformRunner.sameHost("127.0.0.1", "127.0.0.2"))
        #expect(!ConformRunner.sameHost("acs.example", "acs.example.org"))
    }

    @Test("--save-channel-keys-for 127.0.0.1. saves the lab's keys; another host says at the end that none matched")
    func saveKeysForHost() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-keys-host")
        let plan = try ConformTests.writePlan([Self.textPlanCard()], in: directory)
        let saved = try await runThreeds(
            ConformTests.command(
                lab, pki, plan: plan, output: directory + "/a", ["--save-channel-keys-for", "127.0.0.1."]))
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory + "/a/messages")
        #expect(files.contains { $0.hasSuffix("keys.json") }, "\(saved.output) \(files)")
        #expect(!saved.output.contains("no channel key was written"), "\(saved.output)")
        let other = try await runThreeds(
            ConformTests.command(
                lab, pki, plan: plan, output: directory + "/b", ["--save-channel-keys-for", "10.9.9.9"]))
        #expect(
            flattened(other.output).contains("no challenge's ACS was on that host, so no channel key was written"),
            "\(other.output)")
    }

    @Test("a plan that runs no case is a usage error (exit 2)")
    func emptyPlan() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-empty-plan")
        let plan = try ConformTests.writePlan([Self.textPlanCard(suites: ["timeout"])], in: directory)
        let run = try await runThreeds(ConformTests.command(lab, pki, plan: plan, output: directory + "/out"))
        #expect(run.status == 2 && run.output.contains("runs no case"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
    }

    @Test("a private folder: made exclusively; another user's or a world-writable one is refused")
    func privateFolder() throws {
        let directory = scratchDirectory("conform-private")
        #expect(try PrivateFolder.make(directory + "/new"))
        #expect(try PrivateFolder.make(directory + "/new") == false)
        let open = directory + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.make(open) }
        if geteuid() == 0 {
            let theirs = directory + "/theirs"
            #expect(mkdir(theirs, 0o700) == 0 && chown(theirs, 65534, 65534) == 0)
            #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.make(theirs) }
            #expect(throws: CLIError.self) { try Conform.prepare(theirs) }
            #expect(throws: CLIError.self) { try MessageCapture(directory: theirs) }
        }
        #expect(throws: CLIError.self) { try Conform.prepare(open) }
        #expect(throws: CLIError.self) { try MessageCapture(directory: open) }
    }

    /// `renameat2(…, RENAME_NOREPLACE)`, which Swift's Glibc module does not declare: moves `from` to `to` unless
    /// something is there already.
    static func renameNoReplace(_ from: String, _ to: String) -> Bool {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return false }
        return unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, from, AT_FDCWD, to, 1) == 0
    }

    @Test("the --output and --save-messages race: a folder another user makes first is never accepted")
    func folderRace() throws {
        let directory = scratchDirectory("conform-race")
        var accepted: [String] = []
        let makers: [(String) throws -> Void] = [
            { try Conform.prepare($0) }, { _ = try MessageCapture(directory: $0) },
        ]
        for attempt in 0..<1000 {
            for (index, make) in makers.enumerated() {
                let path = "\(directory)/\(attempt)-\(index)"
                // The other user's folder, ready beside the name: open to all (and theirs, when this is root).
                let theirs = "\(directory)/rival-\(attempt)-\(index)"
                #expect(mkdir(theirs, 0o700) == 0 && chmod(theirs, 0o777) == 0)
                if geteuid() == 0 { #expect(chown(theirs, 65534, 65534) == 0) }
                // Moved to the name in one step, never over a folder already there (RENAME_NOREPLACE), after a
                // delay that sweeps across the time the command takes to make its folder.
                let won = Locked(false)
                let go = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    go.wait()
                    for _ in 0..<(attempt % 60) * 4 { _ = getppid() }
                    won.withLock { $0 = Self.renameNoReplace(theirs, path) }
                    done.signal()
                }.start()
                go.signal()
                let made = (try? make(path)) != nil
                done.wait()
                if made, won.withLock({ $0 }) { accepted.append(path) }
            }
        }
        #expect(accepted.isEmpty, "another user's folder accepted \(accepted.count) times: \(accepted.prefix(3))")
    }

    @Test("one reading of the channel: an Erro after white space, a plaintext CRes, broken JSON, a JWE")
    func channelClassification() {
        let erro = Array("\n {\"messageType\":\"Erro\",\"errorCode\":\"203\"}".utf8)
        #expect(ChallengeChannelBody(erro).error?["errorCode"] == .string("203"))
        // capture and conform read it as the SDK does: an Erro, saved as JSON, not a CRes that fails to decrypt.
        #expect(MessageCapture.isPlainJSON(erro))
        #expect(ConformExchangeLog.Exchange(url: URL(fileURLWithPath: "/"), request: erro, response: nil).isError)
        let plaintext = Array("{\"messageType\":\"CRes\",\"challengeCompletionInd\":\"Y\"}".utf8)
        #expect(
            ChallengeChannelBody(plaintext)
                == .plaintext(["messageType": .string("CRes"), "challengeCompletionInd": .string("Y")]))
        #expect(ChallengeChannelBody(plaintext).error == nil)
        #expect(ChallengeChannelBody(Array("{\"messageType\":".utf8)) == .unreadable)
        #expect(ChallengeChannelBody(Array("eyJhbGciOiJkaXIifQ..aXY.Y3Q.dGFn".utf8)) == .encrypted)
        #expect(!ChallengeChannelBody.startsAsJSON(Array("eyJ".utf8)))
    }

    @Test("Ctrl-C: the finished cases' reports are written, the case in flight dropped, exit 130")
    func interrupted() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-interrupted")
        let plan = try ConformTests.writePlan([Self.textPlanCard(suites: ["right", "timeout"])], in: directory)
        let output = directory + "/report"
        let run = try ThreedsRun(ConformTests.command(lab, pki, plan: plan, output: output, ["--slow"]))
        // The timeout case's first screen is up: the run now waits five minutes, unless stopped.
        let waiting = await run.output(containing: "waiting for the SDK's challenge timeout")
        #expect(waiting?.contains("[1/2] PASS") == true, "\(waiting ?? "no progress line")")
        run.signal(SIGINT)
        let (status, text) = await run.exit()
        #expect(status == 130, "\(text)")
        let report = try ConformTests.report(output)
        let cases = report["cases"]?.arrayValue ?? []
        #expect(cases.count == 1 && cases.first?.objectValue?["suite"] == .string("right"), "\(report.serialized)")
        #expect(FileManager.default.fileExists(atPath: output + "/conform.md"))
        #expect(FileManager.default.fileExists(atPath: output + "/conform-junit.xml"))
    }

    @Test("without --tls-root: every case a setup failure, named once with pay's hint; JUnit errors; exit 3")
    func missingTLSRoot() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-no-tls-root")
        let plan = try ConformTests.writePlan([Self.textPlanCard(suites: ["right", "cancel"])], in: directory)
        let output = directory + "/report"
        let run = try await runThreeds([
            "conform", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--trust-bundle", pki, "--plan", plan, "--output", output,
        ])
        #expect(run.status == ExitStatus.setup, "\(run.output)")
        #expect(run.output.contains("ERROR") && !run.output.contains("FAIL"), "\(run.output)")
        // pay's hint, once: the option that adds the missing root.
        #expect(flattened(run.output).components(separatedBy: "--tls-root").count == 2, "\(run.output)")
        let junit = try String(contentsOfFile: output + "/conform-junit.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"0\" errors=\"2\""), "\(junit)")
        let markdown = try String(contentsOfFile: output + "/conform.md", encoding: .utf8)
        #expect(markdown.contains("## Setup failures") && markdown.contains("**Nothing broken.**"), "\(markdown)")
    }
}
