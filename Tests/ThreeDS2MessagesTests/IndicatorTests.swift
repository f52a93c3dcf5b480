import Testing
import ThreeDS2JOSE

@testable import ThreeDS2Messages

@Suite("Protocol indicators: Y/N closed, the extensible codes open")
struct IndicatorTests {
    @Test("Y/N reads only Y and N, and writes them as JSON strings")
    func yesNo() {
        #expect(YesNoIndicator(true) == .yes && YesNoIndicator(false) == .no)
        #expect(YesNoIndicator(JSONValue.string("Y")) == .yes && YesNoIndicator(JSONValue.string("N")) == .no)
        #expect(YesNoIndicator(JSONValue.string("y")) == nil && YesNoIndicator(JSONValue.bool(true)) == nil)
        #expect(YesNoIndicator(nil as JSONValue?) == nil)
        #expect(YesNoIndicator.yes.json == .string("Y") && YesNoIndicator.no.isYes == false)
    }

    @Test("challengeCancel, oobContinue, oobAppStatus and deviceChannel keep a code they do not know")
    func openCodes() {
        #expect(ChallengeCancelIndicator.cardholderCancelled.json == .string("01"))
        #expect(ChallengeCancelIndicator(rawValue: "85").rawValue == "85")
        #expect(ChallengeCancelIndicator.timedOutAtSDK.description == "08")
        #expect(OOBContinueIndicator.cardholderContinued.json == .string("01"))
        #expect(OOBContinueIndicator.automatic.json == .string("02"))
        #expect(OOBContinueIndicator(rawValue: "07") != .automatic)
        #expect(DeviceChannel.app.rawValue == "01" && DeviceChannel(rawValue: "81").description == "81")
        #expect(OOBAppStatus.openFailed.json == .string("01") && OOBAppStatus(rawValue: "02") != .openFailed)
    }

    @Test("the CReq builder writes the typed values: cancel 01, Y for the one-letter actions")
    func builderUsesTypes() throws {
        let identifiers = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        let builder = ChallengeRequestBuilder(identifiers: identifiers, messageVersion: .v2_2_0, requestorAppURL: nil)
        let cancel = try builder.request(counter: 1, answer: ChallengeAnswer(.cancel), answering: nil)
        #expect(cancel["challengeCancel"] == ChallengeCancelIndicator.cardholderCancelled.json)
        let resend = try builder.request(counter: 1, answer: ChallengeAnswer(.resend), answering: nil)
        #expect(resend["resendChallenge"] == YesNoIndicator.yes.json)
    }
}
