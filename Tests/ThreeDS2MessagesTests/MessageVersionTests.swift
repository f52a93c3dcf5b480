import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@Suite("Message versions")
struct MessageVersionTests {
    @Test("major.minor.patch in decimal digits only; anything else is not a version")
    func parsing() {
        for good in ["2.1.0", "2.2.0", "2.3.1", "10.0.12"] {
            #expect(MessageVersion(good)?.rawValue == good)
        }
        for bad in [
            "", "2", "2.2", "2.2.0.1", "2..0", ".2.0", "2.2.", "2.2.x", "+2.2.0", "2.2.0 ", "2.2.00000", "٢.٢.٠",
        ] {
            #expect(MessageVersion(bad) == nil, "\(bad) parsed")
        }
        #expect(MessageVersion("2.2.0") == .v2_2_0)
        #expect(MessageVersion("2.2.00") != .v2_2_0, "the wire text differs")
        #expect(MessageVersion("2.4.0")?.isSupported == false)
        #expect(MessageVersion.supported.allSatisfy { $0.isSupported })
    }

    @Test("ordered by number, not by text")
    func ordering() throws {
        let v2100 = try #require(MessageVersion("2.10.0"))
        #expect(MessageVersion.v2_1_0 < .v2_2_0 && MessageVersion.v2_2_0 < .v2_3_1 && MessageVersion.v2_3_1 < v2100)
        #expect(MessageVersion.highest == .v2_3_1)
    }

    @Test("what each version allows")
    func capabilities() {
        #expect(!MessageVersion.v2_1_0.allowsNoEntry && MessageVersion.v2_2_0.allowsNoEntry)
        #expect(!MessageVersion.v2_1_0.carriesRequestorAppURL && MessageVersion.v2_3_1.carriesRequestorAppURL)
        #expect(MessageVersion.v2_1_0.trustQuestion == nil)
        #expect(MessageVersion.v2_2_0.trustQuestion == .whitelisting)
        #expect(MessageVersion.v2_3_1.trustQuestion == .trustList)
        #expect(
            TrustQuestion.whitelisting.entryValue(true) == .yes && TrustQuestion.whitelisting.entryValue(false) == .no)
        #expect(TrustQuestion.trustList.entryValue(true) == .yes && TrustQuestion.trustList.entryValue(false) == .no)
        #expect(
            MessageVersion.v2_2_0.oobContinueValue(automatic: false) == .bool(true)
                && MessageVersion.v2_2_0.oobContinueValue(automatic: true) == .bool(true))
        #expect(MessageVersion.v2_3_1.oobContinueValue(automatic: false) == .string("01"))
        #expect(MessageVersion.v2_3_1.oobContinueValue(automatic: true) == .string("02"))
        for version in [MessageVersion.v2_1_0, .v2_2_0] {
            #expect(
                !version.carriesOOBAppURLIndicator && !version.hasEntryBoxes && !version.hasAdditionalCode
                    && !version.hasDeviceBinding && !version.hasBoldMarkup && !version.hasAppearanceImages
                    && !version.reportsReservedValues && !version.limitsResendToText)
            #expect(version.maxMessageExtensions == 10)
        }
        let v231 = MessageVersion.v2_3_1
        #expect(
            v231.carriesOOBAppURLIndicator && v231.hasEntryBoxes && v231.hasAdditionalCode && v231.hasDeviceBinding
                && v231.hasBoldMarkup && v231.hasAppearanceImages && v231.reportsReservedValues
                && v231.limitsResendToText && v231.requiresHTTPSRequestorAppURL)
        #expect(v231.maxMessageExtensions == 15 && v231.maxRequestorAppURLLength == 2048)
        #expect(
            MessageVersion.v2_2_0.maxRequestorAppURLLength == 256 && MessageVersion.v2_1_0.maxRequestorAppURLLength == 0
        )
        #expect(MessageVersion.v2_2_0.uiTypes == [.text, .singleSelect, .multiSelect, .outOfBand, .html])
        #expect(MessageVersion.v2_3_1.uiTypes == UIType.allCases)
        #expect(!MessageVersion.v2_2_0.hasInformationContinue && MessageVersion.v2_3_1.hasInformationContinue)
        #expect(!MessageVersion.v2_2_0.hasOOBAppURL && MessageVersion.v2_3_1.hasOOBAppURL)
    }
}
