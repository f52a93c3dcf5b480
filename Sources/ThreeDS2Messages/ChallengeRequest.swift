public import ThreeDS2JOSE

/// What the cardholder did on a challenge screen.
public enum CardholderAction: Sendable, Hashable {
    /// Submitted a text entry (UI 01); `second` is the second entry box's text (2.3.1), when the screen has one.
    case submitText(String, second: String? = nil)
    /// Submitted the chosen option keys (UI 02/03); sent in option order, comma-separated.
    case submitSelection([String])
    /// Submitted an HTML form: the form data as the page would send it (UI 05/06).
    case submitHTML(String)
    /// Submitted with nothing entered (2.2.0 and later).
    case submitEmpty
    /// Asked for a new code.
    case resend
    /// Pressed the additional-code button (`challengeAddLabel`, 2.3.1).
    case additionalCode
    /// Continued an out-of-band screen (UI 04, or UI 06 without form data): pressed continue, or `automatic`ally on
    /// coming back from the bank's app.
    case oobContinue(automatic: Bool = false)
    /// Continued from an information screen (UI 07, 2.3.1).
    case informationContinue
    /// Cancelled the challenge.
    case cancel
}

/// A cardholder's answer to a screen: the action, the answers to the consent questions the screen asked, and
/// whether opening the bank's app failed.
public struct ChallengeAnswer: Sendable, Hashable {
    /// The action.
    public var action: CardholderAction
    /// The trust-list (2.3.1) / whitelisting (2.2.0) answer: `true` to trust the merchant, `false` not to, `nil` when
    /// not asked or left untouched.
    public var whitelisting: Bool?
    /// The device-binding answer (2.3.1): `true` to bind, `false` not to, `nil` when not asked or left untouched.
    public var deviceBinding: Bool?
    /// Whether opening the bank's app (`oobAppURL`) failed on this screen (`oobAppStatus` `01`, 2.3.1).
    public var oobAppOpenFailed: Bool

    /// Creates an answer.
    public init(
        _ action: CardholderAction, whitelisting: Bool? = nil, deviceBinding: Bool? = nil,
        oobAppOpenFailed: Bool = false
    ) {
        self.action = action
        self.whitelisting = whitelisting
        self.deviceBinding = deviceBinding
        self.oobAppOpenFailed = oobAppOpenFailed
    }
}

/// What a 2.3.1 CReq says about opening the bank's app (`oobAppURLInd`, Table A.1).
public enum OOBAppURLIndicator: String, Sendable, Hashable, CaseIterable {
    /// `01`: the SDK can open an `oobAppURL`.
    case supported = "01"
    /// `02`: the device cannot (no presenter able to open apps).
    case notSupportedByDevice = "02"
    /// `03`: the 3DS Requestor app does not allow it.
    case notSupportedByRequestor = "03"
}

/// Builds CReq messages (protocol reference §2; 2.3.1 per v231-reference §1 and its Table 1.1).
public struct ChallengeRequestBuilder: Sendable {
    /// The CReq fields that carry what the cardholder entered (a code, the selected options, an HTML form's data):
    /// never written to a log, a trace or a file.
    public static let entryFields: Set<String> = [
        "challengeDataEntry", "challengeDataEntryTwo", "challengeHTMLDataEntry",
    ]

    /// The transaction identifiers.
    public let identifiers: TransactionIdentifiers
    /// The message version.
    public let messageVersion: MessageVersion
    /// The 3DS Requestor app URL, sent in every CReq from 2.2.0 when set.
    public let requestorAppURL: String?
    /// What every 2.3.1 CReq says about opening the bank's app.
    public let oobAppURLIndicator: OOBAppURLIndicator
    /// The Bridging version the CReqs carry, `nil` when they carry no Bridging: ``Bridging/Version/v1_0`` in a 2.2.0
    /// challenge whose app can open the bank's app (``oobAppURLIndicator`` `01`) and gave its requestor app URL,
    /// then the version the ACS answered with (``adoptBridging(_:)``).
    public private(set) var bridgingVersion: Bridging.Version?

    /// Creates a builder.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, requestorAppURL: String?,
        oobAppURLIndicator: OOBAppURLIndicator = .notSupportedByDevice
    ) {
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.requestorAppURL = requestorAppURL
        self.oobAppURLIndicator = oobAppURLIndicator
        let hasAppURL = !(requestorAppURL ?? "").isEmpty
        bridgingVersion =
            messageVersion.carriesBridging && hasAppURL && oobAppURLIndicator == .supported ? .v1_0 : nil
    }

    /// Whether the CReqs announce Bridging, so a CRes may answer with it.
    public var announcesBridging: Bool { bridgingVersion != nil }

    /// Keeps the Bridging version a CRes answered with (the pairing rule: one version per transaction, the ACS's);
    /// a version the SDK does not know ends Bridging for the transaction. Nothing changes when the CReqs carry none.
    ///
    /// - Parameter received: What the CRes's Bridging extension said.
    public mutating func adoptBridging(_ received: Bridging.Received) {
        guard bridgingVersion != nil else { return }
        bridgingVersion = received.version
    }

    /// A CReq: the first (no answer) carries only the identifiers, type, version, counter, app URL, (2.3.1)
    /// `oobAppURLInd` and (2.2.0, ``announcesBridging``) the Bridging announcement; later ones carry exactly one
    /// cardholder action for the screen answered, plus the answer to every consent question that screen asked (`N`
    /// when the cardholder left it untouched; never with a cancel), plus `oobAppStatus` when opening the bank's app
    /// failed (2.3.1), plus Bridging's continue value when the cardholder came back from the app it linked (2.2.0).
    ///
    /// - Parameters:
    ///   - counter: `sdkCounterStoA`, 0…255.
    ///   - answer: The cardholder's answer, or `nil` for the first CReq.
    ///   - screen: The screen answered (`nil` for the first CReq).
    /// - Returns: The CReq JSON object.
    /// - Throws: ``ProtocolViolation`` of code 203 when the answer breaks a length, screen or version rule (the SDK
    ///   must not send it).
    public func request(counter: Int, answer: ChallengeAnswer?, answering screen: ChallengeScreen? = nil)
        throws(ProtocolViolation) -> JSONObject
    {
        var object: JSONObject = [
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID),
            "messageType": .string(MessageType.challengeRequest.rawValue),
            "messageVersion": .string(messageVersion.rawValue),
            "sdkTransID": .string(identifiers.sdkTransID),
            "sdkCounterStoA": .string(Self.counterText(counter)),
        ]
        if messageVersion.carriesRequestorAppURL, let requestorAppURL {
            object["threeDSRequestorAppURL"] = .string(requestorAppURL)
        }
        if messageVersion.carriesOOBAppURLIndicator {
            object["oobAppURLInd"] = .string(oobAppURLIndicator.rawValue)
        }
        guard let answer else {
            // The first CReq announces Bridging, inviting the ACS to answer with it.
            if let bridgingVersion {
                object["messageExtension"] = .array([
                    Bridging.requestExtension(version: bridgingVersion, returnedFromApp: false)
                ])
            }
            return object
        }
        try add(answer.action, answering: screen, to: &object)
        addStatusAndConsents(of: answer, answering: screen, to: &object)
        return object
    }

    /// The one check of a cardholder's answer against the screen it answers: the rule ``request(counter:answer:answering:)``
    /// applies when it writes the CReq, run without writing one. The form state runs it before it gives an answer, so
    /// an answer it gives is one the CReq can carry: a drift between the two becomes a note on the screen, never an
    /// aborted challenge.
    ///
    /// - Parameters:
    ///   - answer: The cardholder's answer.
    ///   - screen: The screen answered.
    /// - Returns: The rule the answer breaks, or `nil` when the CReq can carry it.
    public static func violation(of answer: ChallengeAnswer, answering screen: ChallengeScreen) -> ProtocolViolation? {
        let builder = ChallengeRequestBuilder(
            identifiers: TransactionIdentifiers(threeDSServerTransID: "", acsTransID: "", sdkTransID: ""),
            messageVersion: screen.messageVersion, requestorAppURL: nil)
        var scratch = JSONObject()
        do {
            try builder.add(answer.action, answering: screen, to: &scratch)
            return nil
        } catch {
            return error
        }
    }

    /// The one field (or two) of the cardholder's action, each checked against the answered screen's UI type.
    private func add(_ action: CardholderAction, answering screen: ChallengeScreen?, to object: inout JSONObject)
        throws(ProtocolViolation)
    {
        let uiType = screen?.uiType
        switch action {
        case .submitText(let text, let second) where text.isEmpty && (second ?? "").isEmpty:
            try addNoEntry(uiType, to: &object)
        case .submitText(let text, let second):
            try addText(text, second: second, answering: screen, to: &object)
        case .submitSelection(let keys) where keys.isEmpty:
            try addNoEntry(uiType, to: &object)
        case .submitSelection(let keys):
            try Self.check(uiType, in: [.singleSelect, .multiSelect], "challengeDataEntry")
            object["challengeDataEntry"] = .string(try Self.bounded(keys.joined(separator: ","), "challengeDataEntry"))
        case .submitHTML(let formData):
            try addHTML(formData, uiType, to: &object)
        case .submitEmpty:
            try addNoEntry(uiType, to: &object)
        case .resend:
            if messageVersion.limitsResendToText { try Self.check(uiType, in: [.text], "resendChallenge") }
            object["resendChallenge"] = YesNoIndicator.yes.json
        case .additionalCode:
            guard messageVersion.hasAdditionalCode, screen == nil || screen?.additionalCodeLabel != nil else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "challengeAddCode",
                    explanation: "the screen offers no additional-code button")
            }
            object["challengeAddCode"] = YesNoIndicator.yes.json
        case .oobContinue(let automatic):
            try addOOBContinue(automatic: automatic, answering: screen, to: &object)
        case .informationContinue:
            guard messageVersion.hasInformationContinue else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "infoContinueIndicator",
                    explanation: "information screens need message version 2.3.1")
            }
            try Self.check(uiType, in: [.information], "infoContinueIndicator")
            object["infoContinueIndicator"] = .bool(true)
        case .cancel:
            object["challengeCancel"] = ChallengeCancelIndicator.cardholderCancelled.json
        }
    }

    /// UI 01: the entry, and (2.3.1) the second entry box's.
    private func addText(
        _ text: String, second: String?, answering screen: ChallengeScreen?, to object: inout JSONObject
    ) throws(ProtocolViolation) {
        try Self.check(screen?.uiType, in: [.text], "challengeDataEntry")
        if !text.isEmpty { object["challengeDataEntry"] = .string(try Self.bounded(text, "challengeDataEntry")) }
        guard let second, !second.isEmpty else { return }
        guard messageVersion.hasEntryBoxes, (screen?.entryBoxes.count ?? 0) > 1 else {
            throw ProtocolViolation(
                .invalidFormat, detail: "challengeDataEntryTwo", explanation: "the screen has no second entry box")
        }
        object["challengeDataEntryTwo"] = .string(try Self.bounded(second, "challengeDataEntryTwo"))
    }

    /// UI 05 and 06: the form data; on UI 06 with the continue the cardholder pressed on the page.
    private func addHTML(_ formData: String, _ uiType: UIType?, to object: inout JSONObject) throws(ProtocolViolation) {
        try Self.check(uiType, in: [.html, .htmlOutOfBand], "challengeHTMLDataEntry")
        guard formData.utf8.count <= ChallengeLimits.maxHTMLDataBytes else {
            throw ProtocolViolation(
                .invalidFormat, detail: "challengeHTMLDataEntry",
                explanation: "the form data is longer than \(ChallengeLimits.maxHTMLDataBytes) bytes")
        }
        object["challengeHTMLDataEntry"] = .string(formData)
        // UI 06: the cardholder pressed the page's continue; the form data goes with oobContinue 01.
        if uiType == .htmlOutOfBand { object["oobContinue"] = messageVersion.oobContinueValue(automatic: false) }
    }

    /// UI 01, 02 and 03 submitted with nothing entered (2.2.0 and later).
    private func addNoEntry(_ uiType: UIType?, to object: inout JSONObject) throws(ProtocolViolation) {
        guard messageVersion.allowsNoEntry else {
            throw ProtocolViolation(
                .invalidFormat, detail: "challengeNoEntry",
                explanation: "an empty submission needs message version 2.2.0 or later")
        }
        try Self.check(uiType, in: [.text, .singleSelect, .multiSelect], "challengeNoEntry")
        object["challengeNoEntry"] = YesNoIndicator.yes.json
    }

    /// UI 04 and 06: continue; back from the bank's app the CRes's Bridging link opened, Bridging's continue too.
    private func addOOBContinue(automatic: Bool, answering screen: ChallengeScreen?, to object: inout JSONObject)
        throws(ProtocolViolation)
    {
        let uiType = screen?.uiType
        try Self.check(uiType, in: [.outOfBand, .htmlOutOfBand], "oobContinue")
        object["oobContinue"] = messageVersion.oobContinueValue(automatic: automatic)
        if automatic, uiType == .outOfBand, screen?.bridging != nil, let bridgingVersion {
            object["messageExtension"] = .array([
                Bridging.requestExtension(version: bridgingVersion, returnedFromApp: true)
            ])
        }
    }

    /// What goes with any action but a cancel: `oobAppStatus` when opening the bank's app failed (2.3.1), and the
    /// answer to every consent question the screen asked — the cardholder's, `N` when the box was left untouched, as
    /// certified SDKs do.
    private func addStatusAndConsents(
        of answer: ChallengeAnswer, answering screen: ChallengeScreen?, to object: inout JSONObject
    ) {
        let uiType = screen?.uiType
        if answer.oobAppOpenFailed, answer.action != .cancel, messageVersion.hasOOBAppURL,
            uiType == .outOfBand || uiType == .htmlOutOfBand
        {
            object["oobAppStatus"] = OOBAppStatus.openFailed.json
        }
        guard let screen, answer.action != .cancel else { return }
        if screen.whitelistingText != nil, let question = messageVersion.trustQuestion {
            object[question.entryField] = question.entryValue(answer.whitelisting ?? false).json
        }
        if screen.deviceBindingText != nil, messageVersion.hasDeviceBinding {
            object["deviceBindingDataEntry"] = YesNoIndicator(answer.deviceBinding == true).json
        }
    }

    /// Refuses an action the answered screen's UI type does not allow (no check before the first screen).
    private static func check(_ uiType: UIType?, in allowed: Set<UIType>, _ field: String) throws(ProtocolViolation) {
        guard let uiType, !allowed.contains(uiType) else { return }
        throw ProtocolViolation(
            .invalidFormat, detail: field, explanation: "`\(field)` does not answer a UI type \(uiType.rawValue) screen"
        )
    }

    private static func bounded(_ text: String, _ field: String) throws(ProtocolViolation) -> String {
        guard text.utf8.count <= ChallengeLimits.maxEntryBytes else {
            throw ProtocolViolation(
                .invalidFormat, detail: field,
                explanation: "the entry is longer than \(ChallengeLimits.maxEntryBytes) bytes")
        }
        return text
    }

    /// `%03d`.
    public static func counterText(_ counter: Int) -> String {
        let digits = String(counter)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}
