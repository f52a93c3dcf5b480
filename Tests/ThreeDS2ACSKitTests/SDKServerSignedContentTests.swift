import Crypto
import Foundation
import SwiftASN1
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

/// The SDK Server Signed Content (server-side, in the ACS kit), made and verified, and every refusal.
@Suite("The SDK Server Signed Content")
struct SDKServerSignedContentTests {
    /// A compact JWS made by jwcrypto 1.5.6 (Python) with the key of `katCertificatePEM` (ES256, x5c), over the body
    /// below: an independent implementation's token that our verifier must accept.
    static let jwcryptoCompact =
        "eyJhbGciOiAiRVMyNTYiLCAieDVjIjogWyJNSUlCbFRDQ0FUdWdBd0lCQWdJVUk1SnZ5dFJuNE9sSTdMdEhXZUQrR3d0YUhXZ3dD"
        + "Z1lJS29aSXpqMEVBd0l3SHpFZE1Cc0dBMVVFQXd3VVUzQnNhWFF0VTBSTElGTmxjblpsY2lCTFFWUXdJQmNOTWpZeE1USTRNRGd3"
        + "T0RNM1doZ1BNakV5TmpFeE1EUXdPREE0TXpkYU1COHhIVEFiQmdOVkJBTU1GRk53YkdsMExWTkVTeUJUWlhKMlpYSWdTMEZVTUZr"
        + "d0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFNUpsMGNPT2docHJkVUlzT29xSkVjVTNOS2dsd0p3OVcxS0EwbGhNQUhY"
        + "cG0yZWFPT2lIeVdkSjh3MWRENEJhaGNmK0lxY2dmMnhSZjNEblhtNDAwV2FOVE1GRXdIUVlEVlIwT0JCWUVGS1FBaW5ybzBIR2sw"
        + "OXFaaTVNS1hzWFpoT3VGTUI4R0ExVWRJd1FZTUJhQUZLUUFpbnJvMEhHazA5cVppNU1LWHNYWmhPdUZNQThHQTFVZEV3RUIvd1FG"
        + "TUFNQkFmOHdDZ1lJS29aSXpqMEVBd0lEU0FBd1JRSWdVb0FNSVFwN0M3ejRxZnpaYUxqL1k0eTZtaGluSE5zTEIreVpDUE1ob2R3"
        + "Q0lRRGlqNXZDMmpEMi9xSDlxbFZ3SEZaQWZDM3FoZzdPTEdmVC9JbmNNWmc5cXc9PSJdfQ.eyJzZGtSZWZlcmVuY2VOdW1iZXIiO"
        + "iIzRFNfTE9BX1NES19LQVRTXzAyMDEwMF8wMDAwMCIsInNka1NpZ25hdHVyZVRpbWVzdGFtcCI6IjIwMjYxMTI4MDgwMDAwIiwic"
        + "2RrVHJhbnNJRCI6IjhhODgwZGMwLWQyZDItNDA2Ny1iY2IxLWIwOGQxNjkwYjI2ZSIsInNwbGl0U2RrU2VydmVySUQiOiJMQUItU"
        + "1BMSVQtMSJ9.NyPVE3CG4ZUxAXs_J-UaE2O4Z1S8gQi8jTZ3LEhOpwAC9xSKO6uml50r7Hc3hvWufiM0bBOM53feG9-YXu_wgg"
    /// The self-signed P-256 certificate jwcrypto signed with (made with openssl).
    static let katCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBlTCCATugAwIBAgIUI5JvytRn4OlI7LtHWeD+GwtaHWgwCgYIKoZIzj0EAwIw
        HzEdMBsGA1UEAwwUU3BsaXQtU0RLIFNlcnZlciBLQVQwIBcNMjYxMTI4MDgwODM3
        WhgPMjEyNjExMDQwODA4MzdaMB8xHTAbBgNVBAMMFFNwbGl0LVNESyBTZXJ2ZXIg
        S0FUMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE5Jl0cOOghprdUIsOoqJEcU3N
        KglwJw9W1KA0lhMAHXpm2eaOOiHyWdJ8w1dD4Bahcf+Iqcgf2xRf3DnXm400WaNT
        MFEwHQYDVR0OBBYEFKQAinro0HGk09qZi5MKXsXZhOuFMB8GA1UdIwQYMBaAFKQA
        inro0HGk09qZi5MKXsXZhOuFMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
        SAAwRQIgUoAMIQp7C7z4qfzZaLj/Y4y6mhinHNsLB+yZCPMhodwCIQDij5vC2jD2
        /qH9qlVwHFZAfC3qhg7OLGfT/IncMZg9qw==
        -----END CERTIFICATE-----
        """
    static let katBodyJSON =
        #"{"sdkReferenceNumber":"3DS_LOA_SDK_KATS_020100_00000","sdkSignatureTimestamp":"20261128080000","#
        + #""sdkTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","splitSdkServerID":"LAB-SPLIT-1"}"#
    static let transID = "8a880dc0-d2d2-4067-bcb1-b08d1690b26e"

    static func content(serverID: String = "LAB-SPLIT-1") throws -> SDKServerSignedContent {
        try SDKServerSignedContent(
            sdkReferenceNumber: "3DS_LOA_SDK_KATS_020100_00000",
            signatureTimestamp: try #require(SDKSignatureTimestamp(text: "20261128080000")),
            sdkTransactionID: transID, serverID: try #require(SplitSDKServerID(serverID)))
    }

    /// A root and a P-256 signer under it: the Split-SDK Server's identity.
    static func identity(rsa: Bool = false) throws -> IssuedCertificate {
        let root = try CertificateAuthority.makeRoot(commonName: "Split CA", key: .makeP256())
        return try CertificateAuthority.issue(
            commonName: "Split-SDK Server", key: rsa ? try .makeRSA() : .makeP256(), role: .signer, issuer: root)
    }

    static func p256(_ identity: IssuedCertificate) throws -> P256.Signing.PrivateKey {
        guard case .p256(let key) = identity.privateKey else { throw CancellationError() }
        return key
    }

    static func verify(_ compact: String, _ certificate: Certificate?, id: String = "LAB-SPLIT-1")
        throws(SDKServerSignedContentError)
        -> SDKServerSignedContent
    {
        try SDKServerSignedContent.verify(compact) { $0.rawValue == id ? certificate : nil }
    }

    static func code(_ body: () throws -> Void) -> SDKServerSignedContentError.Code? {
        do {
            try body()
            return nil
        } catch let error as SDKServerSignedContentError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test("the body: the AReq element names in a fixed order (the same bytes jwcrypto signed); invalid bodies refused")
    func body() throws {
        let content = try Self.content()
        #expect(content.json.serialized == Self.katBodyJSON)
        #expect(try SDKServerSignedContent(payload: Array(Self.katBodyJSON.utf8)) == content)
        let id = try #require(SplitSDKServerID("X"))
        let stamp = try #require(SDKSignatureTimestamp(text: "20261128080000"))
        for reference in ["", String(repeating: "R", count: 33), "r\u{E9}f"] {
            #expect(
                Self.code {
                    _ = try SDKServerSignedContent(
                        sdkReferenceNumber: reference, signatureTimestamp: stamp, sdkTransactionID: Self.transID,
                        serverID: id)
                } == .invalidPayload)
        }
        #expect(
            Self.code {
                _ = try SDKServerSignedContent(
                    sdkReferenceNumber: "R", signatureTimestamp: stamp, sdkTransactionID: "not-a-uuid", serverID: id)
            } == .invalidPayload)
        let good = try #require(try JSONParser().parse(Self.katBodyJSON).objectValue)
        var bodies: [String] = ["[]", "{", "\"x\""]
        for name in ["sdkReferenceNumber", "sdkSignatureTimestamp", "sdkTransID", "splitSdkServerID"] {
            var missing = good
            missing[name] = nil
            var number = good
            number[name] = .number("1")
            bodies += [missing.serialized, number.serialized]
        }
        var stampBad = good
        stampBad["sdkSignatureTimestamp"] = .string("2026-11-28T08:00:00Z")
        var idBad = good
        idBad["splitSdkServerID"] = .string(String(repeating: "S", count: 33))
        bodies += [stampBad.serialized, idBad.serialized]
        for body in bodies {
            #expect(
                Self.code { _ = try SDKServerSignedContent(payload: Array(body.utf8)) } == .invalidPayload, "\(body)")
        }
    }

    @Test("jwcrypto's token verifies against the registered certificate (known answer from an independent JOSE)")
    func jwcryptoKnownAnswer() throws {
        let certificate = try Certificate(pemEncoded: Self.katCertificatePEM)
        #expect(try Self.verify(Self.jwcryptoCompact, certificate) == Self.content())
        let other = try Self.identity().certificate
        #expect(Self.code { _ = try Self.verify(Self.jwcryptoCompact, other) } == .invalidSignature)
    }

    @Test("signed with ES256 and x5c [server certificate], verified against the registered certificate")
    func signAndVerify() throws {
        let server = try Self.identity()
        let compact = try Self.content().sign(key: try Self.p256(server), certificateChain: [server.certificate])
        #expect(compact.utf8.count <= SDKServerSignedContent.maxCompactLength)
        let header = try JSONParser().parse(
            try Base64.urlDecode(compact.split(separator: ".")[0])
        ).objectValue
        #expect(header?["alg"] == .string("ES256"))
        #expect(header?["x5c"]?.arrayValue?.count == 1)
        let payload = try Base64.urlDecode(compact.split(separator: ".")[1])
        #expect(payload == Array(Self.katBodyJSON.utf8))
        #expect(try Self.verify(compact, server.certificate) == Self.content())
    }

    @Test("PS256 is accepted on verify with a registered RSA certificate; ES256 against it is refused")
    func ps256Accepted() throws {
        let server = try Self.identity(rsa: true)
        guard case .rsa(let rsa) = server.privateKey else { throw CancellationError() }
        let compact = try JWS.sign(
            Array(Self.katBodyJSON.utf8), with: .ps256(privateKeyDER: Array(rsa.derRepresentation)))
        #expect(try Self.verify(compact, server.certificate) == Self.content())
        let ecdsa = try Self.identity()
        let es256 = try Self.content().sign(key: try Self.p256(ecdsa), certificateChain: [ecdsa.certificate])
        #expect(Self.code { _ = try Self.verify(es256, server.certificate) } == .invalidSignature)
    }

    @Test("every refusal of the verifier has its code; the DS answers 308 for each")
    func verifierRefusals() throws {
        let server = try Self.identity()
        let key = try Self.p256(server)
        let compact = try Self.content().sign(key: key, certificateChain: [server.certificate])
        let parts = compact.split(separator: ".").map(String.init)
        #expect(Self.code { _ = try Self.verify(compact, server.certificate, id: "OTHER") } == .unknownServer)
        let imposter = try Self.identity()
        #expect(Self.code { _ = try Self.verify(compact, imposter.certificate) } == .invalidSignature)
        // The body changed after signing: the signature no longer covers it.
        let changed = try Self.content(serverID: "LAB-SPLIT-1").json
        var tampered = changed
        tampered["sdkTransID"] = .string("00000000-0000-4000-8000-000000000000")
        let swapped = [parts[0], Base64.urlEncode(Array(tampered.serialized.utf8)), parts[2]].joined(separator: ".")
        #expect(Self.code { _ = try Self.verify(swapped, server.certificate) } == .invalidSignature)
        var signature = try Base64.urlDecode(parts[2])
        signature[0] ^= 1
        let flipped = [parts[0], parts[1], Base64.urlEncode(signature)].joined(separator: ".")
        #expect(Self.code { _ = try Self.verify(flipped, server.certificate) } == .invalidSignature)
        // An unsigned token and one signed with another key whose certificate is in x5c.
        let none = Base64.urlEncode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
        #expect(Self.code { _ = try Self.verify(none, server.certificate) } == .malformed)
        let byImposter = try Self.content().sign(key: try Self.p256(imposter), certificateChain: [imposter.certificate])
        #expect(Self.code { _ = try Self.verify(byImposter, server.certificate) } == .invalidSignature)
        // Signed by the registered key, but x5c names another certificate.
        let otherX5C = try JWS.sign(
            Array(Self.katBodyJSON.utf8), with: .es256(key), certificateChain: [imposter.certificate])
        #expect(Self.code { _ = try Self.verify(otherX5C, server.certificate) } == .invalidCertificate)
        #expect(Self.code { _ = try Self.verify("a.b", server.certificate) } == .malformed)
        #expect(Self.code { _ = try Self.verify(parts[0] + ".!!!." + parts[2], server.certificate) } == .malformed)
        let notJSON = [parts[0], Base64.urlEncode(Array("hello".utf8)), parts[2]].joined(separator: ".")
        #expect(Self.code { _ = try Self.verify(notJSON, server.certificate) } == .invalidPayload)
        let long = compact + String(repeating: "A", count: SDKServerSignedContent.maxCompactLength - compact.count + 1)
        #expect(Self.code { _ = try Self.verify(long, server.certificate) } == .tooLong)
    }

    @Test("signing refuses an empty chain, a chain for another key, and a result over 4,000 characters")
    func signingRefusals() throws {
        let server = try Self.identity()
        let key = try Self.p256(server)
        let content = try Self.content()
        #expect(Self.code { _ = try content.sign(key: key, certificateChain: []) } == .invalidCertificate)
        let other = try Self.identity()
        #expect(
            Self.code { _ = try content.sign(key: key, certificateChain: [other.certificate]) } == .invalidCertificate)
        let chain = [server.certificate] + Array(repeating: other.certificate, count: 8)
        #expect(Self.code { _ = try content.sign(key: key, certificateChain: chain) } == .tooLong)
    }
}
