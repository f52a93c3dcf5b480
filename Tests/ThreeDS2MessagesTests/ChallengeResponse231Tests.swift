import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// 2.3.1 CRes fields (v231-reference §2, Tables A.20, A.21/A.22, A.26): each present, absent, of the wrong type,
/// with a wrong or reserved value, and in a version that does not define it.
@Suite("2.3.1 CRes validation")
struct ChallengeResponse231Tests {
    static let box: JSONValue = .object(["challengeDataEntryLabel": .string("Code")])

    func entryBox(_ members: [String: JSONValue]) -> JSONValue {
        var object: JSONObject = ["challengeDataEntryLabel": .string("Code")]
        for (name, value) in members { object[name] = value }
        return .object(object)
    }

    func violation(
        _ code: ProtocolErrorCode, _ detail: String, _ uiType: UIType, _ changes: [String: JSONValue?],
        version: String = "2.3.1", opensOOBApps: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectViolation(
            code, detail, cres(uiType, version: version, changes), version: version, opensOOBApps: opensOOBApps,
            sourceLocation: sourceLocation)
    }

    @Test("challengeEntryBox: required for a 2.3.1 text screen, its label required; challengeInfoLabel not needed")
    func entryBoxRequired() throws {
        let shown = try screen(.text)
        #expect(shown.entryBoxes == [EntryBox(label: "Code", isMasked: false)] && shown.infoLabel == nil)
        violation(.requiredElementMissing, "challengeEntryBox", .text, ["challengeEntryBox": nil])
        violation(.invalidFormat, "challengeEntryBox", .text, ["challengeEntryBox": .string("Code")])
        violation(
            .requiredElementMissing, "challengeEntryBox.challengeDataEntryLabel", .text,
            ["challengeEntryBox": .object(["challengeDataEntryKeyboardType": .string("01")])])
        violation(
            .invalidFormat, "challengeEntryBox.challengeDataEntryLabel", .text,
            ["challengeEntryBox": .object(["challengeDataEntryLabel": .number("1")])])
        violation(
            .invalidFormat, "challengeEntryBox.challengeDataEntryLabel", .text,
            ["challengeEntryBox": .object(["challengeDataEntryLabel": .string(String(repeating: "x", count: 46))])])
        // 2.2.0 keeps challengeInfoLabel and ignores the box.
        expectViolation(
            .requiredElementMissing, "challengeInfoLabel",
            textCRes(["challengeInfoLabel": nil, "challengeEntryBox": Self.box]))
        #expect(try screen(.text, version: "2.2.0", ["challengeEntryBox": Self.box]).entryBoxes.isEmpty)
    }

    @Test("a challengeInfoLabel a real ACS tool adds to a 2.3.1 text screen is tolerated")
    func extraInfoLabel() throws {
        let shown = try screen(.text, ["challengeInfoLabel": .string("Code")])
        #expect(shown.infoLabel == "Code" && shown.entryBoxes.count == 1)
    }

    @Test("entry-box keys: keyboard, autofill and its type, length, masking and its toggle")
    func entryBoxKeys() throws {
        let full = try screen(
            .text,
            [
                "challengeEntryBox": entryBox([
                    "challengeDataEntryKeyboardType": .string("02"), "challengeDataEntryAutofill": .string("Y"),
                    "challengeDataEntryAutofillType": .string("02"), "challengeDataEntryLengthMax": .string("08"),
                    "challengeDataEntryMasking": .string("Y"), "challengeDataEntryToggle": .string("N"),
                ])
            ])
        #expect(
            full.entryBoxes.first
                == EntryBox(
                    label: "Code", keyboard: .alphanumeric, autofill: .password, maxLength: 8, isMasked: true,
                    offersRevealToggle: false))
        let field = "challengeEntryBox."
        let cases: [(ProtocolErrorCode, String, [String: JSONValue])] = [
            (
                .reservedValueNotRecognised, "challengeDataEntryKeyboardType",
                ["challengeDataEntryKeyboardType": .string("03")]
            ),
            (.invalidFormat, "challengeDataEntryKeyboardType", ["challengeDataEntryKeyboardType": .string("1")]),
            (.invalidFormat, "challengeDataEntryKeyboardType", ["challengeDataEntryKeyboardType": .number("1")]),
            (.invalidFormat, "challengeDataEntryAutofill", ["challengeDataEntryAutofill": .string("N")]),
            (.requiredElementMissing, "challengeDataEntryAutofillType", ["challengeDataEntryAutofill": .string("Y")]),
            (
                .reservedValueNotRecognised, "challengeDataEntryAutofillType",
                ["challengeDataEntryAutofill": .string("Y"), "challengeDataEntryAutofillType": .string("07")]
            ),
            (.invalidFormat, "challengeDataEntryLengthMax", ["challengeDataEntryLengthMax": .string("46")]),
            (.invalidFormat, "challengeDataEntryLengthMax", ["challengeDataEntryLengthMax": .string("00")]),
            (.invalidFormat, "challengeDataEntryLengthMax", ["challengeDataEntryLengthMax": .string("6")]),
            (.invalidFormat, "challengeDataEntryLengthMax", ["challengeDataEntryLengthMax": .number("6")]),
            (.invalidFormat, "challengeDataEntryMasking", ["challengeDataEntryMasking": .string("01")]),
            (.requiredElementMissing, "challengeDataEntryToggle", ["challengeDataEntryMasking": .string("Y")]),
            (
                .invalidFormat, "challengeDataEntryToggle",
                ["challengeDataEntryMasking": .string("Y"), "challengeDataEntryToggle": .string("02")]
            ),
        ]
        for (code, key, members) in cases {
            violation(code, field + key, .text, ["challengeEntryBox": entryBox(members)])
        }
        // The second box follows the same rules and is named in the error.
        violation(
            .invalidFormat, "challengeEntryBoxTwo.challengeDataEntryMasking", .text,
            ["challengeEntryBoxTwo": entryBox(["challengeDataEntryMasking": .string("maybe")])])
        let two = try screen(.text, ["challengeEntryBoxTwo": entryBox(["challengeDataEntryLengthMax": .string("04")])])
        #expect(two.entryBoxes.map(\.maxLength) == [45, 4])
    }

    @Test("challengeAddLabel: read on native 2.3.1 screens, length-checked, ignored in 2.2.0")
    func additionalLabel() throws {
        for uiType in [UIType.text, .singleSelect, .multiSelect, .outOfBand, .information] {
            #expect(try screen(uiType, ["challengeAddLabel": .string("Other")]).additionalCodeLabel == "Other")
        }
        #expect(try screen(.text).additionalCodeLabel == nil)
        violation(.invalidFormat, "challengeAddLabel", .text, ["challengeAddLabel": .bool(true)])
        violation(
            .invalidFormat, "challengeAddLabel", .text,
            ["challengeAddLabel": .string(String(repeating: "x", count: 46))])
        #expect(try screen(.text, version: "2.2.0", ["challengeAddLabel": .string("Other")]).additionalCodeLabel == nil)
    }

    @Test("togglePositionInd: only 01 (consents above the buttons); 02–99 reserved (207); other shapes 203")
    func togglePosition() throws {
        #expect(try screen(.text, ["togglePositionInd": .string("01")]).consentsAboveActions)
        #expect(try screen(.text).consentsAboveActions == false)
        violation(.reservedValueNotRecognised, "togglePositionInd", .text, ["togglePositionInd": .string("02")])
        violation(.invalidFormat, "togglePositionInd", .text, ["togglePositionInd": .string("above")])
        violation(.invalidFormat, "togglePositionInd", .text, ["togglePositionInd": .number("1")])
        #expect(try screen(.text, version: "2.2.0", ["togglePositionInd": .string("01")]).consentsAboveActions == false)
    }

    @Test("trustListInfoText replaces whitelistingInfoText; deviceBindingInfoText; both at most 64")
    func consentTexts() throws {
        let shown = try screen(
            .singleSelect, ["trustListInfoText": .string("Trust?"), "deviceBindingInfoText": .string("Bind?")])
        #expect(shown.whitelistingText == "Trust?" && shown.deviceBindingText == "Bind?" && shown.asksConsent)
        #expect(try screen(.text, ["whitelistingInfoText": .string("Trust?")]).whitelistingText == nil)
        #expect(try screen(.text, version: "2.2.0", ["trustListInfoText": .string("Trust?")]).whitelistingText == nil)
        violation(
            .invalidFormat, "trustListInfoText", .text,
            ["trustListInfoText": .string(String(repeating: "x", count: 65))])
        violation(.invalidFormat, "deviceBindingInfoText", .text, ["deviceBindingInfoText": .array([])])
    }

    @Test("infoContinueLabel is required for UI 07, as are the header and text")
    func information() throws {
        #expect(try screen(.information).infoContinueLabel == "Continue")
        violation(.requiredElementMissing, "infoContinueLabel", .information, ["infoContinueLabel": nil])
        violation(.requiredElementMissing, "challengeInfoHeader", .information, ["challengeInfoHeader": nil])
        violation(.requiredElementMissing, "challengeInfoText", .information, ["challengeInfoText": nil])
        violation(.invalidFormat, "infoContinueLabel", .information, ["infoContinueLabel": .number("7")])
        violation(.invalidFormat, "acsUiType", .information, [:], version: "2.2.0")
    }

    @Test("oobAppURL/oobAppLabel: both or neither on UI 04, https only, ≤2048, only after oobAppURLInd 01")
    func oobApp() throws {
        let app: [String: JSONValue?] = [
            "oobAppURL": .string("https://bank.example/approve"), "oobAppLabel": .string("Open the app"),
        ]
        let shown = try screen(.outOfBand, app)
        #expect(shown.oobAppURL == "https://bank.example/approve" && shown.oobAppLabel == "Open the app")
        // Without an app label, the continue label is required; with one, it may go.
        var withoutContinue = app
        withoutContinue["oobContinueLabel"] = .some(nil)
        #expect(try screen(.outOfBand, withoutContinue).oobContinueLabel == nil)
        violation(.requiredElementMissing, "oobContinueLabel", .outOfBand, ["oobContinueLabel": nil])
        violation(.requiredElementMissing, "oobAppLabel", .outOfBand, ["oobAppURL": app["oobAppURL"]!])
        violation(.requiredElementMissing, "oobAppURL", .outOfBand, ["oobAppLabel": app["oobAppLabel"]!])
        violation(
            .invalidFormat, "oobAppURL", .outOfBand,
            ["oobAppURL": .string("bankapp://approve"), "oobAppLabel": .string("Open")])
        violation(
            .invalidFormat, "oobAppURL", .outOfBand,
            [
                "oobAppURL": .string("https://b.example/" + String(repeating: "a", count: 2040)),
                "oobAppLabel": .string("O"),
            ])
        violation(.invalidFormat, "oobAppURL", .outOfBand, app, opensOOBApps: false)
        // UI 06 takes the URL alone; 2.2.0 ignores both.
        #expect(try screen(.htmlOutOfBand, ["oobAppURL": app["oobAppURL"]!]).oobAppURL != nil)
        violation(.invalidFormat, "oobAppURL", .htmlOutOfBand, ["oobAppURL": app["oobAppURL"]!], opensOOBApps: false)
        #expect(try screen(.outOfBand, version: "2.2.0", app).oobAppURL == nil)
    }

    @Test("issuerImage/psImage: default, dark and monochrome chosen by appearance; https only; at most 6144")
    func images() throws {
        let shown = try screen(
            .text,
            [
                "issuerImage": .object([
                    "default": .string("https://i.example/d.png"), "dark": .string("https://i.example/k.png"),
                ]),
                "psImage": .object(["default": .string("https://p.example/d.png")]),
            ])
        let issuer = try #require(shown.issuerImage)
        #expect(issuer.url(for: .high, appearance: .default) == "https://i.example/d.png")
        #expect(issuer.url(for: .high, appearance: .dark) == "https://i.example/k.png")
        #expect(issuer.url(for: .high, appearance: .monochrome) == "https://i.example/d.png")
        #expect(shown.paymentSystemImage?.url(for: .medium, appearance: .dark) == "https://p.example/d.png")
        violation(.invalidFormat, "issuerImage.dark", .text, ["issuerImage": .object(["dark": .string("http://x/y")])])
        violation(
            .invalidFormat, "psImage", .text,
            ["psImage": .object(["default": .string("https://x/" + String(repeating: "a", count: 6200))])])
        violation(.invalidFormat, "psImage", .text, ["psImage": .object([:])])
        violation(.invalidFormat, "issuerImage", .text, ["issuerImage": .number("1")])
    }

    @Test("**bold** runs in 2.3.1 info, why and expand texts; plain text in 2.2.0; unpaired markers stay")
    func bold() throws {
        let shown = try screen(.text, ["challengeInfoText": .string("Enter **1234** now")])
        #expect(
            shown.styled(shown.infoText ?? "").runs
                == [
                    .init(text: "Enter ", isBold: false), .init(text: "1234", isBold: true),
                    .init(text: " now", isBold: false),
                ])
        #expect(StyledText(markup: "a ** b").plain == "a ** b")
        #expect(StyledText(markup: "**x**").runs == [.init(text: "x", isBold: true)])
        let old = try screen(.text, version: "2.2.0", ["challengeInfoText": .string("Enter **1234**")])
        #expect(old.styled(old.infoText ?? "").runs == [.init(text: "Enter **1234**", isBold: false)])
    }

    @Test("acsUiType: 08–79 and 80–99 are reserved in 2.3.1 (207); 06/07 are 203 in 2.2.0; acsHTML for UI 06")
    func uiTypes() throws {
        violation(.reservedValueNotRecognised, "acsUiType", .text, ["acsUiType": .string("08")])
        violation(.reservedValueNotRecognised, "acsUiType", .text, ["acsUiType": .string("85")])
        violation(.invalidFormat, "acsUiType", .text, ["acsUiType": .string("8")])
        violation(.invalidFormat, "acsUiType", .text, ["acsUiType": .string("08")], version: "2.2.0")
        violation(.invalidFormat, "acsUiType", .htmlOutOfBand, [:], version: "2.2.0")
        violation(.requiredElementMissing, "acsHTML", .htmlOutOfBand, ["acsHTML": nil])
        // acsHTML: up to 300,000 characters in 2.3.1.
        let page = String(repeating: "PGI-", count: 75_000)
        #expect(try screen(.html, ["acsHTML": .string(page)]).html?.count == 225_000)
        violation(.invalidFormat, "acsHTML", .html, ["acsHTML": .string(page + "PGI-")])
    }

    @Test("a repeated select key is 204 in 2.3.1, 203 before; 15 message extensions in 2.3.1, 10 before")
    func duplicatesAndExtensions() throws {
        let repeated: JSONValue = .array([.object(["a": .string("A")]), .object(["a": .string("B")])])
        violation(.duplicateElement, "challengeSelectInfo", .singleSelect, ["challengeSelectInfo": repeated])
        violation(
            .invalidFormat, "challengeSelectInfo", .singleSelect, ["challengeSelectInfo": repeated], version: "2.2.0")
        let ext: JSONValue = .object([
            "name": .string("N"), "id": .string("X"), "criticalityIndicator": .bool(false), "data": .object([:]),
        ])
        #expect(try screen(.text, ["messageExtension": .array(Array(repeating: ext, count: 15))]).uiType == .text)
        violation(
            .invalidFormat, "messageExtension", .text, ["messageExtension": .array(Array(repeating: ext, count: 16))])
        violation(
            .invalidFormat, "messageExtension", .text, ["messageExtension": .array(Array(repeating: ext, count: 11))],
            version: "2.2.0")
    }

    @Test("a final CRes: Y, N and (2.3.1) D are passed on; anything else is 203")
    func finalStatus() throws {
        func final(_ status: String, _ version: String) -> JSONObject {
            var object = cres(.text, version: version)
            object["challengeCompletionInd"] = .string("Y")
            object["transStatus"] = .string(status)
            return object
        }
        for status in ["Y", "N", "D"] {
            let response = try ChallengeResponseValidator.validate(
                final(status, "2.3.1"),
                expecting: ChallengeResponseExpectation(identifiers: ids, messageVersion: .v2_3_1, acsCounter: 0))
            #expect(response == .final(transStatus: TransactionStatus(rawValue: status)))
        }
        expectViolation(.invalidFormat, "transStatus", final("D", "2.2.0"))
        expectViolation(.invalidFormat, "transStatus", final("A", "2.3.1"), version: "2.3.1")
        expectViolation(.requiredElementMissing, "transStatus", final("", "2.3.1"), version: "2.3.1")
    }

    @Test("required per UI type (Table A.20): header and text for every native type; select labels for 02/03")
    func requiredPerType() throws {
        for uiType in [UIType.text, .singleSelect, .multiSelect, .outOfBand, .information] {
            violation(.requiredElementMissing, "challengeInfoHeader", uiType, ["challengeInfoHeader": nil])
            violation(.requiredElementMissing, "challengeInfoText", uiType, ["challengeInfoText": nil])
        }
        for uiType in [UIType.singleSelect, .multiSelect] {
            violation(.requiredElementMissing, "challengeInfoLabel", uiType, ["challengeInfoLabel": nil])
            violation(.requiredElementMissing, "submitAuthenticationLabel", uiType, ["submitAuthenticationLabel": nil])
        }
        violation(.requiredElementMissing, "submitAuthenticationLabel", .text, ["submitAuthenticationLabel": nil])
        // Optional on 04 and 07: challengeInfoLabel.
        #expect(try screen(.outOfBand, ["challengeInfoLabel": nil]).infoLabel == nil)
    }
}
