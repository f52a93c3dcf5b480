import Foundation
import Testing
import ThreeDS2BrowserSupport

/// The leak search finds a secret in each form a careless program writes it, wherever it stands in a longer text, and
/// finds nothing in text that does not hold it.
@Suite("Leak search")
struct LeakSearchTests {
    static let key: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 11) & 0xFF) }

    static func found(_ secret: [UInt8], in text: [UInt8]) -> [String] {
        LeakSearch.search([.init("secret", secret)], in: [.init("text", text)]).map(\.form)
    }

    @Test("a key inside longer base64 and base64url texts is found at each of the three alignments")
    func base64Alignments() {
        for prefix in 0..<3 {
            let blob = [UInt8](repeating: 0xA5, count: prefix) + Self.key + [0x5A, 0x01]
            let base64 = Data(blob).base64EncodedString()
            let base64url = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Self.found(Self.key, in: Array("{\"k\":\"\(base64)\"}".utf8)).contains { $0.hasPrefix("base64") })
            #expect(Self.found(Self.key, in: Array(base64url.utf8)).contains { $0.hasPrefix("base64") })
        }
    }

    @Test("hex in either case, URL-encoded, JSON-escaped and raw bytes")
    func otherForms() {
        let hex = Self.key.map { String(format: "%02x", $0) }.joined()
        #expect(Self.found(Self.key, in: Array("key=\(hex)".utf8)) == ["hex"])
        #expect(Self.found(Self.key, in: Array("key=\(hex.uppercased())".utf8)) == ["HEX"])
        // As encodeURIComponent writes it: unreserved characters as they are, every other byte as %XX.
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let percent = Self.key.map {
            unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0)
        }.joined()
        #expect(Self.found(Self.key, in: Array("a=\(percent)&b".utf8)).contains("URL-encoded"))
        #expect(Self.found(Self.key, in: Array("xx".utf8) + Self.key + Array("yy".utf8)) == ["raw"])
        let code = Array("736912".utf8)
        #expect(
            Self.found(code, in: Array("{\"otp\":\"\\u0037\\u0033\\u0036\\u0039\\u0031\\u0032\"}".utf8)) == [
                "JSON \\u-escaped"
            ])
        #expect(Self.found(code, in: Array("challengeDataEntry=736912".utf8)).contains("raw"))
        #expect(Self.found(Array("a/b\"c".utf8), in: Array("{\"v\":\"a\\/b\\\"c\"}".utf8)) == ["JSON-escaped"])
    }

    @Test("a word-bounded code counts as a value of its own, not inside a longer run of digits or hex")
    func wordBounded() {
        let code = LeakSearch.Secret("code", Array("737412".utf8), wordBounded: true)
        func count(_ text: String) -> Int { LeakSearch.search([code], in: [.init("t", Array(text.utf8))]).count }
        #expect(count("{\"e4\":\"737412\"}") == 1)
        #expect(count("challengeDataEntry=737412&x") == 1)
        #expect(count("737412") == 1)
        #expect(count("ts 20737412101010 id a737412f-11") == 0)
        #expect(count("NzM3NDEy") == 1)
    }

    @Test("nothing is found in text without the secret, nor in a text with a neighbour of it")
    func noFalseFinding() {
        var neighbour = Self.key
        neighbour[16] ^= 0x01
        let text =
            Array(Data(neighbour).base64EncodedString().utf8)
            + Array(neighbour.map { String(format: "%02x", $0) }.joined().utf8) + neighbour
        #expect(Self.found(Self.key, in: text).isEmpty)
        #expect(Self.found(Array("736912".utf8), in: Array("736913 7369 12".utf8)).isEmpty)
    }
}
