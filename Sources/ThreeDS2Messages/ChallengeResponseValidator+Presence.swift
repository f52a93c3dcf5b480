import ThreeDS2JOSE

extension ChallengeResponseValidator {
    /// The fields only a screen carries: none belongs in a final CRes.
    static let screenFields = [
        "acsUiType", "challengeInfoHeader", "challengeInfoLabel", "challengeInfoText", "challengeInfoTextIndicator",
        "challengeSelectInfo", "submitAuthenticationLabel", "resendInformationLabel", "oobContinueLabel",
        "oobAppURL", "oobAppLabel", "infoContinueLabel", "whyInfoLabel", "whyInfoText", "expandInfoLabel",
        "expandInfoText", "issuerImage", "psImage", "acsHTML", "acsHTMLRefresh", "challengeAddInfo",
        "whitelistingInfoText", "trustListInfoText", "deviceBindingInfoText", "challengeAddLabel",
        "challengeEntryBox", "challengeEntryBoxTwo", "togglePositionInd",
    ]

    /// The CRes fields 2.3.1 added (Table A.20): unknown before it.
    static let fields231 = [
        "challengeEntryBox", "challengeEntryBoxTwo", "oobAppURL", "oobAppLabel", "trustListInfoText",
        "deviceBindingInfoText", "challengeAddLabel", "togglePositionInd", "infoContinueLabel",
    ]

    /// The CRes fields 2.2.0 added: unknown in 2.1.0.
    static let fields220 = ["whitelistingInfoText", "challengeAddInfo", "acsHTMLRefresh"]

    /// A final CRes carries no screen field (tolerated: the SDK ignores them).
    static func checkFinalCarriesNoScreen(_ reader: FieldReader) throws(ProtocolViolation) {
        for name in screenFields where reader.object[name] != nil && reader.object[name] != .null {
            try reader.recorder.invalid(
                .finalScreenField, name, "is a screen field in a final CRes", seen: reader.object[name])
        }
    }

    /// The fields of another version: a 2.3.1 field before 2.3.1, a 2.2.0 field in 2.1.0, `whitelistingInfoText`
    /// (which 2.3.1 replaced with `trustListInfoText`) in 2.3.1. Tolerated: the SDK ignores them.
    static func checkVersionFields(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation) {
        var foreign: [String] = []
        if !version.hasEntryBoxes { foreign += fields231 }
        if version.trustQuestion == nil { foreign += fields220 }
        if version.trustQuestion == .trustList { foreign.append(TrustQuestion.whitelisting.textField) }
        for name in foreign where reader.object[name] != nil && reader.object[name] != .null {
            try reader.recorder.invalid(
                .fieldNotInVersion, name, "is not a field of version \(version)", seen: reader.object[name],
                requirement: "absent in \(version)")
        }
    }

    /// The fields a UI type's table marks "not present": a resend label belongs on a text screen only (Table A.20;
    /// 2.1.0 and 2.2.0 alike). Tolerated: the SDK shows the button.
    static func checkNotAllowed(_ reader: FieldReader, uiType: UIType) throws(ProtocolViolation) {
        let field = "resendInformationLabel"
        guard ![.text, .html, .htmlOutOfBand].contains(uiType), let value = reader.object[field], value != .null
        else { return }
        try reader.recorder.invalid(
            .screenFieldNotAllowed, field, "is not a field of an acsUiType \(uiType.rawValue) screen", seen: value,
            requirement: "absent on an acsUiType \(uiType.rawValue) screen")
    }

    /// The 2.3.1.1 select limits: at most 8 options, keys of at most 4 characters. Tolerated: the SDK shows every
    /// option and sends back any key.
    static func checkSelectLimits(_ entries: [JSONValue], _ recorder: CResRecorder, version: MessageVersion)
        throws(ProtocolViolation)
    {
        guard version.hasEntryBoxes else { return }
        let field = "challengeSelectInfo"
        if entries.count > 8 {
            try recorder.invalid(
                .selectInfoTooMany, field, "has \(entries.count) options; at most 8", seen: .array(entries))
        }
        for entry in entries {
            guard let key = entry.objectValue?.members.first?.name, PeerText.length(key) > 4 else { continue }
            try recorder.invalid(.selectInfoKeyTooLong, field, "has a key longer than 4 characters", seen: entry)
        }
    }
}
