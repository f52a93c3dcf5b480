import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

let ids = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

func textCRes(_ changes: [String: JSONValue?] = [:], version: String = "2.2.0") -> JSONObject {
    var object: JSONObject = [
        "threeDSServerTransID": .string(ids.threeDSServerTransID), "acsTransID": .string(ids.acsTransID),
        "sdkTransID": .string(ids.sdkTransID),
        "acsCounterAtoS": .string("000"), "messageType": .string("CRes"), "messageVersion": .string(version),
        "challengeCompletionInd": .string("N"), "acsUiType": .string("01"), "challengeInfoHeader": .string("Header"),
        "challengeInfoLabel": .string("Code"), "challengeInfoText": .string("Enter the code"),
        "submitAuthenticationLabel": .string("Verify"),
    ]
    for (name, value) in changes { object[name] = value }
    return object
}

func expectViolation(
    _ code: ProtocolErrorCode, _ detail: String, _ object: JSONObject, version: String = "2.2.0", counter: Int = 0,
    opensOOBApps: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) {
    let expectation = ChallengeResponseExpectation(
        identifiers: ids, messageVersion: MessageVersion(version)!, acsCounter: counter, opensOOBApps: opensOOBApps)
    do {
        _ = try ChallengeResponseValidator.validate(object, expecting: expectation)
        Issue.record("expected \(code.rawValue) \(detail), the CRes was accepted", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.detail == detail, sourceLocation: sourceLocation)
        expectAuditAgrees(with: error, object, expectation, sourceLocation: sourceLocation)
    }
}

/// The audit of a CRes the SDK accepts: no finding, and the same reading.
func expectConformant(
    _ object: JSONObject, _ expectation: ChallengeResponseExpectation, reading: ChallengeResponse,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let audit = ChallengeResponseValidator.audit(object, expecting: expectation)
    #expect(audit.isConformant && audit.reading == reading, "\(audit.findings)", sourceLocation: sourceLocation)
}

/// The audit of a CRes the SDK refuses: its first finding is the violation the SDK throws (the Erro it sends), with
/// the same code, detail and explanation, under a rule that declares that code; every finding is well formed.
func expectAuditAgrees(
    with violation: ProtocolViolation, _ object: JSONObject, _ expectation: ChallengeResponseExpectation,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let audit = ChallengeResponseValidator.audit(object, expecting: expectation)
    guard let first = audit.first else {
        Issue.record("the audit found nothing where the SDK sends \(violation)", sourceLocation: sourceLocation)
        return
    }
    #expect(first.errorCode == violation.code, sourceLocation: sourceLocation)
    #expect(first.rule.errorCode == violation.code, sourceLocation: sourceLocation)
    #expect(first.errorDetail == violation.detail, sourceLocation: sourceLocation)
    #expect(first.explanation == violation.explanation, sourceLocation: sourceLocation)
    #expect(audit.reading == nil && !audit.isConformant, sourceLocation: sourceLocation)
    for finding in audit.findings {
        #expect(finding.errorCode == finding.rule.errorCode, sourceLocation: sourceLocation)
        #expect(
            PeerText.fits(finding.value ?? "", max: ConformanceFinding.maxValueLength), sourceLocation: sourceLocation)
        #expect(!finding.requirement.isEmpty, sourceLocation: sourceLocation)
    }
}

func validate(_ object: JSONObject, version: String = "2.2.0", sourceLocation: SourceLocation = #_sourceLocation)
    throws -> ChallengeResponse
{
    let expectation = ChallengeResponseExpectation(
        identifiers: ids, messageVersion: MessageVersion(version)!, acsCounter: 0)
    do {
        let response = try ChallengeResponseValidator.validate(object, expecting: expectation)
        // A CRes the SDK accepts breaks no rule, and the audit reads it the same.
        expectConformant(object, expectation, reading: response, sourceLocation: sourceLocation)
        return response
    } catch {
        expectAuditAgrees(with: error, object, expectation, sourceLocation: sourceLocation)
        throw error
    }
}

@Suite("CRes validation")
struct ChallengeResponseTests {
    @Test("a valid text screen becomes a screen model")
    func textScreen() throws {
        guard
            case .screen(let screen) = try validate(
                textCRes(["challengeInfoTextIndicator": .string("Y"), "resendInformationLabel": .string("Resend")]))
        else {
            Issue.record("not a screen"); return
        }
        #expect(
            screen.uiType == .text && screen.header == "Header" && screen.showsWarningIndicator
                && screen.resendLabel == "Resend")
    }

    @Test("unknown non-critical fields are ignored, in a final CRes too")
    func unknownFields() throws {
        #expect(throws: Never.self) {
            try validate(textCRes(["vendorField": .string("x"), "anotherOne": .integer(3)]))
        }
        var final = textCRes([
            "challengeCompletionInd": .string("Y"), "transStatus": .string("Y"), "acsUiType": nil,
            "extra": .string("x"),
        ])
        final["challengeInfoText"] = .string("leftover")
        #expect(try validate(final) == .final(transStatus: .authenticated))
    }

    @Test("message type: Erro-like or other types are 101; missing is 201")
    func messageType() {
        expectViolation(.messageReceivedInvalid, "messageType", textCRes(["messageType": .string("CReq")]))
        expectViolation(.requiredElementMissing, "messageType", textCRes(["messageType": nil]))
    }

    @Test(
        "each required field missing or empty is 201 naming it",
        arguments: [
            "threeDSServerTransID", "acsTransID", "sdkTransID", "acsCounterAtoS", "messageVersion",
            "challengeCompletionInd", "acsUiType",
        ])
    func requiredFields(name: String) {
        expectViolation(.requiredElementMissing, name, textCRes([name: nil]))
        expectViolation(.requiredElementMissing, name, textCRes([name: .string("")]))
    }

    @Test("transaction IDs: not a UUID is 203, another ID is 301")
    func transactionIDs() {
        expectViolation(.invalidFormat, "sdkTransID", textCRes(["sdkTransID": .string("123")]))
        expectViolation(
            .transactionIDNotRecognised, "acsTransID",
            textCRes(["acsTransID": .string("00000000-0000-0000-0000-000000000000")]))
        expectViolation(.invalidFormat, "acsTransID", textCRes(["acsTransID": .integer(5)]))
        // Opaque: the same UUID in another case is another ID.
        expectViolation(
            .transactionIDNotRecognised, "acsTransID", textCRes(["acsTransID": .string(ids.acsTransID.uppercased())]))
    }

    @Test("transaction IDs written in upper case by the ACS are accepted exactly as written")
    func upperCaseIDs() throws {
        let upper = TransactionIdentifiers(
            threeDSServerTransID: ids.threeDSServerTransID.uppercased(), acsTransID: ids.acsTransID.uppercased(),
            sdkTransID: ids.sdkTransID)
        let object = textCRes([
            "threeDSServerTransID": .string(upper.threeDSServerTransID), "acsTransID": .string(upper.acsTransID),
        ])
        let result = try ChallengeResponseValidator.validate(
            object, expecting: ChallengeResponseExpectation(identifiers: upper, messageVersion: .v2_2_0, acsCounter: 0))
        guard case .screen = result else {
            Issue.record("not a screen")
            return
        }
    }

    @Test("counter: malformed is 203, another value is 302")
    func counter() {
        expectViolation(.invalidFormat, "acsCounterAtoS", textCRes(["acsCounterAtoS": .string("1")]))
        expectViolation(.invalidFormat, "acsCounterAtoS", textCRes(["acsCounterAtoS": .string("9x9")]))
        expectViolation(.decryptionFailure, "acsCounterAtoS", textCRes(["acsCounterAtoS": .string("001")]))
        expectViolation(.decryptionFailure, "acsCounterAtoS", textCRes(), counter: 1)
    }

    @Test("message version differing from the transaction's is 203")
    func version() { expectViolation(.invalidFormat, "messageVersion", textCRes(["messageVersion": .string("2.1.0")])) }

    @Test("completion indicator and final status")
    func completion() {
        expectViolation(.invalidFormat, "challengeCompletionInd", textCRes(["challengeCompletionInd": .string("X")]))
        expectViolation(.requiredElementMissing, "transStatus", textCRes(["challengeCompletionInd": .string("Y")]))
        expectViolation(
            .invalidFormat, "transStatus",
            textCRes(["challengeCompletionInd": .string("Y"), "transStatus": .string("A")]))
    }

    @Test("UI types: unknown is 203; 06 and 07 only in 2.3.1")
    func uiTypes() throws {
        expectViolation(.invalidFormat, "acsUiType", textCRes(["acsUiType": .string("08")]))
        expectViolation(.invalidFormat, "acsUiType", textCRes(["acsUiType": .string("07")]))
        let info = textCRes(["acsUiType": .string("07"), "infoContinueLabel": .string("Continue")], version: "2.3.1")
        guard case .screen(let screen) = try validate(info, version: "2.3.1") else {
            Issue.record("not a screen"); return
        }
        #expect(screen.uiType == .information)
        expectViolation(
            .requiredElementMissing, "infoContinueLabel", textCRes(["acsUiType": .string("07")], version: "2.3.1"),
            version: "2.3.1")
    }

    @Test(
        "native UIs need header, label, text and submit label",
        arguments: ["challengeInfoHeader", "challengeInfoLabel", "challengeInfoText", "submitAuthenticationLabel"])
    func nativeRequired(name: String) { expectViolation(.requiredElementMissing, name, textCRes([name: nil])) }

    @Test("select screens need well-formed options")
    func selects() throws {
        let options: JSONValue = .array([.object(["a": .string("A")]), .object(["b": .string("B")])])
        guard
            case .screen(let screen) = try validate(
                textCRes(["acsUiType": .string("03"), "challengeSelectInfo": options]))
        else { Issue.record("no screen"); return }
        #expect(screen.options == [SelectOption(key: "a", label: "A"), SelectOption(key: "b", label: "B")])
        expectViolation(.requiredElementMissing, "challengeSelectInfo", textCRes(["acsUiType": .string("02")]))
        expectViolation(
            .requiredElementMissing, "challengeSelectInfo",
            textCRes(["acsUiType": .string("02"), "challengeSelectInfo": .array([])]))
        for bad: JSONValue in [
            .string("x"), .array([.string("a")]), .array([.object(["a": .string("A"), "b": .string("B")])]),
            .array([.object(["a": .integer(1)])]),
            .array([.object(["a": .string("A")]), .object(["a": .string("B")])]),
            .array([.object([String(repeating: "k", count: 46): .string("A")])]),
        ] {
            expectViolation(
                .invalidFormat, "challengeSelectInfo",
                textCRes(["acsUiType": .string("02"), "challengeSelectInfo": bad]))
        }
    }

    @Test("OOB needs the continue label, header and text")
    func outOfBand() {
        let oob = textCRes([
            "acsUiType": .string("04"), "oobContinueLabel": .string("Continue"), "challengeInfoLabel": nil,
            "submitAuthenticationLabel": nil,
        ])
        #expect(throws: Never.self) { try validate(oob) }
        var missing = oob
        missing["oobContinueLabel"] = nil
        expectViolation(.requiredElementMissing, "oobContinueLabel", missing)
        var noText = oob
        noText["challengeInfoText"] = nil
        expectViolation(.requiredElementMissing, "challengeInfoText", noText)
        var app = oob
        app["messageVersion"] = .string("2.3.1")
        app["oobAppURL"] = .string("http://bank.example/app")
        expectViolation(.invalidFormat, "oobAppURL", app, version: "2.3.1")
    }

    @Test("HTML must be strict base64url of UTF-8 (TC_SDK_10554–10559)")
    func html() throws {
        let page = Base64.urlEncode(Array("<html><body>hi</body></html>".utf8))
        guard case .screen(let screen) = try validate(textCRes(["acsUiType": .string("05"), "acsHTML": .string(page)]))
        else { Issue.record("no screen"); return }
        #expect(screen.html == "<html><body>hi</body></html>")
        expectViolation(.requiredElementMissing, "acsHTML", textCRes(["acsUiType": .string("05")]))
        for bad in [page + "=", "a+b/", "ab cd", "ab\ncd", "abcde"] {
            expectViolation(.invalidFormat, "acsHTML", textCRes(["acsUiType": .string("05"), "acsHTML": .string(bad)]))
        }
        expectViolation(
            .invalidFormat, "acsHTML",
            textCRes(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode([0xFF, 0xFE]))]))
        expectViolation(
            .invalidFormat, "acsHTMLRefresh",
            textCRes(["acsUiType": .string("05"), "acsHTML": .string(page), "acsHTMLRefresh": .string("a=")]))
    }

    @Test("lengths and formats of optional fields are 203")
    func lengths() {
        expectViolation(
            .invalidFormat, "challengeInfoHeader",
            textCRes(["challengeInfoHeader": .string(String(repeating: "h", count: 46))]))
        expectViolation(
            .invalidFormat, "challengeInfoText",
            textCRes(["challengeInfoText": .string(String(repeating: "t", count: 351))]))
        expectViolation(
            .invalidFormat, "whitelistingInfoText",
            textCRes(["whitelistingInfoText": .string(String(repeating: "w", count: 65))]))
        expectViolation(
            .invalidFormat, "challengeInfoTextIndicator", textCRes(["challengeInfoTextIndicator": .string("X")]))
        expectViolation(.invalidFormat, "resendInformationLabel", textCRes(["resendInformationLabel": .string("")]))
        expectViolation(
            .invalidFormat, "issuerImage.high",
            textCRes(["issuerImage": .object(["high": .string("http://x.example/i.png")])]))
        expectViolation(.invalidFormat, "psImage", textCRes(["psImage": .integer(3)]))
    }

    @Test("message extensions: unknown critical is 202 naming the IDs; more than 10 or malformed is 203")
    func extensions() {
        func ext(_ id: String, critical: Bool) -> JSONValue {
            .object([
                "name": .string("N"), "id": .string(id), "criticalityIndicator": .bool(critical), "data": .object([:]),
            ])
        }
        #expect(throws: Never.self) {
            try validate(textCRes(["messageExtension": .array([ext("A000000802-004", critical: false)])]))
        }
        expectViolation(
            .criticalExtensionNotRecognised, "X1,X2",
            textCRes([
                "messageExtension": .array([
                    ext("X1", critical: true), ext("ok", critical: false), ext("X2", critical: true),
                ])
            ]))
        expectViolation(
            .invalidFormat, "messageExtension",
            textCRes(["messageExtension": .array(Array(repeating: ext("a", critical: false), count: 11))]))
        expectViolation(
            .invalidFormat, "messageExtension",
            textCRes(["messageExtension": .array([.object(["name": .string("N")])])]))
    }
}

@Suite("Erro messages")
struct ErrorMessageTests {
    @Test("Erro messages round-trip and are checked")
    func errorMessages() throws {
        let sent = ErrorMessage(
            sdkViolation: ProtocolViolation(.invalidFormat, detail: "acsHTML"), messageType: .challengeResponse,
            identifiers: ids,
            messageVersion: .v2_2_0)
        #expect(sent.json["errorComponent"] == .string("C") && sent.json["messageType"] == .string("Erro"))
        #expect(try ErrorMessage(json: sent.json) == sent)
        var missing = sent.json
        missing["errorCode"] = nil
        #expect(throws: ProtocolViolation.self) { try ErrorMessage(json: missing) }
        var long = sent.json
        long["errorCode"] = .string("1234")
        #expect(throws: ProtocolViolation.self) { try ErrorMessage(json: long) }
    }
}
