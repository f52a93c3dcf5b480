import Foundation
import Testing
import ThreeDS2Messages

@Suite("Protocol rules written once")
struct ProtocolRulesTests {
    @Test("the https rule: the https scheme in any case and a host; nothing else")
    func httpsRule() {
        for text in ["https://acs.example/challenge", "HTTPS://EMV3DS/challenge", "hTtPs://a.b:8443/x?y=1"] {
            #expect(URL(string: text)?.isHTTPSWithHost == true, "\(text)")
            #expect(ChallengeResponseValidator.isHTTPSURL(text), "\(text)")
        }
        for text in ["http://acs.example/", "https:///path", "https:relative", "ftp://x.example/", "/challenge"] {
            #expect(URL(string: text)?.isHTTPSWithHost != true, "\(text)")
            #expect(!ChallengeResponseValidator.isHTTPSURL(text), "\(text)")
        }
    }

    @Test("the UUID shape: 36 characters of 8-4-4-4-12 hex digits, in either case")
    func uuidShape() {
        #expect(TransactionIdentifiers.hasUUIDShape("8a880dc0-d2d2-4067-bcb1-b08d1690b26e"))
        #expect(TransactionIdentifiers.hasUUIDShape("8A880DC0-D2D2-4067-BCB1-B08D1690B26E"))
        for text in [
            "", "8a880dc0d2d24067bcb1b08d1690b26e", "{8a880dc0-d2d2-4067-bcb1-b08d1690b26e}",
            "8a880dc0-d2d2-4067-bcb1-b08d1690b26", "8a880dc0-d2d2-4067-bcb1-b08d1690b26g",
            " 8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
        ] {
            #expect(!TransactionIdentifiers.hasUUIDShape(text), "\(text)")
        }
    }

    @Test("one set of challenge limits (45 and 256 UTF-8 bytes) and one counter format (three digits)")
    func limits() throws {
        #expect(ChallengeLimits.maxEntryBytes == 45 && ChallengeLimits.maxHTMLDataBytes == 256)
        #expect(ChallengeRequestBuilder.counterText(7) == "007" && ChallengeRequestBuilder.counterText(255) == "255")
    }
}
