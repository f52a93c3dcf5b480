import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// A screen of `uiType` with every field the version defines for it set, as the validator reads it back.
func fullScreen(_ uiType: UIType, _ version: MessageVersion) -> ChallengeScreen {
    var screen = ChallengeScreen(uiType: uiType, messageVersion: version)
    screen.showsWarningIndicator = true
    screen.whyInfo = InformationSection(label: "Why?", text: "Your bank checks it is you.")
    screen.expandInfo = InformationSection(label: "Help", text: "Call your bank.")
    screen.issuerImage = ChallengeImage(medium: "https://bank.example/m.png", high: "https://bank.example/h.png")
    screen.paymentSystemImage = ChallengeImage(defaultAppearance: "https://ps.example/d.png")
    if version.trustQuestion != nil { screen.whitelistingText = "Trust this merchant?" }
    if version.hasDeviceBinding {
        screen.deviceBindingText = "Remember this device?"
        screen.consentsAboveActions = true
    }
    if !uiType.isHTML {
        screen.header = "Confirm your payment"
        screen.infoText = "We sent a code."
        if version.hasAdditionalCode { screen.additionalCodeLabel = "Use my app" }
    }
    switch uiType {
    case .text, .singleSelect, .multiSelect:
        screen.submitLabel = "Verify"
        screen.resendLabel = "Send a new code"
        if uiType == .text, version.hasEntryBoxes {
            screen.entryBoxes = [
                EntryBox(
                    label: "Code", keyboard: .numeric, autofill: .smsOneTimeCode, maxLength: 6, isMasked: true,
                    offersRevealToggle: true),
                EntryBox(label: "Year of birth", keyboard: .alphanumeric, maxLength: 4, isMasked: false),
            ]
        } else {
            screen.infoLabel = "Code"
        }
        if uiType != .text {
            screen.options = [SelectOption(key: "a", label: "SMS"), SelectOption(key: "b", label: "Email")]
        }
    case .outOfBand:
        screen.oobContinueLabel = "I have approved"
        screen.additionalInfo = "Welcome back."
        if version.hasOOBAppURL || version.carriesBridging {
            screen.oobAppURL = "https://bank.example/approve"
            screen.oobAppLabel = "Open banking app"
        }
        if version.carriesBridging {
            screen.bridging = Bridging.Received(
                version: .v2_0, appURL: "https://bank.example/approve", appLabel: "Open banking app")
        }
    case .html, .htmlOutOfBand:
        screen.html = "<html><body><p>Hello</p></body></html>"
        screen.htmlRefresh = "<html><body><p>Again</p></body></html>"
        if uiType == .htmlOutOfBand { screen.oobAppURL = "https://bank.example/approve" }
    case .information:
        screen.infoContinueLabel = "Continue"
    }
    return screen
}

func expectation(_ version: MessageVersion, counter: Int = 4) -> ChallengeResponseExpectation {
    ChallengeResponseExpectation(
        identifiers: ids, messageVersion: version, acsCounter: counter, opensOOBApps: true, announcedBridging: true)
}

func cres(_ content: ChallengeResponseBuilder.Content, _ version: MessageVersion, counter: Int = 4)
    -> ChallengeResponseBuilder
{
    ChallengeResponseBuilder(identifiers: ids, messageVersion: version, acsCounter: counter, content: content)
}

@Suite("CRes builder: typed screens round-trip through the validator; raw patches break exactly one rule")
struct ChallengeResponseBuilderTests {
    @Test(
        "every UI type of every version: the built CRes validates to the screen it was built from",
        arguments: [
            MessageVersion.v2_1_0, .v2_2_0, .v2_3_1,
        ])
    func screensRoundTrip(version: MessageVersion) throws {
        for uiType in version.uiTypes {
            let screen = fullScreen(uiType, version)
            let object = cres(.screen(screen), version).json
            let audit = ChallengeResponseValidator.audit(object, expecting: expectation(version))
            #expect(audit.findings.isEmpty, "\(version) UI \(uiType.rawValue): \(audit.findings)")
            #expect(audit.reading == .screen(screen), "\(version) UI \(uiType.rawValue)")
        }
    }

    @Test("the header every CRes carries, in order; a final CRes carries the status and no screen")
    func header() throws {
        let object = cres(.final(.authenticated), .v2_2_0, counter: 7).json
        #expect(
            object.names == [
                "threeDSServerTransID", "acsTransID", "sdkTransID", "acsCounterAtoS", "messageType", "messageVersion",
                "challengeCompletionInd", "transStatus",
            ])
        #expect(object["acsCounterAtoS"] == .string("007") && object["messageType"] == .string("CRes"))
        #expect(object["challengeCompletionInd"] == .string("Y") && object["transStatus"] == .string("Y"))
        let screen = cres(.screen(fullScreen(.text, .v2_2_0)), .v2_2_0).json
        #expect(screen["challengeCompletionInd"] == .string("N") && screen["transStatus"] == nil)
        #expect(
            cres(.final(.authenticated), .v2_2_0).serializedBytes
                == cres(.final(.authenticated), .v2_2_0).json.serializedBytes)
    }

    @Test("final statuses validate: Y and N in every version, D from 2.3.1")
    func finals() throws {
        for version in MessageVersion.supported {
            var statuses: [TransactionStatus] = [.authenticated, .notAuthenticated]
            if version.allowsDecoupledFinalStatus { statuses.append(.decoupled) }
            for status in statuses {
                let read = try ChallengeResponseValidator.validate(
                    cres(.final(status), version).json, expecting: expectation(version))
                #expect(read == .final(transStatus: status))
            }
        }
    }

    @Test("fields a version does not define are not written by the types")
    func versionGating() {
        var screen = fullScreen(.text, .v2_3_1)
        screen.messageVersion = .v2_1_0
        screen.oobAppURL = "https://bank.example/approve"
        screen.bridging = Bridging.Received(version: .v1_0, appURL: "https://bank.example/a", appLabel: "Open")
        let object = cres(.screen(screen), .v2_1_0).json
        for name in [
            "challengeEntryBox", "challengeEntryBoxTwo", "challengeAddLabel", "deviceBindingInfoText",
            "togglePositionInd", "whitelistingInfoText", "trustListInfoText", "oobAppURL", "messageExtension",
        ] {
            #expect(object[name] == nil, "\(name)")
        }
        #expect(cres(.screen(fullScreen(.text, .v2_2_0)), .v2_2_0).json["whitelistingInfoText"] != nil)
        #expect(cres(.screen(fullScreen(.text, .v2_3_1)), .v2_3_1).json["trustListInfoText"] != nil)
    }

    @Test(
        "a raw patch plants the violation the validator names",
        arguments: [
            (RawPatch.remove("challengeInfoHeader"), ConformanceRule.screenFieldMissing, "challengeInfoHeader"),
            (.set("acsCounterAtoS", .string("007")), .counterMismatch, "acsCounterAtoS"),
            (.set("acsCounterAtoS", .string("7")), .counterFormat, "acsCounterAtoS"),
            (
                .set("sdkTransID", .string("0b4a5d62-53c2-4bd4-9d5c-7b1f0f1e4a11")), .transactionIDMismatch,
                "sdkTransID"
            ),
            (.set("messageType", .string("CReq")), .messageTypeNotCRes, "messageType"),
            (.set("messageVersion", .string("2.1.0")), .messageVersionMismatch, "messageVersion"),
            (.set("challengeInfoHeader", .number("1")), .fieldNotString, "challengeInfoHeader"),
            (
                .set("challengeInfoHeader", .string(String(repeating: "x", count: 46))), .textTooLong,
                "challengeInfoHeader"
            ),
            (.set("acsUiType", .string("99")), .uiTypeUnknown, "acsUiType"),
            (
                .set("challengeInfoTextIndicator", .string("X")), .infoTextIndicatorValue,
                "challengeInfoTextIndicator"
            ),
            (.set("challengeCompletionInd", .string("X")), .completionIndicatorValue, "challengeCompletionInd"),
            (.set("messageExtension", .object([:])), .extensionNotArray, "messageExtension"),
            (.set("issuerImage", .string("http://bank.example/i.png")), .imageNotHTTPS, "issuerImage"),
        ])
    func patches(patch: RawPatch, rule: ConformanceRule, field: String) {
        let built = cres(.screen(fullScreen(.text, .v2_2_0)), .v2_2_0)
        #expect(ChallengeResponseValidator.audit(built.json, expecting: expectation(.v2_2_0)).isConformant)
        let audit = ChallengeResponseValidator.audit(built.patched(patch).json, expecting: expectation(.v2_2_0))
        #expect(audit.first?.rule == rule && audit.first?.field == field, "\(audit.findings)")
    }

    @Test("nested patches reach an entry box; 2.3.1 reserved values; a critical extension; a bad final status")
    func nestedAndVersionSpecificPatches() {
        let text = cres(.screen(fullScreen(.text, .v2_3_1)), .v2_3_1)
        let cases: [(ChallengeResponseBuilder, ConformanceRule, String)] = [
            (
                text.patched(.set(.string("X"), at: "challengeEntryBox", "challengeDataEntryMasking")),
                .maskingValue, "challengeEntryBox.challengeDataEntryMasking"
            ),
            (
                text.patched(.remove(at: "challengeEntryBox", "challengeDataEntryLabel")),
                .entryBoxLabelMissing, "challengeEntryBox.challengeDataEntryLabel"
            ),
            (text.patched(.set("acsUiType", .string("42"))), .uiTypeReserved, "acsUiType"),
            (
                text.patched(.set("togglePositionInd", .string("07"))), .togglePositionReserved,
                "togglePositionInd"
            ),
            (
                text.patched(
                    .set(
                        "messageExtension",
                        .array([
                            .object([
                                "name": .string("Vendor"), "id": .string("V-1"), "criticalityIndicator": .bool(true),
                                "data": .object([:]),
                            ])
                        ]))), .extensionCriticalUnrecognised, "messageExtension"
            ),
            (
                cres(.final(.authenticated), .v2_3_1).patched(.set("transStatus", .string("C"))),
                .transStatusValue, "transStatus"
            ),
            (cres(.final(.decoupled), .v2_2_0), .transStatusValue, "transStatus"),
        ]
        for (built, rule, field) in cases {
            let audit = ChallengeResponseValidator.audit(built.json, expecting: expectation(built.messageVersion))
            #expect(audit.first?.rule == rule && audit.first?.field == field, "\(audit.findings)")
        }
    }

    @Test("patches apply after the typed fields, in order; unknown fields are added and stay harmless")
    func patchOrder() throws {
        let built = cres(.screen(fullScreen(.text, .v2_2_0)), .v2_2_0)
            .patched(.set("vendorField", .array([.null])))
            .patched(.remove("challengeInfoHeader"))
            .patched(.set("challengeInfoHeader", .string("Back")))
        let object = built.json
        #expect(object.names.last == "challengeInfoHeader" && object["vendorField"] == .array([.null]))
        let read = try ChallengeResponseValidator.validate(object, expecting: expectation(.v2_2_0))
        guard case .screen(let screen) = read else {
            Issue.record("expected a screen, read \(read)")
            return
        }
        #expect(screen.header == "Back")
        // The typed value is untouched: the patches live on the builder.
        #expect(built.content == .screen(fullScreen(.text, .v2_2_0)))
    }
}

@Suite("ARes builder")
struct AuthenticationResponseBuilderTests {
    @Test("a frictionless ARes carries the identifiers and status, in the lab's order")
    func frictionless() {
        let ares = AuthenticationResponseBuilder(messageVersion: .v2_2_0, identifiers: ids, transStatus: .attempted)
        #expect(
            ares.json.names == ["messageVersion", "threeDSServerTransID", "acsTransID", "sdkTransID", "transStatus"])
        #expect(AuthenticationResponseRules.audit(ares.json, version: .v2_2_0).reading == .attempted)
    }

    @Test("a challenge ARes passes the rules an SDK client holds it to; optional fields when set")
    func challenge() {
        var ares = AuthenticationResponseBuilder.challenge(
            messageVersion: .v2_3_1, identifiers: ids, acsReferenceNumber: "REF", acsSignedContent: "a.b.c",
            renderingType: .init(interface: .native, template: .singleSelect))
        let audit = AuthenticationResponseRules.audit(ares.json, version: .v2_3_1)
        #expect(audit.isConformant && audit.reading == .challengeRequired)
        #expect(
            ares.json["acsRenderingType"]
                == .object(["acsInterface": .string("01"), "acsUiTemplate": .string("02")]))
        ares.dsTransID = "7f2b8a3c-6a9e-4a43-9e0f-0c3f4d8c2b10"
        ares.acsURL = "https://acs.example/challenge"
        #expect(
            ares.json.names == [
                "messageVersion", "threeDSServerTransID", "acsTransID", "sdkTransID", "dsTransID", "transStatus",
                "acsURL", "acsReferenceNumber", "acsSignedContent", "acsRenderingType",
            ])
    }

    @Test("raw patches plant the ARes rules' violations")
    func patches() {
        let ares = AuthenticationResponseBuilder.challenge(
            messageVersion: .v2_1_0, identifiers: ids, acsReferenceNumber: "REF", acsSignedContent: "a.b.c",
            renderingType: nil)
        let cases: [(RawPatch, ConformanceRule)] = [
            (.remove("transStatus"), .aresTransStatusMissing),
            (.set("transStatus", .string("D")), .aresTransStatusInvalid),
            (.remove("acsSignedContent"), .aresFieldMissing),
            (.set("acsTransID", .string("x")), .aresTransactionIDNotUUID),
            (
                .set("acsReferenceNumber", .string(String(repeating: "r", count: 33))),
                .aresReferenceNumberLength
            ),
        ]
        for (patch, rule) in cases {
            #expect(AuthenticationResponseRules.audit(ares.patched(patch).json, version: .v2_1_0).first?.rule == rule)
        }
        #expect(ares.patched(.set("extra", .bool(true))).json["extra"] == .bool(true))
    }
}
