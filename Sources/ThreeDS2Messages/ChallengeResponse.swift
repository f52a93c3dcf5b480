import Foundation
public import ThreeDS2JOSE

/// What a CRes said, after validation.
public enum ChallengeResponse: Sendable, Hashable {
    /// A screen to show; the challenge goes on.
    case screen(ChallengeScreen)
    /// The final CRes with the transaction status (`Y` or `N`; `D` too from 2.3.1).
    case final(transStatus: TransactionStatus)
}

/// What the SDK expects of the next CRes.
public struct ChallengeResponseExpectation: Sendable, Hashable {
    /// The transaction identifiers every CRes must carry.
    public var identifiers: TransactionIdentifiers
    /// The message version of the transaction.
    public var messageVersion: MessageVersion
    /// The expected `acsCounterAtoS`, 0…255.
    public var acsCounter: Int
    /// IDs of the message extensions the SDK recognises.
    public var recognisedExtensions: Set<String>
    /// Whether the CReq said the SDK can open the bank's app (`oobAppURLInd` `01`): only then may a 2.3.1 CRes carry
    /// `oobAppURL` / `oobAppLabel`.
    public var opensOOBApps: Bool
    /// Whether the CReqs announced Bridging (2.2.0): only then is a CRes's Bridging app link offered.
    public var announcedBridging: Bool

    /// Creates the expectation.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, acsCounter: Int,
        recognisedExtensions: Set<String> = [], opensOOBApps: Bool = false, announcedBridging: Bool = false
    ) {
        self.announcedBridging = announcedBridging
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.acsCounter = acsCounter
        self.recognisedExtensions = recognisedExtensions
        self.opensOOBApps = opensOOBApps
    }
}

/// Validates a decrypted CRes (protocol reference §3–§4). Unknown non-critical fields are ignored, in a final CRes
/// too: real ACSs send extras, and rejecting them has failed live payments.
public enum ChallengeResponseValidator {
    /// Validates a CRes JSON object.
    ///
    /// - Parameters:
    ///   - object: The decrypted CRes.
    ///   - expectation: The identifiers, version and counter expected.
    /// - Returns: The screen or the final status.
    /// - Throws: ``ProtocolViolation`` with the error code and the data element concerned.
    public static func validate(_ object: JSONObject, expecting expectation: ChallengeResponseExpectation)
        throws(ProtocolViolation)
        -> ChallengeResponse
    {
        let reader = FieldReader(object: object)
        guard let messageType = try reader.string("messageType") else { throw .missing("messageType") }
        guard MessageType(rawValue: messageType) == .challengeResponse else {
            throw ProtocolViolation(
                .messageReceivedInvalid, detail: "messageType",
                explanation: "CRes field `messageType` was \(messageType), expected CRes")
        }
        for name in [
            "threeDSServerTransID", "acsTransID", "sdkTransID", "acsCounterAtoS", "messageVersion",
            "challengeCompletionInd",
        ]
        where object[name] == nil || object[name] == .string("") || object[name] == .null {
            throw .missing(name)
        }
        let ids = expectation.identifiers
        for (name, expected) in [
            ("threeDSServerTransID", ids.threeDSServerTransID), ("acsTransID", ids.acsTransID),
            ("sdkTransID", ids.sdkTransID),
        ] {
            let value = try reader.string(name) ?? ""
            guard value.count == 36, UUID(uuidString: value) != nil else { throw .invalid(name, "is not a UUID") }
            // The UUID shape is checked in any case; the value must be the one sent, byte for byte.
            guard value.utf8.elementsEqual(expected.utf8) else {
                throw ProtocolViolation(
                    .transactionIDNotRecognised, detail: name,
                    explanation: "CRes field `\(name)` was \(value), expected \(expected)")
            }
        }
        let version = try reader.string("messageVersion") ?? ""
        guard version == expectation.messageVersion.rawValue else {
            // Table A.4 files a version that differs from the transaction's under 203 (GuavaPay does the same).
            throw .invalid("messageVersion", "was \(version), expected \(expectation.messageVersion)")
        }
        let counter = try reader.string("acsCounterAtoS") ?? ""
        guard counter.count == 3, counter.allSatisfy(\.isASCIIDigit), let counterValue = Int(counter),
            counterValue <= 255
        else {
            throw .invalid("acsCounterAtoS", "was \(counter), expected three digits")
        }
        guard counterValue == expectation.acsCounter else {
            throw ProtocolViolation(
                .decryptionFailure, detail: "acsCounterAtoS",
                explanation:
                    "CRes field `acsCounterAtoS` was \(counter), expected \(String(format: "%03d", expectation.acsCounter))"
            )
        }
        let completion = try reader.string("challengeCompletionInd") ?? ""
        guard completion == "Y" || completion == "N" else {
            throw .invalid("challengeCompletionInd", "was \(completion), expected Y or N")
        }
        // Bridging is recognised in 2.2.0, so a CRes marking it critical is processed; elsewhere it is one more
        // extension (ignored, or 202 when critical).
        try validateExtensions(
            object["messageExtension"],
            recognised: expectation.recognisedExtensions.union(
                expectation.messageVersion.carriesBridging ? [Bridging.id] : []),
            max: expectation.messageVersion.maxMessageExtensions)

        if completion == "Y" {
            guard let letter = try reader.string("transStatus"), !letter.isEmpty else { throw .missing("transStatus") }
            let status = TransactionStatus(rawValue: letter)
            // 2.3.1(.1) adds D (decoupled, Table A.17): whether the AReq asked for it is the 3DS Server's business,
            // which the SDK cannot see, so D is passed on; any other value is 203 (as certified SDKs answer).
            let allowed: [TransactionStatus] =
                expectation.messageVersion.allowsDecoupledFinalStatus
                ? [.authenticated, .notAuthenticated, .decoupled] : [.authenticated, .notAuthenticated]
            guard allowed.contains(status) else {
                throw .invalid(
                    "transStatus",
                    "was \(letter); a final CRes may carry only \(allowed.map(\.rawValue).joined(separator: ", "))")
            }
            return .final(transStatus: status)
        }
        return .screen(try screen(reader, expectation: expectation))
    }

    private static func validateExtensions(_ value: JSONValue?, recognised: Set<String>, max: Int)
        throws(ProtocolViolation)
    {
        guard let value else { return }
        guard case .array(let extensions) = value else { throw .invalid("messageExtension", "is not an array") }
        guard extensions.count <= max else {
            throw .invalid("messageExtension", "has \(extensions.count) entries; at most \(max)")
        }
        guard PeerText.fits(value.serialized, max: 81_920) else {
            throw .invalid("messageExtension", "is longer than 81920 characters")
        }
        var unrecognisedCritical: [String] = []
        for element in extensions {
            guard case .object(let ext) = element,
                case .string(let name)? = ext["name"], !name.isEmpty, PeerText.fits(name, max: 64),
                case .string(let id)? = ext["id"], !id.isEmpty, PeerText.fits(id, max: 64),
                case .bool(let critical)? = ext["criticalityIndicator"],
                case .object(let data)? = ext["data"], PeerText.fits(JSONValue.object(data).serialized, max: 8059)
            else {
                throw .invalid(
                    "messageExtension", "has an entry without a valid name, id, criticalityIndicator and data")
            }
            if critical, !recognised.contains(id) { unrecognisedCritical.append(id) }
        }
        if !unrecognisedCritical.isEmpty {
            throw ProtocolViolation(
                .criticalExtensionNotRecognised, detail: unrecognisedCritical.joined(separator: ","),
                explanation:
                    "CRes carries critical message extensions the SDK does not recognise: \(unrecognisedCritical.joined(separator: ", "))"
            )
        }
    }

    // Which fields each UI type needs: protocol reference §3 and Table A.18 for 2.1.0/2.2.0 (as certified SDKs
    // check them, UL TC_SDK_10268…10292), Table A.20 for 2.3.1 (v231-reference §2.2). Fields a table marks "not
    // present" are tolerated when they are display text (real ACS tools send `challengeInfoLabel` on 2.3.1 text
    // screens) and ignored; 2.3.1-only fields in an earlier version's CRes are unknown fields there, so ignored too.
    private static func screen(_ reader: FieldReader, expectation: ChallengeResponseExpectation)
        throws(ProtocolViolation) -> ChallengeScreen
    {
        let version = expectation.messageVersion
        guard let uiTypeValue = try reader.string("acsUiType"), !uiTypeValue.isEmpty else {
            throw .missing("acsUiType")
        }
        guard let uiType = UIType(rawValue: uiTypeValue), version.defines(uiType) else {
            if version.reportsReservedValues, isTwoDigits(uiTypeValue, from: 8) {
                throw .reserved("acsUiType", uiTypeValue)
            }
            throw .invalid("acsUiType", "was \(uiTypeValue), not a UI type of version \(version)")
        }
        var screen = ChallengeScreen(uiType: uiType, messageVersion: version)
        if expectation.announcedBridging, version.carriesBridging {
            screen.bridging = Bridging.read(reader.object["messageExtension"])
        }
        screen.header = try reader.text("challengeInfoHeader", max: 45)
        screen.infoText = try reader.text("challengeInfoText", max: 350)
        screen.infoLabel = try reader.text("challengeInfoLabel", max: 45)
        screen.submitLabel = try reader.text("submitAuthenticationLabel", max: 45)
        screen.oobContinueLabel = try reader.text("oobContinueLabel", max: 45)
        screen.infoContinueLabel = try reader.text("infoContinueLabel", max: 45)
        screen.additionalInfo = try reader.text("challengeAddInfo", max: 256)
        screen.resendLabel = try reader.text("resendInformationLabel", max: 45)
        if let indicator = try reader.string("challengeInfoTextIndicator") {
            guard indicator == "Y" || indicator == "N" else {
                throw .invalid("challengeInfoTextIndicator", "was \(indicator), expected Y or N")
            }
            screen.showsWarningIndicator = indicator == "Y"
        }
        if let resend = reader.object["resendInformationLabel"], resend == .string("") {
            throw .invalid("resendInformationLabel", "is empty")
        }
        if let question = version.trustQuestion {
            screen.whitelistingText = try reader.text(question.textField, max: 64)
        }
        screen.whyInfo = try section(reader, "whyInfoLabel", "whyInfoText")
        screen.expandInfo = try section(reader, "expandInfoLabel", "expandInfoText")
        screen.issuerImage = try image(reader, "issuerImage", version: version)
        screen.paymentSystemImage = try image(reader, "psImage", version: version)
        if version.hasDeviceBinding {
            screen.deviceBindingText = try reader.text("deviceBindingInfoText", max: 64)
        }
        if version.hasAdditionalCode, uiType != .html, uiType != .htmlOutOfBand {
            screen.additionalCodeLabel = try reader.text("challengeAddLabel", max: 45)
        }
        if version.hasEntryBoxes, let position = try reader.string("togglePositionInd") {
            guard position == "01" else {
                if isTwoDigits(position, from: 2) { throw .reserved("togglePositionInd", position) }
                throw .invalid("togglePositionInd", "was \(position), expected 01")
            }
            screen.consentsAboveActions = true
        }

        func require(_ fields: [(String, String?)]) throws(ProtocolViolation) {
            for (name, value) in fields where value == nil { throw .missing(name) }
        }
        let v231 = version.hasEntryBoxes
        switch uiType {
        case .text where v231:
            try require([("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText)])
            guard let first = try entryBox(reader, "challengeEntryBox") else { throw .missing("challengeEntryBox") }
            screen.entryBoxes = [first]
            if let second = try entryBox(reader, "challengeEntryBoxTwo") { screen.entryBoxes.append(second) }
            try require([("submitAuthenticationLabel", screen.submitLabel)])
        case .text, .singleSelect, .multiSelect:
            // Certified SDKs require these for native UIs (UL TC_SDK_10268…10286); so does Table A.20.
            try require([
                ("challengeInfoHeader", screen.header), ("challengeInfoLabel", screen.infoLabel),
                ("challengeInfoText", screen.infoText), ("submitAuthenticationLabel", screen.submitLabel),
            ])
            if uiType != .text {
                screen.options = try selectOptions(reader, version: version)
                guard !screen.options.isEmpty else { throw .missing("challengeSelectInfo") }
            }
        case .outOfBand:
            if v231 {
                try require([("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText)])
                try oobApp(reader, into: &screen, expectation: expectation, labelled: true)
                // 2.3.1: the continue label is required only when there is no open-app button.
                if screen.oobAppLabel == nil { try require([("oobContinueLabel", screen.oobContinueLabel)]) }
            } else {
                // TC_SDK_10292: with a continue label, the header and text must be there too.
                try require([
                    ("oobContinueLabel", screen.oobContinueLabel), ("challengeInfoHeader", screen.header),
                    ("challengeInfoText", screen.infoText),
                ])
                // 2.2.0: the bank's app as the Bridging extension links it, in a version the SDK knows.
                if let bridging = screen.bridging, bridging.version != nil, let url = bridging.appURL {
                    screen.oobAppURL = url
                    screen.oobAppLabel = bridging.appLabel
                }
            }
        case .html, .htmlOutOfBand:
            guard let encoded = try reader.string("acsHTML"), !encoded.isEmpty else { throw .missing("acsHTML") }
            let limit = v231 ? 300_000 : 140_000
            screen.html = try decodeHTML(encoded, field: "acsHTML", limit: limit)
            if let refresh = try reader.string("acsHTMLRefresh") {
                screen.htmlRefresh = try decodeHTML(refresh, field: "acsHTMLRefresh", limit: limit)
            }
            if uiType == .htmlOutOfBand {
                try oobApp(reader, into: &screen, expectation: expectation, labelled: false)
            }
        case .information:
            try require([
                ("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText),
                ("infoContinueLabel", screen.infoContinueLabel),
            ])
        }
        if uiType != .singleSelect, uiType != .multiSelect, reader.object["challengeSelectInfo"] != nil {
            _ = try selectOptions(reader, version: version)
        }
        return screen
    }

    /// `oobAppURL` (and, for UI 04, `oobAppLabel`): 2.3.1 only, both or neither on UI 04, and only when the CReq
    /// said the SDK can open the bank's app (`oobAppURLInd` `01`); anything else is 203.
    private static func oobApp(
        _ reader: FieldReader, into screen: inout ChallengeScreen, expectation: ChallengeResponseExpectation,
        labelled: Bool
    ) throws(ProtocolViolation) {
        let url = try reader.text("oobAppURL", max: 2048)
        let label = labelled ? try reader.text("oobAppLabel", max: 45) : nil
        guard url != nil || label != nil else { return }
        guard expectation.opensOOBApps else {
            throw .invalid(
                url != nil ? "oobAppURL" : "oobAppLabel", "was sent although the CReq's oobAppURLInd was not 01")
        }
        guard let url else { throw .missing("oobAppURL") }
        guard isHTTPSURL(url) else { throw .invalid("oobAppURL", "is not an https universal or app link") }
        if labelled, label == nil { throw .missing("oobAppLabel") }
        screen.oobAppURL = url
        screen.oobAppLabel = label
    }

    /// An entry-box object (Table A.26); `nil` when absent.
    private static func entryBox(_ reader: FieldReader, _ name: String) throws(ProtocolViolation) -> EntryBox? {
        guard let value = reader.object[name], value != .null else { return nil }
        guard case .object(let object) = value else { throw .invalid(name, "is not an object") }
        let box = FieldReader(object: object)
        func field(_ key: String) -> String { "\(name).\(key)" }
        func string(_ key: String) throws(ProtocolViolation) -> String? {
            guard let item = object[key], item != .null else { return nil }
            guard case .string(let text) = item else {
                throw .invalid(field(key), "is a \(item.typeName), expected a string")
            }
            guard !text.isEmpty else { throw .invalid(field(key), "is empty") }
            return text
        }
        guard let label = try box.text("challengeDataEntryLabel", max: 45, reportedAs: field("challengeDataEntryLabel"))
        else { throw .missing(field("challengeDataEntryLabel")) }
        var keyboard: EntryBox.Keyboard?
        if let raw = try string("challengeDataEntryKeyboardType") {
            keyboard = EntryBox.Keyboard(rawValue: raw)
            if keyboard == nil {
                if isTwoDigits(raw, from: 3) { throw .reserved(field("challengeDataEntryKeyboardType"), raw) }
                throw .invalid(field("challengeDataEntryKeyboardType"), "was \(raw), expected 01 or 02")
            }
        }
        var autofill: EntryBox.Autofill?
        if let enabled = try string("challengeDataEntryAutofill") {
            guard enabled == "Y" else {
                throw .invalid(field("challengeDataEntryAutofill"), "was \(enabled), expected Y")
            }
            guard let raw = try string("challengeDataEntryAutofillType") else {
                throw .missing(field("challengeDataEntryAutofillType"))
            }
            autofill = EntryBox.Autofill(rawValue: raw)
            if autofill == nil {
                if isTwoDigits(raw, from: 3) { throw .reserved(field("challengeDataEntryAutofillType"), raw) }
                throw .invalid(field("challengeDataEntryAutofillType"), "was \(raw), expected 01 or 02")
            }
        }
        var maxLength = 45
        if let raw = try string("challengeDataEntryLengthMax") {
            guard raw.utf8.count == 2, raw.allSatisfy(\.isASCIIDigit), let value = Int(raw), (1...45).contains(value)
            else {
                throw .invalid(field("challengeDataEntryLengthMax"), "was \(raw), expected two digits 01–45")
            }
            maxLength = value
        }
        var masked = false
        if let raw = try string("challengeDataEntryMasking") {
            guard raw == "Y" || raw == "N" else {
                throw .invalid(field("challengeDataEntryMasking"), "was \(raw), expected Y or N")
            }
            masked = raw == "Y"
        }
        var toggle = false
        if let raw = try string("challengeDataEntryToggle") {
            guard raw == "Y" || raw == "N" else {
                throw .invalid(field("challengeDataEntryToggle"), "was \(raw), expected Y or N")
            }
            toggle = raw == "Y"
        } else if masked {
            throw .missing(field("challengeDataEntryToggle"))
        }
        return EntryBox(
            label: label, keyboard: keyboard, autofill: autofill, maxLength: maxLength, isMasked: masked,
            offersRevealToggle: masked && toggle)
    }

    /// Whether a value is two ASCII digits from `lower` to 99: the shape of a reserved code.
    private static func isTwoDigits(_ value: String, from lower: Int) -> Bool {
        value.utf8.count == 2 && value.allSatisfy(\.isASCIIDigit) && (Int(value) ?? 0) >= lower
    }

    private static func selectOptions(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation)
        -> [SelectOption]
    {
        guard let value = reader.object["challengeSelectInfo"] else { return [] }
        guard case .array(let entries) = value else { throw .invalid("challengeSelectInfo", "is not an array") }
        var options: [SelectOption] = []
        for entry in entries {
            guard case .object(let pair) = entry, pair.count == 1, let member = pair.members.first,
                case .string(let label) = member.value, !member.name.isEmpty, PeerText.fits(member.name, max: 45),
                !label.isEmpty, PeerText.fits(label, max: 45)
            else {
                throw .invalid(
                    "challengeSelectInfo", "has an entry that is not one name/value pair of 1–45 characters each")
            }
            guard !member.name.contains(",") else {
                throw .invalid("challengeSelectInfo", "has a key containing a comma")
            }
            try FieldReader.checkDisplayable(member.name, field: "challengeSelectInfo")
            try FieldReader.checkDisplayable(label, field: "challengeSelectInfo")
            options.append(SelectOption(key: member.name, label: label))
        }
        guard Set(options.map(\.key)).count == options.count else {
            // 2.3.1 files a repeated array entry under 204 (Table A.4); earlier versions under 203.
            if version.reportsDuplicateEntries { throw .duplicate("challengeSelectInfo", "repeats a key") }
            throw .invalid("challengeSelectInfo", "repeats a key")
        }
        return options
    }

    private static func decodeHTML(_ encoded: String, field: String, limit: Int) throws(ProtocolViolation) -> String {
        guard encoded.utf8.count <= limit else { throw .invalid(field, "is longer than \(limit) characters") }
        let bytes: [UInt8]
        do {
            bytes = try Base64.urlDecode(encoded, what: field)
        } catch {
            throw .invalid(field, "is not strict base64url (\(error.message))")
        }
        guard let html = String(utf8Validating: bytes) else {
            throw .invalid(field, "does not decode to UTF-8")
        }
        return html
    }

    private static func section(_ reader: FieldReader, _ labelName: String, _ textName: String)
        throws(ProtocolViolation) -> InformationSection?
    {
        let label = try reader.text(labelName, max: 45)
        let text = try reader.text(textName, max: 256)
        return label == nil && text == nil ? nil : InformationSection(label: label, text: text)
    }

    /// `issuerImage` / `psImage`: an object of https URLs by density (2.1.0, 2.2.0) or by appearance (2.3.1,
    /// Table A.21/A.22). Either key set is read in any version, since ACSs mix them; a single URL string is taken for
    /// every variant.
    private static func image(_ reader: FieldReader, _ name: String, version: MessageVersion)
        throws(ProtocolViolation) -> ChallengeImage?
    {
        guard let value = reader.object[name], value != .null else { return nil }
        switch value {
        case .string(let url):
            guard PeerText.fits(url, max: 2048), isHTTPSURL(url) else { throw .invalid(name, "is not an https URL") }
            return ChallengeImage(medium: url, high: url, extraHigh: url, defaultAppearance: url)
        case .object(let object):
            guard PeerText.fits(JSONValue.object(object).serialized, max: 6144) else {
                throw .invalid(name, "is longer than 6144 characters")
            }
            var urls: [String: String] = [:]
            for key in ["medium", "high", "extraHigh", "default", "dark", "monochrome"] {
                guard let entry = object[key], entry != .null else { continue }
                guard case .string(let url) = entry, PeerText.fits(url, max: 2048), isHTTPSURL(url) else {
                    throw .invalid("\(name).\(key)", "is not an https URL")
                }
                urls[key] = url
            }
            guard !urls.isEmpty else { throw .invalid(name, "has no image URL") }
            return ChallengeImage(
                medium: urls["medium"], high: urls["high"], extraHigh: urls["extraHigh"],
                defaultAppearance: urls["default"], dark: urls["dark"], monochrome: urls["monochrome"])
        default:
            throw .invalid(name, "is not an object of image URLs")
        }
    }

    /// Whether a text is an absolute https URL with a host: the rule for every link a CRes carries, and for the
    /// 2.3.1 `threeDSRequestorAppURL`.
    ///
    /// - Parameter text: The URL as written.
    /// - Returns: `true` for `https://host…` (any case of the scheme).
    public static func isHTTPSURL(_ text: String) -> Bool {
        guard let url = URL(string: text), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty
        else { return false }
        return true
    }
}

/// Typed, bounded access to CRes fields: a present field of the wrong type or length is 203.
struct FieldReader {
    let object: JSONObject

    func string(_ name: String) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else { throw .invalid(name, "is a \(value.typeName), expected a string") }
        return text
    }

    func text(_ name: String, max: Int, reportedAs field: String? = nil) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else {
            throw .invalid(field ?? name, "is a \(value.typeName), expected a string")
        }
        guard !text.isEmpty else { return nil }
        guard PeerText.fits(text, max: max) else {
            throw .invalid(field ?? name, "has more than \(max) characters")
        }
        try Self.checkDisplayable(text, field: field ?? name)
        return text
    }

    /// A display field with a control or bidirectional control character is invalid (``PeerText``).
    static func checkDisplayable(_ text: String, field: String) throws(ProtocolViolation) {
        if let scalar = PeerText.forbiddenScalar(in: text) {
            throw .invalid(
                field,
                "carries the control character U+\(String(scalar.value, radix: 16, uppercase: true)), "
                    + "which a display field may not")
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
