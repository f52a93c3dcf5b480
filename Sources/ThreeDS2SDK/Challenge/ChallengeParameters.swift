public import ThreeDS2Messages

/// What the app passes to start a challenge, from the ARes its 3DS Server received.
public struct ChallengeParameters: Sendable, Hashable {
    /// The 3DS Server transaction ID.
    public var threeDSServerTransactionID: String
    /// The ACS transaction ID.
    public var acsTransactionID: String
    /// The ACS reference number.
    public var acsRefNumber: String
    /// The ACS signed content (a JWS).
    public var acsSignedContent: String
    /// The 3DS Requestor app URL (2.2.0 and later), sent in every CReq when set.
    public var threeDSRequestorAppURL: String?

    /// Creates the parameters.
    public init(
        threeDSServerTransactionID: String, acsTransactionID: String, acsRefNumber: String, acsSignedContent: String,
        threeDSRequestorAppURL: String? = nil
    ) {
        self.threeDSServerTransactionID = threeDSServerTransactionID
        self.acsTransactionID = acsTransactionID
        self.acsRefNumber = acsRefNumber
        self.acsSignedContent = acsSignedContent
        self.threeDSRequestorAppURL = threeDSRequestorAppURL
    }
}

/// How a challenge ended. Exactly one outcome is delivered per challenge.
public enum ChallengeOutcome: Sendable, Hashable {
    /// The ACS sent a final CRes; `transStatus` is `Y` or `N`.
    case completed(transStatus: String)
    /// The cardholder cancelled.
    case cancelled
    /// The challenge timed out (the overall timer, or no CRes within 10 seconds).
    case timedOut
    /// An Erro was received from the ACS, or the SDK found a protocol violation and sent one.
    case protocolError(ErrorMessage)
    /// Anything else: the ACS unreachable, its signed content invalid, a transport failure.
    case runtimeError(ChallengeFailure)

    /// The outcome's name as the EMVCo receiver calls it (`completed`, `cancelled`, `timedout`, …).
    public var name: String {
        switch self {
        case .completed: "completed"
        case .cancelled: "cancelled"
        case .timedOut: "timedout"
        case .protocolError: "protocolError"
        case .runtimeError: "runtimeError"
        }
    }
}

/// Why a challenge ended in a runtime error. Callers branch on ``code``; ``message`` says what happened.
public struct ChallengeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of runtime failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The ACS could not be reached or gave no usable HTTP response.
        case transport
        /// The ACS signed content failed verification or is malformed.
        case signedContent
        /// The ACS URL is not allowed (not https, or plain http off loopback).
        case acsURL
        /// ECDH or the channel keys failed.
        case keyAgreement
        /// A counter would pass 255.
        case counter
        /// The cardholder's entry breaks a CReq rule (it is not sent).
        case invalidEntry
        /// A CReq could not be encrypted.
        case encryption
        /// The transaction was closed, or already ran its challenge.
        case closed
        /// A fault inside the SDK.
        case internalError
    }

    /// What kind of failure it was.
    public let code: Code
    /// What happened, in words.
    public let message: String
    /// The transport failure's own code, when the transport failed.
    public let transportCode: TransportError.Code?

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened.
    ///   - transportCode: The transport failure's code, when there is one.
    public init(_ code: Code, _ message: String, transportCode: TransportError.Code? = nil) {
        self.code = code
        self.message = message
        self.transportCode = transportCode
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// The event of a completed challenge.
public struct CompletionEvent: Sendable, Hashable {
    /// The SDK transaction ID.
    public let sdkTransactionID: String
    /// The transaction status from the final CRes.
    public let transactionStatus: String
}

/// The event of a protocol error.
public struct ProtocolErrorEvent: Sendable, Hashable {
    /// The SDK transaction ID.
    public let sdkTransactionID: String
    /// The Erro received or sent.
    public let errorMessage: ErrorMessage
}

/// The event of a runtime error.
public struct RuntimeErrorEvent: Sendable, Hashable {
    /// A short code (`transport`, `signedContent`, `counter`, …).
    public let errorCode: String
    /// What went wrong.
    public let errorMessage: String
}

/// Receives the one outcome of a challenge (EMVCo `ChallengeStatusReceiver`).
///
/// The requirements are main-actor isolated: the SDK calls the receiver on the main actor, so a `@MainActor` view
/// model conforms as written and may update its UI from the callback.
public protocol ChallengeStatusReceiver: Sendable {
    /// The challenge completed with a final CRes.
    @MainActor func completed(_ event: CompletionEvent)
    /// The cardholder cancelled.
    @MainActor func cancelled()
    /// The challenge timed out.
    @MainActor func timedout()
    /// A protocol error.
    @MainActor func protocolError(_ event: ProtocolErrorEvent)
    /// A runtime error.
    @MainActor func runtimeError(_ event: RuntimeErrorEvent)
}

extension ChallengeStatusReceiver {
    @MainActor func deliver(_ outcome: ChallengeOutcome, sdkTransactionID: String) {
        switch outcome {
        case .completed(let status):
            completed(CompletionEvent(sdkTransactionID: sdkTransactionID, transactionStatus: status))
        case .cancelled: cancelled()
        case .timedOut: timedout()
        case .protocolError(let message):
            protocolError(ProtocolErrorEvent(sdkTransactionID: sdkTransactionID, errorMessage: message))
        case .runtimeError(let failure):
            runtimeError(RuntimeErrorEvent(errorCode: failure.code.rawValue, errorMessage: failure.message))
        }
    }
}
