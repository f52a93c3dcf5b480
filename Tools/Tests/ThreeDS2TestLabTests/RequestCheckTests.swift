import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

@testable import ThreeDS2TestLab

/// The TestLab ACS's CReq check refuses what a conforming ACS refuses, so the end-to-end tests that pass through it
/// prove the SDK's CReqs conform.
@Suite("TestLab ACS: CReq checks")
struct RequestCheckTests {
    let base: JSONObject = [
        "threeDSServerTransID": .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e"),
        "acsTransID": .string("d7c1ee99-9478-44a6-b1f2-391e29c6b340"),
        "sdkTransID": .string("b2385523-a66c-4907-ac3c-91848e8c0067"),
        "messageType": .string("CReq"), "messageVersion": .string("2.3.1"), "sdkCounterStoA": .string("000"),
    ]

    func request(_ changes: [String: JSONValue?]) -> JSONObject {
        var object = base
        for (name, value) in changes { object[name] = value }
        return object
    }

    /// A refusal as the tests compare it: the Erro code and the field (a violation's equality is on the code alone).
    struct Refusal: Equatable {
        let code: ProtocolErrorCode
        let field: String
    }

    /// The refusal of `request` stated in `version` (its `messageVersion` set to it) in a transaction of `version`.
    func failure(_ version: MessageVersion, previous: JSONObject?, _ request: JSONObject) -> Refusal? {
        var request = request
        request["messageVersion"] = .string(version.rawValue)
        return failure(transaction: version, previous: previous, request)
    }

    func failure(transaction version: MessageVersion, previous: JSONObject?, _ request: JSONObject) -> Refusal? {
        do {
            try RequestCheck(version: version, previous: previous).check(request)
            return nil
        } catch {
            return Refusal(code: error.code, field: error.detail)
        }
    }

    @Test("a CReq is read by the messages layer first: another version than the transaction's, a bad ID are 203")
    func readFirst() {
        let ind: JSONValue = .string("01")
        var request = request(["oobAppURLInd": ind])
        #expect(failure(transaction: .v2_3_1, previous: nil, request) == nil)
        #expect(
            failure(transaction: .v2_2_0, previous: nil, request)
                == .init(code: .invalidFormat, field: "messageVersion"))
        request["acsTransID"] = .string("b")
        #expect(
            failure(transaction: .v2_3_1, previous: nil, request) == .init(code: .invalidFormat, field: "acsTransID"))
        // The typed reading is what the script gets: the action and the app indicator.
        var answer = self.request(["oobAppURLInd": ind, "challengeCancel": .string("01")])
        answer["sdkCounterStoA"] = .string("001")
        let read = try? RequestCheck(version: .v2_3_1, previous: ["acsUiType": .string("01")]).check(answer)
        #expect(read?.action == .cancel(.cardholderCancelled) && read?.oobAppURLIndicator == .supported)
        #expect(read?.counter == 1)
    }

    @Test("the first 2.3.1 CReq without oobAppURLInd is 201; a reserved value 207; a bad shape 203")
    func indicator() {
        #expect(failure(.v2_3_1, previous: nil, base) == .init(code: .requiredElementMissing, field: "oobAppURLInd"))
        #expect(
            failure(.v2_3_1, previous: nil, request(["oobAppURLInd": .string("04")]))
                == .init(code: .reservedValueNotRecognised, field: "oobAppURLInd"))
        #expect(
            failure(.v2_3_1, previous: nil, request(["oobAppURLInd": .bool(true)]))
                == .init(code: .invalidFormat, field: "oobAppURLInd"))
        #expect(failure(.v2_3_1, previous: nil, request(["oobAppURLInd": .string("01")])) == nil)
        #expect(
            failure(.v2_2_0, previous: nil, request(["oobAppURLInd": .string("01")]))
                == .init(code: .invalidFormat, field: "oobAppURLInd"))
    }

    @Test("consents: Y/N required after the question (201 missing, 203 for 01), not allowed unasked or with cancel")
    func consents() {
        let asked: JSONObject = ["acsUiType": .string("01"), "trustListInfoText": .string("T?")]
        let answered = request(["oobAppURLInd": .string("01"), "challengeDataEntry": .string("1")])
        #expect(
            failure(.v2_3_1, previous: asked, answered)
                == .init(code: .requiredElementMissing, field: "trustListDataEntry"))
        var old = answered
        old["trustListDataEntry"] = .string("01")
        #expect(failure(.v2_3_1, previous: asked, old) == .init(code: .invalidFormat, field: "trustListDataEntry"))
        var good = answered
        good["trustListDataEntry"] = .string("N")
        #expect(failure(.v2_3_1, previous: asked, good) == nil)
        #expect(
            failure(.v2_3_1, previous: ["acsUiType": .string("01")], good)
                == .init(code: .invalidFormat, field: "trustListDataEntry"))
        var cancel = request(["oobAppURLInd": .string("01"), "challengeCancel": .string("01")])
        #expect(failure(.v2_3_1, previous: asked, cancel) == nil)
        cancel["trustListDataEntry"] = .string("N")
        #expect(failure(.v2_3_1, previous: asked, cancel) == .init(code: .invalidFormat, field: "trustListDataEntry"))
    }

    @Test("one action per CReq, the one the screen allows; oobContinue typed by version; UI 06 pairs")
    func actions() {
        let text: JSONObject = ["acsUiType": .string("01")]
        let ind: [String: JSONValue?] = ["oobAppURLInd": .string("01")]
        func with(_ more: [String: JSONValue?]) -> JSONObject { request(ind.merging(more) { $1 }) }
        #expect(
            failure(
                .v2_3_1, previous: text, with(["challengeDataEntry": .string("1"), "resendChallenge": .string("Y")]))?
                .code
                == .invalidFormat)
        #expect(
            failure(.v2_3_1, previous: text, with([:]))
                == .init(code: .requiredElementMissing, field: "challengeDataEntry"))
        #expect(failure(.v2_3_1, previous: text, with(["oobContinue": .string("01")]))?.field == "oobContinue")
        #expect(
            failure(.v2_3_1, previous: ["acsUiType": .string("02")], with(["resendChallenge": .string("Y")])) != nil)
        let oob: JSONObject = ["acsUiType": .string("04")]
        #expect(failure(.v2_3_1, previous: oob, with(["oobContinue": .bool(true)]))?.field == "oobContinue")
        #expect(failure(.v2_3_1, previous: oob, with(["oobContinue": .string("03")]))?.field == "oobContinue")
        #expect(failure(.v2_3_1, previous: oob, with(["oobContinue": .string("02")])) == nil)
        #expect(failure(.v2_2_0, previous: oob, request(["oobContinue": .string("01")]))?.field == "oobContinue")
        #expect(failure(.v2_2_0, previous: oob, request(["oobContinue": .bool(true)])) == nil)
        let htmlOOB: JSONObject = ["acsUiType": .string("06")]
        #expect(failure(.v2_3_1, previous: htmlOOB, with(["oobContinue": .string("01")]))?.field == "oobContinue")
        #expect(
            failure(
                .v2_3_1, previous: htmlOOB,
                with(["oobContinue": .string("01"), "challengeHTMLDataEntry": .string("a=1")])) == nil)
        #expect(
            failure(
                .v2_3_1, previous: htmlOOB,
                with(["oobContinue": .string("02"), "challengeHTMLDataEntry": .string("a=1")]))?.field == "oobContinue")
        #expect(failure(.v2_3_1, previous: text, with(["challengeAddCode": .string("Y")]))?.field == "challengeAddCode")
        #expect(
            failure(
                .v2_3_1, previous: ["acsUiType": .string("01"), "challengeAddLabel": .string("A")],
                with(["challengeAddCode": .string("Y")])) == nil)
        #expect(
            failure(
                .v2_3_1, previous: text,
                with(["challengeDataEntry": .string("1"), "challengeDataEntryTwo": .string("2")]))?
                .field == "challengeDataEntryTwo")
        #expect(
            failure(.v2_3_1, previous: oob, with(["oobContinue": .string("01"), "oobAppStatus": .string("02")]))?.field
                == "oobAppStatus")
    }
    @Test("Bridging: 2.2.0 only, non-critical, known version, with an app URL; later only the continue after the app")
    func bridging() {
        let url: JSONValue = .string("https://shop.example/return")
        let announce = Bridging.requestExtension(version: .v1_0, returnedFromApp: false)
        let back = Bridging.requestExtension(version: .v1_0, returnedFromApp: true)
        func v220(_ changes: [String: JSONValue?]) -> JSONObject {
            var object = request(changes)
            object["messageVersion"] = .string("2.2.0")
            return object
        }
        let refused = Refusal(code: .invalidFormat, field: "messageExtension")
        #expect(
            failure(
                .v2_2_0, previous: nil, v220(["threeDSRequestorAppURL": url, "messageExtension": .array([announce])]))
                == nil)
        // No app URL, 2.1.0, 2.3.1, critical, an unknown version, a continue value in the first CReq.
        #expect(failure(.v2_2_0, previous: nil, v220(["messageExtension": .array([announce])])) == refused)
        #expect(failure(.v2_1_0, previous: nil, v220(["messageExtension": .array([announce])])) == refused)
        #expect(
            failure(
                .v2_3_1, previous: nil,
                request([
                    "oobAppURLInd": .string("01"), "threeDSRequestorAppURL": url,
                    "messageExtension": .array([announce]),
                ])) == refused)
        func edited(_ entry: JSONValue, _ change: (inout JSONObject) -> Void) -> JSONValue {
            var object = entry.objectValue ?? [:]
            change(&object)
            return .object(object)
        }
        let critical = edited(announce) { $0["criticalityIndicator"] = .bool(true) }
        let unknown = edited(announce) {
            $0["data"] = .object(["version": .string("3.0"), "challengeData": .object(["oobAppURLInd": .string("01")])])
        }
        for entry in [critical, unknown, back] {
            #expect(
                failure(
                    .v2_2_0, previous: nil, v220(["threeDSRequestorAppURL": url, "messageExtension": .array([entry])]))
                    == refused)
        }
        // After a CRes whose Bridging linked the app: the continue with 02 passes; other CReqs may not carry it.
        let linked: JSONObject = [
            "acsUiType": .string("04"), "oobContinueLabel": .string("Done"),
            "messageExtension": .array([
                .object([
                    "name": .string("Bridging"), "id": .string(Bridging.id), "criticalityIndicator": .bool(false),
                    "data": .object([
                        "version": .string("1.0"),
                        "challengeData": .object([
                            "oobAppURL": .string("https://bank.example/a"), "oobAppLabel": .string("Open"),
                        ]),
                    ]),
                ])
            ]),
        ]
        let continued = v220([
            "threeDSRequestorAppURL": url, "oobContinue": .bool(true), "messageExtension": .array([back]),
        ])
        #expect(failure(.v2_2_0, previous: linked, continued) == nil)
        var announcedAgain = continued
        announcedAgain["messageExtension"] = .array([announce])
        #expect(failure(.v2_2_0, previous: linked, announcedAgain) == refused)
        let plain: JSONObject = ["acsUiType": .string("04"), "oobContinueLabel": .string("Done")]
        #expect(failure(.v2_2_0, previous: plain, continued) == refused)
        let other = edited(back) {
            $0["data"] = .object([
                "version": .string("2.0"),
                "challengeData": .object(["oobAppURLInd": .string("01"), "oobContinue": .string("02")]),
            ])
        }
        var wrongVersion = continued
        wrongVersion["messageExtension"] = .array([other])
        #expect(failure(.v2_2_0, previous: linked, wrongVersion) == refused)
    }
}
