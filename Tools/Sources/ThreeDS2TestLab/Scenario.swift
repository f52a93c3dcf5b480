public import ThreeDS2Messages

/// What the TestLab does for a card number. The table is documented in the README.
public enum Scenario: String, Sendable, Hashable, CaseIterable {
    case frictionlessY, frictionlessN, frictionlessA, frictionlessU, frictionlessR
    case text, singleSelect, multiSelect, outOfBand, html, information
    case twoEntryBoxes, additionalCode, consents, htmlOutOfBand, bridging, decoupled
    case faultBadTag, faultWrongCounter, faultWrongTransactionID, faultMissingField, faultCriticalExtension, faultErro,
        faultSlow

    /// The card number that selects the scenario.
    public var cardNumber: String {
        switch self {
        case .frictionlessY: "4000000000001000"
        case .frictionlessN: "4000000000001018"
        case .frictionlessA: "4000000000001026"
        case .frictionlessU: "4000000000001034"
        case .frictionlessR: "4000000000001042"
        case .text: "4000000000002000"
        case .singleSelect: "4000000000002018"
        case .multiSelect: "4000000000002026"
        case .outOfBand: "4000000000002034"
        case .html: "4000000000002042"
        case .information: "4000000000002059"
        case .twoEntryBoxes: "4000000000002067"
        case .additionalCode: "4000000000002075"
        case .consents: "4000000000002083"
        case .htmlOutOfBand: "4000000000002091"
        case .bridging: "5200000000002102"
        case .decoupled: "4000000000003006"
        case .faultBadTag: "4000000000009001"
        case .faultWrongCounter: "4000000000009019"
        case .faultWrongTransactionID: "4000000000009027"
        case .faultMissingField: "4000000000009035"
        case .faultCriticalExtension: "4000000000009043"
        case .faultErro: "4000000000009050"
        case .faultSlow: "4000000000009068"
        }
    }

    /// The scenario for a card number, if any.
    public init?(cardNumber: String) {
        guard let match = Self.allCases.first(where: { $0.cardNumber == cardNumber }) else { return nil }
        self = match
    }

    /// The ARes `transStatus` of a frictionless scenario, or `nil` when a challenge is required.
    public var frictionlessStatus: TransactionStatus? {
        switch self {
        case .frictionlessY: .authenticated
        case .frictionlessN: .notAuthenticated
        case .frictionlessA: .attempted
        case .frictionlessU: .unableToAuthenticate
        case .frictionlessR: .rejected
        default: nil
        }
    }

    /// The UI type of a challenge scenario's first screen (the ARes's `acsUiTemplate`).
    public var template: UIType {
        switch self {
        case .singleSelect: .singleSelect
        case .multiSelect: .multiSelect
        case .outOfBand: .outOfBand
        case .html: .html
        case .information: .information
        default: .text
        }
    }

    /// One line for the README table.
    public var summary: String {
        switch self {
        case .frictionlessY, .frictionlessN, .frictionlessA, .frictionlessU, .frictionlessR:
            "frictionless, ARes transStatus \(frictionlessStatus?.rawValue ?? "")"
        case .text:
            "text code: 123456 → Y; a wrong code shows the screen again with the warning (3 wrong → N); resend shows a new screen; cancel → N"
        case .singleSelect: "single select: either option (keys sms, mail: within 2.3.1's four characters) → Y"
        case .multiSelect: "multi select: exactly q1 and q3 → Y, anything else → N"
        case .outOfBand:
            "out of band: continue → Y; in 2.3.1, when the CReq says oobAppURLInd 01, an app link too: back from the app → Y (oobContinue 02), a failed open is reported (oobAppStatus 01) and continue → Y"
        case .html:
            "HTML form: otp 123456 with the Verify button → Y; Cancel button → N; the \"Send a new code\" link resends"
        case .information: "2.3.1 information screen: continue → text code screen (older versions: text code screen)"
        case .twoEntryBoxes:
            "2.3.1 two entry boxes: code 123456 (masked, reveal toggle, SMS autofill, 6 digits) and year of birth 1990 → Y (older versions: text code)"
        case .additionalCode:
            "2.3.1 additional-code button on the text screen: pressing it → out-of-band screen, continue → Y; the code also works (older versions: text code)"
        case .consents:
            "2.3.1 trust list and device binding asked above the buttons (togglePositionInd 01), then the code (2.2.0: whitelisting only)"
        case .htmlOutOfBand:
            "2.3.1 HTML out of band (UI 06): the page's \"I have approved\" button → Y (oobContinue 01 with the form data); with an app link, back from the app → Y (oobContinue 02 alone) (older versions: HTML form)"
        case .bridging:
            "Mastercard-like 2.2.0 out of band with the Bridging extension: when the first CReq announces it, the CRes links the bank's app in it; back from the app → Y (oobContinue true, Bridging oobContinue 02); a failed open or continue → Y (2.3.1: as out of band)"
        case .decoupled:
            "decoupled (2.2.0 and later): ARes transStatus D with acsDecConInd Y, no challenge; the bank's app approves after 2 s (or POST /acs/oob-decision decides) and the RReq brings Y, decoupled (older versions: text code)"
        case .faultBadTag: "fault: the first CRes has a flipped tag bit (SDK sends Erro 302)"
        case .faultWrongCounter: "fault: the first CRes has acsCounterAtoS 007 (SDK sends Erro 302)"
        case .faultWrongTransactionID: "fault: the first CRes has another sdkTransID (SDK sends Erro 301)"
        case .faultMissingField: "fault: the first CRes lacks challengeInfoHeader (SDK sends Erro 201)"
        case .faultCriticalExtension: "fault: the first CRes has an unknown critical extension (SDK sends Erro 202)"
        case .faultErro: "fault: the ACS answers the first CReq with an Erro 305 (SDK sends nothing back)"
        case .faultSlow:
            "fault: the ACS answers the first CReq after the slow delay, 11 s by default (SDK sends Erro 402, timed out)"
        }
    }

    /// How a scenario ends when its screens are answered as `threeds demo --auto` answers them (the happy path), or
    /// how its fault ends.
    public enum ExpectedOutcome: Sendable, Hashable, CustomStringConvertible {
        /// No challenge: the ARes status.
        case frictionless(TransactionStatus)
        /// A challenge that ends with a final CRes of this status.
        case completed(TransactionStatus)
        /// An Erro, sent by the SDK or received from the ACS.
        case protocolError(ProtocolErrorCode)
        /// The SDK's CRes timer fires (Erro 402 sent, the outcome timed out).
        case timedOut
        /// No challenge: the ARes says `D` (decoupled), and the results leg brings this status.
        case decoupled(TransactionStatus)

        /// The outcome in words.
        public var description: String {
            switch self {
            case .frictionless(let status): "frictionless \(status)"
            case .completed(let status): "challenge completed \(status)"
            case .protocolError(let code): "protocol error \(code)"
            case .timedOut: "timed out"
            case .decoupled(let status): "decoupled, result \(status)"
            }
        }
    }

    /// How the scenario ends on its happy path (or its fault).
    public var expectedOutcome: ExpectedOutcome {
        if let status = frictionlessStatus { return .frictionless(status) }
        switch self {
        case .faultBadTag, .faultWrongCounter: return .protocolError(.decryptionFailure)
        case .faultWrongTransactionID: return .protocolError(.transactionIDNotRecognised)
        case .faultMissingField: return .protocolError(.requiredElementMissing)
        case .faultCriticalExtension: return .protocolError(.criticalExtensionNotRecognised)
        case .faultErro: return .protocolError(.transactionDataNotValid)
        case .faultSlow: return .timedOut
        case .decoupled: return .decoupled(.authenticated)
        default: return .completed(.authenticated)
        }
    }

    /// How the scenario ends in a message version: as ``expectedOutcome`` says, but a decoupled card before 2.2.0
    /// (which has no decoupled authentication) is the text challenge.
    ///
    /// - Parameter version: The transaction's message version.
    /// - Returns: The expected outcome.
    public func expectedOutcome(in version: MessageVersion) -> ExpectedOutcome {
        self == .decoupled && !isDecoupled(in: version) ? .completed(.authenticated) : expectedOutcome
    }

    /// Whether the ACS answers the card with a decoupled authentication in a version (the decoupled card from 2.2.0).
    ///
    /// - Parameter version: The transaction's message version.
    /// - Returns: True when the ARes says `D`.
    public func isDecoupled(in version: MessageVersion) -> Bool {
        self == .decoupled && version != .v2_1_0
    }
}
