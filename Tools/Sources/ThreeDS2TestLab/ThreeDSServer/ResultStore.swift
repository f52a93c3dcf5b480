import Foundation
public import ThreeDS2ACSKit
public import ThreeDS2JOSE
public import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// What the TestLab 3DS Server knows of one transaction's outcome: the ARes it sent, and each RReq the DS passed it
/// with the answer it gave. ``TestLab/result(threeDSServerTransID:)`` and `GET /3ds/result` give it to the requestor
/// backend.
public struct TransactionResult: Sendable {
    /// One RReq received and what the 3DS Server answered.
    public struct Exchange: Sendable {
        /// The RReq as received.
        public var request: JSONObject
        /// The RRes, or `nil` when the RReq was refused.
        public var response: ResultsResponse?
        /// The refusal (the Erro's code and field), or `nil` when answered with an RRes.
        public var refusal: ResultsFinding?
        /// How long after the ARes it arrived.
        public var afterAuthentication: Duration
    }

    /// The identifiers the transaction's RReq must carry.
    public var transaction: ResultsRequestValidator.Transaction
    /// When the ARes was sent.
    let authenticatedAt: ContinuousClock.Instant
    /// Every RReq received for it, in order.
    public var exchanges: [Exchange] = []

    /// The accepted RReq (the first answered with an RRes), if any.
    public var accepted: JSONObject? { exchanges.first { $0.response != nil }?.request }

    /// The authoritative `transStatus`: a frictionless ARes's, or the accepted RReq's; `nil` while a challenge's
    /// result is pending.
    public var transStatus: TransactionStatus? {
        if let accepted { return accepted["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:)) }
        let challenged: [TransactionStatus] = [.challengeRequired, .decoupled]
        return challenged.contains(transaction.authenticationStatus) ? nil : transaction.authenticationStatus
    }

    /// The result as the endpoint gives it (Tools/README.md, "The results leg"): identifiers, `state` (`pending`
    /// or `final`), `source` (`ARes` or `RReq`), the outcome fields, how many RReqs came and which were refused.
    public var json: JSONObject {
        let ids = transaction.identifiers
        var object: JSONObject = [
            "threeDSServerTransID": .string(ids.threeDSServerTransID), "acsTransID": .string(ids.acsTransID),
            "dsTransID": .string(transaction.dsTransID), "sdkTransID": .string(ids.sdkTransID),
            "messageVersion": .string(transaction.messageVersion.rawValue),
            "aresTransStatus": .string(transaction.authenticationStatus.rawValue),
            "state": .string(transStatus == nil ? "pending" : "final"),
            "resultsRequestCount": .number(String(exchanges.count)),
        ]
        if let transStatus {
            object["transStatus"] = .string(transStatus.rawValue)
            object["source"] = .string(accepted == nil ? "ARes" : "RReq")
        }
        if let accepted {
            for name in ["transStatusReason", "authenticationValue", "eci", "challengeCancel"] {
                if let value = accepted[name] { object[name] = value }
            }
            object["resultsRequest"] = .object(accepted)
        }
        if let first = exchanges.first(where: { $0.response != nil }) {
            object["resultsLatencyMilliseconds"] = .number(String(first.afterAuthentication.milliseconds))
        }
        let refusals = exchanges.compactMap(\.refusal).map { finding -> JSONValue in
            .object(["errorCode": .string(finding.code.rawValue), "errorDetail": .string(finding.field)])
        }
        if !refusals.isEmpty { object["refusals"] = .array(refusals) }
        return object
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// The 3DS Server's transactions and results, bounded and expiring like the ACS's state; found by
/// `threeDSServerTransID` or by `sdkTransID`.
final class ResultStore: Sendable {
    private struct State {
        var results: ExpiringStore<String, TransactionResult>
        var bySDKTransID: ExpiringStore<String, String>
    }

    private let state: Locked<State>

    init(capacity: Int, lifetime: Duration) {
        state = Locked(
            State(
                results: ExpiringStore(capacity: capacity, lifetime: lifetime),
                bySDKTransID: ExpiringStore(capacity: capacity, lifetime: lifetime)))
    }

    /// Records a transaction at its ARes.
    func begin(_ transaction: ResultsRequestValidator.Transaction) {
        state.withLock {
            let id = transaction.identifiers.threeDSServerTransID
            $0.results.insert(TransactionResult(transaction: transaction, authenticatedAt: .now), for: id)
            $0.bySDKTransID.insert(id, for: transaction.identifiers.sdkTransID)
        }
    }

    /// The result for a 3DS Server transaction ID, or for an SDK transaction ID.
    func result(threeDSServerTransID: String? = nil, sdkTransID: String? = nil) -> TransactionResult? {
        state.withLock { state in
            state.results.prune()
            let id = threeDSServerTransID ?? sdkTransID.flatMap { state.bySDKTransID[$0] }
            return id.flatMap { state.results[$0] }
        }
    }

    /// Takes an RReq as the DS passes it: validated against its transaction, stored, answered with an RRes or an
    /// Erro (plain JSON bytes).
    func receive(_ body: [UInt8]) -> [UInt8] {
        guard case .object(let request)? = try? JSONParser(limits: .init(maxBytes: 64 * 1024, maxDepth: 8)).parse(body)
        else {
            let finding = ResultsFinding(.messageReceivedInvalid, "RReq", "not a JSON object")
            return ResultsRequestValidator.error(for: finding, in: [:]).json.serializedBytes
        }
        return state.withLock { state -> [UInt8] in
            let id = request["threeDSServerTransID"]?.stringValue ?? ""
            var stored = state.results[id]
            let validator = ResultsRequestValidator(transaction: stored?.transaction)
            let findings = validator.findings(in: request)
            let answer: [UInt8]
            var exchange = TransactionResult.Exchange(
                request: request, response: nil, refusal: findings.first,
                afterAuthentication: stored.map { ContinuousClock.now - $0.authenticatedAt } ?? .zero)
            if let first = findings.first {
                answer = ResultsRequestValidator.error(for: first, in: request).json.serializedBytes
            } else {
                let version = stored?.transaction.messageVersion ?? .highest
                let response = ResultsResponse(answering: request, version: version)
                exchange.response = response
                stored?.transaction.hasResult = true
                answer = response.json.serializedBytes
            }
            stored?.exchanges.append(exchange)
            if let stored { state.results[id] = stored }
            return answer
        }
    }
}
