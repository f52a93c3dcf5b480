import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TerminalUI
import ThreeDS2TestLab

/// The outcome of one payment, as `--json` prints it.
struct PaymentResult {
    /// Which way the payment went, as `--json` names it.
    enum Flow: String {
        /// No payment ran: the setup failed before the AReq (TLS, the 3DS Server, the command).
        case none
        /// The ARes ended the payment without a challenge.
        case frictionless
        /// The ARes asked for a challenge, and one ran.
        case challenge
    }

    /// How the payment ended, as `--json` names it (the EMVCo receiver's names for a challenge's outcomes).
    enum Outcome: String {
        /// The ARes ended the payment.
        case frictionless
        /// The final CRes ended the challenge.
        case completed
        /// The cardholder, the app or the end of the input cancelled the challenge.
        case cancelled
        /// A challenge timer expired (the EMVCo receiver's `timedout`).
        case timedOut = "timedout"
        /// An Erro ended the challenge.
        case protocolError
        /// The payment could not go on (setup, transport, an answers file that does not fit).
        case runtimeError

        /// A challenge's outcome, by its kind.
        init(_ outcome: ChallengeOutcome) {
            switch outcome {
            case .completed: self = .completed
            case .cancelled: self = .cancelled
            case .timedOut: self = .timedOut
            case .protocolError: self = .protocolError
            case .runtimeError: self = .runtimeError
            }
        }
    }

    var flow: Flow
    var outcome: Outcome
    var transStatus: TransactionStatus?
    var sdkTransID: String
    var error: ErrorMessage?
    /// The Erro's code when only the code is known: a Split-SDK Server reports an outcome's code, not the Erro.
    var reportedErrorCode: ProtocolErrorCode?
    var runtimeError: (code: String, message: String)?
    /// The transport's failure, when a CReq could not be sent (for a hint naming the cause and what to check).
    var transportFailure: TransportError?
    /// The transport's failure code, when a CReq could not be sent.
    var transportCode: TransportError.Code? { transportFailure?.code }
    /// Why a cancelled challenge was cancelled, when not by the cardholder.
    var cancelReason: String?
    /// How the challenge ended, when one ran.
    var challengeOutcome: ChallengeOutcome?
    /// The 3DS Server's result after a challenge (the RReq it received), when it could be asked.
    var authoritative: AuthoritativeResult?
    /// Why the result could not be asked, when it could not.
    var resultProblem: String?

    /// Whether the 3DS Server's result comes from an RReq: after a challenge, and after a decoupled ARes (`D`); a
    /// frictionless ARes is its own result.
    var hasResultsLeg: Bool { flow == .challenge || (flow == .frictionless && transStatus == .decoupled) }

    /// After a challenge or a decoupled ARes: the 3DS Server's result (the RReq) next to the CRes status, and a line
    /// flagging a disagreement; nothing without either (the ARes is the result).
    var resultLines: [String] {
        guard hasResultsLeg, runtimeError == nil || challengeOutcome != nil else { return [] }
        if let resultProblem { return ["Result: not asked (\(resultProblem))"] }
        guard let authoritative else { return ["Result: the 3DS Server does not know this transaction"] }
        var lines = [authoritative.line]
        var finalStatus: TransactionStatus?
        if case .completed(let status)? = challengeOutcome { finalStatus = status }
        if let disagreement = authoritative.disagreement(withFinalCRes: finalStatus) {
            lines.append("Result DISAGREES with the final CRes: \(disagreement)")
        }
        return lines
    }

    /// Whether the payment ended as a TestLab scenario means it to (`threeds demo --auto --all`).
    func matches(_ expected: Scenario.ExpectedOutcome) -> Bool {
        switch expected {
        case .frictionless(let status):
            return challengeOutcome == nil && runtimeError == nil && transStatus == status
        case .completed(let status):
            return challengeOutcome == .completed(transStatus: status) && runtimeError == nil
        case .protocolError(let code):
            guard case .protocolError(let erro)? = challengeOutcome else { return false }
            return erro.errorCode == code
        case .timedOut:
            return challengeOutcome == .timedOut
        case .decoupled(let status):
            return challengeOutcome == nil && runtimeError == nil && transStatus == .decoupled
                && authoritative?.transStatus == status
        }
    }

    var json: JSONObject {
        var object: JSONObject = ["flow": .string(flow.rawValue), "outcome": .string(outcome.rawValue)]
        if let transStatus { object["transStatus"] = .string(transStatus.rawValue) }
        object["sdkTransID"] = .string(sdkTransID)
        if let error {
            object["error"] = .object([
                "errorCode": .string(error.errorCode.rawValue),
                "errorComponent": .string(error.errorComponent.rawValue),
                "errorDescription": .string(error.errorDescription), "errorDetail": .string(error.errorDetail),
            ])
        }
        if let runtimeError {
            object["runtimeError"] = .object([
                "code": .string(runtimeError.code), "message": .string(runtimeError.message),
            ])
        }
        if let authoritative {
            var result: JSONObject = ["state": authoritative.json["state"] ?? .string("pending")]
            for name in ["transStatus", "source", "transStatusReason", "challengeCancel", "resultsRequestCount"] {
                if let value = authoritative.json[name] { result[name] = value }
            }
            if let finalStatus = transStatus, challengeOutcome != nil {
                result["agreesWithFinalCRes"] = .bool(authoritative.disagreement(withFinalCRes: finalStatus) == nil)
            }
            object["result"] = .object(result)
        }
        return object
    }

    /// 0 for frictionless, completed and cancelled by a person; 1 otherwise, a cancel because standard input ended
    /// included (no one answered: a script or CI job that forgot `--ui auto` must not pass).
    var exitCode: Int32 {
        guard cancelReason == nil else { return 1 }
        return [.frictionless, .completed, .cancelled].contains(outcome) ? 0 : 1
    }

    var summary: String {
        switch outcome {
        case .frictionless where transStatus == .decoupled:
            "Decoupled: transStatus D, the cardholder approves in the bank's app"
        case .frictionless: "Frictionless: transStatus \(transStatus?.rawValue ?? "?")"
        case .completed: "Challenge completed: transStatus \(transStatus?.rawValue ?? "?")"
        case .cancelled: cancelReason.map { "Challenge cancelled: \($0)" } ?? "Challenge cancelled by the cardholder"
        case .timedOut: "Challenge timed out"
        case .protocolError where error == nil && reportedErrorCode != nil:
            "Protocol error \(reportedErrorCode?.rawValue ?? "")"
        case .protocolError: Self.protocolErrorText(error)
        case .runtimeError: "Runtime error: \(runtimeError?.message ?? "unknown")"
        }
    }
}

extension PaymentResult {
    /// `Protocol error 302 from the SDK: Data Decryption Failure (detail)`: the component in words, the detail only
    /// when it says more than the description.
    static func protocolErrorText(_ error: ErrorMessage?) -> String {
        guard let error else { return "Protocol error" }
        let component =
            switch error.errorComponent {
            case .sdk: "the SDK"
            case .acs: "the ACS"
            case .threeDSServer: "the 3DS Server"
            case .directoryServer: "the directory server"
            default: "component \(ReportText.line(error.errorComponent.rawValue))"
            }
        // The texts are the peer's: one line, nothing a terminal acts on (a line break would forge a line of ours).
        let detail = ReportText.line(error.errorDetail.trimmingCharacters(in: .whitespaces))
        let description = ReportText.line(error.errorDescription)
        let extra = detail.isEmpty || detail == description ? "" : " (\(detail))"
        let code = ReportText.line(error.errorCode.rawValue)
        return "Protocol error \(code) from \(component): \(description)\(extra)"
    }
}

/// The phases of a payment that `threeds load` times.
enum Phase: String, CaseIterable, Sendable {
    /// The whole payment (from its intended start when a rate is given).
    case payment
    /// The 3DS Server round trip: AReq parameters out, ARes fields back.
    case server
    /// One CReq/CRes exchange with the ACS.
    case exchange
    /// The whole challenge, first CReq to outcome.
    case challenge
    /// The results leg: from the challenge's end until the 3DS Server holds the RReq's result.
    case results

    /// How the report names it.
    var title: String {
        switch self {
        case .payment: "whole payment"
        case .server: "3DS Server round trip"
        case .exchange: "CReq/CRes exchange"
        case .challenge: "whole challenge"
        case .results: "results leg (RReq)"
        }
    }
}

/// Receives the duration of each phase of a payment.
protocol PhaseObserver: Sendable {
    func observe(_ phase: Phase, _ duration: Duration)
}

/// A transport that reports how long each exchange took.
struct TimedTransport: ChallengeTransport {
    let base: any ChallengeTransport
    let observer: any PhaseObserver

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        defer { observer.observe(.exchange, start.duration(to: clock.now)) }
        return try await base.send(request)
    }
}

/// Initialize → transaction → 3DS Server → challenge when asked, as an app does it.
struct PayFlow {
    let configuration: ConfigParameters
    let requestor: Requestor
    let directoryServerID: DirectoryServerID
    let messageVersion: String?
    let purchase: Purchase
    let requestorAppURL: String?
    let timeout: Duration
    let presenter: any ChallengePresenter
    let transport: HTTPClientTransport
    var verbose = false
    /// Told how long each phase took (`threeds load`).
    var observer: (any PhaseObserver)?
    /// Where the channel key goes (`--save-transaction-keys`, test systems only).
    var keyLog: (any ChannelKeyLog)?
    /// Where the messages go (`--save-messages`, test systems only).
    var capture: MessageCapture?
    /// Where each challenge exchange goes to be audited (`threeds conform`).
    var auditLog: ConformExchangeLog?
    /// Where the 3DS Server round trip goes to be audited (`threeds conform`: the ARes and its signed content).
    var serverLog: ServerRoundTripLog?
    /// Where the SDK's trace of the challenge goes (`threeds conform`): no key, no entry value.
    var traceLog: (any ChallengeTraceLog)?
    /// The clock the challenge's timers run on (a test clock in `conform`'s timeout test).
    var challengeClock: any Clock<Duration> = ContinuousClock()
    /// A service already initialized, shared by the payments of a load run as an app shares one across its
    /// payments; `nil` initializes one for this payment (and cleans it up after), as at an app's launch.
    var service: ThreeDS2Service?
    /// The look per appearance and the locale given to `initialize` (the presenter draws what the SDK resolved).
    var uiCustomizations: [UiCustomizationType: UiCustomization] = demoCustomizations
    var locale: Locale?
    /// The command that asks the tester's 3DS Server for a result (`--result-exec`), with `--requestor-exec`.
    var resultExec: String?
    /// How long to wait for the 3DS Server's result after a challenge.
    var resultWait: Duration = .seconds(5)
    /// How long to wait for it after a decoupled ARes (`D`): the cardholder decides in the bank's app, away from the
    /// payment (the TestLab's bank's app in 2 s); a backstop, never what the wait is for.
    var decoupledResultWait: Duration = .seconds(120)
    /// The findings already shown by this process: `load` and `demo --auto --all` make many payments, and say each
    /// finding once.
    private static let shownFindings = Locked<Set<String>>([])

    /// Shows the service's security findings and directory-server warnings, each once per process however many
    /// payments it makes: the findings as one line naming them, or each in full with `verbose`.
    ///
    /// - Parameters:
    ///   - service: An initialized service.
    ///   - verbose: Whether each finding is shown in full.
    ///   - show: Where each line goes.
    static func showFindings(of service: ThreeDS2Service, verbose: Bool, to show: (String) -> Void) throws {
        let warnings = try service.warnings
        var lines: [String] = []
        if verbose {
            lines = warnings.map { "security warning \($0)" }
        } else if !warnings.isEmpty {
            // SW01 (root) and SW03 (virtual machine) are expected in containers and VMs, where this tool usually runs;
            // an app would pass them to its 3DS Server, which decides. One line, details with --verbose.
            lines = [
                "security checks: \(warnings.map(\.id.rawValue).joined(separator: ", ")) raised (expected as root or in a "
                    + "VM or container; --verbose explains)"
            ]
        }
        lines += try service.directoryServerWarnings.map { "warning \($0.id): \($0.message)" }
        for line in lines where shownFindings.withLock({ $0.insert(line).inserted }) { show(line) }
    }

    /// The CLI's logger for the SDK's and the presenter's own warnings: on standard error, quiet (errors only)
    /// unless `--verbose`, each warning the SDK makes once shown only once.
    static func diagnostics(_ label: String, verbose: Bool) -> Logger {
        var logger = Logger(label: label) { ShownWarningsFilter(base: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = verbose ? .debug : .error
        return logger
    }

    /// A service initialized with `configuration`, the look per appearance and the locale, as at an app's launch;
    /// the SDK logs at debug level with `verbose`, errors only otherwise: the warnings it would log (a customization's
    /// contrast, security findings, certificates ending) the CLI shows once, in its own words, on the screen or the
    /// progress lines.
    static func initializedService(
        _ configuration: ConfigParameters, verbose: Bool,
        uiCustomizations: [UiCustomizationType: UiCustomization] = demoCustomizations, locale: Locale? = nil
    ) throws -> ThreeDS2Service {
        let service = ThreeDS2Service(logger: diagnostics("threeds2.sdk", verbose: verbose))
        try service.initialize(
            configParameters: configuration, locale: locale ?? Locale(identifier: "en_US"),
            uiCustomizations: uiCustomizations)
        return service
    }

    func run(progress: (String) -> Void) async throws -> PaymentResult {
        let service =
            try self.service
            ?? Self.initializedService(
                configuration, verbose: verbose, uiCustomizations: uiCustomizations, locale: locale)
        defer { if self.service == nil { try? service.cleanup() } }
        try Self.showFindings(of: service, verbose: verbose, to: progress)
        let transaction = try service.createTransaction(
            directoryServerID: directoryServerID, messageVersion: messageVersion)
        defer { transaction.close() }
        if let keyLog { transaction.logChannelKeys(to: keyLog) }
        if let traceLog { transaction.traceChallenge(to: traceLog) }
        let parameters = try transaction.getAuthenticationRequestParameters()
        progress(
            "AReq parameters built (message version \(parameters.messageVersion), sdkTransID \(parameters.sdkTransactionID))"
        )
        // The processing indicator, with the directory server's name, while the 3DS Server is asked.
        let indicator = (presenter as? any ProgressIndicator).map {
            transaction.getProgressView(indicator: $0, clock: ContinuousClock())
        }
        await indicator?.start()
        let clock = ContinuousClock()
        let asked = clock.now
        let response = try await askThreeDSServer(parameters)
        await indicator?.stop()
        capture?.saveResponse(response.json)
        observer?.observe(.server, asked.duration(to: clock.now))
        progress("3DS Server answered transStatus \(response.transStatus)")
        guard let challenge = response.challengeParameters else {
            var result = PaymentResult(
                flow: .frictionless, outcome: .frictionless, transStatus: response.transStatus,
                sdkTransID: parameters.sdkTransactionID)
            // Decoupled: no challenge, and the outcome comes through the results leg once the bank's app decides.
            if result.hasResultsLeg { await askResult(into: &result, wait: decoupledResultWait) }
            return result
        }
        let challenged = clock.now
        var channel: any ChallengeTransport = transport
        if let observer { channel = TimedTransport(base: channel, observer: observer) }
        if let capture { channel = CapturingTransport(base: channel, capture: capture) }
        if let auditLog { channel = AuditingTransport(base: channel, log: auditLog) }
        let outcome = try await transaction.challenge(
            challenge, presenter: presenter, timeout: timeout, transport: channel, clock: challengeClock)
        observer?.observe(.challenge, challenged.duration(to: clock.now))
        var result = result(of: outcome, sdkTransID: parameters.sdkTransactionID)
        await askResult(into: &result, wait: resultWait)
        return result
    }

    /// Asks the 3DS Server (or `--result-exec`'s command) for the challenge's (or the decoupled authentication's)
    /// result, waiting up to `wait` for it to be final; `threeds load` times it as the results leg.
    private func askResult(into result: inout PaymentResult, wait: Duration) async {
        await Self.askResult(
            into: &result, requestor: requestor, resultExec: resultExec, transport: transport, observer: observer,
            wait: wait)
    }

    /// The results leg of ``askResult(into:wait:)`` for any flow that knows the 3DS Server and the transaction (a
    /// Split-SDK load run's too).
    static func askResult(
        into result: inout PaymentResult, requestor: Requestor, resultExec: String?, transport: HTTPClientTransport,
        observer: (any PhaseObserver)?, wait: Duration
    ) async {
        let query: ResultQuery
        switch requestor {
        case .server(let url): query = ResultQuery(target: .server(url))
        case .exec(_, let timeLimit):
            guard let resultExec else {
                result.resultProblem = "give --result-exec to ask your 3DS Server"
                return
            }
            query = ResultQuery(target: .exec(command: resultExec, timeLimit: timeLimit))
        }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            result.authoritative = try await query.awaitFinal(
                .sdkTransID(result.sdkTransID), transport: transport, wait: wait)
            if result.authoritative?.isFinal == true { observer?.observe(.results, start.duration(to: clock.now)) }
        } catch {
            result.resultProblem = ReportText.line(readable(error))
        }
    }

    /// The AReq parameters to the 3DS Server (`--server`) or the tester's command (`--requestor-exec`), saved first
    /// when messages are captured; the ARes as the SDK reads it.
    private func askThreeDSServer(_ parameters: AuthenticationRequestParameters) async throws
        -> AuthenticationResponse
    {
        if let capture {
            capture.saveRequest(
                try ThreeDSServerClient.requestBody(
                    parameters: parameters, purchase: purchase, challengeTimeout: timeout))
        }
        switch requestor {
        case .server(let serverURL):
            let server: any ChallengeTransport =
                serverLog.map { ServerAuditingTransport(base: transport, log: $0) } ?? transport
            return try await ThreeDSServerClient(serverURL: serverURL, transport: server).authenticate(
                parameters: parameters, purchase: purchase, requestorAppURL: requestorAppURL, challengeTimeout: timeout)
        case .exec(let command, let timeLimit):
            let body = try ThreeDSServerClient.requestBody(
                parameters: parameters, purchase: purchase, challengeTimeout: timeout)
            return try await RequestorExec(command: command, timeLimit: timeLimit).authenticate(
                body, messageVersion: parameters.messageVersion, requestorAppURL: requestorAppURL)
        }
    }

    /// A challenge's outcome as the CLI reports it: the status, the error, and why a cancel happened when the input
    /// ended or an answers file did not fit the screen.
    private func result(of outcome: ChallengeOutcome, sdkTransID: String) -> PaymentResult {
        var result = PaymentResult(flow: .challenge, outcome: PaymentResult.Outcome(outcome), sdkTransID: sdkTransID)
        result.challengeOutcome = outcome
        switch outcome {
        case .completed(let status): result.transStatus = status
        case .protocolError(let message): result.error = message
        case .runtimeError(let failure):
            result.runtimeError = (failure.code.description, failure.message)
            result.transportFailure = failure.underlying as? TransportError
        case .cancelled, .timedOut: break
        }
        if case .cancelled = outcome, let terminal = presenter as? TerminalPresenter, terminal.inputEnded {
            result.cancelReason =
                "standard input ended before an answer (the ACS got challengeCancel 01); type the answer at a "
                + "terminal, or give --ui auto --answers FILE"
        }
        // A script that did not fit its screen cancelled only because it had to: that is the script's error.
        if let scripted = presenter as? ScriptedPresenter, let problem = scripted.problems.first {
            result.outcome = .runtimeError
            result.runtimeError = ("answers", "the answers file does not fit the challenge: \(problem)")
        }
        return result
    }
}
