public import ThreeDS2JOSE
public import ThreeDS2Messages

/// A CReq as its receiver reads it (an ACS, `threeds conform` and `threeds inspect` reading the CReqs they saved):
/// every field in its type, read once, bounded, and checked against the rules of the message's own version that need
/// no screen to apply (2.3.1: v231-reference §1 and its Table 1.1; 2.1.0 and 2.2.0: protocol reference §2).
///
/// What depends on the screen the CReq answers (which action a UI type allows, whether a consent question was
/// asked) is the receiver's to check; `ChallengeRequestBuilder` is the writing side.
public struct ReceivedChallengeRequest: Sendable, Hashable {
    /// The one cardholder action a CReq states after the first.
    public enum Action: Sendable, Hashable {
        /// `challengeCancel`, with its code (the SDK sends `ChallengeCancelIndicator.cardholderCancelled`).
        case cancel(ChallengeCancelIndicator)
        /// `challengeDataEntry` (a code, or the comma-separated keys of the options chosen), with the second entry
        /// box's `challengeDataEntryTwo` (2.3.1) when sent.
        case dataEntry(String, second: String?)
        /// `challengeNoEntry` `Y` (2.2.0 and later).
        case noEntry
        /// `resendChallenge` `Y`.
        case resend
        /// `challengeAddCode` `Y` (2.3.1).
        case additionalCode
        /// `oobContinue`: in 2.3.1 its code; before, the JSON `true`, which says no more (`nil`).
        case oobContinue(OOBContinueIndicator?)
        /// `challengeHTMLDataEntry`, with `oobContinue` `01` when it answers an HTML out-of-band page (2.3.1).
        case html(String, oobContinue: OOBContinueIndicator?)
        /// `infoContinueIndicator` `true` (2.3.1).
        case informationContinue

        /// Whether the cardholder cancelled.
        public var isCancel: Bool {
            if case .cancel = self { return true }
            return false
        }
    }

    /// The message version the CReq states (one of `MessageVersion.supported`).
    public let messageVersion: MessageVersion
    /// The three transaction IDs, each a UUID.
    public let identifiers: TransactionIdentifiers
    /// `sdkCounterStoA`, 0…255.
    public let counter: Int
    /// `threeDSRequestorAppURL` (2.2.0 and later), when sent.
    public let requestorAppURL: String?
    /// `oobAppURLInd` (2.3.1, where it is required).
    public let oobAppURLIndicator: OOBAppURLIndicator?
    /// The cardholder's action; `nil` in a CReq that states none (the first).
    public let action: Action?
    /// `oobAppStatus` (2.3.1), when sent.
    public let oobAppStatus: OOBAppStatus?
    /// The answer to the trust question: `whitelistingDataEntry` (2.2.0), `trustListDataEntry` (2.3.1).
    public let trustAnswer: YesNoIndicator?
    /// `deviceBindingDataEntry` (2.3.1), when sent.
    public let deviceBindingAnswer: YesNoIndicator?
    /// `messageExtension`'s entries (1 to `MessageVersion.maxMessageExtensions` objects), when sent; what each
    /// says is its reader's (`Bridging.read(_:)`).
    public let messageExtension: [JSONObject]?

    /// Whether it is the first CReq of a challenge: one that states no action.
    public var isFirst: Bool { action == nil }

    /// Reads a decrypted CReq.
    ///
    /// - Parameter object: The CReq's JSON object.
    /// - Throws: `ProtocolViolation` naming the first field that breaks a rule: 101 when it is not a CReq, 102
    ///   for a message version this SDK does not know, 201 for a required field missing, 203 for a field of the
    ///   wrong type, length or value, or one its version does not define, or two actions, 207 for a reserved
    ///   `oobAppURLInd`.
    public init(reading object: JSONObject) throws(ProtocolViolation) {
        let reader = Reader(object: object)
        guard try reader.required("messageType") == MessageType.challengeRequest.rawValue else {
            throw ProtocolViolation(.messageReceivedInvalid, detail: "messageType", explanation: "not a CReq")
        }
        let versionText = try reader.required("messageVersion")
        guard let version = MessageVersion(versionText), version.isSupported else {
            throw ProtocolViolation(.messageVersionNotSupported, detail: "messageVersion")
        }
        messageVersion = version
        identifiers = try reader.identifiers()
        counter = try reader.counter()
        try reader.versionFields(version)
        requestorAppURL = try reader.requestorAppURL(version)
        oobAppURLIndicator = try reader.oobAppURLIndicator(version)
        action = try reader.action(version)
        oobAppStatus = try reader.code("oobAppStatus").map(OOBAppStatus.init(rawValue:))
        if let question = version.trustQuestion {
            trustAnswer = try reader.yesNo(question.entryField)
        } else {
            trustAnswer = nil
        }
        deviceBindingAnswer = try reader.yesNo("deviceBindingDataEntry")
        messageExtension = try reader.extensions(version)
        if action?.isCancel == true {
            // A cancel goes alone: no consent answer, no app status.
            for field in ["trustListDataEntry", "whitelistingDataEntry", "deviceBindingDataEntry", "oobAppStatus"]
            where object[field] != nil {
                throw ProtocolViolation(.invalidFormat, detail: field, explanation: "a cancel carries no \(field)")
            }
        }
    }

    /// The fields that each state a cardholder action (`challengeDataEntryTwo` goes with `challengeDataEntry`).
    public static let actionFields = [
        "challengeDataEntry", "challengeNoEntry", "resendChallenge", "challengeAddCode", "oobContinue",
        "challengeHTMLDataEntry", "infoContinueIndicator", "challengeCancel",
    ]

    /// The fields a CReq may carry only from 2.3.1.
    static let fieldsOf231 = [
        "oobAppURLInd", "oobAppStatus", "challengeDataEntryTwo", "challengeAddCode", "trustListDataEntry",
        "deviceBindingDataEntry", "infoContinueIndicator",
    ]
}

/// The typed reads of one CReq object.
private struct Reader {
    let object: JSONObject

    /// A string field, or `nil` when absent; a value of another type is 203.
    func string(_ name: String) throws(ProtocolViolation) -> String? {
        guard let value = object[name] else { return nil }
        guard case .string(let text) = value else {
            throw ProtocolViolation(.invalidFormat, detail: name, explanation: "`\(name)` is not a string")
        }
        return text
    }

    func required(_ name: String) throws(ProtocolViolation) -> String {
        guard let text = try string(name) else { throw ProtocolViolation(.requiredElementMissing, detail: name) }
        return text
    }

    /// A string of 1…`max` UTF-8 bytes.
    func bounded(_ name: String, max: Int) throws(ProtocolViolation) -> String? {
        guard let text = try string(name) else { return nil }
        guard !text.isEmpty, text.utf8.count <= max else {
            throw ProtocolViolation(
                .invalidFormat, detail: name, explanation: "`\(name)` is empty or longer than \(max) bytes")
        }
        return text
    }

    /// A two-digit code.
    func code(_ name: String) throws(ProtocolViolation) -> String? {
        guard let text = try string(name) else { return nil }
        guard text.utf8.count == 2, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw ProtocolViolation(.invalidFormat, detail: name, explanation: "`\(name)` is not two digits")
        }
        return text
    }

    /// `Y` or `N`.
    func yesNo(_ name: String) throws(ProtocolViolation) -> YesNoIndicator? {
        guard let value = object[name] else { return nil }
        guard let answer = YesNoIndicator(value) else {
            throw ProtocolViolation(.invalidFormat, detail: name, explanation: "`\(name)` is not Y or N")
        }
        return answer
    }

    /// A field that may only say `Y`.
    func yes(_ name: String) throws(ProtocolViolation) -> Bool {
        guard let answer = try yesNo(name) else { return false }
        guard answer == .yes else {
            throw ProtocolViolation(.invalidFormat, detail: name, explanation: "`\(name)` can only be Y")
        }
        return true
    }

    func identifiers() throws(ProtocolViolation) -> TransactionIdentifiers {
        var ids: [String] = []
        for name in ["threeDSServerTransID", "acsTransID", "sdkTransID"] {
            let id = try required(name)
            guard TransactionIdentifiers.hasUUIDShape(id) else {
                throw ProtocolViolation(.invalidFormat, detail: name, explanation: "`\(name)` is not a UUID")
            }
            ids.append(id)
        }
        return TransactionIdentifiers(threeDSServerTransID: ids[0], acsTransID: ids[1], sdkTransID: ids[2])
    }

    /// `sdkCounterStoA`: three digits, 000…255.
    func counter() throws(ProtocolViolation) -> Int {
        let text = try required("sdkCounterStoA")
        guard text.utf8.count == 3, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
            value <= 255
        else {
            throw ProtocolViolation(
                .invalidFormat, detail: "sdkCounterStoA", explanation: "`sdkCounterStoA` is not 000…255")
        }
        return value
    }

    /// No field the version does not define.
    func versionFields(_ version: MessageVersion) throws(ProtocolViolation) {
        var foreign = version.carriesOOBAppURLIndicator ? [] : ReceivedChallengeRequest.fieldsOf231
        if version.trustQuestion?.entryField != "whitelistingDataEntry" { foreign.append("whitelistingDataEntry") }
        for field in foreign where object[field] != nil {
            throw ProtocolViolation(
                .invalidFormat, detail: field, explanation: "`\(field)` is not a field of \(version)")
        }
        if !version.carriesRequestorAppURL, object["threeDSRequestorAppURL"] != nil {
            throw ProtocolViolation(
                .invalidFormat, detail: "threeDSRequestorAppURL",
                explanation: "`threeDSRequestorAppURL` is not a field of \(version)")
        }
    }

    func requestorAppURL(_ version: MessageVersion) throws(ProtocolViolation) -> String? {
        try bounded("threeDSRequestorAppURL", max: max(1, version.maxRequestorAppURLLength))
    }

    func oobAppURLIndicator(_ version: MessageVersion) throws(ProtocolViolation) -> OOBAppURLIndicator? {
        guard version.carriesOOBAppURLIndicator else { return nil }
        guard let text = try code("oobAppURLInd") else {
            throw ProtocolViolation(.requiredElementMissing, detail: "oobAppURLInd")
        }
        guard let indicator = OOBAppURLIndicator(rawValue: text) else {
            throw ProtocolViolation(.reservedValueNotRecognised, detail: "oobAppURLInd")
        }
        return indicator
    }

    /// At most one action, the pair of an HTML out-of-band answer counted as one (2.3.1: `oobContinue` `01` with
    /// the form data); two or more is 203 (Table A.16).
    func action(_ version: MessageVersion) throws(ProtocolViolation) -> ReceivedChallengeRequest.Action? {
        let present = ReceivedChallengeRequest.actionFields.filter { object[$0] != nil }
        let htmlPair = version.defines(.htmlOutOfBand) && Set(present) == ["oobContinue", "challengeHTMLDataEntry"]
        guard present.count <= 1 || htmlPair else {
            throw ProtocolViolation(
                .invalidFormat, detail: present.last ?? "", explanation: "a CReq states one action, not two")
        }
        if object["challengeDataEntryTwo"] != nil, present != ["challengeDataEntry"] {
            throw ProtocolViolation(
                present.isEmpty ? .requiredElementMissing : .invalidFormat,
                detail: present.first ?? "challengeDataEntry",
                explanation: "`challengeDataEntryTwo` goes with `challengeDataEntry` alone")
        }
        guard let field = htmlPair ? "challengeHTMLDataEntry" : present.first else { return nil }
        return try value(of: field, version, htmlPair: htmlPair)
    }

    private func value(of field: String, _ version: MessageVersion, htmlPair: Bool)
        throws(ProtocolViolation) -> ReceivedChallengeRequest.Action?
    {
        switch field {
        case "challengeCancel":
            return .cancel(ChallengeCancelIndicator(rawValue: try code(field) ?? ""))
        case "challengeDataEntry":
            let entry = try bounded(field, max: ChallengeLimits.maxEntryBytes) ?? ""
            return .dataEntry(entry, second: try bounded("challengeDataEntryTwo", max: ChallengeLimits.maxEntryBytes))
        case "challengeNoEntry":
            guard version.allowsNoEntry, try yes(field) else {
                throw ProtocolViolation(.invalidFormat, detail: field, explanation: "`\(field)` needs 2.2.0 or later")
            }
            return .noEntry
        case "resendChallenge":
            return try yes(field) ? .resend : nil
        case "challengeAddCode":
            return try yes(field) ? .additionalCode : nil
        case "infoContinueIndicator":
            guard object[field] == .bool(true) else {
                throw ProtocolViolation(.invalidFormat, detail: field, explanation: "`\(field)` can only be true")
            }
            return .informationContinue
        case "challengeHTMLDataEntry":
            guard let data = try string(field), data.utf8.count <= ChallengeLimits.maxHTMLDataBytes else {
                throw ProtocolViolation(
                    .invalidFormat, detail: field,
                    explanation: "the form data is longer than \(ChallengeLimits.maxHTMLDataBytes) bytes")
            }
            guard htmlPair else { return .html(data, oobContinue: nil) }
            let pressed = try oobContinue(version)
            guard pressed == .cardholderContinued else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "oobContinue", explanation: "the form data goes with `oobContinue` 01")
            }
            return .html(data, oobContinue: pressed)
        default:
            return .oobContinue(try oobContinue(version))
        }
    }

    /// `oobContinue` in the version's form: the JSON `true` before 2.3.1 (read as `nil`), a two-digit code after.
    private func oobContinue(_ version: MessageVersion) throws(ProtocolViolation) -> OOBContinueIndicator? {
        guard version.carriesOOBAppURLIndicator else {
            guard object["oobContinue"] == .bool(true) else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "oobContinue", explanation: "`oobContinue` is true before 2.3.1")
            }
            return nil
        }
        return try code("oobContinue").map(OOBContinueIndicator.init(rawValue:))
    }

    /// `messageExtension`: an array of 1 to the version's number of objects.
    func extensions(_ version: MessageVersion) throws(ProtocolViolation) -> [JSONObject]? {
        guard let value = object["messageExtension"] else { return nil }
        guard case .array(let entries) = value, (1...version.maxMessageExtensions).contains(entries.count) else {
            throw ProtocolViolation(
                .invalidFormat, detail: "messageExtension",
                explanation: "`messageExtension` is not an array of 1 to \(version.maxMessageExtensions) entries")
        }
        var objects: [JSONObject] = []
        for entry in entries {
            guard case .object(let object) = entry else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "messageExtension", explanation: "an extension is not an object")
            }
            objects.append(object)
        }
        return objects
    }
}
