package import ThreeDS2ACSKit
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

    /// Checks a CReq: first what its own version's tables say (``ReceivedChallengeRequest``, the messages layer's
    /// reader), then what the screen it answers allows.
    ///
    /// - Parameter request: The decrypted CReq.
    /// - Returns: The CReq, read.
    /// - Throws: ``ProtocolViolation`` naming the first field an ACS refuses.
    @discardableResult
    package func check(_ request: JSONObject) throws(ProtocolViolation) -> ReceivedChallengeRequest {
        let creq = try ReceivedChallengeRequest(reading: request)
        guard creq.messageVersion == version else {
            throw ProtocolViolation(
                .invalidFormat, detail: "messageVersion",
                explanation: "the CReq says \(creq.messageVersion), the transaction is \(version)")
        }
        try checkExtensions(creq)
        guard let previous else {
            // The first CReq states no action.
            if let field = ReceivedChallengeRequest.actionFields.first(where: { request[$0] != nil }) {
                throw ProtocolViolation(.invalidFormat, detail: field)
            }
            return creq
        }
        guard let action = creq.action else {
            throw ProtocolViolation(.requiredElementMissing, detail: "challengeDataEntry")
        }
        if case .cancel(let code) = action {
            guard code == .cardholderCancelled else {
                throw ProtocolViolation(.invalidFormat, detail: "challengeCancel")
            }
            return creq
        }
        let uiType = previous["acsUiType"]?.stringValue.flatMap(UIType.init(rawValue:))
        try checkAction(action, uiType: uiType)
        try checkConsents(creq)
        if let status = creq.oobAppStatus {
            guard status == .openFailed, uiType == .outOfBand || uiType == .htmlOutOfBand else {
                throw ProtocolViolation(.invalidFormat, detail: "oobAppStatus")
            }
        }
        return creq
    }

    /// The action the answered screen allows, with the values it takes there.
    private func checkAction(_ action: ReceivedChallengeRequest.Action, uiType: UIType?) throws(ProtocolViolation) {
        let v231 = version.carriesOOBAppURLIndicator
        let select = uiType == .singleSelect || uiType == .multiSelect
        let refused: String? =
            switch action {
            case .cancel: nil
            case .dataEntry(_, .some):
                uiType == .text && previous?["challengeEntryBoxTwo"] != nil ? nil : "challengeDataEntryTwo"
            case .dataEntry, .noEntry: uiType == .text || select ? nil : Self.field(of: action)
            case .resend: uiType == .text || (select && !v231) ? nil : "resendChallenge"
            case .additionalCode:
                uiType.map(Self.offersAdditionalCode) == true && previous?["challengeAddLabel"] != nil
                    ? nil : "challengeAddCode"
            case .oobContinue(let code) where uiType == .htmlOutOfBand:
                // UI 06: the pressed continue goes with the form data (``html``), the automatic one alone.
                code == .cardholderContinued ? "oobContinue" : Self.unknownContinue(code)
            case .oobContinue(let code): uiType == .outOfBand ? Self.unknownContinue(code) : "oobContinue"
            case .html(_, let code):
                // UI 06 answers continue with the form data: 01 goes with it (the reader checks), 02 alone.
                uiType == .html && code == nil || uiType == .htmlOutOfBand && (code != nil || !v231)
                    ? nil : (uiType == .htmlOutOfBand ? "oobContinue" : "challengeHTMLDataEntry")
            case .informationContinue: uiType == .information ? nil : "infoContinueIndicator"
            }
        if let refused { throw ProtocolViolation(.invalidFormat, detail: refused) }
    }

    /// The screens with an additional-code button (2.3.1).
    private static func offersAdditionalCode(_ uiType: UIType) -> Bool {
        [.text, .singleSelect, .multiSelect, .outOfBand, .information].contains(uiType)
    }

    /// `oobContinue`'s field when its code is one this ACS does not know (01 and 02 in 2.3.1; before, no code).
    private static func unknownContinue(_ code: OOBContinueIndicator?) -> String? {
        guard let code else { return nil }
        return code == .cardholderContinued || code == .automatic ? nil : "oobContinue"
    }

    /// The field that carries an action.
    private static func field(of action: ReceivedChallengeRequest.Action) -> String {
        switch action {
        case .noEntry: "challengeNoEntry"
        default: "challengeDataEntry"
        }
    }

    /// `messageExtension`: well-formed entries; Bridging (2.2.0 only, bridging reference) non-critical with a known
    /// version and `oobAppURLInd` `01`, with a requestor app URL, in the first CReq (no continue value) or in the
    /// continue CReq after the bank's app the previous CRes linked through it (`oobContinue` `02`, in the version that
    /// CRes answered with). Any other CReq carrying it is 203.
    private func checkExtensions(_ creq: ReceivedChallengeRequest) throws(ProtocolViolation) {
        guard let entries = creq.messageExtension else { return }
        let field = "messageExtension"
        for entry in entries {
            guard case .string(let name)? = entry["name"], !name.isEmpty,
                case .string(let id)? = entry["id"], !id.isEmpty,
                case .bool(let critical)? = entry["criticalityIndicator"],
                case .object(let data)? = entry["data"]
            else { throw ProtocolViolation(.invalidFormat, detail: field) }
            guard id == Bridging.id else { continue }
            guard version.carriesBridging, name == Bridging.name, !critical,
                creq.requestorAppURL != nil,
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
                answered.version == sent, creq.action == .oobContinue(nil),
                challengeData["oobContinue"] == OOBContinueIndicator.automatic.json
            else { throw ProtocolViolation(.invalidFormat, detail: field) }
        }
    }

    /// A consent question shown by the previous CRes is answered `Y`/`N` (the reader checked the value); one not
    /// shown is not answered.
    private func checkConsents(_ creq: ReceivedChallengeRequest) throws(ProtocolViolation) {
        var questions: [(text: String, entry: String, answered: Bool)] = []
        if let trust = version.trustQuestion {
            questions.append((trust.textField, trust.entryField, creq.trustAnswer != nil))
        }
        if version.hasDeviceBinding {
            questions.append(("deviceBindingInfoText", "deviceBindingDataEntry", creq.deviceBindingAnswer != nil))
        }
        for (text, entry, answered) in questions where (previous?[text] != nil) != answered {
            throw ProtocolViolation(answered ? .invalidFormat : .requiredElementMissing, detail: entry)
        }
    }
}
