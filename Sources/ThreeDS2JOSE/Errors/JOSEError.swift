/// An error from the JOSE layer: what kind of check failed, and a message that names the part, header or
/// certificate concerned. It has the package's one error shape (``CodedError``).
///
/// Two errors are equal when their codes are equal, so tests and callers can match on the kind of failure while
/// the message stays free to describe the exact input.
public struct JOSEError: DetailedCodedError, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case inputTooLarge, malformedBase64, malformedJSON, duplicateMember, malformedCompactSerialization,
                invalidHeader, unsupportedAlgorithm, unexpectedAlgorithm, unexpectedEncryption, unexpectedKeyID,
                unsupportedHeaderParameter, invalidKey, pointNotOnCurve, invalidIV, authenticationFailed,
                decryptionFailed, invalidSignature, invalidCertificate, certificateExpired, untrustedCertificateChain,
                keyUsageNotPermitted, cryptographicFailure
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// An input is larger than the configured bound.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// A base64url or base64 value is not in strict canonical form.
        public static let malformedBase64 = Code(.malformedBase64)
        /// A value is not well-formed JSON, or breaks a structural bound (nesting depth).
        public static let malformedJSON = Code(.malformedJSON)
        /// A JSON object names the same member twice.
        public static let duplicateMember = Code(.duplicateMember)
        /// A compact serialization has the wrong number of parts, or a part that must be empty is not.
        public static let malformedCompactSerialization = Code(.malformedCompactSerialization)
        /// A header member is missing or has the wrong type or value.
        public static let invalidHeader = Code(.invalidHeader)
        /// The `alg` is not one this layer implements (including `none`).
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The `alg` is implemented but not the one the caller expects.
        public static let unexpectedAlgorithm = Code(.unexpectedAlgorithm)
        /// The `enc` is not implemented or not one the caller accepts.
        public static let unexpectedEncryption = Code(.unexpectedEncryption)
        /// The `kid` is missing or differs from the one the caller expects.
        public static let unexpectedKeyID = Code(.unexpectedKeyID)
        /// A header parameter this layer does not process is present (`crit`, `zip`).
        public static let unsupportedHeaderParameter = Code(.unsupportedHeaderParameter)
        /// A key is malformed, of the wrong type or size, or carries private material where only public is allowed.
        public static let invalidKey = Code(.invalidKey)
        /// An elliptic-curve point is not on P-256.
        public static let pointNotOnCurve = Code(.pointNotOnCurve)
        /// An IV has the wrong length for the content encryption.
        public static let invalidIV = Code(.invalidIV)
        /// The authentication tag did not match.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// Decryption failed after authentication, or a key could not be unwrapped.
        public static let decryptionFailed = Code(.decryptionFailed)
        /// A signature did not verify.
        public static let invalidSignature = Code(.invalidSignature)
        /// A certificate could not be decoded or used.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// A certificate is outside its validity period at the validation time.
        public static let certificateExpired = Code(.certificateExpired)
        /// The certificate chain does not lead to a trusted root under the RFC 5280 policy.
        public static let untrustedCertificateChain = Code(.untrustedCertificateChain)
        /// The signing certificate's key-usage extension does not allow digital signatures.
        public static let keyUsageNotPermitted = Code(.keyUsageNotPermitted)
        /// A cryptographic operation failed for a reason outside the input (for example an unavailable random source).
        public static let cryptographicFailure = Code(.cryptographicFailure)
    }

    /// The code, message, cause and place.
    public let details: ErrorDetails<Code>

    /// Creates the error from its details (``DetailedCodedError/init(_:_:underlying:file:line:)`` creates one raised
    /// where it is called).
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.details = details }
}
