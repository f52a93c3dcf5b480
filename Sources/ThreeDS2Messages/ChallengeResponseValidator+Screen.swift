import ThreeDS2JOSE

extension ChallengeResponseValidator {
    // Which fields each UI type needs: protocol reference §3 and Table A.18 for 2.1.0/2.2.0 (as certified SDKs
    // check them, UL TC_SDK_10268…10292), Table A.20 for 2.3.1 (v231-reference §2.2). Fields a table marks "not
    // present" are tolerated when they are display text (real ACS tools send `challengeInfoLabel` on 2.3.1 text
    // screens) and ignored; 2.3.1-only fields in an earlier version's CRes are unknown fields there, so ignored too.
    static func screen(_ reader: FieldReader, expectation: ChallengeResponseExpectation)
        throws(ProtocolViolation) -> ChallengeScreen?
    {
        let version = expectation.messageVersion
        let uiType = try readUIType(reader, version: version)
        // With a UI type the SDK cannot read, an audit still checks every field a screen may carry; only the
        // UI type's own requirements are left out.
        var screen = ChallengeScreen(uiType: uiType ?? .text, messageVersion: version)
        if expectation.announcedBridging, version.carriesBridging {
            screen.bridging = try Bridging.read(reader.object["messageExtension"], recorder: reader.recorder)
        }
        try readTexts(reader, into: &screen)
        try readOptionalFields(reader, into: &screen, uiType: uiType)
        if let uiType {
            try readRequired(reader, into: &screen, expectation: expectation)
            if uiType != .singleSelect, uiType != .multiSelect, reader.object["challengeSelectInfo"] != nil {
                _ = try selectOptions(reader, version: version)
            }
            try checkNotAllowed(reader, uiType: uiType)
        }
        // What the SDK tolerates comes last: a field already found broken is not reported again.
        try checkVersionFields(reader, version: version)
        guard uiType != nil else { return nil }
        return reader.recorder.findings.isEmpty ? screen : nil
    }

    /// `acsUiType`: present, and a UI type of the version (a reserved value is 207 from 2.3.1).
    private static func readUIType(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation)
        -> UIType?
    {
        guard let uiTypeValue = try reader.string("acsUiType"), !uiTypeValue.isEmpty else {
            try reader.recorder.missing(.uiTypeMissing, "acsUiType")
            return nil
        }
        guard let uiType = UIType(rawValue: uiTypeValue), version.defines(uiType) else {
            if version.reportsReservedValues, isTwoDigits(uiTypeValue, from: 8) {
                try reader.recorder.reserved(.uiTypeReserved, "acsUiType", uiTypeValue)
            } else {
                try reader.recorder.invalid(
                    .uiTypeUnknown, "acsUiType", "was \(uiTypeValue), not a UI type of version \(version)",
                    seen: .string(uiTypeValue),
                    requirement: "one of \(version.uiTypes.map(\.rawValue).joined(separator: ", ")) in \(version)")
            }
            return nil
        }
        return uiType
    }

    /// The display texts any screen may carry, with their lengths.
    private static func readTexts(_ reader: FieldReader, into screen: inout ChallengeScreen)
        throws(ProtocolViolation)
    {
        screen.header = try reader.text("challengeInfoHeader", max: 45)
        screen.infoText = try reader.text("challengeInfoText", max: 350)
        screen.infoLabel = try reader.text("challengeInfoLabel", max: 45)
        screen.submitLabel = try reader.text("submitAuthenticationLabel", max: 45)
        screen.oobContinueLabel = try reader.text("oobContinueLabel", max: 45)
        screen.infoContinueLabel = try reader.text("infoContinueLabel", max: 45)
        screen.additionalInfo = try reader.text("challengeAddInfo", max: 256)
        screen.resendLabel = try reader.text("resendInformationLabel", max: 45)
        if let indicator = try reader.string("challengeInfoTextIndicator") {
            if let known = YesNoIndicator(rawValue: indicator) {
                screen.showsWarningIndicator = known.isYes
            } else {
                try reader.recorder.invalid(
                    .infoTextIndicatorValue, "challengeInfoTextIndicator", "was \(indicator), expected Y or N",
                    seen: .string(indicator))
            }
        }
        if let resend = reader.object["resendInformationLabel"], resend == .string("") {
            try reader.recorder.invalid(.resendLabelEmpty, "resendInformationLabel", "is empty", seen: resend)
        }
    }

    /// The optional fields of the version: trust question, why and expand sections, images, device binding, the
    /// additional-code button and the consents' position.
    private static func readOptionalFields(_ reader: FieldReader, into screen: inout ChallengeScreen, uiType: UIType?)
        throws(ProtocolViolation)
    {
        let version = screen.messageVersion
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
        if version.hasAdditionalCode, uiType?.isHTML != true {
            screen.additionalCodeLabel = try reader.text("challengeAddLabel", max: 45)
        }
        if version.hasEntryBoxes, let position = try reader.string("togglePositionInd") {
            if position == "01" {
                screen.consentsAboveActions = true
            } else if isTwoDigits(position, from: 2) {
                try reader.recorder.reserved(.togglePositionReserved, "togglePositionInd", position)
            } else {
                try reader.recorder.invalid(
                    .togglePositionValue, "togglePositionInd", "was \(position), expected 01", seen: .string(position))
            }
        }
    }

    /// The fields the screen's UI type requires in the version, and what they carry.
    private static func readRequired(
        _ reader: FieldReader, into screen: inout ChallengeScreen, expectation: ChallengeResponseExpectation
    ) throws(ProtocolViolation) {
        let version = screen.messageVersion
        let uiType = screen.uiType
        func require(_ fields: [(String, String?)]) throws(ProtocolViolation) {
            for (name, value) in fields where value == nil {
                try reader.recorder.missing(
                    .screenFieldMissing, name,
                    requirement: "present on an acsUiType \(uiType.rawValue) screen in \(version)")
            }
        }
        let v231 = version.hasEntryBoxes
        switch uiType {
        case .text where v231:
            try require([("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText)])
            let first = try entryBox(reader, "challengeEntryBox")
            try require([("challengeEntryBox", first?.label)])
            screen.entryBoxes = first.map { [$0] } ?? []
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
                try require([("challengeSelectInfo", screen.options.isEmpty ? nil : "")])
            }
        case .outOfBand:
            try readOutOfBand(reader, into: &screen, expectation: expectation, require: require)
        case .html, .htmlOutOfBand:
            try readHTML(reader, into: &screen, expectation: expectation, require: require)
        case .information:
            try require([
                ("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText),
                ("infoContinueLabel", screen.infoContinueLabel),
            ])
        }
    }

    private static func readOutOfBand(
        _ reader: FieldReader, into screen: inout ChallengeScreen, expectation: ChallengeResponseExpectation,
        require: ([(String, String?)]) throws(ProtocolViolation) -> Void
    ) throws(ProtocolViolation) {
        if screen.messageVersion.hasEntryBoxes {
            try require([("challengeInfoHeader", screen.header), ("challengeInfoText", screen.infoText)])
            try oobApp(reader, into: &screen, expectation: expectation, labelled: true)
            // 2.3.1: the continue label is required only when there is no open-app button. An app link the ACS
            // sent and got wrong is reported as such; the missing continue label would only follow from it.
            let appFound =
                reader.recorder.hasFinding(for: "oobAppURL") || reader.recorder.hasFinding(for: "oobAppLabel")
            if screen.oobAppLabel == nil, !appFound {
                try require([("oobContinueLabel", screen.oobContinueLabel)])
            }
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
    }

    private static func readHTML(
        _ reader: FieldReader, into screen: inout ChallengeScreen, expectation: ChallengeResponseExpectation,
        require: ([(String, String?)]) throws(ProtocolViolation) -> Void
    ) throws(ProtocolViolation) {
        let encoded = try reader.string("acsHTML")
        let limit = screen.messageVersion.hasEntryBoxes ? 300_000 : 140_000
        if let encoded, !encoded.isEmpty {
            screen.html = try decodeHTML(encoded, field: "acsHTML", limit: limit, reader.recorder)
        } else {
            try require([("acsHTML", nil)])
        }
        if let refresh = try reader.string("acsHTMLRefresh") {
            screen.htmlRefresh = try decodeHTML(refresh, field: "acsHTMLRefresh", limit: limit, reader.recorder)
        }
        if screen.uiType == .htmlOutOfBand {
            try oobApp(reader, into: &screen, expectation: expectation, labelled: false)
        }
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
            let name = url != nil ? "oobAppURL" : "oobAppLabel"
            return try reader.recorder.invalid(
                .oobAppNotOffered, name, "was sent although the CReq's oobAppURLInd was not 01",
                seen: .string(url ?? label ?? ""))
        }
        guard let url else { return try reader.recorder.missing(.oobAppURLMissing, "oobAppURL") }
        guard isHTTPSURL(url) else {
            return try reader.recorder.invalid(
                .oobAppURLNotHTTPS, "oobAppURL", "is not an https universal or app link", seen: .string(url))
        }
        if labelled, label == nil { return try reader.recorder.missing(.oobAppLabelMissing, "oobAppLabel") }
        screen.oobAppURL = url
        screen.oobAppLabel = label
    }
}
