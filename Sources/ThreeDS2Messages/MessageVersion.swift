public import ThreeDS2JOSE

/// An EMV 3-D Secure message version, and what it allows on the app channel.
///
/// Any `major.minor.patch` text parses (so a version an ACS sent can be shown and compared); ``supported`` lists the
/// versions the SDK speaks. Code asks a version what it allows (``allowsNoEntry``, ``trustQuestion``, …) and never
/// compares version texts.
public struct MessageVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version text, for example `2.2.0`.
    public let rawValue: String
    private let number: (major: Int, minor: Int, patch: Int)

    /// 2.1.0.
    public static let v2_1_0 = MessageVersion(known: "2.1.0", 2, 1, 0)
    /// 2.2.0.
    public static let v2_2_0 = MessageVersion(known: "2.2.0", 2, 2, 0)
    /// 2.3.1.
    public static let v2_3_1 = MessageVersion(known: "2.3.1", 2, 3, 1)

    /// The versions the SDK speaks, lowest first.
    public static let supported: [MessageVersion] = [.v2_1_0, .v2_2_0, .v2_3_1]
    /// The highest supported version, used when the app does not ask for one.
    public static let highest: MessageVersion = .v2_3_1

    private init(known rawValue: String, _ major: Int, _ minor: Int, _ patch: Int) {
        self.rawValue = rawValue
        number = (major, minor, patch)
    }

    /// Parses a version of the form `major.minor.patch` (ASCII digits only, each part at most four).
    ///
    /// - Parameter rawValue: The version text.
    public init?(_ rawValue: String) {
        var numbers = (0, 0, 0)
        var index = 0
        var digits = 0
        for byte in rawValue.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, index < 2 else { return nil }
                index += 1
                digits = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 4 else { return nil }
            let value = Int(byte - UInt8(ascii: "0"))
            switch index {
            case 0: numbers.0 = numbers.0 * 10 + value
            case 1: numbers.1 = numbers.1 * 10 + value
            default: numbers.2 = numbers.2 * 10 + value
            }
            digits += 1
        }
        guard index == 2, digits > 0 else { return nil }
        self.rawValue = rawValue
        number = numbers
    }

    /// Equal when the text is equal (`2.2.0` and `2.2.00` are different versions on the wire).
    public static func == (lhs: MessageVersion, rhs: MessageVersion) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Orders by number, not by text.
    public static func < (lhs: MessageVersion, rhs: MessageVersion) -> Bool { lhs.number < rhs.number }

    /// The version text.
    public var description: String { rawValue }

    /// Whether the SDK speaks this version.
    public var isSupported: Bool { Self.supported.contains(self) }

    private var isAtLeast2_2: Bool { number >= (2, 2, 0) }
    private var isAtLeast2_3: Bool { number >= (2, 3, 0) }

    /// Whether a CReq may say the cardholder submitted nothing (`challengeNoEntry`, from 2.2.0).
    public var allowsNoEntry: Bool { isAtLeast2_2 }

    /// Whether a CRes may carry `challengeAddInfo`, the out-of-band screen's text for the cardholder's return (from
    /// 2.2.0).
    public var definesChallengeAddInfo: Bool { isAtLeast2_2 }

    /// Whether CReqs carry `threeDSRequestorAppURL` (from 2.2.0).
    public var carriesRequestorAppURL: Bool { isAtLeast2_2 }

    /// Whether an app-channel AReq carries `sdkType` and, for a Default-SDK, `defaultSdkType` (2.3.1).
    public var carriesSDKType: Bool { isAtLeast2_3 }

    /// Whether UI type 07's continue (`infoContinueIndicator`) exists (2.3.1).
    public var hasInformationContinue: Bool { isAtLeast2_3 }

    /// Whether a CRes may link the bank's app (`oobAppURL`, `oobAppLabel`; 2.3.1).
    public var hasOOBAppURL: Bool { isAtLeast2_3 }

    /// Whether every CReq carries `oobAppURLInd` (2.3.1, Table B.3: required in every CReq, the first included).
    public var carriesOOBAppURLIndicator: Bool { isAtLeast2_3 }

    /// Whether the bank's-app link travels in the Bridging message extension (``Bridging``): 2.2.0 only (2.3.1 has
    /// core fields for it, 2.1.0 nothing).
    public var carriesBridging: Bool { isAtLeast2_2 && !isAtLeast2_3 }

    /// Whether a final CRes may carry `transStatus` `D` (decoupled authentication; 2.3.1, Table A.17).
    public var allowsDecoupledFinalStatus: Bool { isAtLeast2_3 }

    /// Whether a text screen describes its entry in `challengeEntryBox` / `challengeEntryBoxTwo` objects (2.3.1,
    /// Table A.26) instead of `challengeInfoLabel`.
    public var hasEntryBoxes: Bool { isAtLeast2_3 }

    /// Whether a screen may offer the additional-code button (`challengeAddLabel` / `challengeAddCode`, 2.3.1).
    public var hasAdditionalCode: Bool { isAtLeast2_3 }

    /// Whether a screen may ask to bind the device (`deviceBindingInfoText` / `deviceBindingDataEntry`, 2.3.1).
    public var hasDeviceBinding: Bool { isAtLeast2_3 }

    /// Whether texts may mark `**bold**` runs (info, why and expand texts; 2.3.1).
    public var hasBoldMarkup: Bool { isAtLeast2_3 }

    /// Whether `issuerImage` / `psImage` name appearances (`default`, `dark`, `monochrome`; 2.3.1) rather than
    /// densities (`medium`, `high`, `extraHigh`; 2.1.0 and 2.2.0).
    public var hasAppearanceImages: Bool { isAtLeast2_3 }

    /// Whether the version has reserved value ranges whose unknown values are answered with error 207 (2.3.1).
    public var reportsReservedValues: Bool { isAtLeast2_3 }

    /// Whether a repeated entry in a JSON array is error 204 (2.3.1) rather than 203.
    public var reportsDuplicateEntries: Bool { isAtLeast2_3 }

    /// Whether a resend may be asked only from a text screen (2.3.1: `resendChallenge` only for UI 01).
    public var limitsResendToText: Bool { isAtLeast2_3 }

    /// The most `messageExtension` entries a message may carry: 10, or 15 from 2.3.1.
    public var maxMessageExtensions: Int { isAtLeast2_3 ? 15 : 10 }

    /// The longest `threeDSRequestorAppURL`: 256 characters in 2.2.0, 2,048 in 2.3.1 (an https universal or app
    /// link there); 0 when the version does not carry it.
    public var maxRequestorAppURLLength: Int { isAtLeast2_3 ? 2048 : isAtLeast2_2 ? 256 : 0 }

    /// Whether `threeDSRequestorAppURL` must be an https universal or app link (2.3.1).
    public var requiresHTTPSRequestorAppURL: Bool { isAtLeast2_3 }

    /// The UI types the version defines.
    public var uiTypes: [UIType] { UIType.allCases.filter(defines) }

    /// Whether the version defines a UI type (06 and 07 arrived with 2.3.1).
    ///
    /// - Parameter uiType: The UI type.
    /// - Returns: Whether an ACS may send it.
    public func defines(_ uiType: UIType) -> Bool {
        switch uiType {
        case .htmlOutOfBand, .information: isAtLeast2_3
        case .text, .singleSelect, .multiSelect, .outOfBand, .html: true
        }
    }

    /// How a CReq says an out-of-band continue: JSON `true` before 2.3.1; in 2.3.1 `"01"` when the cardholder pressed
    /// continue and `"02"` when the SDK completed it on its own (the cardholder came back from the bank's app).
    ///
    /// - Parameter automatic: Whether the SDK continued without the cardholder pressing the button.
    /// - Returns: The `oobContinue` value.
    public func oobContinueValue(automatic: Bool) -> JSONValue {
        isAtLeast2_3 ? (automatic ? OOBContinueIndicator.automatic : .cardholderContinued).json : .bool(true)
    }

    /// The question an ACS may ask about trusting the merchant, and the fields that carry it; `nil` in 2.1.0.
    public var trustQuestion: TrustQuestion? {
        isAtLeast2_3 ? .trustList : isAtLeast2_2 ? .whitelisting : nil
    }
}

/// The "trust this merchant" question of a version: whitelisting in 2.2.0, the trust list in 2.3.1.
public enum TrustQuestion: Sendable, Hashable {
    /// 2.2.0: `whitelistingInfoText` asks, `whitelistingDataEntry` answers `Y` or `N`.
    case whitelisting
    /// 2.3.1: `trustListInfoText` asks, `trustListDataEntry` answers `Y` or `N` (Table A.1; one ACS model's
    /// `01`/`02` follows no published table).
    case trustList

    /// The CRes field that asks the question.
    public var textField: String {
        switch self {
        case .whitelisting: "whitelistingInfoText"
        case .trustList: "trustListInfoText"
        }
    }

    /// The CReq field that carries the answer.
    public var entryField: String {
        switch self {
        case .whitelisting: "whitelistingDataEntry"
        case .trustList: "trustListDataEntry"
        }
    }

    /// The value sent for an answer.
    ///
    /// - Parameter trusted: Whether the cardholder trusts the merchant.
    /// - Returns: The field's value.
    public func entryValue(_ trusted: Bool) -> YesNoIndicator { YesNoIndicator(trusted) }
}
