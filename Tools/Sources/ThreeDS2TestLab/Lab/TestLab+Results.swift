import Foundation
import Hummingbird
import NIOCore
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

// The results leg's endpoints (Tools/README.md, "The results leg"): the requestor backend's result query on the
// 3DS Server, and the bank's app's decision on the ACS.
extension TestLab {
    /// What a bank's-app decision did.
    public enum OutOfBandDecisionOutcome: Sendable, Hashable {
        /// Recorded; whether the RReq went at once (behaviour A).
        case recorded(resultsSent: Bool)
        /// No challenge with that identifier.
        case unknownTransaction
        /// The challenge had already ended.
        case alreadyFinished
    }

    /// The transaction's result as the lab's 3DS Server holds it, by its `threeDSServerTransID`.
    ///
    /// - Parameter threeDSServerTransID: The 3DS Server transaction ID.
    /// - Returns: The result, or `nil` for an unknown (or expired) transaction.
    public func result(threeDSServerTransID: String) -> TransactionResult? {
        results.result(threeDSServerTransID: threeDSServerTransID)
    }

    /// The transaction's result, by the SDK's transaction ID.
    ///
    /// - Parameter sdkTransID: The SDK transaction ID.
    /// - Returns: The result, or `nil` for an unknown (or expired) transaction.
    public func result(sdkTransID: String) -> TransactionResult? { results.result(sdkTransID: sdkTransID) }

    /// The bank's app approves (or declines) an out-of-band challenge, as `POST /acs/oob-decision` does.
    ///
    /// - Parameters:
    ///   - sdkTransID: The SDK transaction ID of the challenge.
    ///   - approved: Whether the cardholder approved.
    /// - Returns: What the decision did.
    public func decideOutOfBand(sdkTransID: String, approved: Bool) async -> OutOfBandDecisionOutcome {
        guard let acsTransID = results.result(sdkTransID: sdkTransID)?.transaction.identifiers.acsTransID else {
            return .unknownTransaction
        }
        return await decideOutOfBand(acsTransID: acsTransID, approved: approved)
    }

    /// The bank's app approves (or declines) an out-of-band challenge, by the ACS transaction ID.
    ///
    /// - Parameters:
    ///   - acsTransID: The ACS transaction ID.
    ///   - approved: Whether the cardholder approved.
    /// - Returns: What the decision did.
    public func decideOutOfBand(acsTransID: String, approved: Bool) async -> OutOfBandDecisionOutcome {
        switch await acs.decide(acsTransID: acsTransID, approved: approved) {
        case .recorded(let sent): .recorded(resultsSent: sent)
        case .unknown: .unknownTransaction
        case .finished: .alreadyFinished
        }
    }

    /// The ACS transaction ID of a challenge, from whichever identifier the caller has.
    func acsTransID(acsTransID: String?, threeDSServerTransID: String?, sdkTransID: String?) -> String? {
        if let acsTransID { return acsTransID }
        let result =
            threeDSServerTransID.flatMap { self.result(threeDSServerTransID: $0) }
            ?? sdkTransID.flatMap { self.result(sdkTransID: $0) }
        return result?.transaction.identifiers.acsTransID
    }

    /// `GET /3ds/result?threeDSServerTransID=…` or `?sdkTransID=…` (the 3DS Server), and
    /// `POST /acs/oob-decision?sdkTransID=…|acsTransID=…|threeDSServerTransID=…&decision=approve|decline` (the ACS,
    /// for the bank's app).
    static func addResultsRoutes(to router: Router<BasicRequestContext>, lab box: ACSBox) {
        router.get("3ds/result") { request, _ -> Response in
            guard let lab = box.lab else { return Response(status: .serviceUnavailable) }
            let query = request.uri.queryParameters
            let server = query["threeDSServerTransID"].map(String.init)
            let sdk = query["sdkTransID"].map(String.init)
            guard (server == nil) != (sdk == nil) else {
                return TestLab.json(
                    ["error": .string("give threeDSServerTransID or sdkTransID, one of them")], status: .badRequest)
            }
            let found =
                server.map { lab.result(threeDSServerTransID: $0) } ?? sdk.flatMap { lab.result(sdkTransID: $0) }
            guard let found else { return TestLab.json(["error": .string("no such transaction")], status: .notFound) }
            return TestLab.json(found.json)
        }
        router.post("acs/oob-decision") { request, _ -> Response in
            guard let lab = box.lab else { return Response(status: .serviceUnavailable) }
            let query = request.uri.queryParameters
            let decision = query["decision"].map(String.init) ?? "approve"
            guard ["approve", "decline"].contains(decision) else {
                return TestLab.json(["error": .string("decision is approve or decline")], status: .badRequest)
            }
            let acsID = lab.acsTransID(
                acsTransID: query["acsTransID"].map(String.init),
                threeDSServerTransID: query["threeDSServerTransID"].map(String.init),
                sdkTransID: query["sdkTransID"].map(String.init))
            guard let acsID else { return TestLab.json(["error": .string("no such transaction")], status: .notFound) }
            switch await lab.decideOutOfBand(acsTransID: acsID, approved: decision == "approve") {
            case .recorded(let sent):
                return TestLab.json([
                    "acsTransID": .string(acsID), "decision": .string(decision), "resultsRequestSent": .bool(sent),
                ])
            case .unknownTransaction: return TestLab.json(["error": .string("no such challenge")], status: .notFound)
            case .alreadyFinished: return TestLab.json(["error": .string("the challenge has ended")], status: .conflict)
            }
        }
    }
}
