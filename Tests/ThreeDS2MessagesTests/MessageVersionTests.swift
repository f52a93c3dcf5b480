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
            TrustQuestion.whitelisting.entryValue(true) == "Y" && TrustQuestion.whitelisting.entryValue(false) == "N")
        #expect(MessageVersion.v2_2_0.oobContinueValue == .bool(true))
        #expect(MessageVersion.v2_3_1.oobContinueValue == .string("01"))
        #expect(MessageVersion.v2_2_0.uiTypes == [.text, .singleSelect, .multiSelect, .outOfBand, .html])
        #expect(MessageVersion.v2_3_1.uiTypes == UIType.allCases)
        #expect(!MessageVersion.v2_2_0.hasInformationContinue && MessageVersion.v2_3_1.hasInformationContinue)
        #expect(!MessageVersion.v2_2_0.hasOOBAppURL && MessageVersion.v2_3_1.hasOOBAppURL)
    }
}
