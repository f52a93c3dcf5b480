import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// The 3DS Server round trip of one `conform` case, as sent and answered: the AReq body and the ARes, for the audit
/// of the ARes and its ACS signed content.
final class ServerRoundTripLog: Sendable {
    private let state = Locked<(request: [UInt8], response: [UInt8])?>(nil)

    /// The AReq body and the answer, once the 3DS Server answered.
    var roundTrip: (request: JSONObject?, response: JSONObject?)? {
        state.withLock { $0 }.map { (ConformExchangeLog.object($0.request), ConformExchangeLog.object($0.response)) }
    }

    func record(request: [UInt8], response: [UInt8]) { state.withLock { $0 = (request, response) } }

    /// The checks of the ARes and its signed content: none when the 3DS Server did not answer with a JSON object
    /// (the case's own failure says why).
    func checks(version: MessageVersion, allowsPlainHTTPLoopback: Bool) -> [ConformCheck] {
        guard let trip = roundTrip, let ares = trip.response else { return [] }
        let request = trip.request
        var checks = [
            MessageAudits.check("ARes", MessageAudits.authenticationResponse(ares, version: version))
        ]
        if ares["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:)) == .challengeRequired,
            let token = ares["acsSignedContent"]?.stringValue, !token.isEmpty
        {
            checks.append(
                MessageAudits.check(
                    "ACS signed content",
                    MessageAudits.signedContent(
                        token, sdkKey: MessageAudits.sdkKey(inAReq: request),
                        allowsPlainHTTPLoopback: allowsPlainHTTPLoopback)))
        }
        return checks
    }
}

/// A transport that hands the 3DS Server round trip to a ``ServerRoundTripLog``: only an answer with a 2xx status,
/// the same gate the client applies before it reads an ARes. A refusal (`400 {"error": …}`, a 401 or a 500) is the
/// case's setup failure, which the client reports; audited as an ARes it would blame the ACS for it.
struct ServerAuditingTransport: ChallengeTransport {
    let base: any ChallengeTransport
    let log: ServerRoundTripLog

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let response = try await base.send(request)
        if (200..<300).contains(response.status) {
            log.record(request: request.body, response: response.body)
        }
        return response
    }
}
