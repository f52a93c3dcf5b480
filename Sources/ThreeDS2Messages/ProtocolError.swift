public import ThreeDS2JOSE

/// An EMV 3-D Secure error code (2.2.0 Table A.4): an Erro's `errorCode`, and the code of a violation the SDK finds.
///
/// A struct over the three digits as sent, not an enum: an ACS may send a code this SDK does not know (a later
/// version's, or one about messages the SDK never sees), and it must stay representable. The static members are the
/// codes the SDK sends or looks for; more may be added without breaking callers. `description` is the digits.
public struct ProtocolErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The digits as sent.
    public let rawValue: String

    /// A code from its digits, known or not.
    ///
    /// - Parameter rawValue: The digits as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The digits.
    public var description: String { rawValue }

    /// 101: Message Received Invalid.
    public static let messageReceivedInvalid = ProtocolErrorCode(rawValue: "101")
    /// 102: Message Version Number Not Supported.
    public static let messageVersionNotSupported = ProtocolErrorCode(rawValue: "102")
    /// 201: Required Data Element Missing.
    public static let requiredElementMissing = ProtocolErrorCode(rawValue: "201")
    /// 202: Critical Message Extension Not Recognised.
    public static let criticalExtensionNotRecognised = ProtocolErrorCode(rawValue: "202")
    /// 203: Format of one or more Data Elements is Invalid.
    public static let invalidFormat = ProtocolErrorCode(rawValue: "203")
    /// 204: Duplicate Data Element.
    public static let duplicateElement = ProtocolErrorCode(rawValue: "204")
    /// 207: a value in a range the specification reserves (for EMVCo or a DS) that the receiver does not recognise
    /// (new in 2.3.1, Table A.4).
    public static let reservedValueNotRecognised = ProtocolErrorCode(rawValue: "207")
    /// 301: Transaction ID Not Recognised.
    public static let transactionIDNotRecognised = ProtocolErrorCode(rawValue: "301")
    /// 302: Data Decryption Failure.
    public static let decryptionFailure = ProtocolErrorCode(rawValue: "302")
    /// 402: Transaction Timed Out.
    public static let transactionTimedOut = ProtocolErrorCode(rawValue: "402")
    /// 305: Transaction Data Not Valid (an ACS refuses the transaction's data, for example the card). The SDK never
    /// sends it, so it has no ``standardDescription``: an Erro carries its own.
    public static let transactionDataNotValid = ProtocolErrorCode(rawValue: "305")
    /// 308: Split-SDK Server Signed Content could not be verified (2.3.1; a directory server's answer to a Split-SDK
    /// AReq). The SDK never sends it, so it has no ``standardDescription``.
    public static let splitSDKSignedContentNotVerified = ProtocolErrorCode(rawValue: "308")

    private static let standardDescriptions: [ProtocolErrorCode: String] = [
        .messageReceivedInvalid: "Message Received Invalid",
        .messageVersionNotSupported: "Message Version Number Not Supported",
        .requiredElementMissing: "Required Data Element Missing",
        .criticalExtensionNotRecognised: "Critical Message Extension Not Recognised",
        .invalidFormat: "Format of one or more Data Elements is Invalid according to the Specification",
        .duplicateElement: "Duplicate Data Element",
        .reservedValueNotRecognised: "Reserved Data Element Value Not Recognised",
        .transactionIDNotRecognised: "Transaction ID Not Recognised",
        .decryptionFailure: "Data Decryption Failure",
        .transactionTimedOut: "Transaction Timed Out",
    ]

    /// The error description in the specification's words, for the codes above; `nil` for a code the SDK does not
    /// know (an Erro carries its own `errorDescription`).
    public var standardDescription: String? { Self.standardDescriptions[self] }

    /// The description the SDK sends with the code: the standard one, or for a code without one, `Error NNN`.
    var sentDescription: String { standardDescription ?? "Error \(rawValue)" }
}

/// A violation of the protocol found in a message from the ACS: what the SDK reports in its Erro. It has the
/// package's one error shape (`CodedError`), its code the protocol's error code: two violations are
/// equal when their codes are.
public struct ProtocolViolation: DetailedCodedError, Sendable {
    /// The code is the protocol's error code.
    public typealias Code = ProtocolErrorCode

    /// The code (the protocol's error code), message (the ``explanation``), cause (none: a violation is found in the
    /// message itself) and place the violation was found.
    public let details: ErrorDetails<ProtocolErrorCode>
    /// The error detail: the data element(s) concerned, or a short explanation.
    public let detail: String

    /// A longer human-readable explanation, for logs and the app (never sent to the ACS): the ``message``.
    public var explanation: String { details.message }

    /// Creates a violation from its details; the detail is the message, and both are made safe as
    /// ``init(_:detail:explanation:file:line:)`` makes them.
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<ProtocolErrorCode>) {
        let safe = Self.safe(details.message)
        self.details = ErrorDetails(
            code: details.code, message: safe, underlying: details.underlying, location: details.location)
        self.detail = safe
    }

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - code: The error code.
    ///   - detail: The data element or short reason, as sent in `errorDetail`.
    ///   - explanation: A readable explanation.
    ///   - file: The file that found the violation (the caller's, by default).
    ///   - line: The line that found the violation (the caller's, by default).
    ///
    /// Both texts often quote what a peer sent; they are kept safe here, once: control and bidirectional characters
    /// written as visible escapes (``PeerText/escapedForTerminal(_:keepingLineBreaks:)``) and each cut to 2,048
    /// characters (the bound of `errorDetail`).
    public init(
        _ code: ProtocolErrorCode, detail: String, explanation: String? = nil, file: String = #fileID,
        line: UInt = #line
    ) {
        self.detail = Self.safe(detail)
        self.details = ErrorDetails(
            code: code, message: Self.safe(explanation ?? "\(code.sentDescription): \(detail)"), underlying: nil,
            location: ErrorLocation(file: file, line: line))
    }

    /// A text a peer may have written, made safe to show: escaped, and cut to 2,048 characters.
    static func safe(_ text: String) -> String {
        let escaped = PeerText.escapedForTerminal(text)
        guard !PeerText.fits(escaped, max: 2048) else { return escaped }
        return String(String.UnicodeScalarView(escaped.unicodeScalars.prefix(2047))) + "…"
    }

    /// `code detail: explanation at file:line`.
    public var description: String { "\(code.rawValue) \(detail): \(explanation) at \(location)" }
}
