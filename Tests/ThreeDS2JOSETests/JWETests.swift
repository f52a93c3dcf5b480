import Crypto
import Testing
import ThreeDS2JOSE
import _CryptoExtras

@Suite("Compact JWE")
struct JWETests {
    enum Kind: String, CaseIterable, Sendable { case direct, rsa, ecdhEMVCo, ecdhStandard }

    struct Setup {
        let recipient: JWERecipient
        let key: JWEDecryptionKey
    }

    private func setup(_ kind: Kind, _ encryption: ContentEncryption) throws -> Setup {
        switch kind {
        case .direct:
            let key = SymmetricKey(size: .init(bitCount: encryption.keyByteCount * 8))
            return Setup(recipient: .direct(key), key: .direct([encryption: key]))
        case .rsa:
            let pki = try PKIFixture.get()
            return Setup(
                recipient: .rsaOAEP256(publicKeyDER: pki.rsaEncryptionPublicDER),
                key: .rsaOAEP256(privateKeyDER: pki.rsaEncryptionPrivateDER))
        case .ecdhEMVCo:
            let dsKey = P256.KeyAgreement.PrivateKey()
            return Setup(
                recipient: .ecdhES(dsKey.publicKey, derivation: .emvco(partyVInfo: "A000000004")),
                key: .ecdhES(dsKey, derivation: .emvco(partyVInfo: "A000000004")))
        case .ecdhStandard:
            let key = P256.KeyAgreement.PrivateKey()
            return Setup(
                recipient: .ecdhES(
                    key.publicKey, derivation: .standard(partyUInfo: Array("sdk".utf8), partyVInfo: Array("ds".utf8))),
                key: .ecdhES(key, derivation: .standard()))
        }
    }

    @Test("round trip for every alg and enc", arguments: Kind.allCases, ContentEncryption.allCases)
    func roundTrip(kind: Kind, encryption: ContentEncryption) throws {
        let setup = try setup(kind, encryption)
        let plaintext = Array(#"{"DV":"1.7","DD":{"C001":"Linux"}}"#.utf8)
        let compact = try JWE.encrypt(plaintext, to: setup.recipient, encryption: encryption, keyID: "kid-1")
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 5)
        #expect(parts[1].isEmpty == (kind != .rsa))
        let result = try JWE.decrypt(
            compact, using: setup.key, expecting: .init(encryptions: [encryption], keyID: .exactly("kid-1")))
        #expect(result.plaintext == plaintext)
        #expect(result.header["alg"] == .string(setup.recipient.algorithm))
        #expect(result.header["enc"] == .string(encryption.rawValue))
        if kind == .ecdhEMVCo {
            #expect(result.header["epk"] != nil && result.header["apv"] == nil)
        }
    }

    @Test("the EMVCo profile and the standard profile derive different keys")
    func profilesDiffer() throws {
        let dsKey = P256.KeyAgreement.PrivateKey()
        let compact = try JWE.encrypt(
            [1, 2, 3], to: .ecdhES(dsKey.publicKey, derivation: .emvco(partyVInfo: "A000000004")),
            encryption: .a128cbcHS256)
        expectJOSEError(.authenticationFailed) {
            try JWE.decrypt(compact, using: .ecdhES(dsKey, derivation: .standard()))
        }
        expectJOSEError(.authenticationFailed) {
            try JWE.decrypt(compact, using: .ecdhES(dsKey, derivation: .emvco(partyVInfo: "A000000003")))
        }
    }

    @Test("a caller-given IV is used as is, header is alg, enc, kid in that order")
    func givenIV() throws {
        let key = SymmetricKey(size: .bits256)
        let iv = [UInt8](repeating: 0, count: 15) + [7]
        let compact = try JWE.encrypt(
            Array("x".utf8), to: .direct(key), encryption: .a128cbcHS256, keyID: "acs", iv: iv)
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        #expect(try Base64.urlDecode(parts[2]) == iv)
        #expect(
            String(decoding: try Base64.urlDecode(parts[0]), as: UTF8.self)
                == #"{"alg":"dir","enc":"A128CBC-HS256","kid":"acs"}"#)
        expectJOSEError(.invalidIV) { try JWE.encrypt([1], to: .direct(key), encryption: .a128cbcHS256, iv: [0, 1]) }
        expectJOSEError(.invalidKey) { try JWE.encrypt([1], to: .direct(key), encryption: .a128gcm) }
    }

    @Test("a flipped bit in tag, ciphertext, IV or header fails authentication", arguments: ContentEncryption.allCases)
    func tampering(encryption: ContentEncryption) throws {
        let setup = try setup(.direct, encryption)
        let compact = try JWE.encrypt(Array("secret".utf8), to: setup.recipient, encryption: encryption)
        for (part, byte) in [(4, 0), (4, -1), (3, 0), (2, 0)] {
            expectJOSEError(.authenticationFailed) {
                try JWE.decrypt(try tamper(compact, part: part, byte: byte), using: setup.key)
            }
        }
        // A changed header is different AAD: re-encode a semantically equal header with a different member order.
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[0] = Base64.urlEncode(#"{"enc":"\#(encryption.rawValue)","alg":"dir"}"#.utf8)
        expectJOSEError(.authenticationFailed) { try JWE.decrypt(parts.joined(separator: "."), using: setup.key) }
    }

    @Test("RSA-OAEP-256: a corrupted wrapped key surfaces only as a tag failure")
    func rsaCorruptedKey() throws {
        let setup = try setup(.rsa, .a128cbcHS256)
        let compact = try JWE.encrypt([1, 2, 3], to: setup.recipient, encryption: .a128cbcHS256)
        expectJOSEError(.authenticationFailed) {
            try JWE.decrypt(try tamper(compact, part: 1, byte: 5), using: setup.key)
        }
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[1] = ""
        expectJOSEError(.malformedCompactSerialization) {
            try JWE.decrypt(parts.joined(separator: "."), using: setup.key)
        }
    }

    @Test("wrong or missing kid is refused")
    func keyID() throws {
        let setup = try setup(.direct, .a128gcm)
        let with = try JWE.encrypt([1], to: setup.recipient, encryption: .a128gcm, keyID: "a")
        let without = try JWE.encrypt([1], to: setup.recipient, encryption: .a128gcm)
        let wrong = expectJOSEError(.unexpectedKeyID) {
            try JWE.decrypt(with, using: setup.key, expecting: .init(keyID: .exactly("b")))
        }
        #expect(wrong?.message.contains("\"a\"") == true)
        expectJOSEError(.unexpectedKeyID) {
            try JWE.decrypt(without, using: setup.key, expecting: .init(keyID: .exactly("b")))
        }
        #expect(try JWE.decrypt(without, using: setup.key, expecting: .init(keyID: .any)).plaintext == [1])
    }

    @Test("kid is compared byte for byte: a canonically equivalent spelling is another kid")
    func keyIDBytes() throws {
        let setup = try setup(.direct, .a128gcm)
        // "Å" as one precomposed character and as A + combining ring: equal as Swift strings, different bytes.
        let decomposed = try JWE.encrypt([1], to: setup.recipient, encryption: .a128gcm, keyID: "A\u{30A}")
        #expect("A\u{30A}" == "\u{C5}")
        expectJOSEError(.unexpectedKeyID) {
            try JWE.decrypt(decomposed, using: setup.key, expecting: .init(keyID: .exactly("\u{C5}")))
        }
        #expect(
            try JWE.decrypt(decomposed, using: setup.key, expecting: .init(keyID: .exactly("A\u{30A}"))).plaintext
                == [1])
    }

    @Test("an enc the caller does not accept, or has no key for, is refused")
    func unexpectedEnc() throws {
        let cbcKey = SymmetricKey(size: .bits256)
        let compact = try JWE.encrypt([1], to: .direct(cbcKey), encryption: .a128cbcHS256)
        expectJOSEError(.unexpectedEncryption) {
            try JWE.decrypt(compact, using: .direct([.a128cbcHS256: cbcKey]), expecting: .init(encryptions: [.a128gcm]))
        }
        expectJOSEError(.unexpectedEncryption) {
            try JWE.decrypt(compact, using: .direct([.a128gcm: SymmetricKey(size: .bits128)]))
        }
        let unknown = rewriteHeader(compact, #"{"alg":"dir","enc":"A256GCM"}"#)
        expectJOSEError(.unexpectedEncryption) { try JWE.decrypt(unknown, using: .direct([.a128cbcHS256: cbcKey])) }
        expectJOSEError(.invalidHeader) {
            try JWE.decrypt(rewriteHeader(compact, #"{"alg":"dir"}"#), using: .direct([.a128cbcHS256: cbcKey]))
        }
        expectJOSEError(.invalidHeader) {
            try JWE.decrypt(rewriteHeader(compact, #"{"alg":"dir","enc":7}"#), using: .direct([.a128cbcHS256: cbcKey]))
        }
    }

    @Test("an alg other than the key's is refused; unknown algs are unsupported")
    func unexpectedAlg() throws {
        let setup = try setup(.rsa, .a128cbcHS256)
        let compact = try JWE.encrypt([1], to: setup.recipient, encryption: .a128cbcHS256)
        expectJOSEError(.unexpectedAlgorithm) {
            try JWE.decrypt(compact, using: .direct([.a128cbcHS256: SymmetricKey(size: .bits256)]))
        }
        expectJOSEError(.unsupportedAlgorithm) {
            try JWE.decrypt(rewriteHeader(compact, #"{"alg":"RSA1_5","enc":"A128CBC-HS256"}"#), using: setup.key)
        }
        expectJOSEError(.invalidHeader) {
            try JWE.decrypt(rewriteHeader(compact, #"{"enc":"A128CBC-HS256"}"#), using: setup.key)
        }
    }

    @Test("crit and zip headers are refused")
    func critAndZip() throws {
        let key = SymmetricKey(size: .bits256)
        let compact = try JWE.encrypt([1], to: .direct(key), encryption: .a128cbcHS256)
        for header in [
            #"{"alg":"dir","enc":"A128CBC-HS256","crit":["x"],"x":1}"#,
            #"{"alg":"dir","enc":"A128CBC-HS256","zip":"DEF"}"#,
        ] {
            expectJOSEError(.unsupportedHeaderParameter) {
                try JWE.decrypt(rewriteHeader(compact, header), using: .direct([.a128cbcHS256: key]))
            }
        }
    }

    @Test("missing or extra parts, padded base64url, non-empty key part for dir, bad IV length, oversize")
    func shapes() throws {
        let key = SymmetricKey(size: .bits256)
        let decryptionKey = JWEDecryptionKey.direct([.a128cbcHS256: key])
        let compact = try JWE.encrypt(Array("hello".utf8), to: .direct(key), encryption: .a128cbcHS256)
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        expectJOSEError(.malformedCompactSerialization) {
            try JWE.decrypt(parts.dropLast().joined(separator: "."), using: decryptionKey)
        }
        expectJOSEError(.malformedCompactSerialization) { try JWE.decrypt(compact + ".", using: decryptionKey) }
        expectJOSEError(.malformedCompactSerialization) { try JWE.decrypt("", using: decryptionKey) }
        for index in [0, 2, 3, 4] {
            var padded = parts
            padded[index] += "="
            expectJOSEError(.malformedBase64) { try JWE.decrypt(padded.joined(separator: "."), using: decryptionKey) }
        }
        var withKey = parts
        withKey[1] = "AAAA"
        expectJOSEError(.malformedCompactSerialization) {
            try JWE.decrypt(withKey.joined(separator: "."), using: decryptionKey)
        }
        var shortIV = parts
        shortIV[2] = Base64.urlEncode([UInt8](repeating: 0, count: 12))
        expectJOSEError(.invalidIV) { try JWE.decrypt(shortIV.joined(separator: "."), using: decryptionKey) }
        var emptyHeader = parts
        emptyHeader[0] = ""
        expectJOSEError(.malformedCompactSerialization) {
            try JWE.decrypt(emptyHeader.joined(separator: "."), using: decryptionKey)
        }
        expectJOSEError(.invalidHeader) { try JWE.decrypt(rewriteHeader(compact, "[1]"), using: decryptionKey) }
        expectJOSEError(.duplicateMember) {
            try JWE.decrypt(
                rewriteHeader(compact, #"{"alg":"dir","alg":"dir","enc":"A128CBC-HS256"}"#), using: decryptionKey)
        }
        expectJOSEError(.inputTooLarge) {
            try JWE.decrypt(compact, using: decryptionKey, expecting: .init(maxCompactBytes: 32))
        }
    }

    @Test("ECDH-ES: a missing, malformed or off-curve epk is refused")
    func badEPK() throws {
        let dsKey = P256.KeyAgreement.PrivateKey()
        let key = JWEDecryptionKey.ecdhES(dsKey, derivation: .emvco(partyVInfo: "A000000004"))
        let compact = try JWE.encrypt(
            [1], to: .ecdhES(dsKey.publicKey, derivation: .emvco(partyVInfo: "A000000004")), encryption: .a128cbcHS256)
        expectJOSEError(.invalidHeader) {
            try JWE.decrypt(rewriteHeader(compact, #"{"alg":"ECDH-ES","enc":"A128CBC-HS256"}"#), using: key)
        }
        expectJOSEError(.invalidHeader) {
            try JWE.decrypt(rewriteHeader(compact, #"{"alg":"ECDH-ES","enc":"A128CBC-HS256","epk":"x"}"#), using: key)
        }
        var epk = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey).jsonObject
        var y = try Base64.urlDecode(epk["y"]?.stringValue ?? "")
        y[0] ^= 0x80
        epk["y"] = .string(Base64.urlEncode(y))
        let header: JSONObject = ["alg": .string("ECDH-ES"), "enc": .string("A128CBC-HS256"), "epk": .object(epk)]
        expectJOSEError(.pointNotOnCurve) { try JWE.decrypt(rewriteHeader(compact, header.serialized), using: key) }
    }

    @Test("RSA-OAEP-256 refuses keys under 2048 bits and garbage keys")
    func rsaKeyPolicy() throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        expectJOSEError(.invalidKey) {
            try JWE.encrypt(
                [1], to: .rsaOAEP256(publicKeyDER: Array(small.publicKey.derRepresentation)), encryption: .a128cbcHS256)
        }
        expectJOSEError(.invalidKey) {
            try JWE.encrypt([1], to: .rsaOAEP256(publicKeyDER: [1, 2, 3]), encryption: .a128cbcHS256)
        }
        let setup = try setup(.rsa, .a128gcm)
        let compact = try JWE.encrypt([1], to: setup.recipient, encryption: .a128gcm)
        expectJOSEError(.invalidKey) { try JWE.decrypt(compact, using: .rsaOAEP256(privateKeyDER: [0x30, 0x00])) }
    }

    private func rewriteHeader(_ compact: String, _ header: String) -> String {
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[0] = Base64.urlEncode(header.utf8)
        return parts.joined(separator: ".")
    }
}
