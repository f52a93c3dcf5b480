import Testing
import ThreeDS2Messages

@Suite("Protocol versions")
struct ProtocolVersionTests {
    @Test("major.minor.patch in decimal digits only; anything else is not a version")
    func parsing() {
        for good in ["2.1.0", "2.2.0", "2.3.1", "10.0.12"] {
            #expect(ProtocolVersion(good)?.rawValue == good)
        }
        for bad in [
            "", "2", "2.2", "2.2.0.1", "2..0", ".2.0", "2.2.", "2.2.x", "+2.2.0", "2.2.0 ", "2.2.00000", "٢.٢.٠",
        ] {
            #expect(ProtocolVersion(bad) == nil, "\(bad) parsed")
        }
    }

    @Test("ordered by number, not by text; the 2.2 and 2.3 feature gates")
    func ordering() throws {
        let v210 = try #require(ProtocolVersion("2.1.0"))
        let v220 = try #require(ProtocolVersion("2.2.0"))
        let v231 = try #require(ProtocolVersion("2.3.1"))
        let v2100 = try #require(ProtocolVersion("2.10.0"))
        #expect(v210 < v220 && v220 < v231 && v231 < v2100)
        #expect(!v210.isAtLeast2_2 && v220.isAtLeast2_2 && !v220.isAtLeast2_3 && v231.isAtLeast2_3)
        #expect(v2100.isAtLeast2_3)
    }
}
