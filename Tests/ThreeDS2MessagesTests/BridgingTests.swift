import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

private let appURL = "https://shop.example/3ds/return"

private func builder(
    _ version: MessageVersion = .v2_2_0, appURL: String? = appURL, indicator: OOBAppURLIndicator = .supported
) -> ChallengeRequestBuilder {
    ChallengeRequestBuilder(
        identifiers: ids, messageVersion: version, requestorAppURL: appURL, oobAppURLIndicator: indicator)
}

/// A Bridging entry as an ACS might write it.
private func bridging(
    version: String? = "1.0", versionBeside: String? = nil, url: String? = "https://bank.example/approve?t=1",
    label: String? = "Open bank app", critical: Bool = false
) -> JSONValue {
    var challengeData: JSONObject = [:]
    if let url { challengeData["oobAppURL"] = .string(url) }
    if let label { challengeData["oobAppLabel"] = .string(label) }
    var data: JSONObject = ["challengeData": .object(challengeData)]
    if let version { data["version"] = .string(version) }
    var entry: JSONObject = [
        "name": .string("Bridging"), "id": .string("A000000802-004"), "criticalityIndicator": .bool(critical),
        "data": .object(data),
    ]
    if let versionBeside { entry["version"] = .string(versionBeside) }
    return .object(entry)
}

private func oobCRes(_ extensions: [JSONValue]?, version: String = "2.2.0") -> JSONObject {
    var object = textCRes(
        [
            "acsUiType": .string("04"), "challengeInfoLabel": nil, "submitAuthenticationLabel": nil,
            "oobContinueLabel": .string("Continue"),
        ], version: version)
    if let extensions { object["messageExtension"] = .array(extensions) }
    return object
}

private func screen(_ object: JSONObject, version: MessageVersion = .v2_2_0, announced: Bool = true) throws
    -> ChallengeScreen
{
    let expectation = ChallengeResponseExpectation(
        identifiers: ids, messageVersion: version, acsCounter: 0, opensOOBApps: true, announcedBridging: announced)
    let response = try ChallengeResponseValidator.validate(object, expecting: expectation)
    expectConformant(object, expectation, reading: response)
    guard case .screen(let screen) = response else { throw ProtocolViolation(.invalidFormat, detail: "final") }
    return screen
}

@Suite("Bridging message extension (2.2.0)")
struct BridgingTests {
    @Test("the first 2.2.0 CReq announces Bridging exactly as the reference shows it")
    func announcement() throws {
        let first = try builder().request(counter: 0, answer: nil)
        let expected: JSONValue = .array([
            .object([
                "name": .string("Bridging"), "id": .string("A000000802-004"), "criticalityIndicator": .bool(false),
                "data": .object([
                    "version": .string("1.0"), "challengeData": .object(["oobAppURLInd": .string("01")]),
                ]),
            ])
        ])
        #expect(first["messageExtension"] == expected)
        #expect(first["threeDSRequestorAppURL"] == .string(appURL) && first["oobAppURLInd"] == nil)
        #expect(builder().announcesBridging)
    }

    @Test(
        "never in 2.1.0 or 2.3.1, without a requestor app URL, or when the app cannot or may not open the bank's app",
        arguments: [
            (MessageVersion.v2_1_0, appURL as String?, OOBAppURLIndicator.supported),
            (.v2_3_1, appURL, .supported), (.v2_2_0, nil, .supported), (.v2_2_0, "", .supported),
            (.v2_2_0, appURL, .notSupportedByDevice), (.v2_2_0, appURL, .notSupportedByRequestor),
        ])
    func notSent(version: MessageVersion, url: String?, indicator: OOBAppURLIndicator) throws {
        let builder = builder(version, appURL: url, indicator: indicator)
        #expect(!builder.announcesBridging)
        #expect(try builder.request(counter: 0, answer: nil)["messageExtension"] == nil)
    }

    @Test("a CRes's Bridging link offers the open-app button; its version is read from either place")
    func appLink() throws {
        let inside = try screen(oobCRes([bridging()]))
        #expect(inside.oobAppURL == "https://bank.example/approve?t=1" && inside.oobAppLabel == "Open bank app")
        #expect(inside.bridging?.version == .v1_0)
        let beside = try screen(oobCRes([bridging(version: nil, versionBeside: "2.0")]))
        #expect(beside.bridging?.version == .v2_0 && beside.oobAppURL != nil)
        // data.version wins when both are there.
        #expect(try screen(oobCRes([bridging(version: "1.0", versionBeside: "2.0")])).bridging?.version == .v1_0)
    }

    @Test(
        "no button: http or host-less link, a missing link or label, an unknown version, or Bridging not announced")
    func noAppLink() throws {
        for entry in [
            bridging(url: "http://bank.example/a"), bridging(url: "https:///a"), bridging(url: nil),
            bridging(label: nil), bridging(label: ""), bridging(version: "9.9"), bridging(version: nil),
        ] {
            let shown = try screen(oobCRes([entry]))
            #expect(shown.oobAppURL == nil && shown.oobAppLabel == nil, "\(entry)")
        }
        #expect(try screen(oobCRes([bridging(version: "9.9")])).bridging?.unknownVersion == "9.9")
        let unasked = try screen(oobCRes([bridging()]), announced: false)
        #expect(unasked.oobAppURL == nil && unasked.bridging == nil)
        // The reference's CRes is for UI 04; a text screen's Bridging link is not a button.
        let text = try screen(textCRes(["messageExtension": .array([bridging()])]))
        #expect(text.oobAppURL == nil)
    }

    @Test("Bridging marked critical is recognised in 2.2.0; any other critical extension stays 202")
    func critical() throws {
        let shown = try screen(oobCRes([bridging(critical: true)]))
        #expect(shown.oobAppURL != nil)
        let other: JSONValue = .object([
            "name": .string("X"), "id": .string("A000000004-001"), "criticalityIndicator": .bool(true),
            "data": .object([:]),
        ])
        expectViolation(.criticalExtensionNotRecognised, "A000000004-001", oobCRes([bridging(), other]))
    }

    @Test("2.1.0 and 2.3.1 are unchanged: a critical Bridging is 202 there, a non-critical one is ignored")
    func otherVersions() throws {
        for version in ["2.1.0", "2.3.1"] {
            var object = textCRes(["messageExtension": .array([bridging(critical: true)])], version: version)
            if version == "2.3.1" {
                object["challengeInfoLabel"] = nil
                object["challengeEntryBox"] = .object(["challengeDataEntryLabel": .string("Code")])
            }
            expectViolation(.criticalExtensionNotRecognised, "A000000802-004", object, version: version)
        }
        let ignored = oobCRes([bridging()], version: "2.1.0")
        let shown = try screen(ignored, version: .v2_1_0)
        #expect(shown.oobAppURL == nil && shown.bridging == nil)
    }

    @Test("back from the bank's app: oobContinue true and the extension's 02, in the version the ACS answered with")
    func returned() throws {
        var builder = builder()
        let shown = try screen(oobCRes([bridging(version: "2.0")]))
        builder.adoptBridging(try #require(shown.bridging))
        #expect(builder.bridgingVersion == .v2_0)
        let back = try builder.request(
            counter: 1, answer: ChallengeAnswer(.oobContinue(automatic: true)), answering: shown)
        #expect(back["oobContinue"] == .bool(true))
        let entry = try #require(back["messageExtension"]?.arrayValue?.first?.objectValue)
        #expect(entry["criticalityIndicator"] == .bool(false) && entry["id"] == .string(Bridging.id))
        #expect(
            entry["data"]
                == .object([
                    "version": .string("2.0"),
                    "challengeData": .object(["oobAppURLInd": .string("01"), "oobContinue": .string("02")]),
                ]))
        // Pressing continue (a failed open, or approving another way) carries no Bridging, nor oobAppStatus.
        let pressed = try builder.request(
            counter: 1, answer: ChallengeAnswer(.oobContinue(), oobAppOpenFailed: true), answering: shown)
        #expect(pressed["oobContinue"] == .bool(true))
        #expect(pressed["messageExtension"] == nil && pressed["oobAppStatus"] == nil)
    }

    @Test("an ACS version the SDK does not know ends Bridging for the transaction")
    func unknownVersion() throws {
        var builder = builder()
        builder.adoptBridging(try #require(try screen(oobCRes([bridging(version: "3.0")])).bridging))
        #expect(builder.bridgingVersion == nil && !builder.announcesBridging)
        // A builder that never announced does not start because a CRes carried it.
        var silent = ChallengeRequestBuilder(
            identifiers: ids, messageVersion: .v2_2_0, requestorAppURL: nil, oobAppURLIndicator: .supported)
        silent.adoptBridging(try #require(try screen(oobCRes([bridging()])).bridging))
        #expect(silent.bridgingVersion == nil)
    }

    @Test(
        "issue 34: a hostile Bridging label or link is 203 like the 2.3.1 field: OSC 52, OSC 0, screen clear, bidi",
        arguments: [
            ("\u{1B}]52;c;cm0gLXJmIH4=\u{07}Open", "oobAppLabel"), ("\u{1B}]0;pwned\u{07}Open", "oobAppLabel"),
            ("\u{1B}[2J\u{1B}[HOpen", "oobAppLabel"), ("Open \u{202E}ppa knab", "oobAppLabel"),
            ("Open\u{9B}31m", "oobAppLabel"), ("Open\u{2066}x\u{2069}", "oobAppLabel"),
            ("https://bank.example/\u{1B}]0;t\u{07}", "oobAppURL"),
        ])
    func hostileText(text: String, field: String) {
        let entry =
            field == "oobAppLabel" ? bridging(label: text) : bridging(url: text)
        do {
            _ = try screen(oobCRes([entry]))
            Issue.record("the hostile \(field) was accepted")
        } catch let error as ProtocolViolation {
            #expect(error.code == .invalidFormat)
            #expect(error.detail == "messageExtension.Bridging.challengeData.\(field)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("issue 34: the label's length is counted in Unicode scalars as the core fields are, not grapheme clusters")
    func scalarLength() throws {
        // 30 grapheme clusters, 60 scalars: accepted before (String.count 30), more than 45 characters now.
        let stacked = String(repeating: "e\u{301}", count: 30)
        #expect(throws: ProtocolViolation.self) { try screen(oobCRes([bridging(label: stacked)])) }
        let fits = String(repeating: "x", count: 45)
        #expect(try screen(oobCRes([bridging(label: fits)])).oobAppLabel == fits)
    }

    @Test("issue 34: a link with user information (its real host hidden after the @) offers no button")
    func userInfo() throws {
        for link in ["https://bank.example@evil.example/approve", "https://bank.example:pin@evil.example/"] {
            let shown = try screen(oobCRes([bridging(url: link)]))
            #expect(shown.oobAppURL == nil && shown.oobAppLabel == nil, "\(link)")
            #expect(!ChallengeResponseValidator.isHTTPSURL(link))
        }
        #expect(ChallengeResponseValidator.isHTTPSURL("https://bank.example/approve?user=a@b"))
    }

    @Test("issue 34: right-to-left labels (Arabic, Hebrew, with LRM/RLM) stay allowed and shown as sent")
    func rightToLeft() throws {
        for label in ["افتح تطبيق البنك", "פתח את אפליקציית הבנק", "\u{200F}פתח\u{200E} app", "\u{200E}افتح\u{200F}"] {
            let shown = try screen(oobCRes([bridging(label: label)]))
            #expect(shown.oobAppLabel == label)
        }
    }
}
