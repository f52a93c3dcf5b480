package import ThreeDS2JOSE
package import ThreeDS2Messages

/// The TestLab ACS's check of each CReq, as a conforming ACS applies the tables (2.3.1: v231-reference §1 and its
/// Table 1.1 from Annex A Tables A.1 and A.16; 2.1.0 and 2.2.0: protocol reference §2). A CReq that breaks a rule is
/// answered with an Erro, so every end-to-end test also proves the SDK's CReqs conform.
///
/// Package-only: `threeds inspect creq` applies the same check.
package struct RequestCheck {
    let version: MessageVersion
    /// The last CRes the ACS sent, or `nil` before the first CReq.
    let previous: JSONObject?

    /// A check for CReqs of `version` answering `previous` (`nil` for the first CReq).
    package init(version: MessageVersion, previous: JSONObject?) {
        self.version = version
        self.previous = previous
    }

    /// The fields a CReq may carry only from 2.3.1.
    static let fieldsOf231 = [
        "oobAppURLInd", "oobAppStatus", "challengeDataEntryTwo", "challengeAddCode", "trustListDataEntry",
        "deviceBindingDataEntry", "infoContinueIndicator",
    ]

    /// The fields that each state a cardholder action.
    static let actions = [
        "challengeDataEntry", "challengeNoEntry", "resendChallenge", "challengeAddCode", "oobContinue",
        "challengeHTMLDataEntry", "infoContinueIndicator", "challengeCancel",
    ]

    package func check(_ request: JSONObject) throws(ProtocolViolation) {
        let v231 = version.carriesOOBAppURLIndicator
        if !v231 {
            for field in Self.fieldsOf231 where request[field] != nil {
                throw ProtocolViolation(.invalidFormat, detail: field)
            }
        } else if request["whitelistingDataEntry"] != nil {
            throw ProtocolViolation(.invalidFormat, detail: "whitelistingDataEntry")
        }
        if !version.carriesRequestorAppURL, request["threeDSRequestorAppURL"] != nil {
            throw ProtocolViolation(.invalidFormat, detail: "threeDSRequestorAppURL")
        }
        if v231 {
            guard let indicator = request["oobAppURLInd"] else {
                throw ProtocolViolation(.requiredElementMissing, detail: "oobAppURLInd")
            }
            guard case .string(let value) = indicator, value.utf8.count == 2, value.allSatisfy(\.isNumber) else {
                throw ProtocolViolation(.invalidFormat, detail: "oobAppURLInd")
            }
            guard OOBAppURLIndicator(rawValue: value) != nil else {
                throw ProtocolViolation(.reservedValueNotRecognised, detail: "oobAppURLInd")
            }
        }
        try checkExtensions(request)
        let present = Self.actions.filter { request[$0] != nil }
        guard let previous else {
            // The first CReq states no action.
            if let field = present.first { throw ProtocolViolation(.invalidFormat, detail: field) }
            return
        }
        let uiType = previous["acsUiType"]?.stringValue.flatMap(UIType.init(rawValue:))
        if present == ["challengeCancel"] {
            guard request["challengeCancel"] == ChallengeCancelIndicator.cardholderCancelled.json else {
                throw ProtocolViolation(.invalidFormat, detail: "challengeCancel")
            }
            for field in ["trustListDataEntry", "whitelistingDataEntry", "deviceBindingDataEntry", "oobAppStatus"]
            where request[field] != nil {
                throw ProtocolViolation(.invalidFormat, detail: field)
            }
            return
        }
        try checkAction(request, present: present, uiType: uiType)
        try checkConsents(request)
        if let status = request["oobAppStatus"] {
            guard status == OOBAppStatus.openFailed.json, uiType == .outOfBand || uiType == .htmlOutOfBand else {
                throw ProtocolViolation(.invalidFormat, detail: "oobAppStatus")
            }
        }
    }

    /// Exactly one action, the one the answered screen allows (Table A.16: two or more is 203).
    private func checkAction(_ request: JSONObject, present: [String], uiType: UIType?) throws(ProtocolViolation) {
        let v231 = version.carriesOOBAppURLIndicator
        // UI 06 answers continue with the form data: the pair is one action.
        let combinedHTMLOOB =
            uiType == .htmlOutOfBand && Set(present) == ["oobContinue", "challengeHTMLDataEntry"]
        guard present.count == 1 || combinedHTMLOOB else {
            throw ProtocolViolation(
                present.isEmpty ? .requiredElementMissing : .invalidFormat,
                detail: present.last ?? "challengeDataEntry")
        }
        let allowed: Set<String> =
            switch uiType {
            case .text?:
                ["challengeDataEntry", "challengeNoEntry", "resendChallenge", "challengeAddCode"]
            case .singleSelect?, .multiSelect?:
                v231
                    ? ["challengeDataEntry", "challengeNoEntry", "challengeAddCode"]
                    : ["challengeDataEntry", "challengeNoEntry", "resendChallenge"]
            case .outOfBand?: ["oobContinue", "challengeAddCode"]
            case .html?: ["challengeHTMLDataEntry"]
            case .htmlOutOfBand?: ["oobContinue", "challengeHTMLDataEntry"]
            case .information?: ["infoContinueIndicator", "challengeAddCode"]
            case nil: []
            }
        for field in present where !allowed.contains(field) { throw ProtocolViolation(.invalidFormat, detail: field) }
        try checkActionValues(request, uiType: uiType)
    }

    /// The action's value: each field in its format, and the pairs the answered screen allows.
    private func checkActionValues(_ request: JSONObject, uiType: UIType?) throws(ProtocolViolation) {
        let v231 = version.carriesOOBAppURLIndicator
        if let entry = request["challengeDataEntry"] {
            guard case .string(let text) = entry, !text.isEmpty, text.utf8.count <= 45 else {
                throw ProtocolViolation(.invalidFormat, detail: "challengeDataEntry")
            }
        }
        if let second = request["challengeDataEntryTwo"] {
            guard uiType == .text, previous?["challengeEntryBoxTwo"] != nil, case .string(let text) = second,
                !text.isEmpty, text.utf8.count <= 45, request["challengeNoEntry"] == nil,
                request["resendChallenge"] == nil, request["challengeAddCode"] == nil
            else { throw ProtocolViolation(.invalidFormat, detail: "challengeDataEntryTwo") }
        }
        if let noEntry = request["challengeNoEntry"], noEntry != YesNoIndicator.yes.json || !version.allowsNoEntry {
            throw ProtocolViolation(.invalidFormat, detail: "challengeNoEntry")
        }
        if let resend = request["resendChallenge"], resend != YesNoIndicator.yes.json {
            throw ProtocolViolation(.invalidFormat, detail: "resendChallenge")
        }
        if let add = request["challengeAddCode"],
            add != YesNoIndicator.yes.json || previous?["challengeAddLabel"] == nil
        {
            throw ProtocolViolation(.invalidFormat, detail: "challengeAddCode")
        }
        if let info = request["infoContinueIndicator"], info != .bool(true) {
            throw ProtocolViolation(.invalidFormat, detail: "infoContinueIndicator")
        }
        if let html = request["challengeHTMLDataEntry"] {
            guard case .string(let text) = html, text.utf8.count <= 256 else {
                throw ProtocolViolation(.invalidFormat, detail: "challengeHTMLDataEntry")
            }
        }
        if let oobContinue = request["oobContinue"] {
            // JSON true before 2.3.1; from 2.3.1 "01" (pressed) or "02" (back from the bank's app).
            let pressed = version.oobContinueValue(automatic: false)
            guard oobContinue == pressed || oobContinue == version.oobContinueValue(automatic: true) else {
                throw ProtocolViolation(.invalidFormat, detail: "oobContinue")
            }
            // UI 06: the pressed value goes with the form data, the automatic one alone.
            if v231, uiType == .htmlOutOfBand, (oobContinue == pressed) != (request["challengeHTMLDataEntry"] != nil) {
                throw ProtocolViolation(.invalidFormat, detail: "oobContinue")
            }
        }
    }

    /// `messageExtension`: well-formed entries; Bridging (2.2.0 only, bridging reference) non-critical with a known
    /// version and `oobAppURLInd` `01`, with a requestor app URL, in the first CReq (no continue value) or in the
    /// continue CReq after the bank's app the previous CRes linked through it (`oobContinue` `02`, in the version that
    /// CRes answered with). Any other CReq carrying it is 203.
    private func checkExtensions(_ request: JSONObject) throws(ProtocolViolation) {
        guard let value = request["messageExtension"] else { return }
        let field = "messageExtension"
        guard case .array(let entries) = value, !entries.isEmpty, entries.count <= version.maxMessageExtensions else {
            throw ProtocolViolation(.invalidFormat, detail: field)
        }
        for entry in entries {
            guard case .object(let object) = entry, case .string(let name)? = object["name"], !name.isEmpty,
                case .string(let id)? = object["id"], !id.isEmpty,
                case .bool(let critical)? = object["criticalityIndicator"],
                case .object(let data)? = object["data"]
            else { throw ProtocolViolation(.invalidFormat, detail: field) }
            guard id == Bridging.id else { continue }
            guard version.carriesBridging, name == Bridging.name, !critical,
                case .string(let appURL)? = request["threeDSRequestorAppURL"], !appURL.isEmpty,
                let sent = data["version"]?.stringValue.flatMap(Bridging.Version.init(rawValue:)),
                let challengeData = data["challengeData"]?.objectValue,
                challengeData["oobAppURLInd"] == .string(OOBAppURLIndicator.supported.rawValue)
            else { throw ProtocolViolation(.invalidFormat, detail: field) }
            let allowed: Set<String> = previous == nil ? ["oobAppURLInd"] : ["oobAppURLInd", "oobContinue"]
            guard challengeData.names.allSatisfy(allowed.contains) else {
                throw ProtocolViolation(.invalidFormat, detail: field)
            }
            guard let previous else { continue }
            // Later: only the continue after the bank's app the previous CRes linked, in that CRes's version.
            guard let answered = try? Bridging.read(previous["messageExtension"]), answered.appURL != nil,
                answered.version == sent, request["oobContinue"] == .bool(true),
                challengeData["oobContinue"] == OOBContinueIndicator.automatic.json
            else { throw ProtocolViolation(.invalidFormat, detail: field) }
        }
    }

    /// A consent question shown by the previous CRes is answered `Y`/`N`; one not shown is not answered.
    private func checkConsents(_ request: JSONObject) throws(ProtocolViolation) {
        var questions: [(text: String, entry: String)] = []
        if let trust = version.trustQuestion { questions.append((trust.textField, trust.entryField)) }
        if version.hasDeviceBinding { questions.append(("deviceBindingInfoText", "deviceBindingDataEntry")) }
        for (text, entry) in questions {
            let asked = previous?[text] != nil
            switch (asked, request[entry]) {
            case (true, nil): throw ProtocolViolation(.requiredElementMissing, detail: entry)
            case (true, let answer?) where YesNoIndicator(answer) != nil: continue
            case (false, nil): continue
            default: throw ProtocolViolation(.invalidFormat, detail: entry)
            }
        }
    }
}
