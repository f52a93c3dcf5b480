public import ThreeDS2JOSE

/// A protocol code carried as a JSON string: its text as sent is its description and its JSON value. The indicators
/// below (and their closed or open shapes, CONTRIBUTING.md) share these two members.
public protocol ProtocolCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible where RawValue == String {}

extension ProtocolCode {
    /// The code as sent.
    public var description: String { rawValue }

    /// The value as sent: a JSON string.
    public var json: JSONValue { .string(rawValue) }
}

/// A one-letter yes/no field: `challengeNoEntry`, `resendChallenge`, `challengeAddCode`, the consent answers
/// (`whitelistingDataEntry`, `trustListDataEntry`, `deviceBindingDataEntry`), `challengeCompletionInd`,
/// `challengeInfoTextIndicator` and the entry box's masking, toggle and autofill flags.
///
/// A closed enum: the specification allows exactly `Y` and `N`, and the SDK decides on the answer; anything else
/// is a format error, never a value to keep (see CONTRIBUTING.md, "Rules the code keeps").
public enum YesNoIndicator: String, ProtocolCode, CaseIterable {
    /// `Y`.
    case yes = "Y"
    /// `N`.
    case no = "N"

    /// `Y` for `true`, `N` for `false`.
    ///
    /// - Parameter value: The answer.
    public init(_ value: Bool) { self = value ? .yes : .no }

    /// Reads a field's value: `nil` unless it is the JSON string `Y` or `N`.
    ///
    /// - Parameter value: The field's JSON value.
    public init?(_ value: JSONValue?) {
        guard let text = value?.stringValue, let indicator = YesNoIndicator(rawValue: text) else { return nil }
        self = indicator
    }

    /// Whether it is `Y`.
    public var isYes: Bool { self == .yes }

}

/// Why a challenge was cancelled (`challengeCancel`; protocol reference §2.2, 2.3.1 Table A.1).
///
/// An open struct over the code as sent: 2.3.1 added `09` and `10`, and `80`–`99` belong to the directory servers,
/// so a code this SDK does not know stays representable. The SDK sends only ``cardholderCancelled`` in a CReq.
public struct ChallengeCancelIndicator: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: the cardholder selected cancel (the SDK's code for a cancel).
    public static let cardholderCancelled = ChallengeCancelIndicator(rawValue: "01")
    /// `04`: timed out at the ACS, other timeouts.
    public static let timedOutAtACS = ChallengeCancelIndicator(rawValue: "04")
    /// `05`: timed out at the ACS, the first CReq was not received.
    public static let firstRequestNotReceived = ChallengeCancelIndicator(rawValue: "05")
    /// `06`: transaction error (an ACS maps an SDK's Erro to it).
    public static let transactionError = ChallengeCancelIndicator(rawValue: "06")
    /// `07`: unknown.
    public static let unknown = ChallengeCancelIndicator(rawValue: "07")
    /// `08`: timed out at the SDK (2.2.0 and later).
    public static let timedOutAtSDK = ChallengeCancelIndicator(rawValue: "08")
}

/// How the cardholder continued an out-of-band screen (`oobContinue`, 2.3.1 Table A.1): in 2.3.1 a two-digit code;
/// before, the JSON `true` alone (``MessageVersion/oobContinueValue(automatic:)`` writes the version's form).
///
/// An open struct over the code as sent: `03`–`99` are reserved for later versions, and a reader of a CReq (an ACS,
/// `threeds inspect`) must keep a value it does not know.
public struct OOBContinueIndicator: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: the cardholder pressed the continue button.
    public static let cardholderContinued = OOBContinueIndicator(rawValue: "01")
    /// `02`: the SDK continued without the cardholder (back from the bank's app).
    public static let automatic = OOBContinueIndicator(rawValue: "02")
}

/// What became of opening the bank's app (`oobAppStatus`, 2.3.1 Table A.1), sent with the next CReq of an
/// out-of-band screen when the SDK could not open the app the CRes linked.
///
/// An open struct over the code as sent: `02`–`99` are reserved for later versions, and a reader of a CReq must keep
/// a value it does not know.
public struct OOBAppStatus: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: the app could not be opened.
    public static let openFailed = OOBAppStatus(rawValue: "01")
}

/// The channel an authentication comes through (the AReq's `deviceChannel`).
///
/// An open struct over the code as sent: `04`–`79` are reserved for later versions and `80`–`99` belong to the
/// directory servers. This SDK sends ``app`` only.
public struct DeviceChannel: ProtocolCode, Codable {
    /// The two digits as sent.
    public let rawValue: String

    /// A channel as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: app-based, through an SDK (this SDK's).
    public static let app = DeviceChannel(rawValue: "01")
    /// `02`: browser-based.
    public static let browser = DeviceChannel(rawValue: "02")
    /// `03`: 3DS Requestor initiated (3RI).
    public static let requestorInitiated = DeviceChannel(rawValue: "03")
}
