import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// Issue 47: the rules that were missed (each now a rule with a stable id), the SDK's deliberate tolerance (the
/// rules a strict audit reports and the SDK accepts), the channel's failures each under its rule, and no finding
/// that only follows from another.
@Suite("Conformance: tolerated rules, strict audits, channel failures")
struct ConformanceStrictTests {
    func expectation(_ version: MessageVersion, bridging: Bool = false) -> ChallengeResponseExpectation {
        ChallengeResponseExpectation(
            identifiers: ids, messageVersion: version, acsCounter: 0, opensOOBApps: true, announcedBridging: bridging)
    }

    /// The object breaks exactly `rules` under a strict audit; the SDK (and a default audit) accepts it.
    func expectTolerated(
        _ object: JSONObject, _ version: MessageVersion, _ rules: [ConformanceRule], bridging: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expecting = expectation(version, bridging: bridging)
        let strict = ChallengeResponseValidator.audit(object, expecting: expecting, strict: true)
        #expect(strict.rules == rules, "\(strict.findings)", sourceLocation: sourceLocation)
        #expect(rules.allSatisfy { $0.tolerance != nil }, sourceLocation: sourceLocation)
        let lenient = ChallengeResponseValidator.audit(object, expecting: expecting)
        #expect(lenient.isConformant, "\(lenient.findings)", sourceLocation: sourceLocation)
        #expect(throws: Never.self, sourceLocation: sourceLocation) {
            try ChallengeResponseValidator.validate(object, expecting: expecting)
        }
    }

    static func options(_ count: Int, key: (Int) -> String = { "k\($0)" }) -> JSONValue {
        .array((0..<count).map { .object(JSONObject([(key($0), .string("Option \($0)"))])) })
    }

    static func select231(_ changes: [String: JSONValue?]) -> JSONObject {
        var all: [String: JSONValue?] = ["acsUiType": .string("02"), "challengeSelectInfo": options(2)]
        for (name, value) in changes { all[name] = value }
        return textCRes(all, version: "2.3.1")
    }

    @Test("2.3.1 select limits: 9 options, a 6-character key; the SDK shows them")
    func selectLimits() {
        expectTolerated(Self.select231(["challengeSelectInfo": Self.options(9)]), .v2_3_1, [.selectInfoTooMany])
        expectTolerated(
            Self.select231(["challengeSelectInfo": Self.options(2) { "mobile\($0)" }]), .v2_3_1,
            [.selectInfoKeyTooLong])
        // 2.2.0 has no such limit.
        let older = textCRes(["acsUiType": .string("02"), "challengeSelectInfo": Self.options(9) { "mobile\($0)" }])
        #expect(ChallengeResponseValidator.audit(older, expecting: expectation(.v2_2_0), strict: true).isConformant)
    }

    @Test("a strict audit reports the select list's enforced finding, not the tolerated limit before it")
    func enforcedBeforeTolerated() {
        let expecting = expectation(.v2_3_1)
        // Nine options, one key repeated: the SDK sends Erro 204; the strict audit names that rule.
        let repeated = Self.select231(["challengeSelectInfo": Self.options(9) { $0 == 8 ? "k0" : "k\($0)" }])
        let audit = ChallengeResponseValidator.audit(repeated, expecting: expecting, strict: true)
        #expect(audit.rules == [.selectInfoDuplicateKey], "\(audit.findings)")
        #expect(throws: ProtocolViolation.self) {
            try ChallengeResponseValidator.validate(repeated, expecting: expecting)
        }
        // A six-character key beside a key with a comma: the comma (Erro 203) is the finding.
        let comma = Self.select231(["challengeSelectInfo": Self.options(2) { $0 == 0 ? "mobile" : "a,b" }])
        #expect(
            ChallengeResponseValidator.audit(comma, expecting: expecting, strict: true).rules == [.selectInfoComma])
    }

    @Test("fields the version, the UI type or a final CRes forbids: a rule each, tolerated")
    func forbiddenFields() {
        let final: JSONObject = [
            "threeDSServerTransID": .string(ids.threeDSServerTransID), "acsTransID": .string(ids.acsTransID),
            "sdkTransID": .string(ids.sdkTransID), "acsCounterAtoS": .string("000"), "messageType": .string("CRes"),
            "messageVersion": .string("2.2.0"), "challengeCompletionInd": .string("Y"), "transStatus": .string("Y"),
            "challengeInfoHeader": .string("Done"),
        ]
        expectTolerated(final, .v2_2_0, [.finalScreenField])
        let box: JSONValue = .object(["challengeDataEntryLabel": .string("Code")])
        expectTolerated(textCRes(["challengeEntryBox": box]), .v2_2_0, [.fieldNotInVersion])
        expectTolerated(
            textCRes(["challengeAddInfo": .string("More")], version: "2.1.0"), .v2_1_0, [.fieldNotInVersion])
        let text231 = textCRes(
            ["challengeInfoLabel": nil, "challengeEntryBox": box, "whitelistingInfoText": .string("Trust?")],
            version: "2.3.1")
        expectTolerated(text231, .v2_3_1, [.fieldNotInVersion])
        expectTolerated(
            textCRes(["acsUiType": .string("02"), "challengeSelectInfo": Self.options(2)]).merging(
                ["resendInformationLabel": .string("Send again")]), .v2_2_0, [.screenFieldNotAllowed])
    }

    @Test("an http Bridging app link: its own rule, tolerated (the link is not offered)")
    func bridgingLink() throws {
        let bridging: JSONValue = .array([
            .object([
                "name": .string("Bridging"), "id": .string(Bridging.id), "criticalityIndicator": .bool(false),
                "data": .object([
                    "version": .string("2.0"),
                    "challengeData": .object([
                        "oobAppURL": .string("http://bank.example/app"), "oobAppLabel": .string("Open the app"),
                    ]),
                ]),
            ])
        ])
        let object = textCRes(
            ["acsUiType": .string("04"), "oobContinueLabel": .string("Continue"), "messageExtension": bridging])
        expectTolerated(object, .v2_2_0, [.bridgingAppURLNotHTTPS], bridging: true)
        #expect(ConformanceRule.bridgingAppURLNotHTTPS.field == "messageExtension.Bridging.challengeData.oobAppURL")
    }

    @Test("an app link found broken: no second finding for the continue label it replaced")
    func noFollowOnFinding() {
        let object = textCRes(
            [
                "acsUiType": .string("04"), "challengeInfoLabel": nil, "submitAuthenticationLabel": nil,
                "oobAppURL": .string("http://bank.example/approve"), "oobAppLabel": .string("Open the app"),
            ], version: "2.3.1")
        let audit = ChallengeResponseValidator.audit(object, expecting: expectation(.v2_3_1))
        #expect(audit.rules == [.oobAppURLNotHTTPS], "\(audit.findings)")
        let unoffered = ChallengeResponseValidator.audit(
            object,
            expecting: ChallengeResponseExpectation(identifiers: ids, messageVersion: .v2_3_1, acsCounter: 0))
        #expect(unoffered.rules == [.oobAppNotOffered], "\(unoffered.findings)")
    }

    @Test("every rule has a definition; the tolerated ones say why")
    func definitions() {
        for rule in ConformanceRule.allCases {
            #expect(rule.isDefined, "\(rule) has no definition")
            if let tolerance = rule.tolerance { #expect(tolerance.count > 20, "\(rule)") }
        }
        let tolerated = ConformanceRule.allCases.filter { $0.tolerance != nil }
        #expect(
            Set(tolerated) == [
                .selectInfoTooMany, .selectInfoKeyTooLong, .fieldNotInVersion, .screenFieldNotAllowed,
                .finalScreenField, .bridgingAppURLNotHTTPS,
            ])
    }

    /// A CRes JWE under the channel's ACS→SDK key, with a header of our choosing.
    static func decryptFailure(
        _ plaintext: [UInt8] = Array(#"{"messageType":"CRes"}"#.utf8), keyID: String = ids.acsTransID,
        encryption: ContentEncryption = .a128cbcHS256, edit: (inout [String]) -> Void = { _ in }
    ) throws -> ConformanceFinding? {
        let keys = ChannelKeys(sharedSecret: Array(repeating: 7, count: 32), sdkReferenceNumber: "3DS_LOA_SDK_TEST")
        let compact = try JWE.encrypt(
            plaintext, to: .direct(keys.acsToSDK(encryption)), encryption: encryption, keyID: keyID)
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        edit(&parts)
        let decrypter = try JWE.DirectDecrypter(
            keys: keys.acsToSDKKeys, expecting: .init(keyID: .exactly(ids.acsTransID)))
        do {
            let bytes = try decrypter.decrypt(parts.joined(separator: ".")).plaintext
            switch Result(catching: { try JSONParser().parse(bytes) }) {
            case .success(.object): return nil
            case .success: return .payload(nil)
            case .failure(let error): return .payload(error)
            }
        } catch {
            return .channel(error)
        }
    }

    static func header(_ text: String) -> String { Base64.urlEncode(Array(text.utf8)) }

    @Test("each channel failure under its own rule: kid, enc, alg, header, duplicate member, tag, payload")
    func channelFailures() throws {
        #expect(try Self.decryptFailure(keyID: "another-transaction")?.rule == .channelKeyID)
        let kid = ids.acsTransID
        #expect(
            try Self.decryptFailure { $0[0] = Self.header(#"{"alg":"dir","enc":"A256GCM","kid":"\#(kid)"}"#) }?.rule
                == .channelEncryption)
        #expect(
            try Self.decryptFailure {
                $0[0] = Self.header(#"{"alg":"RSA-OAEP-256","enc":"A128CBC-HS256","kid":"\#(kid)"}"#)
            }?
            .rule == .channelAlgorithm)
        #expect(
            try Self.decryptFailure {
                $0[0] = Self.header(#"{"alg":"dir","enc":"A128CBC-HS256","kid":"\#(kid)","kid":"\#(kid)"}"#)
            }?.rule == .channelDuplicateMember)
        #expect(
            try Self.decryptFailure {
                $0[0] = Self.header(#"{"alg":"dir","enc":"A128CBC-HS256","kid":"\#(kid)","zip":"DEF"}"#)
            }?.rule == .channelHeader)
        let tag = try Self.decryptFailure { parts in
            var bytes = (try? Base64.urlDecode(parts[4])) ?? []
            bytes[0] ^= 1
            parts[4] = Base64.urlEncode(bytes)
        }
        #expect(tag?.rule == .channelTag && tag?.errorCode == .decryptionFailure)
        #expect(tag?.errorDetail == "Data Decryption Failure")
        #expect(try Self.decryptFailure { $0.removeLast() }?.rule == .channelFormat)
        let duplicate = try Self.decryptFailure(Array(#"{"a":"1","a":"2"}"#.utf8))
        #expect(duplicate?.rule == .payloadDuplicateMember && duplicate?.errorCode == .duplicateElement)
        #expect(try Self.decryptFailure(Array("[1]".utf8))?.rule == .payloadNotJSON)
        #expect(ConformanceFinding.plaintextResponse.rule == .channelPlaintext)
    }
}

extension JSONObject {
    fileprivate func merging(_ changes: [String: JSONValue]) -> JSONObject {
        var object = self
        for (name, value) in changes { object[name] = value }
        return object
    }
}
