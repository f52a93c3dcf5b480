import Crypto
import Foundation
import Testing
import ThreeDS2JOSE

@Suite("Strict base64url and base64")
struct Base64Tests {
    @Test("base64url round-trips every length without padding", arguments: 0...40)
    func roundTrip(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
        let text = Base64.urlEncode(bytes)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(try Base64.urlDecode(text) == bytes)
        #expect(try Base64.standardDecode(Base64.standardEncode(bytes)) == bytes)
    }

    @Test("base64url matches Foundation's base64 (alphabet swapped, padding dropped) for every 12-bit group")
    func matchesFoundation() {
        // Each 3-byte group holds two 12-bit values; together the groups cover all 4096 of them in both halves.
        var bytes: [UInt8] = []
        for value in 0..<4096 {
            let chunk = value << 12 | (4095 - value)
            bytes += [UInt8(chunk >> 16), UInt8(truncatingIfNeeded: chunk >> 8), UInt8(truncatingIfNeeded: chunk)]
        }
        for tail in 0...2 {
            let input = Array(bytes.dropLast(tail))
            let expected = Data(input).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64.urlEncode(input) == expected)
        }
    }

    @Test(
        "RFC 4648 test vectors",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ])
    func rfc4648(plain: String, encoded: String) throws {
        #expect(Base64.urlEncode(Array(plain.utf8)) == encoded)
        #expect(try Base64.urlDecode(encoded) == Array(plain.utf8))
    }

    @Test(
        "base64url rejects padding, +, /, space, newline, bad length and non-zero tail bits (TC_SDK_10554–10559)",
        arguments: ["Zm8=", "Zm9vYg==", "a+b_", "a/b_", "Zm9 v", "Zm9v\nYg", "Zm9vY", "Zh", "Zm9vYmF", "é"])
    func rejects(text: String) {
        expectJOSEError(.malformedBase64) { try Base64.urlDecode(text) }
    }

    @Test("the error names what was being decoded")
    func namesThePart() {
        let error = expectJOSEError(.malformedBase64) { try Base64.urlDecode("ab=c", what: "JWE part 3 (IV)") }
        #expect(error?.message.contains("JWE part 3 (IV)") == true)
    }

    @Test(
        "standard base64 needs padding and rejects the url alphabet and whitespace",
        arguments: ["Zm8", "Zm9vYg=", "a-b_", "Zm9v Yg==", "Zm9vYg===", "Zh=="])
    func standardRejects(text: String) {
        expectJOSEError(.malformedBase64) { try Base64.standardDecode(text) }
    }
}

@Suite("Strict JSON")
struct JSONTests {
    @Test("parses and re-serialises compactly, keeping member order and number text")
    func roundTrip() throws {
        let text = #"{"b":1.50,"a":[true,false,null,"x\"y\\z\u00e9\n"],"c":{"d":-3e2}}"#
        let value = try JSONParser().parse(text)
        #expect(value.serialized == #"{"b":1.50,"a":[true,false,null,"x\"y\\zé\n"],"c":{"d":-3e2}}"#)
        #expect(value.objectValue?.names == ["b", "a", "c"])
    }

    @Test("parses surrogate pairs")
    func surrogates() throws {
        #expect(try JSONParser().parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(
        "rejects malformed or dangerous JSON",
        arguments: [
            #"{"a":1,}"#, "[1,]", #"{"a" 1}"#, "01", "1.", "-", "1e", "tru", #""\x""#,
            "\"a\u{01}b\"", #""\ud83d""#, #""\ude00""#, "{} x", "", "[", #"{"a":1"#, "'a'", "NaN",
        ])
    func rejects(text: String) {
        expectJOSEError(.malformedJSON) { try JSONParser().parse(text) }
    }

    @Test("a 30,000-member object parses, keeps its order, and looks up, replaces and removes by name")
    func manyMembers() throws {
        let count = 30_000
        let text = "{" + (0..<count).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + "}"
        var object = try #require(try JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 4)).parse(text).objectValue)
        #expect(object.count == count && object.names.first == "m0" && object.names.last == "m29999")
        #expect(
            object["m0"] == .integer(0) && object["m15000"] == .integer(15000) && object["m29999"] == .integer(29999))
        object["m15000"] = nil
        #expect(object["m15000"] == nil && object["m15001"] == .integer(15001) && object.count == count - 1)
        object["m1"] = .string("one")
        object["new"] = .bool(true)
        #expect(object.names[1] == "m1" && object["m1"] == .string("one") && object.names.last == "new")
        #expect(object["new"] == .bool(true) && object["m29999"] == .integer(29999))
    }

    @Test("a repeated member name is its own error code, at any depth")
    func duplicateMembers() {
        expectJOSEError(.duplicateMember) { try JSONParser().parse(#"{"a":1,"a":2}"#) }
        expectJOSEError(.duplicateMember) { try JSONParser().parse(#"{"x":{"b":[],"b":null}}"#) }
    }

    @Test("rejects invalid UTF-8 inside strings")
    func invalidUTF8() {
        expectJOSEError(.malformedJSON) { try JSONParser().parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("bounds nesting depth and size")
    func bounds() throws {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        expectJOSEError(.malformedJSON) { try JSONParser(limits: .init(maxDepth: 32)).parse(deep) }
        #expect(try JSONParser(limits: .init(maxDepth: 40)).parse(deep).arrayValue != nil)
        expectJOSEError(.inputTooLarge) { try JSONParser(limits: .init(maxBytes: 4)).parse("[1,2,3]") }
    }

    @Test("object equality ignores member order; subscript set and remove")
    func objectSemantics() {
        var object: JSONObject = ["x": .integer(1), "y": .string("a")]
        #expect(object == ["y": .string("a"), "x": .integer(1)])
        object["x"] = nil
        object["z"] = .bool(true)
        #expect(object.names == ["y", "z"])
        #expect(object.serialized == #"{"y":"a","z":true}"#)
    }
}

@Suite("Key material")
struct WipeTests {
    @Test("Wipe.zero clears an array in place, whatever its length; the KDF still derives the vector key")
    func wipe() throws {
        for count in [0, 1, 32, 1000] {
            var bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ 1) }
            Wipe.zero(&bytes)
            #expect(bytes.count == count && bytes.allSatisfy { $0 == 0 })
        }
        let vector = Vectors.entry("emvco_sdk_acs_channel")
        let key = ConcatKDF.emvcoKey(
            sharedSecret: vector.hex("z_hex"), partyVInfo: vector.string("sdk_reference_number"))
        #expect(key.withUnsafeBytes { Array($0) } == vector.hex("cek_hex"))
    }
}
