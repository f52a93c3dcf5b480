import ThreeDS2JOSE

extension ChallengeResponseValidator {
    // Which fields each UI type needs: protocol reference §3 and Table A.18 for 2.1.0/2.2.0 (as certified SDKs
    // check them, UL TC_SDK_10268…10292), Table A.20 for 2.3.1 (v231-reference §2.2). Fields a table marks "not
    // present" are tolerated when they are display text (real ACS tools send `challengeInfoLabel` on 2.3.1 text
    // screens) and ignored; 2.3.1-only fields in an earlier version's CRes are unknown fields there, so ignored too.
    static func screen(_ reader: FieldReader, expectation: ChallengeResponseExpectation)
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
            screen.bridging = try Bridging.read(reader.object["messageExtension"])
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
}
