public import ThreeDS2JOSE
public import ThreeDS2Messages

extension ChallengeResponseBuilder {
    /// `togglePositionInd` `01`: the consent questions above the action buttons (2.3.1).
    static let consentsAboveActions = "01"

    /// Writes a screen's fields after the CRes header, as `version` defines them (the mirror of the validator's
    /// `screen(_:expectation:)`).
    static func write(_ screen: ChallengeScreen, version: MessageVersion, into object: inout JSONObject) {
        if screen.showsWarningIndicator { object["challengeInfoTextIndicator"] = indicator(true) }
        object["acsUiType"] = .string(screen.uiType.rawValue)
        put(screen.header, "challengeInfoHeader", in: &object)
        put(screen.infoText, "challengeInfoText", in: &object)
        put(screen.infoLabel, "challengeInfoLabel", in: &object)
        writeEntry(screen, version: version, into: &object)
        put(screen.submitLabel, "submitAuthenticationLabel", in: &object)
        put(screen.resendLabel, "resendInformationLabel", in: &object)
        if version.hasAdditionalCode { put(screen.additionalCodeLabel, "challengeAddLabel", in: &object) }
        writeOutOfBand(screen, version: version, into: &object)
        if version.hasInformationContinue { put(screen.infoContinueLabel, "infoContinueLabel", in: &object) }
        if let html = screen.html { object["acsHTML"] = .string(Base64.urlEncode(Array(html.utf8))) }
        if let refresh = screen.htmlRefresh {
            object["acsHTMLRefresh"] = .string(Base64.urlEncode(Array(refresh.utf8)))
        }
        put(screen.whyInfo?.label, "whyInfoLabel", in: &object)
        put(screen.whyInfo?.text, "whyInfoText", in: &object)
        put(screen.expandInfo?.label, "expandInfoLabel", in: &object)
        put(screen.expandInfo?.text, "expandInfoText", in: &object)
        writeConsents(screen, version: version, into: &object)
        if let image = screen.issuerImage { object["issuerImage"] = imageJSON(image) }
        if let image = screen.paymentSystemImage { object["psImage"] = imageJSON(image) }
        if version.carriesBridging, let bridging = screen.bridging {
            object["messageExtension"] = .array([Bridging.responseExtension(bridging)])
        }
    }

    private static func put(_ text: String?, _ name: String, in object: inout JSONObject) {
        if let text { object[name] = .string(text) }
    }

    /// The entry boxes (2.3.1 text screens) and the choices (select screens).
    private static func writeEntry(_ screen: ChallengeScreen, version: MessageVersion, into object: inout JSONObject) {
        if version.hasEntryBoxes {
            for (box, name) in zip(screen.entryBoxes, ["challengeEntryBox", "challengeEntryBoxTwo"]) {
                object[name] = .object(entryBoxJSON(box))
            }
        }
        if !screen.options.isEmpty {
            object["challengeSelectInfo"] = .array(screen.options.map { .object([$0.key: .string($0.label)]) })
        }
    }

    /// One entry box (Table A.26): the masking always said, the reveal toggle with a masked box.
    private static func entryBoxJSON(_ box: EntryBox) -> JSONObject {
        var object: JSONObject = ["challengeDataEntryLabel": .string(box.label)]
        if let keyboard = box.keyboard { object["challengeDataEntryKeyboardType"] = .string(keyboard.rawValue) }
        object["challengeDataEntryLengthMax"] = .string(twoDigits(box.maxLength))
        object["challengeDataEntryMasking"] = indicator(box.isMasked)
        if box.isMasked { object["challengeDataEntryToggle"] = indicator(box.offersRevealToggle) }
        if let autofill = box.autofill {
            object["challengeDataEntryAutofill"] = indicator(true)
            object["challengeDataEntryAutofillType"] = .string(autofill.rawValue)
        }
        return object
    }

    /// The continue button, the bank's-app link (2.3.1 core fields) and the text shown on coming back.
    private static func writeOutOfBand(
        _ screen: ChallengeScreen, version: MessageVersion, into object: inout JSONObject
    ) {
        put(screen.oobContinueLabel, "oobContinueLabel", in: &object)
        if version.hasOOBAppURL {
            put(screen.oobAppURL, "oobAppURL", in: &object)
            put(screen.oobAppLabel, "oobAppLabel", in: &object)
        }
        put(screen.additionalInfo, "challengeAddInfo", in: &object)
    }

    /// The trust-list (whitelisting) and device-binding questions and where they go.
    private static func writeConsents(
        _ screen: ChallengeScreen, version: MessageVersion, into object: inout JSONObject
    ) {
        if let question = version.trustQuestion { put(screen.whitelistingText, question.textField, in: &object) }
        if version.hasDeviceBinding { put(screen.deviceBindingText, "deviceBindingInfoText", in: &object) }
        if version.hasEntryBoxes, screen.consentsAboveActions {
            object["togglePositionInd"] = .string(consentsAboveActions)
        }
    }

    /// An image object: the variants set, by density then by appearance.
    private static func imageJSON(_ image: ChallengeImage) -> JSONValue {
        var object: JSONObject = [:]
        let variants = [
            ("medium", image.medium), ("high", image.high), ("extraHigh", image.extraHigh),
            ("default", image.defaultAppearance), ("dark", image.dark), ("monochrome", image.monochrome),
        ]
        for (key, url) in variants { put(url, key, in: &object) }
        return .object(object)
    }

    /// `%02d`, as `challengeDataEntryLengthMax` is written.
    private static func twoDigits(_ value: Int) -> String {
        value < 10 && value >= 0 ? "0\(value)" : "\(value)"
    }
}

extension Bridging {
    /// The extension object a CRes carries: non-critical, with the version and the bank's-app link.
    ///
    /// - Parameter link: The version (or an unknown version's text) and the link with its label.
    /// - Returns: The `messageExtension` entry.
    public static func responseExtension(_ link: Received) -> JSONValue {
        var challengeData: JSONObject = [:]
        if let url = link.appURL { challengeData["oobAppURL"] = .string(url) }
        if let label = link.appLabel { challengeData["oobAppLabel"] = .string(label) }
        var data: JSONObject = [:]
        if let version = link.version?.rawValue ?? link.unknownVersion { data["version"] = .string(version) }
        data["challengeData"] = .object(challengeData)
        return .object([
            "name": .string(name), "id": .string(id), "criticalityIndicator": .bool(false), "data": .object(data),
        ])
    }
}
