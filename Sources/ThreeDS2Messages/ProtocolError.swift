/// The EMV 3-D Secure error codes (2.2.0 Table A.4) that the SDK sends or receives.
public enum ProtocolErrorCode: String, Sendable, Hashable, CaseIterable {
    /// 101: Message Received Invalid.
    case messageReceivedInvalid = "101"
    /// 102: Message Version Number Not Supported.
    case messageVersionNotSupported = "102"
    /// 201: Required Data Element Missing.
    case requiredElementMissing = "201"
    /// 202: Critical Message Extension Not Recognised.
    case criticalExtensionNotRecognised = "202"
    /// 203: Format of one or more Data Elements is Invalid.
    case invalidFormat = "203"
    /// 204: Duplicate Data Element.
    case duplicateElement = "204"
    /// 207: a value in a range the specification reserves (for EMVCo or a DS) that the receiver does not recognise
    /// (new in 2.3.1, Table A.4).
    case reservedValueNotRecognised = "207"
    /// 301: Transaction ID Not Recognised.
    case transactionIDNotRecognised = "301"
    /// 302: Data Decryption Failure.
    case decryptionFailure = "302"
    /// 402: Transaction Timed Out.
    case transactionTimedOut = "402"

    /// The error description, in the specification's words.
    public var standardDescription: String {
        switch self {
        case .messageReceivedInvalid: "Message Received Invalid"
        case .messageVersionNotSupported: "Message Version Number Not Supported"
        case .requiredElementMissing: "Required Data Element Missing"
        case .criticalExtensionNotRecognised: "Critical Message Extension Not Recognised"
        case .invalidFormat: "Format of one or more Data Elements is Invalid according to the Specification"
        case .duplicateElement: "Duplicate Data Element"
        case .reservedValueNotRecognised: "Reserved Data Element Value Not Recognised"
        case .transactionIDNotRecognised: "Transaction ID Not Recognised"
        case .decryptionFailure: "Data Decryption Failure"
        case .transactionTimedOut: "Transaction Timed Out"
        }
    }
}

/// A violation of the protocol found in a message from the ACS: what the SDK reports in its Erro.
public struct ProtocolViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error code.
    public let code: ProtocolErrorCode
    /// The error detail: the data element(s) concerned, or a short explanation.
    public let detail: String
    /// A longer human-readable explanation, for logs and the app (never sent to the ACS).
    public let explanation: String

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - code: The error code.
    ///   - detail: The data element or short reason, as sent in `errorDetail`.
    ///   - explanation: A readable explanation.
    ///
    /// Both texts often quote what a peer sent; they are kept safe here, once: control and bidirectional characters
    /// written as visible escapes (``PeerText/escapedForTerminal(_:keepingLineBreaks:)``) and each cut to 2,048
    /// characters (the bound of `errorDetail`).
    public init(_ code: ProtocolErrorCode, detail: String, explanation: String? = nil) {
        self.code = code
        self.detail = Self.safe(detail)
        self.explanation = Self.safe(explanation ?? "\(code.standardDescription): \(detail)")
    }

    private static func safe(_ text: String) -> String {
        let escaped = PeerText.escapedForTerminal(text)
        guard !PeerText.fits(escaped, max: 2048) else { return escaped }
        return String(String.UnicodeScalarView(escaped.unicodeScalars.prefix(2047))) + "…"
    }

    /// `code detail: explanation`.
    public var description: String { "\(code.rawValue) \(detail): \(explanation)" }

    static func missing(_ field: String) -> ProtocolViolation {
        ProtocolViolation(.requiredElementMissing, detail: field, explanation: "CRes field `\(field)` is missing")
    }

    static func reserved(_ field: String, _ value: String) -> ProtocolViolation {
        ProtocolViolation(
            .reservedValueNotRecognised, detail: field,
            explanation: "CRes field `\(field)` was \(value), a reserved value the SDK does not recognise")
    }

    static func duplicate(_ field: String, _ why: String) -> ProtocolViolation {
        ProtocolViolation(.duplicateElement, detail: field, explanation: "CRes field `\(field)` \(why)")
    }

    static func invalid(_ field: String, _ why: String) -> ProtocolViolation {
        ProtocolViolation(.invalidFormat, detail: field, explanation: "CRes field `\(field)` \(why)")
    }
}
