public import ThreeDS2Messages

/// What the app asks its backend after a challenge, or after a return link named a transaction that is gone
/// (``ReturnedTransaction/gone(sdkTransactionID:)``): the result of this transaction, as the ACS's Results Request
/// (RReq) gave it to the 3DS Server.
public struct ConfirmationRequest: Sendable, Hashable {
    /// The SDK transaction ID (`sdkTransID`), which the AReq carried: the backend maps it to its
    /// `threeDSServerTransID`.
    public var sdkTransactionID: String
    /// The 3DS Server's transaction ID from the ARes, when the app has it (after a challenge in this process; not
    /// after a restart).
    public var threeDSServerTransactionID: String?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - sdkTransactionID: The SDK transaction ID.
    ///   - threeDSServerTransactionID: The 3DS Server's transaction ID, when known.
    public init(sdkTransactionID: String, threeDSServerTransactionID: String? = nil) {
        self.sdkTransactionID = sdkTransactionID
        self.threeDSServerTransactionID = threeDSServerTransactionID
    }
}

/// What the app's backend answers when asked for a transaction's result: the status the ACS's Results Request gave
/// it, or not yet. A status only: the authentication value and the ECI stay with the backend, which uses them for
/// the authorisation.
///
/// Decodes from a backend answer in RReq field names: `transStatus` present is ``status(_:)``; absent (or `null`) is
/// ``pending``. Other fields are ignored and never kept.
public enum BackendResult: Sendable, Hashable, Decodable {
    /// The authoritative `transStatus` (`Y`, `N`, `U`, `A`, `R`, …), from the RReq.
    case status(TransactionStatus)
    /// The backend has no result yet: the ACS has sent no Results Request for this transaction.
    case pending

    private enum CodingKeys: String, CodingKey {
        case transStatus
    }

    /// Reads a backend answer.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a `transStatus` that is not a one-character status.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let status = try container.decodeIfPresent(TransactionStatus.self, forKey: .transStatus) {
            self = .status(status)
        } else {
            self = .pending
        }
    }
}

/// What came of the confirmation step of
/// ``ThreeDS2Service/authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:confirmation:)``.
public enum Confirmation: Sendable {
    /// The backend's authoritative status, from the ACS's Results Request.
    case confirmed(TransactionStatus)
    /// The backend has no result yet: treat the payment as pending and ask again later.
    case pending
    /// The backend call failed, or did not answer within the requestor timeout; the error is for logs.
    case failed(ThreeDS2Error)
    /// No challenge ran, so there was nothing to confirm: a frictionless ARes status is already the backend's, and
    /// a payment that failed before its challenge has no result.
    case notAsked
}

/// The outcome of a payment with a confirmation step: what the SDK saw (the final CRes) beside what the app's
/// backend says (the Results Request).
public struct ConfirmedOutcome: Sendable {
    /// What the SDK saw: frictionless, the challenge's outcome (with the final CRes status), cancelled or failed.
    public var outcome: AuthenticationOutcome
    /// What the backend said after the challenge.
    public var confirmation: Confirmation

    /// Creates the value.
    ///
    /// - Parameters:
    ///   - outcome: What the SDK saw.
    ///   - confirmation: What the backend said.
    public init(outcome: AuthenticationOutcome, confirmation: Confirmation) {
        self.outcome = outcome
        self.confirmation = confirmation
    }

    /// The status the payment goes on with: the backend's confirmed status after a challenge, the ARes status of a
    /// frictionless payment; `nil` while there is none (pending, the backend failed, or the payment failed before a
    /// result). Never the final CRes's status alone.
    public var transStatus: TransactionStatus? {
        switch (outcome, confirmation) {
        case (_, .confirmed(let status)): status
        case (.frictionless(let status), _): status
        default: nil
        }
    }

    /// The final CRes's status, when the challenge completed: informational for the app.
    public var challengeStatus: TransactionStatus? {
        if case .challenged(.completed(let status)) = outcome { return status }
        return nil
    }

    /// Whether the backend's status contradicts the final CRes's (for the app's logs: the backend's decides).
    public var disagrees: Bool {
        guard case .confirmed(let confirmed) = confirmation, let challengeStatus else { return false }
        return confirmed != challengeStatus
    }
}
