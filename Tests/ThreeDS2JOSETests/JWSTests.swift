import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

@Suite("Compact JWS with x5c")
struct JWSTests {
    private let payload = Array(#"{"acsURL":"https://127.0.0.1/acs","acsEphemPubKey":{"kty":"EC"}}"#.utf8)

    private func verifier(_ pki: PKIFixture, at time: Date? = nil) throws -> X5CVerifier {
        try X5CVerifier(roots: [pki.root.certificate], validationTime: time)
    }

    @Test("PS256 and ES256 sign and verify through a three-certificate chain")
    func roundTrip() async throws {
        let pki = try PKIFixture.get()
        for signer in [pki.rsaSigner, pki.ecSigner] {
            let compact = try JWS.sign(payload, with: signer.privateKey.jwsKey, certificateChain: pki.chain(signer))
            let verified = try await verifier(pki).verify(compact)
            #expect(verified.payload == payload)
            #expect(verified.algorithm == signer.privateKey.jwsKey.algorithm)
            #expect(verified.chain.count == 3)
            #expect(verified.chain.first == signer.certificate)
            #expect(verified.chain.last == pki.root.certificate)
            #expect(verified.header["x5c"]?.arrayValue?.count == 3)
        }
    }

    @Test("a chain without the root in x5c still validates to the configured root")
    func rootNotInChain() async throws {
        let pki = try PKIFixture.get()
        let compact = try JWS.sign(
            payload, with: pki.ecSigner.privateKey.jwsKey,
            certificateChain: [pki.ecSigner.certificate, pki.intermediate.certificate])
        #expect(try await verifier(pki).verify(compact).chain.count == 3)
    }

    @Test("x5c from an unknown root is refused")
    func unknownRoot() async throws {
        let pki = try PKIFixture.get()
        let compact = try JWS.sign(
            payload, with: pki.otherSigner.privateKey.jwsKey,
            certificateChain: [
                pki.otherSigner.certificate, pki.otherIntermediate.certificate, pki.otherRoot.certificate,
            ])
        await expectJOSEError(.untrustedCertificateChain) { try await verifier(pki).verify(compact) }
        // A leaf signed by the known intermediate is refused when the intermediate is omitted.
        let orphan = try JWS.sign(
            payload, with: pki.ecSigner.privateKey.jwsKey, certificateChain: [pki.ecSigner.certificate])
        await expectJOSEError(.untrustedCertificateChain) { try await verifier(pki).verify(orphan) }
    }

    @Test("an expired leaf is refused, naming x5c[0]; an injected time inside validity accepts it")
    func expiredLeaf() async throws {
        let pki = try PKIFixture.get()
        let compact = try JWS.sign(
            payload, with: pki.expiredSigner.privateKey.jwsKey, certificateChain: pki.chain(pki.expiredSigner))
        let error = await expectJOSEError(.certificateExpired) { try await verifier(pki).verify(compact) }
        #expect(error?.message.contains("x5c[0]") == true)
        let past = Date(timeIntervalSinceNow: -2 * 86400)
        #expect(try await verifier(pki, at: past).verify(compact).payload == payload)
        // A time before the whole PKI existed fails too.
        await expectJOSEError(.certificateExpired) {
            try await verifier(pki, at: Date(timeIntervalSinceNow: -400 * 86400)).verify(compact)
        }
    }

    @Test("a PS256 signature made by another key is refused")
    func foreignSignature() async throws {
        let pki = try PKIFixture.get()
        let genuine = try JWS.sign(
            payload, with: pki.rsaSigner.privateKey.jwsKey, certificateChain: pki.chain(pki.rsaSigner))
        let forged = try JWS.sign(
            payload, with: pki.otherSigner.privateKey.jwsKey, certificateChain: pki.chain(pki.rsaSigner))
        #expect(genuine.split(separator: ".")[0] == forged.split(separator: ".")[0])
        await expectJOSEError(.invalidSignature) { try await verifier(pki).verify(forged) }
        await expectJOSEError(.invalidSignature) { try await verifier(pki).verify(try tamper(genuine, part: 1)) }
        await expectJOSEError(.invalidSignature) {
            try await verifier(pki).verify(try tamper(genuine, part: 2, byte: -1))
        }
    }

    @Test(
        "alg none, other algs, and a lower-case alg are refused",
        arguments: ["none", "None", "HS256", "RS256", "ES384", "ps256"])
    func algorithms(alg: String) async throws {
        let pki = try PKIFixture.get()
        let compact = try JWS.sign(
            payload, with: pki.ecSigner.privateKey.jwsKey, certificateChain: pki.chain(pki.ecSigner))
        let header = try #require(
            try JSONParser().parse(try Base64.urlDecode(compact.split(separator: ".")[0])).objectValue)
        var rewritten = header
        rewritten["alg"] = .string(alg)
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        let unsigned =
            Base64.urlEncode(rewritten.serialized.utf8) + "." + parts[1] + "."
            + (alg.lowercased() == "none" ? "" : parts[2])
        await expectJOSEError(.unsupportedAlgorithm) { try await verifier(pki).verify(unsigned) }
    }

    @Test("a jwk header is never trusted: the key always comes from x5c[0]")
    func jwkHeaderIgnored() async throws {
        let pki = try PKIFixture.get()
        let attacker = P256.Signing.PrivateKey()
        let compact = try JWS.sign(
            payload, with: .es256(attacker), certificateChain: pki.chain(pki.ecSigner),
            additionalHeader: [
                "jwk": .object(P256PublicJWK(attacker.publicKey).jsonObject), "jku": .string("https://127.0.0.1/k"),
                "x5u": .string("https://127.0.0.1/c"),
            ])
        await expectJOSEError(.invalidSignature) { try await verifier(pki).verify(compact) }
        let noChain = try JWS.sign(
            payload, with: .es256(attacker),
            additionalHeader: ["jwk": .object(P256PublicJWK(attacker.publicKey).jsonObject)])
        await expectJOSEError(.invalidHeader) { try await verifier(pki).verify(noChain) }
    }

    @Test("the leaf must allow digital signatures when it has a key-usage extension")
    func keyUsage() async throws {
        let pki = try PKIFixture.get()
        let compact = try JWS.sign(
            payload, with: pki.encipherOnlySigner.privateKey.jwsKey, certificateChain: pki.chain(pki.encipherOnlySigner)
        )
        await expectJOSEError(.keyUsageNotPermitted) { try await verifier(pki).verify(compact) }
    }

    @Test("the leaf key type must match alg")
    func keyTypeMismatch() async throws {
        let pki = try PKIFixture.get()
        // An ES256 signature made by the EC key, presented with the RSA leaf: alg ES256 but x5c[0] is RSA.
        let compact = try JWS.sign(
            payload, with: pki.ecSigner.privateKey.jwsKey, certificateChain: pki.chain(pki.rsaSigner))
        await expectJOSEError(.invalidKey) { try await verifier(pki).verify(compact) }
    }

    @Test("malformed x5c, crit, shapes and sizes are refused")
    func shapes() async throws {
        let pki = try PKIFixture.get()
        let key = pki.ecSigner.privateKey.jwsKey
        let v = try verifier(pki)
        let cases: [(JSONObject, JOSEError.Code)] = [
            (["x5c": .string("abc")], .invalidHeader),
            (["x5c": .array([])], .invalidHeader),
            (["x5c": .array([.integer(1)])], .invalidHeader),
            (["x5c": .array([.string("not base64!")])], .malformedBase64),
            (["x5c": .array([.string(Base64.standardEncode([0x30, 0x03, 0x02, 0x01, 0x01]))])], .invalidCertificate),
            (["x5c": .array(Array(repeating: .string("AAAA"), count: 9))], .inputTooLarge),
        ]
        for (header, code) in cases {
            let compact = try JWS.sign(payload, with: key, additionalHeader: header)
            await expectJOSEError(code) { try await v.verify(compact) }
        }
        let crit = try JWS.sign(
            payload, with: key, certificateChain: pki.chain(pki.ecSigner),
            additionalHeader: ["crit": .array([.string("b64")]), "b64": .bool(false)])
        await expectJOSEError(.unsupportedHeaderParameter) { try await v.verify(crit) }
        let good = try JWS.sign(payload, with: key, certificateChain: pki.chain(pki.ecSigner))
        await expectJOSEError(.malformedCompactSerialization) { try await v.verify(good + ".x") }
        await expectJOSEError(.malformedCompactSerialization) {
            try await v.verify(String(good.split(separator: ".")[0]))
        }
        await expectJOSEError(.malformedBase64) { try await v.verify(good + "=") }
        let goodParts = good.split(separator: ".").map(String.init)
        let shortSignature = Base64.urlEncode(try Base64.urlDecode(goodParts[2]).dropLast())
        await expectJOSEError(.invalidSignature) {
            try await v.verify(goodParts[0] + "." + goodParts[1] + "." + shortSignature)
        }
        let small = try X5CVerifier(roots: [pki.root.certificate], maxCompactBytes: 100)
        await expectJOSEError(.inputTooLarge) { try await small.verify(good) }
        expectJOSEError(.untrustedCertificateChain) { try X5CVerifier(roots: []) }
    }

    @Test("explicit-key verification checks alg against the key, and PS256 needs 2048-bit keys")
    func explicitKey() throws {
        let pki = try PKIFixture.get()
        guard case .rsa(let rsa) = pki.rsaSigner.privateKey else { Issue.record("fixture key is not RSA"); return }
        let compact = try JWS.sign(payload, with: pki.rsaSigner.privateKey.jwsKey)
        #expect(
            try JWS.verify(compact, using: .ps256(publicKeyDER: Array(rsa.publicKey.derRepresentation))).payload
                == payload)
        expectJOSEError(.unexpectedAlgorithm) {
            try JWS.verify(compact, using: .es256(P256.Signing.PrivateKey().publicKey))
        }
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        expectJOSEError(.invalidKey) {
            try JWS.sign(payload, with: .ps256(privateKeyDER: Array(small.derRepresentation)))
        }
        expectJOSEError(.invalidKey) { try JWS.verify(compact, using: .ps256(publicKeyDER: [1, 2])) }
    }
}
