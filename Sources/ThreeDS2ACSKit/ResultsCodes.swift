public import ThreeDS2Messages

// The codes of the results leg (RReq/RRes; docs/results-reference.md sections 2 and 4). Open structs over the code
// as sent, like the SDK's indicators: a peer may send a DS-range or later version's code, which stays representable;
// which values a version allows is the validator's business (``ResultsRequestValidator``).

/// How the cardholder was authenticated, as 2.3.1 writes it (`authenticationMethod`, table 2.2 of the results
/// reference). The builder writes a 2.1.0/2.2.0 RReq's `authenticationType` from it (``authenticationType``).
public struct AuthenticationMethod: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: static passcode.
    public static let staticPasscode = AuthenticationMethod(rawValue: "01")
    /// `02`: SMS one-time passcode.
    public static let smsOTP = AuthenticationMethod(rawValue: "02")
    /// `06`: knowledge-based (the lab's select screens).
    public static let knowledgeBased = AuthenticationMethod(rawValue: "06")
    /// `09`: out of band, other (the lab's bank-app approval).
    public static let outOfBandOther = AuthenticationMethod(rawValue: "09")
    /// `12`: decoupled.
    public static let decoupled = AuthenticationMethod(rawValue: "12")

    /// Whether 2.3.1 defines the code (`01`–`16`) or it is in the DS range (`80`–`99`).
    public var isDefined: Bool { twoDigits(rawValue).map { (1...16).contains($0) || (80...99).contains($0) } ?? false }

    /// The 2.1.0/2.2.0 `authenticationType` the method falls under: static, dynamic, out of band or decoupled.
    public var authenticationType: AuthenticationType {
        switch twoDigits(rawValue) ?? 0 {
        case 1: .staticPasscode
        case 7, 8, 9, 11: .outOfBand
        case 12: .decoupled
        default: .dynamic
        }
    }
}

/// How the cardholder was authenticated, as 2.1.0 and 2.2.0 write it (`authenticationType`).
public struct AuthenticationType: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: static.
    public static let staticPasscode = AuthenticationType(rawValue: "01")
    /// `02`: dynamic.
    public static let dynamic = AuthenticationType(rawValue: "02")
    /// `03`: out of band.
    public static let outOfBand = AuthenticationType(rawValue: "03")
    /// `04`: decoupled (2.2.0).
    public static let decoupled = AuthenticationType(rawValue: "04")

    /// Whether the version defines the code: `01`–`03` (2.1.0), `01`–`04` (2.2.0), or the DS range.
    ///
    /// - Parameter version: The RReq's message version.
    /// - Returns: `true` when the version allows it.
    public func isDefined(in version: MessageVersion) -> Bool {
        guard let number = twoDigits(rawValue) else { return false }
        return (1...(version.resultsAreFrom2_2 ? 4 : 3)).contains(number) || (80...99).contains(number)
    }
}

/// Why the transaction has its status (`transStatusReason`): `01`–`21` in 2.1.0, `01`–`26` in 2.2.0, `01`–`30` in
/// 2.3.1, `80`–`99` for the DSs.
public struct TransStatusReason: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: card authentication failed.
    public static let authenticationFailed = TransStatusReason(rawValue: "01")
    /// `07`: transaction invalid (the lab's technical reason in 2.1.0, which has no `22`).
    public static let invalidTransaction = TransStatusReason(rawValue: "07")
    /// `14`: timed out at the ACS.
    public static let timedOutAtACS = TransStatusReason(rawValue: "14")
    /// `22`: ACS technical problem (2.2.0).
    public static let acsTechnicalProblem = TransStatusReason(rawValue: "22")
    /// `26`: attempted, but the cardholder did not perform it (2.2.0).
    public static let notPerformed = TransStatusReason(rawValue: "26")

    /// Whether the version defines the code (up to `21`, `26` or `30`), or it is in the DS range.
    ///
    /// - Parameter version: The RReq's message version.
    /// - Returns: `true` when the version allows it.
    public func isDefined(in version: MessageVersion) -> Bool {
        guard let number = twoDigits(rawValue) else { return false }
        let highest = version.resultsUseAuthenticationMethod ? 30 : version.resultsAreFrom2_2 ? 26 : 21
        return (1...highest).contains(number) || (80...99).contains(number)
    }
}

/// Whether the cardholder listed the 3DS Requestor as trusted (2.2.0 `whiteListStatus`, 2.3.1 `trustListStatus`).
public enum TrustListStatus: String, ProtocolCode, CaseIterable {
    /// `Y`: listed by the cardholder.
    case listed = "Y"
    /// `N`: not listed.
    case notListed = "N"
    /// `E`: the issuer says not eligible.
    case notEligible = "E"
    /// `P`: waiting for the cardholder.
    case pending = "P"
    /// `R`: the cardholder refused.
    case refused = "R"
    /// `U`: unknown or not applicable.
    case unknown = "U"
}

/// Who set the trust-list status (`whiteListStatusSource`, `trustListStatusSource`).
public enum TrustListStatusSource: String, ProtocolCode, CaseIterable {
    /// `01`: the 3DS Server.
    case threeDSServer = "01"
    /// `02`: the DS.
    case directoryServer = "02"
    /// `03`: the ACS.
    case acs = "03"
}

/// The 3DS Server's answer to an RReq (`resultsStatus` of an RRes).
public struct ResultsStatus: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: received, will be processed.
    public static let received = ResultsStatus(rawValue: "01")
    /// `02`: the challenge was never sent to the ACS.
    public static let challengeNotSent = ResultsStatus(rawValue: "02")
    /// `03`: the ARes's challenge data did not reach the 3DS Requestor.
    public static let challengeDataNotDelivered = ResultsStatus(rawValue: "03")
}

extension ChallengeCancelIndicator {
    /// `03`: decoupled authentication timed out (2.2.0).
    public static let decoupledTimedOut = ChallengeCancelIndicator(rawValue: "03")
    /// `09`: an Erro answered a CRes the ACS sent (2.3.1.1); the RReq carries it in `challengeErrorReporting`.
    public static let errorAfterResponse = ChallengeCancelIndicator(rawValue: "09")
    /// `10`: the ACS answered a CReq with an Erro (2.3.1.1); the RReq carries it in `challengeErrorReporting`.
    public static let errorToRequest = ChallengeCancelIndicator(rawValue: "10")

    /// Whether the code must come with `challengeErrorReporting` (`09`, `10`).
    public var reportsError: Bool { self == .errorAfterResponse || self == .errorToRequest }

    /// Whether an RReq of the version may carry the code: `01`, `03`–`08`, `09`/`10` from 2.3.1, or the DS range;
    /// `02` only in 2.1.0 (a 2.1-era list has it; results reference section 8).
    ///
    /// - Parameter version: The RReq's message version.
    /// - Returns: `true` when the version allows it.
    public func isDefined(inResultsOf version: MessageVersion) -> Bool {
        guard let number = twoDigits(rawValue) else { return false }
        if (80...99).contains(number) || (1...8).contains(number) { return number != 2 || !version.resultsAreFrom2_2 }
        return version.resultsUseAuthenticationMethod && (9...10).contains(number)
    }
}

extension MessageVersion {
    /// Whether the version's RReq has the 2.2.0 additions: `sdkTransID` on the app channel, `whiteListStatus`,
    /// `authenticationType` `04`, reasons up to `26`.
    public var resultsAreFrom2_2: Bool { self >= .v2_2_0 }
    /// Whether the version's RReq writes `authenticationMethod` (an array) and `trustListStatus` instead of
    /// `authenticationType` and `whiteListStatus`, and has the 2.3.1.1 error reporting (`challengeCancel` `09`/`10`,
    /// errors 312 and 313).
    public var resultsUseAuthenticationMethod: Bool { self >= .v2_3_1 }
}

/// Two ASCII digits as a number; `nil` for anything else.
func twoDigits(_ text: String) -> Int? {
    guard text.utf8.count == 2, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
}
