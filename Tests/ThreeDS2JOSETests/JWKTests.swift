import Crypto
import Testing
import ThreeDS2JOSE

@Suite("P-256 public JWK")
struct JWKTests {
    private let vectorKey = Vectors.entry("rfc7515_a3_es256").object("public_jwk")

    @Test("exports exactly kty, crv, x, y with 32-byte coordinates")
    func export() throws {
        let key = P256.KeyAgreement.PrivateKey().publicKey
        let jwk = P256PublicJWK(key)
        let text = jwk.jsonString
        let object = try #require(try JSONParser().parse(text).objectValue)
        #expect(object.names == ["kty", "crv", "x", "y"])
        #expect(text.hasPrefix(#"{"kty":"EC","crv":"P-256","x":""#))
        #expect(try Base64.urlDecode(object["x"]?.stringValue ?? "").count == 32)
        #expect(try Base64.urlDecode(object["y"]?.stringValue ?? "").count == 32)
        #expect(try P256PublicJWK(jsonString: text).keyAgreementKey.rawRepresentation == key.rawRepresentation)
    }

    @Test("imports from an object, a JSON string, and a string value holding the object")
    func importForms() throws {
        let fromObject = try P256PublicJWK(jsonObject: vectorKey)
        let fromString = try P256PublicJWK(jsonString: vectorKey.serialized)
        let fromValue = try P256PublicJWK(jsonValue: .string(vectorKey.serialized))
        #expect(fromObject == fromString && fromString == fromValue)
        #expect(Base64.urlEncode(fromObject.x) == vectorKey.string("x"))
    }

    @Test("accepts 33-byte coordinates with a leading zero and normalises them")
    func leadingZero() throws {
        var object = vectorKey
        object["x"] = .string(Base64.urlEncode([0] + (try vectorKey.bytes("x"))))
        let jwk = try P256PublicJWK(jsonObject: object)
        #expect(Base64.urlEncode(jwk.x) == vectorKey.string("x"))
        #expect(jwk.jsonString.contains(vectorKey.string("x")))
    }

    @Test("accepts public extras such as kid and use")
    func publicExtras() throws {
        var object = vectorKey
        object["kid"] = .string("k1")
        object["use"] = .string("sig")
        #expect(try P256PublicJWK(jsonObject: object) == P256PublicJWK(jsonObject: vectorKey))
    }

    @Test("rejects a point not on the curve")
    func offCurve() throws {
        var object = vectorKey
        var y = try vectorKey.bytes("y")
        y[31] ^= 0x01
        object["y"] = .string(Base64.urlEncode(y))
        expectJOSEError(.pointNotOnCurve) { try P256PublicJWK(jsonObject: object) }
    }

    @Test("rejects private members", arguments: ["d", "p", "k"])
    func privateMember(name: String) {
        var object = vectorKey
        object[name] = .string("AAAA")
        let error = expectJOSEError(.invalidKey) { try P256PublicJWK(jsonObject: object) }
        #expect(error?.message.contains("\"\(name)\"") == true)
    }

    @Test("rejects wrong kty, crv, coordinate sizes and encodings")
    func wrongShapes() throws {
        let cases: [(String, JSONValue?)] = [
            ("kty", .string("RSA")), ("kty", nil), ("crv", .string("P-384")), ("crv", nil),
            ("x", .string(Base64.urlEncode([UInt8](repeating: 1, count: 31)))),
            ("x", .string(Base64.urlEncode([1] + [UInt8](repeating: 1, count: 32)))),
            ("y", .integer(5)), ("y", nil),
        ]
        for (name, value) in cases {
            var object = vectorKey
            object[name] = value
            expectJOSEError(.invalidKey) { try P256PublicJWK(jsonObject: object) }
        }
        var padded = vectorKey
        padded["x"] = .string(vectorKey.string("x") + "=")
        expectJOSEError(.malformedBase64) { try P256PublicJWK(jsonObject: padded) }
        expectJOSEError(.invalidKey) { try P256PublicJWK(jsonValue: .integer(1)) }
        expectJOSEError(.invalidKey) { try P256PublicJWK(jsonString: "[]") }
        expectJOSEError(.malformedJSON) { try P256PublicJWK(jsonString: "{") }
    }
}
