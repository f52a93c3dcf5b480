import Foundation
public import ThreeDS2JOSE

/// What a CRes said, after validation.
public enum ChallengeResponse: Sendable, Hashable {
    /// A screen to show; the challenge goes on.
    case screen(ChallengeScreen)
    /// The final CRes with the transaction status (`Y` or `N`).
    case final(transStatus: String)
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

    /// Creates the expectation.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, acsCounter: Int,
        recognisedExtensions: Set<String> = []
    ) {
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.acsCounter = acsCounter
        self.recognisedExtensions = recognisedExtensions
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
        guard messageType == "CRes" else {
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
            guard value == expected else {
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
        try validateExtensions(object["messageExtension"], recognised: expectation.recognisedExtensions)

        if completion == "Y" {
            guard let status = try reader.string("transStatus"), !status.isEmpty else { throw .missing("transStatus") }
            guard status == "Y" || status == "N" else {
                throw .invalid("transStatus", "was \(status); a final CRes may carry only Y or N")
            }
            return .final(transStatus: status)
        }
        return .screen(try screen(reader, version: expectation.messageVersion))
    }

    private static func validateExtensions(_ value: JSONValue?, recognised: Set<String>) throws(ProtocolViolation) {
        guard let value else { return }
        guard case .array(let extensions) = value else { throw .invalid("messageExtension", "is not an array") }
        guard extensions.count <= 10 else {
            throw .invalid("messageExtension", "has \(extensions.count) entries; at most 10")
        }
        guard value.serialized.count <= 81_920 else {
            throw .invalid("messageExtension", "is longer than 81920 characters")
        }
        var unrecognisedCritical: [String] = []
        for element in extensions {
            guard case .object(let ext) = element,
                case .string(let name)? = ext["name"], !name.isEmpty, name.count <= 64,
                case .string(let id)? = ext["id"], !id.isEmpty, id.count <= 64,
                case .bool(let critical)? = ext["criticalityIndicator"],
                case .object(let data)? = ext["data"], JSONValue.object(data).serialized.count <= 8059
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

    private static func screen(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation)
        -> ChallengeScreen
    {
        guard let uiTypeValue = try reader.string("acsUiType"), !uiTypeValue.isEmpty else {
            throw .missing("acsUiType")
        }
        guard let uiType = UIType(rawValue: uiTypeValue), version.defines(uiType) else {
            throw .invalid("acsUiType", "was \(uiTypeValue), not a UI type of version \(version)")
        }
        let header = try reader.text("challengeInfoHeader", max: 45)
        let infoText = try reader.text("challengeInfoText", max: 350)
        let infoLabel = try reader.text("challengeInfoLabel", max: 45)
        let submit = try reader.text("submitAuthenticationLabel", max: 45)
        let oobContinue = try reader.text("oobContinueLabel", max: 45)
        let infoContinue = try reader.text("infoContinueLabel", max: 45)
        let indicator = try reader.string("challengeInfoTextIndicator")
        if let indicator, indicator != "Y", indicator != "N" {
            throw .invalid("challengeInfoTextIndicator", "was \(indicator), expected Y or N")
        }
        if let resend = reader.object["resendInformationLabel"], resend == .string("") {
            throw .invalid("resendInformationLabel", "is empty")
        }
        let whitelisting = try version.trustQuestion.flatMap { question throws(ProtocolViolation) in
            try reader.text(question.textField, max: 64)
        }

        var options: [SelectOption] = []
        var html: String?
        var htmlRefresh: String?
        switch uiType {
        case .text, .singleSelect, .multiSelect:
            // Certified SDKs require these for native UIs (UL TC_SDK_10268…10286).
            for (name, value) in [
                ("challengeInfoHeader", header), ("challengeInfoLabel", infoLabel), ("challengeInfoText", infoText),
                ("submitAuthenticationLabel", submit),
            ]
            where value == nil {
                throw .missing(name)
            }
            if uiType != .text {
                options = try selectOptions(reader)
                guard !options.isEmpty else { throw .missing("challengeSelectInfo") }
            }
        case .outOfBand:
            guard oobContinue != nil else { throw .missing("oobContinueLabel") }
            // TC_SDK_10292: with a continue label, the header and text must be there too.
            guard header != nil else { throw .missing("challengeInfoHeader") }
            guard infoText != nil else { throw .missing("challengeInfoText") }
        case .html, .htmlOutOfBand:
            guard let encoded = try reader.string("acsHTML"), !encoded.isEmpty else { throw .missing("acsHTML") }
            html = try decodeHTML(encoded, field: "acsHTML")
            if let refresh = try reader.string("acsHTMLRefresh") {
                htmlRefresh = try decodeHTML(refresh, field: "acsHTMLRefresh")
            }
        case .information:
            guard header != nil || infoText != nil else { throw .missing("challengeInfoText") }
            guard infoContinue != nil else { throw .missing("infoContinueLabel") }
        }
        if uiType != .singleSelect, uiType != .multiSelect, reader.object["challengeSelectInfo"] != nil {
            _ = try selectOptions(reader)
        }
        var oobAppURL: String?
        var oobAppLabel: String?
        if version.hasOOBAppURL {
            oobAppURL = try reader.text("oobAppURL", max: 256)
            if let url = oobAppURL, !isHTTPSURL(url) { throw .invalid("oobAppURL", "is not an https URL") }
            oobAppLabel = try reader.text("oobAppLabel", max: 45)
        }
        return ChallengeScreen(
            uiType: uiType, messageVersion: version, header: header, infoText: infoText, infoLabel: infoLabel,
            showsWarningIndicator: indicator == "Y", additionalInfo: try reader.text("challengeAddInfo", max: 256),
            options: options,
            submitLabel: submit, resendLabel: try reader.text("resendInformationLabel", max: 45),
            oobContinueLabel: oobContinue,
            oobAppURL: oobAppURL, oobAppLabel: oobAppLabel, infoContinueLabel: infoContinue,
            whitelistingText: whitelisting,
            whyInfo: try section(reader, "whyInfoLabel", "whyInfoText"),
            expandInfo: try section(reader, "expandInfoLabel", "expandInfoText"),
            html: html, htmlRefresh: htmlRefresh, issuerImage: try image(reader, "issuerImage"),
            paymentSystemImage: try image(reader, "psImage"))
    }

    private static func selectOptions(_ reader: FieldReader) throws(ProtocolViolation) -> [SelectOption] {
        guard let value = reader.object["challengeSelectInfo"] else { return [] }
        guard case .array(let entries) = value else { throw .invalid("challengeSelectInfo", "is not an array") }
        var options: [SelectOption] = []
        for entry in entries {
            guard case .object(let pair) = entry, pair.count == 1, let member = pair.members.first,
                case .string(let label) = member.value, !member.name.isEmpty, member.name.count <= 45, !label.isEmpty,
                label.count <= 45
            else {
                throw .invalid(
                    "challengeSelectInfo", "has an entry that is not one name/value pair of 1–45 characters each")
            }
            guard !member.name.contains(",") else {
                throw .invalid("challengeSelectInfo", "has a key containing a comma")
            }
            options.append(SelectOption(key: member.name, label: label))
        }
        guard Set(options.map(\.key)).count == options.count else {
            throw .invalid("challengeSelectInfo", "repeats a key")
        }
        return options
    }

    private static func decodeHTML(_ encoded: String, field: String) throws(ProtocolViolation) -> String {
        guard encoded.utf8.count <= 140_000 else { throw .invalid(field, "is larger than 100 KB") }
        let bytes: [UInt8]
        do {
            bytes = try Base64.urlDecode(encoded, what: field)
        } catch {
            throw .invalid(field, "is not strict base64url (\(error.detail))")
        }
        guard let html = String(validating: bytes, as: UTF8.self) else {
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

    private static func image(_ reader: FieldReader, _ name: String) throws(ProtocolViolation) -> ChallengeImage? {
        guard let value = reader.object[name] else { return nil }
        switch value {
        case .string(let url):
            // 2.3.x may send one URL.
            guard url.count <= 2048, isHTTPSURL(url) else { throw .invalid(name, "is not an https URL") }
            return ChallengeImage(medium: url, high: url, extraHigh: url)
        case .object(let object):
            var urls: [String: String] = [:]
            for key in ["medium", "high", "extraHigh", "default", "dark", "monochrome"] {
                guard let entry = object[key] else { continue }
                guard case .string(let url) = entry, url.count <= 2048, isHTTPSURL(url) else {
                    throw .invalid("\(name).\(key)", "is not an https URL")
                }
                urls[key] = url
            }
            guard !urls.isEmpty else { throw .invalid(name, "has no image URL") }
            return ChallengeImage(
                medium: urls["medium"] ?? urls["default"], high: urls["high"] ?? urls["default"],
                extraHigh: urls["extraHigh"])
        default:
            throw .invalid(name, "is not an object of image URLs")
        }
    }

    static func isHTTPSURL(_ text: String) -> Bool {
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

    func text(_ name: String, max: Int) throws(ProtocolViolation) -> String? {
        guard let text = try string(name) else { return nil }
        guard !text.isEmpty else { return nil }
        guard text.count <= max else { throw .invalid(name, "has \(text.count) characters; at most \(max)") }
        return text
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
