import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// The CReq reader: every CReq the SDK's builder writes reads back as what it said, in each version; each malformed
/// CReq is refused with its code and field.
@Suite("Reading a CReq")
struct ReceivedChallengeRequestTests {
    static let ids = TransactionIdentifiers(
        threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
        acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
        sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

    static func builder(_ version: MessageVersion, appURL: String? = "https://merchant.example/return")
        -> ChallengeRequestBuilder
    {
        ChallengeRequestBuilder(
            identifiers: ids, messageVersion: version, requestorAppURL: appURL, oobAppURLIndicator: .supported)
    }

    static func screen(_ uiType: UIType, _ version: MessageVersion) -> ChallengeScreen {
        ChallengeScreen(uiType: uiType, messageVersion: version)
    }

    @Test("the first CReq of each version: the version, IDs, counter, app URL and oobAppURLInd, no action")
    func firstRequest() throws {
        for version in MessageVersion.supported {
            let object = try Self.builder(version).request(counter: 0, answer: nil)
            let read = try ReceivedChallengeRequest(reading: object)
            #expect(read.messageVersion == version)
            #expect(read.identifiers == Self.ids)
            #expect(read.counter == 0)
            #expect(read.isFirst && read.action == nil)
            #expect(read.requestorAppURL == (version.carriesRequestorAppURL ? "https://merchant.example/return" : nil))
            #expect(read.oobAppURLIndicator == (version.carriesOOBAppURLIndicator ? .supported : nil))
            // 2.2.0 announces Bridging: its extension is kept for Bridging's reader.
            #expect((read.messageExtension != nil) == version.carriesBridging, "\(version)")
        }
    }

    @Test("each action the builder writes reads back as that action, in each version that has it")
    func actions() throws {
        for version in MessageVersion.supported {
            let builder = Self.builder(version)
            func read(_ answer: ChallengeAnswer, _ uiType: UIType) throws -> ReceivedChallengeRequest {
                try ReceivedChallengeRequest(
                    reading: builder.request(counter: 7, answer: answer, answering: Self.screen(uiType, version)))
            }
            #expect(try read(.init(.cancel), .text).action == .cancel(.cardholderCancelled))
            #expect(try read(.init(.cancel), .text).action?.isCancel == true)
            #expect(try read(.init(.submitText("123456")), .text).action == .dataEntry("123456", second: nil))
            #expect(
                try read(.init(.submitSelection(["q1", "q3"])), .multiSelect).action == .dataEntry("q1,q3", second: nil)
            )
            #expect(try read(.init(.resend), .text).action == .resend)
            #expect(try read(.init(.submitHTML("otp=1")), .html).action == .html("otp=1", oobContinue: nil))
            let oob = try read(.init(.oobContinue()), .outOfBand)
            #expect(oob.action == .oobContinue(version.carriesOOBAppURLIndicator ? .cardholderContinued : nil))
            #expect(oob.counter == 7)
            if version.allowsNoEntry { #expect(try read(.init(.submitEmpty), .text).action == .noEntry) }
            guard version == .v2_3_1 else { continue }
            #expect(try read(.init(.informationContinue), .information).action == .informationContinue)
            #expect(try read(.init(.oobContinue(automatic: true)), .outOfBand).action == .oobContinue(.automatic))
            #expect(
                try read(.init(.submitHTML("a=b")), .htmlOutOfBand).action
                    == .html("a=b", oobContinue: .cardholderContinued))
            var boxes = Self.screen(.text, version)
            boxes.entryBoxes = [.init(label: "Code"), .init(label: "Year")]
            let two = try ReceivedChallengeRequest(
                reading: builder.request(
                    counter: 1, answer: .init(.submitText("123456", second: "1990")), answering: boxes))
            #expect(two.action == .dataEntry("123456", second: "1990"))
        }
    }

    @Test("the consent answers and the app status are read in the version's fields")
    func consents() throws {
        var screen = Self.screen(.outOfBand, .v2_3_1)
        screen.whitelistingText = "Trust this merchant?"
        screen.deviceBindingText = "Bind this device?"
        let answer = ChallengeAnswer(.oobContinue(), whitelisting: true, deviceBinding: false, oobAppOpenFailed: true)
        let read = try ReceivedChallengeRequest(
            reading: Self.builder(.v2_3_1).request(counter: 2, answer: answer, answering: screen))
        #expect(read.trustAnswer == .yes && read.deviceBindingAnswer == YesNoIndicator.no)
        #expect(read.oobAppStatus == .openFailed)
        var older = Self.screen(.text, .v2_2_0)
        older.whitelistingText = "Trust this merchant?"
        let whitelisting = try ReceivedChallengeRequest(
            reading: Self.builder(.v2_2_0).request(
                counter: 2, answer: .init(.submitText("1"), whitelisting: false), answering: older))
        #expect(whitelisting.trustAnswer == YesNoIndicator.no)
    }

    /// A valid later CReq of `version` answering a text screen with a code, changed by `edit`.
    static func malformed(_ version: MessageVersion, _ edit: (inout JSONObject) -> Void) throws -> JSONObject {
        var object = try builder(version).request(
            counter: 1, answer: .init(.submitText("123456")), answering: screen(.text, version))
        edit(&object)
        return object
    }

    /// Each malformed case: the version, the change, the code and field it is refused with.
    static let cases: [(MessageVersion, String, @Sendable (inout JSONObject) -> Void, ProtocolErrorCode, String)] = [
        (.v2_2_0, "not a CReq", { $0["messageType"] = .string("CRes") }, .messageReceivedInvalid, "messageType"),
        (.v2_2_0, "no messageType", { $0["messageType"] = nil }, .requiredElementMissing, "messageType"),
        (
            .v2_2_0, "unknown version", { $0["messageVersion"] = .string("2.9.0") }, .messageVersionNotSupported,
            "messageVersion"
        ),
        (.v2_1_0, "no version", { $0["messageVersion"] = nil }, .requiredElementMissing, "messageVersion"),
        (.v2_2_0, "version a number", { $0["messageVersion"] = .number("2") }, .invalidFormat, "messageVersion"),
        (.v2_3_1, "ID not a UUID", { $0["acsTransID"] = .string("x") }, .invalidFormat, "acsTransID"),
        (.v2_3_1, "no sdkTransID", { $0["sdkTransID"] = nil }, .requiredElementMissing, "sdkTransID"),
        (.v2_2_0, "counter 256", { $0["sdkCounterStoA"] = .string("256") }, .invalidFormat, "sdkCounterStoA"),
        (.v2_2_0, "counter 2 digits", { $0["sdkCounterStoA"] = .string("01") }, .invalidFormat, "sdkCounterStoA"),
        (.v2_1_0, "no counter", { $0["sdkCounterStoA"] = nil }, .requiredElementMissing, "sdkCounterStoA"),
        (
            .v2_1_0, "app URL in 2.1.0", { $0["threeDSRequestorAppURL"] = .string("https://a.example") },
            .invalidFormat, "threeDSRequestorAppURL"
        ),
        (
            .v2_2_0, "app URL of 257",
            { $0["threeDSRequestorAppURL"] = .string("https://" + String(repeating: "a", count: 249)) }, .invalidFormat,
            "threeDSRequestorAppURL"
        ),
        (.v2_2_0, "a 2.3.1 field in 2.2.0", { $0["oobAppURLInd"] = .string("01") }, .invalidFormat, "oobAppURLInd"),
        (
            .v2_1_0, "whitelisting in 2.1.0", { $0["whitelistingDataEntry"] = .string("Y") }, .invalidFormat,
            "whitelistingDataEntry"
        ),
        (
            .v2_3_1, "whitelisting in 2.3.1", { $0["whitelistingDataEntry"] = .string("Y") }, .invalidFormat,
            "whitelistingDataEntry"
        ),
        (.v2_3_1, "no oobAppURLInd", { $0["oobAppURLInd"] = nil }, .requiredElementMissing, "oobAppURLInd"),
        (.v2_3_1, "oobAppURLInd 1 digit", { $0["oobAppURLInd"] = .string("1") }, .invalidFormat, "oobAppURLInd"),
        (
            .v2_3_1, "oobAppURLInd reserved", { $0["oobAppURLInd"] = .string("42") }, .reservedValueNotRecognised,
            "oobAppURLInd"
        ),
        (.v2_2_0, "two actions", { $0["resendChallenge"] = .string("Y") }, .invalidFormat, "resendChallenge"),
        (
            .v2_2_0, "entry of 46 bytes", { $0["challengeDataEntry"] = .string(String(repeating: "1", count: 46)) },
            .invalidFormat, "challengeDataEntry"
        ),
        (.v2_2_0, "empty entry", { $0["challengeDataEntry"] = .string("") }, .invalidFormat, "challengeDataEntry"),
        (
            .v2_2_0, "entry a number", { $0["challengeDataEntry"] = .number("123456") }, .invalidFormat,
            "challengeDataEntry"
        ),
        (
            .v2_3_1, "second entry alone",
            {
                $0["challengeDataEntry"] = nil; $0["challengeDataEntryTwo"] = .string("1")
            }, .requiredElementMissing, "challengeDataEntry"
        ),
        (
            .v2_3_1, "second entry of 46", { $0["challengeDataEntryTwo"] = .string(String(repeating: "1", count: 46)) },
            .invalidFormat, "challengeDataEntryTwo"
        ),
        (
            .v2_1_0, "no entry in 2.1.0",
            {
                $0["challengeDataEntry"] = nil; $0["challengeNoEntry"] = .string("Y")
            }, .invalidFormat, "challengeNoEntry"
        ),
        (
            .v2_2_0, "no entry N",
            {
                $0["challengeDataEntry"] = nil; $0["challengeNoEntry"] = .string("N")
            }, .invalidFormat, "challengeNoEntry"
        ),
        (
            .v2_2_0, "resend N",
            {
                $0["challengeDataEntry"] = nil; $0["resendChallenge"] = .string("N")
            }, .invalidFormat, "resendChallenge"
        ),
        (
            .v2_3_1, "add code N",
            {
                $0["challengeDataEntry"] = nil; $0["challengeAddCode"] = .string("N")
            }, .invalidFormat, "challengeAddCode"
        ),
        (
            .v2_3_1, "info continue Y",
            {
                $0["challengeDataEntry"] = nil; $0["infoContinueIndicator"] = .string("Y")
            }, .invalidFormat, "infoContinueIndicator"
        ),
        (
            .v2_2_0, "HTML of 257",
            {
                $0["challengeDataEntry"] = nil;
                $0["challengeHTMLDataEntry"] = .string(String(repeating: "a", count: 257))
            }, .invalidFormat, "challengeHTMLDataEntry"
        ),
        (
            .v2_2_0, "oobContinue 01 in 2.2.0",
            {
                $0["challengeDataEntry"] = nil; $0["oobContinue"] = .string("01")
            }, .invalidFormat, "oobContinue"
        ),
        (
            .v2_3_1, "oobContinue true in 2.3.1",
            {
                $0["challengeDataEntry"] = nil; $0["oobContinue"] = .bool(true)
            }, .invalidFormat, "oobContinue"
        ),
        (
            .v2_3_1, "form data with oobContinue 02",
            {
                $0["challengeDataEntry"] = nil; $0["challengeHTMLDataEntry"] = .string("a=b");
                $0["oobContinue"] = .string("02")
            }, .invalidFormat, "oobContinue"
        ),
        (
            .v2_2_0, "form data with oobContinue in 2.2.0",
            {
                $0["challengeDataEntry"] = nil; $0["challengeHTMLDataEntry"] = .string("a=b");
                $0["oobContinue"] = .bool(true)
            }, .invalidFormat, "challengeHTMLDataEntry"
        ),
        (
            .v2_2_0, "cancel of 1 digit",
            {
                $0["challengeDataEntry"] = nil; $0["challengeCancel"] = .string("1")
            }, .invalidFormat, "challengeCancel"
        ),
        (
            .v2_3_1, "cancel with a consent",
            {
                $0["challengeDataEntry"] = nil; $0["challengeCancel"] = .string("01");
                $0["trustListDataEntry"] = .string("Y")
            }, .invalidFormat, "trustListDataEntry"
        ),
        (
            .v2_3_1, "consent not Y/N", { $0["deviceBindingDataEntry"] = .string("01") }, .invalidFormat,
            "deviceBindingDataEntry"
        ),
        (.v2_3_1, "app status of 3", { $0["oobAppStatus"] = .string("001") }, .invalidFormat, "oobAppStatus"),
        (
            .v2_2_0, "extension not an array", { $0["messageExtension"] = .object([:]) }, .invalidFormat,
            "messageExtension"
        ),
        (.v2_2_0, "extensions empty", { $0["messageExtension"] = .array([]) }, .invalidFormat, "messageExtension"),
        (
            .v2_2_0, "11 extensions in 2.2.0",
            { $0["messageExtension"] = .array(Array(repeating: .object([:]), count: 11)) }, .invalidFormat,
            "messageExtension"
        ),
        (
            .v2_3_1, "an extension not an object", { $0["messageExtension"] = .array([.string("x")]) }, .invalidFormat,
            "messageExtension"
        ),
    ]

    @Test("each malformed CReq is refused with its code, naming its field")
    func malformedRequests() throws {
        for (version, name, edit, code, field) in Self.cases {
            let object = try Self.malformed(version, edit)
            #expect(throws: ProtocolViolation.self, "\(name)") { try ReceivedChallengeRequest(reading: object) }
            do {
                _ = try ReceivedChallengeRequest(reading: object)
            } catch {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.detail == field, "\(name): \(error)")
            }
        }
        // 15 extensions are 2.3.1's limit, and a 2.3.1 CReq may carry them.
        let fifteen = try Self.malformed(.v2_3_1) {
            $0["messageExtension"] = .array(Array(repeating: .object([:]), count: 15))
        }
        #expect(try ReceivedChallengeRequest(reading: fifteen).messageExtension?.count == 15)
    }
}
