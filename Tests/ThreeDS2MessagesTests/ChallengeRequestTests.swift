import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// A CRes of a UI type, as a 2.3.1 (or earlier) ACS would send it, with changes.
func cres(_ uiType: UIType, version: String = "2.3.1", _ changes: [String: JSONValue?] = [:]) -> JSONObject {
    var object = textCRes(["acsUiType": .string(uiType.rawValue)], version: version)
    let v231 = version == "2.3.1"
    switch uiType {
    case .text where v231:
        object["challengeInfoLabel"] = nil
        object["challengeEntryBox"] = .object(["challengeDataEntryLabel": .string("Code")])
    case .singleSelect, .multiSelect:
        object["challengeSelectInfo"] = .array([.object(["a": .string("A")]), .object(["b": .string("B")])])
    case .outOfBand:
        object["oobContinueLabel"] = .string("Continue")
        object["submitAuthenticationLabel"] = nil
    case .html, .htmlOutOfBand:
        object["acsHTML"] = .string(Base64.urlEncode(Array("<form></form>".utf8)))
    case .information:
        object["infoContinueLabel"] = .string("Continue")
        object["submitAuthenticationLabel"] = nil
    default: break
    }
    for (name, value) in changes { object[name] = value }
    return object
}

/// A validated screen of a UI type, as a 2.3.1 (or earlier) ACS would send it, with changes.
func screen(_ uiType: UIType, version: String = "2.3.1", _ changes: [String: JSONValue?] = [:]) throws
    -> ChallengeScreen
{
    let object = cres(uiType, version: version, changes)
    let expectation = ChallengeResponseExpectation(
        identifiers: ids, messageVersion: MessageVersion(version)!, acsCounter: 0, opensOOBApps: true)
    let response = try ChallengeResponseValidator.validate(object, expecting: expectation)
    expectConformant(object, expectation, reading: response)
    guard case .screen(let screen) = response
    else { throw ProtocolViolation(.invalidFormat, detail: "test", explanation: "not a screen") }
    return screen
}

@Suite("CReq building")
struct ChallengeRequestTests {
    func builder(
        _ version: String, url: String? = "https://shop.example/checkout",
        indicator: OOBAppURLIndicator = .supported
    ) -> ChallengeRequestBuilder {
        ChallengeRequestBuilder(
            identifiers: ids, messageVersion: MessageVersion(version)!, requestorAppURL: url,
            oobAppURLIndicator: indicator)
    }

    static let identifiersAndCounter: Set<String> = [
        "threeDSServerTransID", "acsTransID", "messageType", "messageVersion", "sdkTransID", "sdkCounterStoA",
    ]

    @Test("the first CReq: identifiers, type, version, counter, the app URL from 2.2.0, oobAppURLInd in 2.3.1")
    func first() throws {
        #expect(Set(try builder("2.1.0").request(counter: 0, answer: nil).names) == Self.identifiersAndCounter)
        let v220 = try builder("2.2.0", indicator: .notSupportedByDevice).request(counter: 0, answer: nil)
        #expect(Set(v220.names) == Self.identifiersAndCounter.union(["threeDSRequestorAppURL"]))
        // An app that can open the bank's app also announces the Bridging extension in 2.2.0 (BridgingTests).
        let bridged = try builder("2.2.0").request(counter: 0, answer: nil)
        #expect(Set(bridged.names) == Self.identifiersAndCounter.union(["threeDSRequestorAppURL", "messageExtension"]))
        for indicator in OOBAppURLIndicator.allCases {
            let v231 = try builder("2.3.1", indicator: indicator).request(counter: 0, answer: nil)
            #expect(Set(v231.names) == Self.identifiersAndCounter.union(["threeDSRequestorAppURL", "oobAppURLInd"]))
            #expect(v231["oobAppURLInd"] == .string(indicator.rawValue))
        }
        #expect(OOBAppURLIndicator.allCases.map(\.rawValue) == ["01", "02", "03"])
    }

    @Test("every 2.3.1 CReq carries oobAppURLInd; no 2.2.0 or 2.1.0 CReq does")
    func indicatorInEveryRequest() throws {
        let text = try screen(.text)
        let answers: [CardholderAction] = [.submitText("1"), .resend, .submitEmpty, .cancel]
        for action in answers {
            #expect(
                try builder("2.3.1").request(counter: 2, answer: ChallengeAnswer(action), answering: text)[
                    "oobAppURLInd"] == .string("01"))
            #expect(
                try builder("2.2.0").request(
                    counter: 2, answer: ChallengeAnswer(action), answering: try screen(.text, version: "2.2.0"))[
                        "oobAppURLInd"] == nil)
        }
    }

    @Test(
        "each action maps to its field, per version and UI type",
        arguments: [
            ("2.2.0", UIType.text, CardholderAction.submitText("123"), "challengeDataEntry", JSONValue.string("123")),
            ("2.2.0", .singleSelect, .submitSelection(["a", "b"]), "challengeDataEntry", .string("a,b")),
            ("2.2.0", .html, .submitHTML("x=1&y=2"), "challengeHTMLDataEntry", .string("x=1&y=2")),
            ("2.2.0", .text, .submitEmpty, "challengeNoEntry", .string("Y")),
            ("2.2.0", .multiSelect, .submitSelection([]), "challengeNoEntry", .string("Y")),
            ("2.2.0", .text, .resend, "resendChallenge", .string("Y")),
            ("2.2.0", .singleSelect, .resend, "resendChallenge", .string("Y")),
            ("2.1.0", .outOfBand, .oobContinue(), "oobContinue", .bool(true)),
            ("2.2.0", .outOfBand, .oobContinue(automatic: true), "oobContinue", .bool(true)),
            ("2.3.1", .outOfBand, .oobContinue(), "oobContinue", .string("01")),
            ("2.3.1", .outOfBand, .oobContinue(automatic: true), "oobContinue", .string("02")),
            ("2.3.1", .htmlOutOfBand, .oobContinue(automatic: true), "oobContinue", .string("02")),
            ("2.3.1", .text, .submitText("123"), "challengeDataEntry", .string("123")),
            ("2.3.1", .text, .resend, "resendChallenge", .string("Y")),
            ("2.3.1", .information, .informationContinue, "infoContinueIndicator", .bool(true)),
            ("2.1.0", .text, .cancel, "challengeCancel", .string("01")),
            ("2.3.1", .html, .cancel, "challengeCancel", .string("01")),
        ])
    func actions(version: String, uiType: UIType, action: CardholderAction, field: String, value: JSONValue) throws {
        let shown = try screen(uiType, version: version)
        let request = try builder(version).request(counter: 3, answer: ChallengeAnswer(action), answering: shown)
        #expect(request[field] == value)
        var base = Self.identifiersAndCounter
        if version != "2.1.0" { base.insert("threeDSRequestorAppURL") }
        if version == "2.3.1" { base.insert("oobAppURLInd") }
        #expect(Set(request.names).subtracting(base) == [field])
        #expect(request["sdkCounterStoA"] == .string("003"))
    }

    @Test("UI 06 continues with oobContinue 01 and the form data, or 02 alone")
    func htmlOutOfBand() throws {
        let shown = try screen(.htmlOutOfBand)
        let pressed = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitHTML("action=approved")), answering: shown)
        #expect(pressed["oobContinue"] == .string("01"))
        #expect(pressed["challengeHTMLDataEntry"] == .string("action=approved"))
        let returned = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.oobContinue(automatic: true)), answering: shown)
        #expect(returned["oobContinue"] == .string("02") && returned["challengeHTMLDataEntry"] == nil)
        // UI 05 form data goes alone.
        let html = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitHTML("a=1")), answering: try screen(.html))
        #expect(html["oobContinue"] == nil)
    }

    @Test("the second entry box: sent only where the screen has one, never alone when empty")
    func secondEntryBox() throws {
        let two = try screen(
            .text, ["challengeEntryBoxTwo": .object(["challengeDataEntryLabel": .string("Year")])])
        let both = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("123456", second: "1990")), answering: two)
        #expect(both["challengeDataEntry"] == .string("123456") && both["challengeDataEntryTwo"] == .string("1990"))
        let onlySecond = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("", second: "1990")), answering: two)
        #expect(onlySecond["challengeDataEntry"] == nil && onlySecond["challengeDataEntryTwo"] == .string("1990"))
        let neither = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("", second: "")), answering: two)
        #expect(neither["challengeNoEntry"] == .string("Y") && neither["challengeDataEntryTwo"] == nil)
        #expect(throws: ProtocolViolation.self) {
            try builder("2.3.1").request(
                counter: 1, answer: ChallengeAnswer(.submitText("1", second: "2")), answering: try screen(.text))
        }
        #expect(throws: ProtocolViolation.self) {
            try builder("2.3.1").request(
                counter: 1, answer: ChallengeAnswer(.submitText("1", second: String(repeating: "9", count: 46))),
                answering: two)
        }
    }

    @Test("challengeAddCode is Y alone, only where the screen offers the button, only in 2.3.1")
    func additionalCode() throws {
        for uiType in [UIType.text, .singleSelect, .outOfBand, .information] {
            let shown = try screen(uiType, ["challengeAddLabel": .string("Another way")])
            #expect(shown.additionalCodeLabel == "Another way")
            let request = try builder("2.3.1").request(
                counter: 1, answer: ChallengeAnswer(.additionalCode), answering: shown)
            #expect(request["challengeAddCode"] == .string("Y"))
            for field in ["challengeDataEntry", "challengeNoEntry", "oobContinue", "infoContinueIndicator"] {
                #expect(request[field] == nil)
            }
        }
        #expect(throws: ProtocolViolation.self) {
            try builder("2.3.1").request(
                counter: 1, answer: ChallengeAnswer(.additionalCode), answering: try screen(.text))
        }
        #expect(throws: ProtocolViolation.self) {
            try builder("2.2.0").request(
                counter: 1, answer: ChallengeAnswer(.additionalCode), answering: try screen(.text, version: "2.2.0"))
        }
    }

    @Test("an action the answered screen does not allow is refused before sending")
    func actionsOutOfPlace() throws {
        let refused: [(String, UIType, CardholderAction)] = [
            ("2.3.1", .singleSelect, .resend), ("2.3.1", .outOfBand, .resend), ("2.3.1", .text, .oobContinue()),
            ("2.3.1", .outOfBand, .submitText("1")), ("2.3.1", .text, .informationContinue),
            ("2.3.1", .outOfBand, .submitEmpty), ("2.3.1", .text, .submitHTML("a=1")),
            ("2.2.0", .html, .submitSelection(["a"])), ("2.1.0", .text, .submitEmpty),
            ("2.2.0", .text, .informationContinue),
        ]
        for (version, uiType, action) in refused {
            let shown = try screen(uiType, version: version)
            #expect(throws: ProtocolViolation.self, "\(action) on \(uiType) in \(version)") {
                try builder(version).request(counter: 1, answer: ChallengeAnswer(action), answering: shown)
            }
        }
        #expect(throws: ProtocolViolation.self) {
            try builder("2.2.0").request(
                counter: 1, answer: ChallengeAnswer(.submitText(String(repeating: "1", count: 46))),
                answering: try screen(.text, version: "2.2.0"))
        }
        #expect(throws: ProtocolViolation.self) {
            try builder("2.2.0").request(
                counter: 1, answer: ChallengeAnswer(.submitHTML(String(repeating: "x", count: 257))),
                answering: try screen(.html, version: "2.2.0"))
        }
    }

    @Test("consents: Y/N after a screen that asked (N when untouched), never with a cancel, never unasked")
    func consents() throws {
        let asked231 = try screen(
            .text,
            ["trustListInfoText": .string("Trust?"), "deviceBindingInfoText": .string("Bind?")])
        let asked220 = try screen(.text, version: "2.2.0", ["whitelistingInfoText": .string("Trust?")])
        let actions: [CardholderAction] = [.submitText("1"), .resend, .submitEmpty]
        for action in actions {
            let untouched = try builder("2.3.1").request(
                counter: 1, answer: ChallengeAnswer(action), answering: asked231)
            #expect(
                untouched["trustListDataEntry"] == .string("N") && untouched["deviceBindingDataEntry"] == .string("N"))
            #expect(untouched["whitelistingDataEntry"] == nil)
            let old = try builder("2.2.0").request(counter: 1, answer: ChallengeAnswer(action), answering: asked220)
            #expect(old["whitelistingDataEntry"] == .string("N") && old["trustListDataEntry"] == nil)
        }
        let yes = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("1"), whitelisting: true, deviceBinding: true),
            answering: asked231)
        #expect(yes["trustListDataEntry"] == .string("Y") && yes["deviceBindingDataEntry"] == .string("Y"))
        let mixed = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("1"), whitelisting: false, deviceBinding: true),
            answering: asked231)
        #expect(mixed["trustListDataEntry"] == .string("N") && mixed["deviceBindingDataEntry"] == .string("Y"))
        let cancel = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.cancel, whitelisting: true, deviceBinding: true), answering: asked231)
        #expect(cancel["trustListDataEntry"] == nil && cancel["deviceBindingDataEntry"] == nil)
        let unasked = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("1"), whitelisting: true, deviceBinding: true),
            answering: try screen(.text))
        #expect(unasked["trustListDataEntry"] == nil && unasked["deviceBindingDataEntry"] == nil)
        // 2.1.0 has no trust question; 2.2.0 has no device binding.
        #expect(
            try screen(.text, version: "2.2.0", ["deviceBindingInfoText": .string("Bind?")]).deviceBindingText == nil)
        #expect(
            try screen(.text, version: "2.1.0", ["whitelistingInfoText": .string("Trust?")]).whitelistingText == nil)
    }

    @Test("oobAppStatus 01 goes with the next action of an out-of-band screen whose app did not open")
    func oobAppStatus() throws {
        let shown = try screen(
            .outOfBand,
            ["oobAppURL": .string("https://bank.example/app"), "oobAppLabel": .string("Open the app")])
        let request = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.oobContinue(), oobAppOpenFailed: true), answering: shown)
        #expect(request["oobAppStatus"] == .string("01") && request["oobContinue"] == .string("01"))
        let cancelled = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.cancel, oobAppOpenFailed: true), answering: shown)
        #expect(cancelled["oobAppStatus"] == nil, "a cancel goes alone")
        let text = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.submitText("1"), oobAppOpenFailed: true), answering: try screen(.text))
        #expect(text["oobAppStatus"] == nil)
    }

    @Test("2.3.1 resendChallenge is only Y and only for text screens")
    func resend() throws {
        let request = try builder("2.3.1").request(
            counter: 1, answer: ChallengeAnswer(.resend), answering: try screen(.text))
        #expect(request["resendChallenge"] == .string("Y"))
        for uiType in [UIType.singleSelect, .multiSelect, .outOfBand, .information] {
            #expect(throws: ProtocolViolation.self) {
                try builder("2.3.1").request(
                    counter: 1, answer: ChallengeAnswer(.resend), answering: try screen(uiType))
            }
        }
    }
}
