import Foundation
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

/// Runs a plan's cases one payment at a time through the same flow as `pay` (``PayFlow``), each challenge's exchanges
/// saved and audited.
struct ConformRunner: Sendable {
    let plan: ConformPlan
    let configuration: ConfigParameters
    let requestor: Requestor
    let directoryServerID: DirectoryServerID
    let transport: HTTPClientTransport
    let service: ThreeDS2Service
    /// The report folder; the messages go to its `messages` folder.
    let output: String
    /// The ACS host whose channel keys are saved (`--save-channel-keys-for`), if any.
    let saveKeysFor: String?
    /// How many cases' channel keys were saved.
    let keysSaved = Locked(0)
    var requestorAppURL: String?
    /// The command that asks the tester's 3DS Server for a result (`--result-exec`, with `--requestor-exec`).
    var resultExec: String?
    var verbose = false
    /// Whether the `timeout` suite runs (`--slow`): five minutes per challenge card. Without it the suite is neither
    /// run nor listed.
    var slow = false
    /// Whether each CRes is audited against the specification's letter (`--strict`): the rules the SDK tolerates
    /// are reported too.
    var strict = false
    /// Whether the SDK may open the bank's app (`--no-app-opener` clears it): without an opener the CReqs announce
    /// no app (2.3.1 `oobAppURLInd` `03`, not allowed by the app) and the app-switch suite does not apply.
    var opensApps = true
    /// The clock the challenges' timers run on: the continuous clock in the CLI, a test clock in tests.
    var clock: any Clock<Duration> = ContinuousClock()
    /// Told when the `timeout` suite's first screen is up (tests move their clock then; the CLI says it waits).
    var screenShown: @Sendable () -> Void = {}
    /// A setup failure (TLS, reachability, the 3DS Server, the command) in words, with the hint `pay` gives
    /// (``ServerConnectionOptions/describe(_:)`` in the CLI).
    var describe: @Sendable (any Error) -> String = { readable($0) }

    /// The challenge timeout every case gives the SDK: its minimum, five minutes, which the `timeout` suite waits out.
    static let challengeTimeout: Duration = .seconds(5 * 60)

    /// What an earlier case of the same card showed on its first screen.
    struct FirstScreen {
        var offersResend = false
        var offersApp = false
    }

    /// How many cases the plan runs.
    var total: Int { Self.caseCount(plan, slow: slow) }

    /// How many cases a plan runs, with or without `--slow`.
    static func caseCount(_ plan: ConformPlan, slow: Bool) -> Int {
        plan.cards.reduce(0) { $0 + suites(of: $1, slow: slow).count }
    }

    /// Runs every case, calling `progress` after each. Cancelled (Ctrl-C), it stops and returns the cases that
    /// finished; the one in flight is left out.
    func run(progress: (ConformCase, Int, Int) -> Void) async -> [ConformCase] {
        let total = self.total
        var cases: [ConformCase] = []
        cards: for card in plan.cards {
            var first: FirstScreen?
            for suite in suites(of: card) {
                if Task.isCancelled { break cards }
                let item: ConformCase
                if let reason = Self.notApplicable(
                    suite, card: card, first: first, hasRequestorAppURL: requestorAppURL != nil, opensApps: opensApps)
                {
                    item = ConformCase(
                        card: card, suite: suite, checks: [.skipped(suite.title, reason)], outcome: "not run")
                } else {
                    let (ran, screen) = await runCase(card, suite, number: cases.count + 1)
                    if Task.isCancelled { break cards }
                    item = ran
                    if first == nil { first = screen }
                }
                cases.append(item)
                progress(item, cases.count, total)
            }
        }
        if let saveKeysFor, keysSaved.withLock({ $0 }) == 0 {
            warn(
                TerminalWidth.wrap(
                    "threeds: --save-channel-keys-for \(saveKeysFor): no challenge's ACS was on that host, so no "
                        + "channel key was written"))
        }
        return cases
    }

    /// The suites run for a card: the right answer alone when frictionless; the `timeout` suite only with `--slow`.
    func suites(of card: ConformPlan.Card) -> [ConformPlan.Suite] { Self.suites(of: card, slow: slow) }

    static func suites(of card: ConformPlan.Card, slow: Bool) -> [ConformPlan.Suite] {
        card.kind == .frictionless ? [.right] : card.suites.filter { slow || $0 != .timeout }
    }

    /// Why a suite does not apply to a card, if it does not.
    static func notApplicable(
        _ suite: ConformPlan.Suite, card: ConformPlan.Card, first: FirstScreen?, hasRequestorAppURL: Bool = false,
        opensApps: Bool = true
    ) -> String? {
        switch suite {
        case .right, .cancel, .timeout: return nil
        case .appSwitch where !opensApps: return "run without an app opener (--no-app-opener)"
        case .wrong:
            guard card.wrongAnswer != nil, ![.challenge(.outOfBand), .challenge(.information)].contains(card.kind)
            else {
                return "no wrongAnswer in the plan for this card"
            }
            return nil
        case .resend:
            guard let first else { return "needs an earlier case of the card to show a conformant first screen" }
            return first.offersResend ? nil : "the first screen offers no resend"
        case .appSwitch:
            guard let first else { return "needs an earlier case of the card to show a conformant first screen" }
            guard !first.offersApp else { return nil }
            // The hint only where it is true: a 2.2.0 card's Bridging link needs the app's URL, which was not given.
            return card.version == .v2_2_0 && !hasRequestorAppURL
                ? "the first screen links no bank's app (2.2.0 Bridging needs --requestor-app-url)"
                : "the first screen links no bank's app"
        }
    }

    /// The answers a suite gives.
    static func script(_ suite: ConformPlan.Suite, card: ConformPlan.Card) -> [ScriptedAnswer] {
        switch suite {
        case .right: card.answers
        case .wrong: Array(repeating: card.wrongAnswer ?? .cancel, count: ConformPlan.maxWrongAnswers)
        case .resend: [.resend] + card.answers
        case .cancel: [.cancel]
        case .appSwitch: [.openApp(result: .returned)]
        case .timeout: []
        }
    }

    private func runCase(_ card: ConformPlan.Card, _ suite: ConformPlan.Suite, number: Int) async -> (
        ConformCase, FirstScreen?
    ) {
        let folder =
            "messages/" + String(format: "%03d", number) + "-\(card.number.suffix(4))-\(card.version)-"
            + suite.rawValue
        let log = ConformExchangeLog()
        let server = ServerRoundTripLog()
        let scripted = ScriptedPresenter(
            answers: Self.script(suite, card: card), opensApps: opensApps, htmlReader: LibXML2FormReader())
        let presenter: any ChallengePresenter =
            suite == .timeout ? UnansweredPresenter(shown: screenShown) : scripted
        var payment: PaymentResult
        var saved: String? = folder
        do {
            let capture = try MessageCapture(directory: output + "/" + folder)
            var flow = PayFlow(
                configuration: configuration, requestor: requestor, directoryServerID: directoryServerID,
                messageVersion: card.version.rawValue,
                purchase: Purchase(cardNumber: card.number, amount: plan.amount, currency: plan.currency),
                requestorAppURL: requestorAppURL, timeout: Self.challengeTimeout, presenter: presenter,
                transport: transport, verbose: verbose, keyLog: saveKeysFor == nil ? nil : log, capture: capture)
            flow.service = service
            flow.auditLog = log
            flow.traceLog = log
            flow.serverLog = server
            flow.challengeClock = clock
            flow.resultExec = resultExec
            payment = try await flow.run { _ in }
            if !capture.failed.isEmpty { saved = nil }
        } catch {
            payment = PaymentResult(
                flow: .none, outcome: .runtimeError, sdkTransID: "", runtimeError: ("setup", describe(error)))
        }
        if saveKey(log, folder: folder) { keysSaved.withLock { $0 += 1 } }
        let exchanges = log.decoded(strict: strict)
        var checks = server.checks(
            version: card.version, allowsPlainHTTPLoopback: configuration.allowsPlainHTTPLoopback)
        checks += exchanges.compactMap(Self.cresCheck)
        let blockers = checks.filter { $0.status == .failed }
        let judged = ConformChecks(
            card: card, payment: payment, exchanges: exchanges, problems: scripted.problems,
            errorPosts: log.errorPosts)
        var behaviour = judged.checks(suite) + judged.resultChecks
        if !blockers.isEmpty {
            let reason =
                "blocked: "
                + blockers.map { $0.exchange.map { "CRes \($0)" } ?? $0.subject ?? $0.name }
                .joined(separator: ", ") + " broke the rules reported"
            behaviour = behaviour.map { .skipped($0.name, reason) }
        }
        checks += behaviour
        let item = ConformCase(
            card: card, suite: suite, checks: checks, messages: saved,
            outcome: payment.flow == .none ? "not run: setup failure" : payment.summary,
            result: payment.authoritative?.line)
        return (item, exchanges.first.flatMap(Self.firstScreen))
    }

    /// The check of one answer: a CRes audited in full, or an answer that is not one.
    static func cresCheck(_ exchange: ConformExchange) -> ConformCheck? {
        let name = "CRes \(exchange.number) conforms"
        var check: ConformCheck
        switch exchange.response {
        case .cres(_, let audit):
            check = .expect(
                audit.isConformant, name,
                audit.isConformant
                    ? "no rule broken"
                    : "\(audit.findings.count) violation\(audit.findings.count == 1 ? "" : "s"): "
                        + audit.rules.map(\.rawValue).joined(separator: ", "))
            check.findings = audit.findings
        case .unreadable(let reason):
            check = .failed(name, "the answer could not be read: \(reason)")
        case .undecryptable(let finding):
            check = .failed(name, "the answer could not be read: \(finding.rule.rawValue): \(finding.explanation)")
            check.findings = [finding]
        case .plaintext:
            check = .failed(
                name, "the answer is a JSON object other than an Erro, unencrypted: only an Erro may be plaintext")
            check.findings = [.plaintextResponse]
        case .erro, .none:
            return nil
        }
        check.exchange = exchange.number
        return check
    }

    /// What the first CRes offers, as the messages layer read it (its resend label, its link to the bank's app: a
    /// 2.3.1 `oobAppURL` or a 2.2.0 Bridging link); `nil` when it is no screen or broke a rule.
    static func firstScreen(_ exchange: ConformExchange) -> FirstScreen? {
        guard let screen = exchange.reading?.screen else { return nil }
        return FirstScreen(
            offersResend: !(screen.resendLabel ?? "").isEmpty,
            offersApp: screen.oobAppURL != nil || screen.bridging?.appURL != nil)
    }

    /// Saves a case's channel key beside its messages when its ACS is the host `--save-channel-keys-for` names;
    /// returns whether it did.
    @discardableResult
    private func saveKey(_ log: ConformExchangeLog, folder: String) -> Bool {
        guard let saveKeysFor, let entry = log.entry, let host = log.exchanges.first?.url.host,
            Self.sameHost(host, saveKeysFor)
        else { return false }
        let path = output + "/" + folder + "/keys.json"
        if let file = try? TransactionKeyFile(checking: path) {
            file.record(entry)
            if file.failed.isEmpty { return true }
        }
        warn("threeds: \(path): cannot be written")
        return false
    }

    /// Whether two host names are the same host as URLs compare them: letters in any case, a trailing dot (the
    /// fully qualified form) or an IPv6 address's brackets making no difference.
    static func sameHost(_ first: String, _ second: String) -> Bool {
        func normal(_ host: String) -> String {
            var text = host.lowercased()
            if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            if text.hasSuffix("."), text.count > 1 { text.removeLast() }
            return text
        }
        return normal(first) == normal(second)
    }
}
