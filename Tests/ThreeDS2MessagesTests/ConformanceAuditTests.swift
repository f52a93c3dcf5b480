import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// The audit mode: a CRes (or an ACS signed content) with several planted violations reports every one, under its
/// rule, in the order the SDK checks them; the first is the violation the SDK's own path throws.
@Suite("Conformance audit")
struct ConformanceAuditTests {
    func expectation(_ version: MessageVersion, counter: Int = 0) -> ChallengeResponseExpectation {
        ChallengeResponseExpectation(identifiers: ids, messageVersion: version, acsCounter: counter, opensOOBApps: true)
    }

    /// Audits `object`, checks the rules found (in order) and that the first finding is what `validate` throws.
    @discardableResult
    func expectFindings(
        _ object: JSONObject, _ version: MessageVersion, _ rules: [ConformanceRule],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [ConformanceFinding] {
        let audit = ChallengeResponseValidator.audit(object, expecting: expectation(version))
        #expect(audit.findings.map(\.rule) == rules, "\(audit.findings)", sourceLocation: sourceLocation)
        do {
            _ = try ChallengeResponseValidator.validate(object, expecting: expectation(version))
            Issue.record("the SDK accepted a CRes with planted violations", sourceLocation: sourceLocation)
        } catch {
            #expect(audit.first?.errorCode == error.code, sourceLocation: sourceLocation)
            #expect(audit.first?.errorDetail == error.detail, sourceLocation: sourceLocation)
            #expect(audit.first?.explanation == error.explanation, sourceLocation: sourceLocation)
        }
        return audit.findings
    }

    @Test("2.1.0: a text screen with six planted violations reports all six, the 302 first")
    func planted210() {
        let object = textCRes(
            [
                "acsCounterAtoS": .string("001"), "challengeInfoHeader": .string(String(repeating: "h", count: 46)),
                "challengeInfoTextIndicator": .string("X"), "whyInfoText": .string("Why\u{1B}[2J"),
                "psImage": .integer(3), "submitAuthenticationLabel": nil,
            ], version: "2.1.0")
        let findings = expectFindings(
            object, .v2_1_0,
            [
                .counterMismatch, .textTooLong, .infoTextIndicatorValue, .textControlCharacter, .imageNotObject,
                .screenFieldMissing,
            ])
        #expect(
            findings.map(\.errorCode) == [.decryptionFailure] + Array(repeating: .invalidFormat, count: 4) + [
                .requiredElementMissing
            ])
        #expect(
            findings.map(\.field) == [
                "acsCounterAtoS", "challengeInfoHeader", "challengeInfoTextIndicator", "whyInfoText", "psImage",
                "submitAuthenticationLabel",
            ])
        #expect(findings[0].value == "001" && findings[0].requirement == "000")
        #expect(findings[1].requirement == "at most 45 characters")
        #expect(findings[3].value == "Why\\u{1B}[2J")
        #expect(findings[4].value == "3")
        #expect(findings[5].value == nil && findings[5].requirement == "present on an acsUiType 01 screen in 2.1.0")
    }

    @Test("2.2.0: a select screen with five planted violations reports all five, the 301 first")
    func planted220() {
        let critical: JSONValue = .object([
            "name": .string("N"), "id": .string("X9"), "criticalityIndicator": .bool(true), "data": .object([:]),
        ])
        let object = textCRes([
            "acsUiType": .string("02"), "acsTransID": .string("00000000-0000-0000-0000-000000000000"),
            "messageExtension": .array([critical]), "resendInformationLabel": .string(""),
            "whitelistingInfoText": .string(String(repeating: "w", count: 65)),
            "challengeSelectInfo": .array([.object(["a": .string("A")]), .object(["a": .string("B")])]),
        ])
        let findings = expectFindings(
            object, .v2_2_0,
            [
                .transactionIDMismatch, .extensionCriticalUnrecognised, .resendLabelEmpty, .textTooLong,
                .selectInfoRepeatedKey,
            ])
        #expect(findings[1].errorCode == .criticalExtensionNotRecognised && findings[1].errorDetail == "X9")
        #expect(findings[3].field == "whitelistingInfoText" && findings[3].requirement == "at most 64 characters")
        #expect(findings[4].errorCode == .invalidFormat)
    }

    @Test("2.3.1: a text screen with seven planted violations reports all seven, reserved values as 207")
    func planted231() {
        let object = cres(
            .text,
            [
                "messageVersion": .string("2.2.0"), "trustListInfoText": .string(String(repeating: "t", count: 65)),
                "issuerImage": .object(["dark": .string("http://bank.example/dark.png")]),
                "togglePositionInd": .string("03"),
                "challengeEntryBox": .object([
                    "challengeDataEntryLabel": .string("Code"), "challengeDataEntryKeyboardType": .string("05"),
                    "challengeDataEntryMasking": .string("Y"),
                ]),
                "challengeSelectInfo": .array([.object(["a": .string("A")]), .object(["a": .string("B")])]),
            ])
        let findings = expectFindings(
            object, .v2_3_1,
            [
                .messageVersionMismatch, .textTooLong, .imageNotHTTPS, .togglePositionReserved, .keyboardTypeReserved,
                .toggleMissing, .selectInfoDuplicateKey,
            ])
        #expect(
            findings.map(\.field) == [
                "messageVersion", "trustListInfoText", "issuerImage.dark", "togglePositionInd",
                "challengeEntryBox.challengeDataEntryKeyboardType", "challengeEntryBox.challengeDataEntryToggle",
                "challengeSelectInfo",
            ])
        #expect(
            findings.map(\.errorCode) == [
                .invalidFormat, .invalidFormat, .invalidFormat, .reservedValueNotRecognised,
                .reservedValueNotRecognised, .requiredElementMissing, .duplicateElement,
            ])
        #expect(findings[0].requirement == "2.3.1, the transaction's version" && findings[0].value == "2.2.0")
    }

    @Test("a UI type the SDK cannot read still has its fields checked; its own requirements are left out")
    func unreadableUIType() {
        let object = cres(.text, ["acsUiType": .string("09"), "challengeInfoText": .string("a\u{202E}b")])
        expectFindings(object, .v2_3_1, [.uiTypeReserved, .textControlCharacter])
        let earlier = textCRes(["acsUiType": .string("09"), "challengeInfoHeader": .integer(1)])
        let findings = expectFindings(earlier, .v2_2_0, [.uiTypeUnknown, .fieldNotString])
        #expect(findings[0].requirement == "one of 01, 02, 03, 04, 05 in 2.2.0")
    }

    @Test("a field is reported once: a wrong type is not reported again as missing")
    func oncePerField() {
        let object = textCRes(["submitAuthenticationLabel": .integer(1), "acsTransID": .integer(2)])
        let findings = expectFindings(object, .v2_2_0, [.fieldNotString, .fieldNotString])
        #expect(findings.map(\.field) == ["acsTransID", "submitAuthenticationLabel"])
        let box = cres(.text, ["challengeEntryBox": .object(["challengeDataEntryLabel": .integer(1)])])
        expectFindings(box, .v2_3_1, [.fieldNotString])
    }

    @Test("a value is escaped and cut to the documented length")
    func valueShown() {
        let long = String(repeating: "\u{1B}", count: 300)
        let object = textCRes(["challengeInfoHeader": .string(long)])
        let finding = ChallengeResponseValidator.audit(object, expecting: expectation(.v2_2_0)).first
        #expect(finding?.rule == .textTooLong)
        #expect(PeerText.length(finding?.value ?? "") == ConformanceFinding.maxValueLength)
        #expect(finding?.value?.hasPrefix("\\u{1B}\\u{1B}") == true && finding?.value?.hasSuffix("…") == true)
        #expect(finding?.value?.unicodeScalars.contains { PeerText.isControlOrBidi($0) } == false)
        // The explanation and detail quote the peer as the SDK's own violation does: escaped.
        let typed = ChallengeResponseValidator.audit(
            textCRes(["messageType": .string("C\u{1B}]2;x\u{07}")]), expecting: expectation(.v2_2_0))
        #expect(typed.first?.explanation == "CRes field `messageType` was C\\u{1B}]2;x\\u{7}, expected CRes")
        let short = ChallengeResponseValidator.audit(
            textCRes(["challengeInfoTextIndicator": .string("Z")]), expecting: expectation(.v2_2_0))
        #expect(
            short.first?.value == "Z" && short.first?.requirement == ConformanceRule.infoTextIndicatorValue.requirement)
    }

    @Test("a conformant CRes has no finding and the reading validate returns; rules list each rule once")
    func conformant() throws {
        let object = textCRes()
        let audit = ChallengeResponseValidator.audit(object, expecting: expectation(.v2_2_0))
        #expect(audit.isConformant && audit.first == nil)
        #expect(audit.reading == (try ChallengeResponseValidator.validate(object, expecting: expectation(.v2_2_0))))
        let twice = ChallengeResponseValidator.audit(
            textCRes(["challengeInfoHeader": .integer(1), "challengeInfoText": .integer(2)]),
            expecting: expectation(.v2_2_0))
        #expect(twice.findings.count == 2 && twice.rules == [.fieldNotString])
    }

    @Test("ACS signed content: every problem reported; the init's error is the first")
    func signedContent() throws {
        let payload = Array(#"{"acsEphemPubKey":"not a key","acsURL":""}"#.utf8)
        let audit = ACSSignedContent.audit(payload: payload)
        #expect(
            audit.findings.map(\.rule) == [
                .signedContentACSURL, .signedContentSDKKeyMissing, .signedContentACSKeyInvalid,
            ])
        #expect(audit.findings.allSatisfy { $0.errorCode == nil })
        #expect(audit.findings[0].value == "" && audit.findings[2].value == "not a key")
        do {
            _ = try ACSSignedContent(payload: payload)
            Issue.record("accepted")
        } catch {
            #expect(error.message == audit.findings[0].explanation && error.code == .invalidHeader)
        }
        #expect(ACSSignedContent.audit(payload: Array("nope".utf8)).rules == [.signedContentNotJSON])
        #expect(ACSSignedContent.audit(payload: Array("[]".utf8)).rules == [.signedContentNotObject])
        let key = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        let content = ACSSignedContent(
            acsURL: "https://acs.example/challenge", acsEphemeralPublicKey: key, sdkEphemeralPublicKey: key)
        let good = ACSSignedContent.audit(payload: JSONValue.object(content.json).serializedBytes)
        #expect(good.isConformant && good.reading == content)
        #expect(try ACSSignedContent(payload: JSONValue.object(content.json).serializedBytes) == content)
        // With the transaction's key: the ACS URL's scheme and the key it names, as the SDK checks them next.
        let withKey = ACSSignedContent.audit(
            payload: JSONValue.object(content.json).serializedBytes, sdkEphemeralPublicKey: key)
        #expect(withKey.isConformant)
        let other = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        let plain = ACSSignedContent(
            acsURL: "http://127.0.0.1:8080/acs", acsEphemeralPublicKey: key, sdkEphemeralPublicKey: key)
        let plainBytes = JSONValue.object(plain.json).serializedBytes
        #expect(
            ACSSignedContent.audit(payload: plainBytes, sdkEphemeralPublicKey: other).rules == [
                .signedContentACSURLNotHTTPS, .signedContentSDKKeyMismatch,
            ])
        #expect(
            ACSSignedContent.audit(payload: plainBytes, sdkEphemeralPublicKey: key, allowsPlainHTTP: { _ in true })
                .isConformant)
        let relative = ACSSignedContent(acsURL: "acs", acsEphemeralPublicKey: key, sdkEphemeralPublicKey: key)
        #expect(
            ACSSignedContent.audit(payload: JSONValue.object(relative.json).serializedBytes, sdkEphemeralPublicKey: key)
                .rules == [.signedContentACSURLNotAbsolute])
    }

    @Test("ARes: every challenge field problem reported; the SDK's check of its parameters stops at the first")
    func authenticationResponse() {
        let ares: JSONObject = [
            "transStatus": .string("C"), "threeDSServerTransID": .string(ids.threeDSServerTransID),
            "acsTransID": .string("x\u{1B}"), "acsReferenceNumber": .string(String(repeating: "r", count: 33)),
            "acsSignedContent": .integer(1),
        ]
        let audit = ChallengeParameterFields.audit(ares)
        #expect(
            audit.findings.map(\.rule) == [
                .aresFieldMissing, .aresTransactionIDNotUUID, .aresReferenceNumberLength,
            ])
        #expect(audit.findings.map(\.field) == ["acsSignedContent", "acsTransID", "acsReferenceNumber"])
        #expect(audit.findings[1].value == "x\\u{1B}" && audit.findings.allSatisfy { $0.errorCode == nil })
        let fields = ChallengeParameterFields(
            threeDSServerTransID: ids.threeDSServerTransID, acsTransID: "x", acsReferenceNumber: "",
            acsSignedContent: "")
        let first = fields.firstViolationAsChallengeParameters()
        #expect(first?.rule == .aresTransactionIDNotUUID)
        #expect(first?.explanation == "challenge parameter acsTransactionID must be a UUID, was \"x\"")
        let good = ChallengeParameterFields(
            threeDSServerTransID: ids.threeDSServerTransID, acsTransID: ids.acsTransID, acsReferenceNumber: "REF",
            acsSignedContent: "a.b.c")
        #expect(good.firstViolationAsChallengeParameters() == nil)
        var object: JSONObject = ["threeDSServerTransID": .string(ids.threeDSServerTransID)]
        object["acsTransID"] = .string(ids.acsTransID)
        object["acsReferenceNumber"] = .string("REF")
        object["acsSignedContent"] = .string("a.b.c")
        #expect(ChallengeParameterFields.audit(object).reading == good)
    }

    @Test("every rule declares an identifier of the form message.field.problem, a requirement and a reference")
    func declarations() {
        for rule in ConformanceRule.allCases {
            #expect(rule.rawValue.split(separator: ".").count >= 3, "\(rule)")
            #expect(!rule.field.isEmpty && !rule.requirement.isEmpty && !rule.reference.isEmpty, "\(rule)")
            #expect(ConformanceRule(rawValue: rule.description) == rule)
            #expect((rule.errorCode == nil) == (rule.message != .challengeResponse), "\(rule)")
        }
    }
}

/// `docs/conformance-rules.md` holds one row per rule the code declares, with the code's field, requirement, Erro
/// code, reference and tolerance: every rule documented, no stale row.
@Suite("Conformance rules table")
struct ConformanceRulesTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The row the code declares for a rule, as the table writes it.
    static func row(_ rule: ConformanceRule) -> String {
        let code = rule.errorCode.map { "\($0.rawValue)" } ?? "none"
        return "| `\(rule.rawValue)` | \(rule.field) | \(rule.requirement) | \(code) | \(rule.reference) | "
            + "\(rule.tolerance ?? "—") |"
    }

    @Test("the table lists exactly the declared rules, each as the code declares it")
    func table() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("docs/conformance-rules.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `") }
        let declared = ConformanceRule.allCases.map(Self.row)
        #expect(Set(rows).subtracting(declared).isEmpty, "stale rows: \(Set(rows).subtracting(declared).sorted())")
        let undocumented = declared.filter { !rows.contains($0) }.joined(separator: "\n")
        #expect(undocumented.isEmpty, "undocumented:\n\(undocumented)")
        #expect(rows.count == declared.count, "a rule is listed twice")
    }
}
