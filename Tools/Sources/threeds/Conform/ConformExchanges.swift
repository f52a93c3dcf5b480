import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// What one `conform` case sent and received on the challenge channel: the SDK's own trace of the challenge
/// (``ChallengeTrace``: each CReq with its entries redacted, each answer as the SDK read it, what it expected and the
/// audit), and the raw POSTs for what only the wire shows (HTTP status, `Content-Type`, the SDK's Erros). No key is
/// needed to read it, so an ACS on any host can be audited; the channel key reaches this log only under
/// `--save-channel-keys-for` (for `keys.json`), and is never used to read anything here.
final class ConformExchangeLog: ChallengeTraceLog, ChannelKeyLog {
    /// One POST to the ACS: a CReq (or the SDK's Erro) and the ACS's answer, as bytes.
    struct Exchange {
        let url: URL
        let request: [UInt8]
        let response: [UInt8]?
        /// The answer's HTTP status and `Content-Type`, when one came.
        var status: Int?
        var contentType: String?
        /// Why no answer came (the transport's failure), when none did.
        var failure: String?

        /// Whether the POST was a plain Erro of the SDK's (JSON), not a CReq (a JWE).
        var isError: Bool { ChallengeChannelBody(request).error != nil }
    }

    private let state = Locked<(trace: ChallengeTrace?, entry: ChannelKeyEntry?, exchanges: [Exchange])>(
        (nil, nil, []))

    func record(_ trace: ChallengeTrace) { state.withLock { $0.trace = trace } }

    func record(_ entry: ChannelKeyEntry) { state.withLock { $0.entry = entry } }

    func add(_ exchange: Exchange) { state.withLock { $0.exchanges.append(exchange) } }

    /// The channel key's entry, when `--save-channel-keys-for` asked for it and the challenge started.
    var entry: ChannelKeyEntry? { state.withLock { $0.entry } }

    /// The SDK's trace of the challenge, once it ended.
    var trace: ChallengeTrace? { state.withLock { $0.trace } }

    /// The exchanges, in order.
    var exchanges: [Exchange] { state.withLock { $0.exchanges } }

    /// The Erros the SDK posted to the ACS, each with the ACS's answer, in order.
    var errorPosts: [Exchange] { exchanges.filter(\.isError) }

    /// The CReqs (entries redacted) and the answers, as the SDK read and audited them; with `strict`, each CRes
    /// audited again against the specification's letter (the rules the SDK tolerates too).
    func decoded(strict: Bool = false) -> [ConformExchange] {
        guard let trace else { return [] }
        return trace.exchanges.enumerated().map { index, exchange in
            let response: ConformExchange.Response =
                switch exchange.answer {
                case .response(let object, let expectation, let audit):
                    .cres(
                        object,
                        strict
                            ? ChallengeResponseValidator.audit(object, expecting: expectation, strict: true) : audit)
                case .error(let object): .erro(object)
                case .plaintext(let object): .plaintext(object)
                case .unreadable(let reason): .unreadable(reason)
                case .undecryptable(let finding): .undecryptable(finding)
                case .none: .none
                }
            return ConformExchange(number: index + 1, request: exchange.request, response: response)
        }
    }

    static func object(_ bytes: [UInt8]?) -> JSONObject? {
        guard let bytes, case .object(let object)? = try? JSONParser().parse(bytes) else { return nil }
        return object
    }
}

/// One CReq and the ACS's answer, read.
struct ConformExchange {
    /// What the ACS answered.
    enum Response {
        /// A CRes the SDK decrypted, and its audit.
        case cres(JSONObject, ConformanceAudit<ChallengeResponse>)
        /// An Erro from the ACS.
        case erro(JSONObject)
        /// A CRes (any JSON object but an Erro) sent unencrypted.
        case plaintext(JSONObject)
        /// A body that starts as JSON but is not a JSON object: why, as the SDK said it.
        case unreadable(String)
        /// A body that does not decrypt under the channel keys, or whose plaintext is not a JSON object: the rule.
        case undecryptable(ConformanceFinding)
        /// No answer (a transport failure or timeout).
        case none
    }

    /// The exchange's number in the challenge, from 1.
    let number: Int
    /// The CReq, decrypted.
    let request: JSONObject?
    let response: Response

    /// The CReq, read by the messages layer; `nil` when there was none or it broke a rule of its version.
    var creq: ReceivedChallengeRequest? { request.flatMap { try? ReceivedChallengeRequest(reading: $0) } }

    /// The CRes, when the answer was one.
    var cres: JSONObject? {
        if case .cres(let object, _) = response { return object }
        return nil
    }

    /// What the CRes said, read by the messages layer (the audit's reading): `nil` for any other answer, and for a CRes
    /// that broke a rule (the behaviour checks do not run then).
    var reading: ChallengeResponse? {
        if case .cres(_, let audit) = response { return audit.reading }
        return nil
    }

    /// The audit's findings, when the answer was a CRes.
    var findings: [ConformanceFinding] {
        if case .cres(_, let audit) = response { return audit.findings }
        return []
    }
}

/// A transport that hands each POST to the ACS and its answer to a ``ConformExchangeLog``.
struct AuditingTransport: ChallengeTransport {
    let base: any ChallengeTransport
    let log: ConformExchangeLog

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard request.method == .post else { return try await base.send(request) }
        do {
            let response = try await base.send(request)
            log.add(
                .init(
                    url: request.url, request: request.body, response: response.body, status: response.status,
                    contentType: response.contentType))
            return response
        } catch {
            log.add(.init(url: request.url, request: request.body, response: nil, failure: error.message))
            throw error
        }
    }
}
