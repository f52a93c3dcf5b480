public import ThreeDS2JOSE
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
    case completed(transStatus: TransactionStatus)
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

/// Why a challenge ended in a runtime error, in the package's one error shape (`CodedError`).
/// Callers branch on ``code``; ``message`` says what happened; ``underlying`` keeps the cause (the
/// ``TransportError`` of a transport failure, the `JOSEError` of a signed-content failure, …).
/// Two failures are equal when their codes are.
public struct ChallengeFailure: DetailedCodedError, Sendable {
    /// The kinds of runtime failure. New codes may be added; do not rely on the list being complete.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case transport, signedContent, acsURL, keyAgreement, counter, invalidEntry, encryption, closed
            case internalError
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, as the runtime-error event carries it (`transport`, `signedContent`, …).
        public var description: String { "\(name)" }

        /// The ACS could not be reached or gave no usable HTTP response.
        public static let transport = Code(.transport)
        /// The ACS signed content failed verification or is malformed.
        public static let signedContent = Code(.signedContent)
        /// The ACS URL is not allowed (not https, or plain http off loopback).
        public static let acsURL = Code(.acsURL)
        /// ECDH or the channel keys failed.
        public static let keyAgreement = Code(.keyAgreement)
        /// A counter would pass 255.
        public static let counter = Code(.counter)
        /// The cardholder's entry breaks a CReq rule (it is not sent).
        public static let invalidEntry = Code(.invalidEntry)
        /// A CReq could not be encrypted.
        public static let encryption = Code(.encryption)
        /// The transaction was closed, or already ran its challenge.
        public static let closed = Code(.closed)
        /// A fault inside the SDK.
        public static let internalError = Code(.internalError)
    }

    /// The code, message, cause and place.
    public let details: ErrorDetails<Code>

    /// Creates the error from its details (`DetailedCodedError.init(_:_:underlying:file:line:)` creates one raised
    /// where it is called).
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.details = details }

    /// The transport failure's own code, when the transport failed.
    public var transportCode: TransportError.Code? { (underlying as? TransportError)?.code }
}

/// The event of a completed challenge.
public struct CompletionEvent: Sendable, Hashable {
    /// The SDK transaction ID.
    public let sdkTransactionID: String
    /// The transaction status from the final CRes (its letter is `transactionStatus.rawValue`).
    public let transactionStatus: TransactionStatus
}

/// The event of a protocol error.
public struct ProtocolErrorEvent: Sendable, Hashable {
    /// The SDK transaction ID.
    public let sdkTransactionID: String
    /// The Erro received or sent.
    public let errorMessage: ErrorMessage
}

/// The event of a runtime error: the EMVCo code and message, and the failure itself with its cause.
public struct RuntimeErrorEvent: Sendable, Hashable {
    /// A short code (`transport`, `signedContent`, `counter`, …).
    public var errorCode: String { failure.code.description }
    /// What went wrong.
    public var errorMessage: String { failure.message }
    /// The failure, with its typed ``ChallengeFailure/code`` and its ``ChallengeFailure/underlying`` cause.
    public let failure: ChallengeFailure

    /// The cause of the failure, when there is one (for a transport failure, the ``TransportError``, whose own
    /// `underlying` is the adapter's error).
    public var underlying: (any Error)? { failure.underlying }
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
            runtimeError(RuntimeErrorEvent(failure: failure))
        }
    }
}
