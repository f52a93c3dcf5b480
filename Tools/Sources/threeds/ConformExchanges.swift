import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// What one `conform` case sent and received on the challenge channel, with the channel key to read it: the key
/// stays in memory (it reaches a file only under `--save-channel-keys-for`).
final class ConformExchangeLog: ChannelKeyLog {
    /// One POST to the ACS: a CReq (or the SDK's Erro) and the ACS's answer.
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
        var isError: Bool { MessageCapture.isPlainJSON(request) }
    }

    private let state = Locked<(entry: ChannelKeyEntry?, exchanges: [Exchange])>((nil, []))

    func record(_ entry: ChannelKeyEntry) { state.withLock { $0.entry = entry } }

    func add(_ exchange: Exchange) { state.withLock { $0.exchanges.append(exchange) } }

    /// The channel key's entry, once the challenge started.
    var entry: ChannelKeyEntry? { state.withLock { $0.entry } }

    /// The exchanges, in order.
    var exchanges: [Exchange] { state.withLock { $0.exchanges } }

    /// The Erros the SDK posted to the ACS, each with the ACS's answer, in order.
    var errorPosts: [Exchange] { exchanges.filter(\.isError) }

    /// The CReqs and CRes decrypted, each CRes audited against what the SDK expected of it.
    func decoded() -> [ConformExchange] {
        guard let entry else { return [] }
        let keys = ChannelKeys(derived: entry.derivedKey)
        let kid = entry.identifiers.acsTransID
        var result: [ConformExchange] = []
        var counter = 0
        var opensApps = false
        var bridging = false
        for exchange in exchanges where !exchange.isError {
            let number = result.count + 1
            let request = Self.object(
                try? keys.decrypt(String(decoding: exchange.request, as: UTF8.self), fromSDK: true, acsTransID: kid)
                    .plaintext)
            if number == 1, let request {
                opensApps =
                    request["oobAppURLInd"]?.stringValue.flatMap(OOBAppURLIndicator.init(rawValue:)) == .supported
                bridging =
                    entry.messageVersion.carriesBridging && (try? Bridging.read(request["messageExtension"])) != nil
            }
            let response: ConformExchange.Response
            if let body = exchange.response, !body.isEmpty {
                if MessageCapture.isPlainJSON(body) {
                    response = .erro(Self.object(body) ?? [:])
                } else if let object = Self.object(
                    try? keys.decrypt(String(decoding: body, as: UTF8.self), fromSDK: false, acsTransID: kid).plaintext)
                {
                    let expectation = ChallengeResponseExpectation(
                        identifiers: entry.identifiers, messageVersion: entry.messageVersion, acsCounter: counter,
                        opensOOBApps: opensApps, announcedBridging: bridging)
                    response = .cres(object, ChallengeResponseValidator.audit(object, expecting: expectation))
                    counter += 1
                } else {
                    response = .unreadable
                }
            } else {
                response = .none
            }
            result.append(ConformExchange(number: number, request: request, response: response))
        }
        return result
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
        /// A CRes, decrypted, and its audit.
        case cres(JSONObject, ConformanceAudit<ChallengeResponse>)
        /// An Erro from the ACS.
        case erro(JSONObject)
        /// A body that does not decrypt with the channel key, or is not JSON.
        case unreadable
        /// No answer (a transport failure or timeout).
        case none
    }

    /// The exchange's number in the challenge, from 1.
    let number: Int
    /// The CReq, decrypted.
    let request: JSONObject?
    let response: Response

    /// The CRes, when the answer was one.
    var cres: JSONObject? {
        if case .cres(let object, _) = response { return object }
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
