import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// The `timeout` suite's cardholder (`threeds conform --slow`): looks at the first screen and never answers, so the
/// SDK's challenge timeout ends the challenge. `shown` is told when the screen is up (a test then moves its clock).
final class UnansweredPresenter: ChallengePresenter {
    private let shown: @Sendable () -> Void
    private let count = Locked(0)

    init(shown: @escaping @Sendable () -> Void) {
        self.shown = shown
    }

    /// How many screens were shown.
    var screens: Int { count.withLock { $0 } }

    /// Waits until the challenge's timer cancels the screen; then answers cancel, which the SDK no longer reads.
    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        count.withLock { $0 += 1 }
        shown()
        // A stream nothing is ever sent on: iterating it ends only when the task is cancelled.
        let (waiting, holder) = AsyncStream<Never>.makeStream()
        for await _ in waiting {}
        holder.finish()
        return ChallengeAnswer(.cancel)
    }
}

extension ConformChecks {
    /// The `timeout` suite: the first screen left unanswered until the SDK's challenge timeout. The SDK must end the
    /// challenge as timed out and post Erro 402 to the ACS (its Erro for the overall timer); how the ACS answered that
    /// post is recorded, its side of the challenge closed from then on.
    func timeout() -> [ConformCheck] {
        let ended = ConformCheck.expect(
            payment.challengeOutcome == .timedOut, "the SDK ends the challenge as timed out", outcome)
        let posted = "the SDK posts Erro \(ProtocolErrorCode.transactionTimedOut.rawValue) to the ACS"
        let taken = "the ACS takes the SDK's Erro"
        guard let post = errorPosts.first else {
            return [ended, .failed(posted, "no Erro was posted"), .skipped(taken, "no Erro was posted")]
        }
        // The SDK's Erro, read by the messages layer as an ACS would (missing fields empty).
        let erro = ConformExchangeLog.object(post.request).map(ErrorMessage.init(received:))
        let code = erro.map(\.errorCode.rawValue).flatMap { $0.isEmpty ? nil : $0 } ?? "none"
        let component = erro.map(\.errorComponent.rawValue).flatMap { $0.isEmpty ? nil : $0 } ?? "none"
        let type = erro?.errorMessageType?.rawValue ?? "none"
        let sent = ConformCheck.expect(
            erro?.errorCode == .transactionTimedOut && erro?.errorComponent == .sdk && errorPosts.count == 1,
            posted,
            "Erro \(code) from component \(component) for the \(type), "
                + "\(errorPosts.count) Erro\(errorPosts.count == 1 ? "" : "s") posted")
        guard let status = post.status else {
            return [ended, sent, .failed(taken, "no answer within the Erro's bound: \(post.failure ?? "unknown")")]
        }
        return [
            ended, sent,
            .expect(
                (200..<300).contains(status), taken,
                "HTTP \(status), \(Self.describe(post)); the ACS's side of the challenge is then closed"),
        ]
    }

    /// The ACS's answer to an Erro in words, without repeating its text: empty, an Erro and its code, or its size.
    static func describe(_ post: ConformExchangeLog.Exchange) -> String {
        let body = post.response ?? []
        if body.isEmpty { return "empty body" }
        if let erro = ConformExchangeLog.object(body).map(ErrorMessage.init(received:)),
            case let code = erro.errorCode.rawValue, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return "an Erro \(code) of its own"
        }
        guard let contentType = post.contentType else { return "\(body.count) bytes, no Content-Type" }
        // The ACS's header, printable characters only and cut short: it reaches a terminal and the reports.
        let printable = contentType.unicodeScalars.prefix(60).filter { (0x20..<0x7F).contains($0.value) }
        return "\(body.count) bytes, Content-Type \(String(String.UnicodeScalarView(printable)))"
    }
}
