import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TestLab

/// The behaviour checks of one case: what the ACS did with the answers the suite gave. What only the ACS's database
/// knows (whether the code was really sent, the attempts left on the card) is out of reach.
struct ConformChecks {
    let card: ConformPlan.Card
    let payment: PaymentResult
    let exchanges: [ConformExchange]
    /// Why the scripted answers did not fit, if they did not.
    let problems: [String]
    /// The Erros the SDK posted to the ACS, with its answers.
    var errorPosts: [ConformExchangeLog.Exchange] = []

    /// The CRes received, in order, as the messages layer read them (the behaviour checks run only when every CRes
    /// kept the rules, so each has its reading).
    var responses: [ChallengeResponse] { exchanges.compactMap(\.reading) }

    /// The screens among ``responses``, in order.
    var screens: [ChallengeScreen] { responses.compactMap(\.screen) }

    func checks(_ suite: ConformPlan.Suite) -> [ConformCheck] {
        guard payment.flow != .none else {
            // The run's own failure before any challenge (TLS, the 3DS Server, the command): not the ACS's.
            return [.error(suite.title + " runs", payment.runtimeError?.message ?? payment.summary)]
        }
        switch suite {
        case .right: return right()
        case .wrong: return wrong()
        case .resend: return resend()
        case .cancel: return cancel()
        case .appSwitch: return [ended(in: card.expectedStatus, "app switch, back from the app")]
        case .timeout: return timeout()
        }
    }

    /// The outcome in words, with the ACS's Erro or the answers' mismatch when there was one.
    var outcome: String {
        if let problem = problems.first { return "\(payment.summary) (\(problem))" }
        return payment.summary
    }

    /// The challenge ended with a final CRes of `status`.
    func ended(in status: TransactionStatus, _ what: String) -> ConformCheck {
        .expect(
            payment.challengeOutcome == .completed(transStatus: status), "\(what) ends with transStatus \(status)",
            outcome)
    }

    private func right() -> [ConformCheck] {
        let status = card.expectedStatus
        guard card.kind != .frictionless else {
            return [
                .expect(payment.flow == .frictionless, "no challenge", payment.summary),
                .expect(payment.transStatus == status, "ARes transStatus \(status)", payment.summary),
            ]
        }
        guard payment.flow == .challenge else {
            return [.failed("a challenge (\(card.kind.name))", payment.summary)]
        }
        let seen = responses.first?.screen?.uiType
        let expected = card.kind.uiType
        return [
            .expect(
                seen == expected,
                "first screen is \(card.kind.name) (acsUiType \(expected?.rawValue ?? "none"))",
                responses.first.map(Self.describe) ?? "no CRes"),
            ended(in: status, "the right answer"),
        ]
    }

    private func wrong() -> [ConformCheck] {
        let answers = max(0, exchanges.count - 1)
        let limit: ConformCheck
        switch payment.challengeOutcome {
        case .completed(let status)? where status != .authenticated:
            limit = .passed(
                "wrong answers are limited",
                "transStatus \(status) after \(answers) wrong answer\(answers == 1 ? "" : "s")")
        case .cancelled? where !problems.isEmpty:
            limit = .failed(
                "wrong answers are limited", "still asking after \(ConformPlan.maxWrongAnswers) wrong answers")
        default:
            limit = .failed("wrong answers are limited", outcome)
        }
        // Each screen that follows a wrong answer says so: a text other than the first screen's, or the indicator
        // that the text changed.
        var retry = ConformCheck.passed(
            "retry screens say the answer was wrong", "no retry screen: the ACS ended at once")
        if let first = screens.first, screens.count > 1 {
            let silent = screens.enumerated().dropFirst().filter { _, next in
                !next.showsWarningIndicator && next.infoText == first.infoText && next.html == first.html
            }.map { $0.offset + 1 }
            retry = .expect(
                silent.isEmpty, "retry screens say the answer was wrong",
                silent.isEmpty
                    ? "\(screens.count - 1) retry screen\(screens.count == 2 ? "" : "s"), each with a changed text"
                    : "CRes " + silent.map(String.init).joined(separator: ", ")
                        + ": the first screen's text again, challengeInfoTextIndicator not Y")
        }
        return [limit, retry]
    }

    private func resend() -> [ConformCheck] {
        let first = responses.first?.screen?.uiType
        let second = responses.dropFirst().first
        let screen = second?.screen.map { $0.uiType == first } ?? false
        return [
            .expect(
                screen, "resend gives a new screen",
                second.map { "CRes 2: " + Self.describe($0) } ?? "no CRes to the resend CReq"),
            ended(in: card.expectedStatus, "the right answer after a resend"),
        ]
    }

    private func cancel() -> [ConformCheck] {
        let last = exchanges.last
        let cancelled = last?.creq?.action?.isCancel == true
        let finalStatus = last?.reading?.finalStatus
        let final = finalStatus != nil
        let status = finalStatus?.rawValue ?? "none"
        return [
            .expect(payment.challengeOutcome == .cancelled, "cancel ends the challenge", outcome),
            .expect(
                cancelled && final, "challengeCancel is answered with a final CRes",
                cancelled
                    ? (final
                        ? "final CRes, transStatus \(status)" : "the answer to challengeCancel is not a final CRes")
                    : "no challengeCancel was sent"),
            // A cardholder who cancelled was not authenticated: the final CRes may not say Y.
            .expect(
                !(cancelled && finalStatus == .authenticated),
                "challengeCancel is not answered with transStatus Y",
                cancelled && final ? "final CRes, transStatus \(status)" : "no final CRes to challengeCancel"),
        ]
    }

    /// A CRes in words: its screen's UI type, or its final status.
    static func describe(_ response: ChallengeResponse) -> String {
        switch response {
        case .screen(let screen): "a screen, acsUiType \(screen.uiType.rawValue)"
        case .final(let status): "final, transStatus \(status)"
        }
    }
}

extension ChallengeResponse {
    /// The screen, when the CRes shows one.
    var screen: ChallengeScreen? {
        guard case .screen(let screen) = self else { return nil }
        return screen
    }

    /// The transaction status, when the CRes is final.
    var finalStatus: TransactionStatus? {
        guard case .final(let status) = self else { return nil }
        return status
    }
}
