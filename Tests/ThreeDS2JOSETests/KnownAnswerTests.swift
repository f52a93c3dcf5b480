import Crypto
import Testing
import ThreeDS2JOSE

@Suite("Known-answer vectors")
struct KnownAnswerTests {
    @Test("RFC 7518 Appendix C: ECDH-ES Concat KDF")
    func rfc7518ConcatKDF() throws {
        let vector = Vectors.entry("rfc7518_appendix_c_ecdh_es")
        let ephemeral = try privateKey(fromJWK: vector.object("ephemeral_private_jwk"))
        let recipient = try privateKey(fromJWK: vector.object("recipient_private_jwk"))
        // The public halves in the vector are the ones the private keys imply.
        #expect(
            P256PublicJWK(ephemeral.publicKey)
                == (try P256PublicJWK(jsonObject: removingD(vector.object("ephemeral_private_jwk")))))
        let z = try ephemeral.sharedSecretFromKeyAgreement(with: recipient.publicKey).withUnsafeBytes { Array($0) }
        #expect(z == vector.hex("z_hex"))
        let key = try ConcatKDF.deriveKey(
            sharedSecret: z, keyLengthBits: 128, algorithmID: Array(vector.string("algorithm_id").utf8),
            partyUInfo: Array(vector.string("party_u_info").utf8), partyVInfo: Array(vector.string("party_v_info").utf8)
        )
        #expect(key == (try vector.bytes("derived_key")))
    }

    @Test("RFC 7520 §5.6: dir + A128GCM decrypts with the expected kid")
    func rfc7520DirectGCM() throws {
        let vector = Vectors.entry("rfc7520_5_6_dir_a128gcm")
        let key = SymmetricKey(data: try vector.bytes("key"))
        let result = try JWE.decrypt(
            vector.string("compact"), using: .direct([.a128gcm: key]),
            expecting: .init(encryptions: [.a128gcm], keyID: .exactly("77c7e2b8-6e13-45cf-8672-617b5b45243a")))
        #expect(String(decoding: result.plaintext, as: UTF8.self) == vector.string("plaintext_utf8"))
        #expect(result.encryption == .a128gcm)
        #expect(result.header.names == ["alg", "kid", "enc"])
    }

    @Test("RFC 7516 A.3: A128CBC-HS256 content layer, both directions")
    func rfc7516ContentLayer() throws {
        let vector = Vectors.entry("rfc7516_a3_a128cbc_hs256_content")
        let key = SymmetricKey(data: vector.hex("cek_hex"))
        let aad = Array(vector.string("protected").utf8)
        let iv = try vector.bytes("iv")
        let plaintext = Array(vector.string("plaintext_utf8").utf8)
        let sealed = try ContentEncryption.a128cbcHS256.seal(plaintext, key: key, iv: iv, aad: aad)
        #expect(sealed.ciphertext == (try vector.bytes("ciphertext")))
        #expect(sealed.tag == (try vector.bytes("tag")))
        let opened = try ContentEncryption.a128cbcHS256.open(
            ciphertext: try vector.bytes("ciphertext"), tag: try vector.bytes("tag"), key: key, iv: iv, aad: aad)
        #expect(opened == plaintext)
    }

    @Test("RFC 7515 A.3: ES256 signature verifies with the given key, and fails when altered")
    func rfc7515ES256() throws {
        let vector = Vectors.entry("rfc7515_a3_es256")
        let jwk = try P256PublicJWK(jsonObject: vector.object("public_jwk"))
        let compact = vector.string("compact")
        let verified = try JWS.verify(compact, using: .es256(jwk.signingKey))
        #expect(verified.algorithm == .es256)
        #expect(String(decoding: verified.payload, as: UTF8.self).hasPrefix("{\"iss\":\"joe\""))
        expectJOSEError(.invalidSignature) {
            try JWS.verify(try tamper(compact, part: 2), using: .es256(jwk.signingKey))
        }
        expectJOSEError(.invalidSignature) {
            try JWS.verify(try tamper(compact, part: 1), using: .es256(jwk.signingKey))
        }
    }

    @Test("EMVCo SDK–ACS channel example: Z, the 32-byte key, and its two A128GCM halves")
    func emvcoChannel() throws {
        let vector = Vectors.entry("emvco_sdk_acs_channel")
        let sdkKey = try privateKey(fromJWK: vector.object("sdk_ephemeral_private_jwk"))
        let acsKey = try P256PublicJWK(jsonObject: vector.object("acs_ephemeral_public_jwk"))
        let secret = try sdkKey.sharedSecretFromKeyAgreement(with: acsKey.keyAgreementKey)
        #expect(secret.withUnsafeBytes { Array($0) } == vector.hex("z_hex"))
        let cek = ConcatKDF.emvcoKey(
            sharedSecret: secret.withUnsafeBytes { Array($0) }, partyVInfo: vector.string("sdk_reference_number"))
        let cekBytes = cek.withUnsafeBytes { Array($0) }
        #expect(cekBytes == vector.hex("cek_hex"))
        #expect(Array(cekBytes.prefix(16)) == vector.hex("a128gcm_sdk_to_acs_key_hex"))
        #expect(Array(cekBytes.suffix(16)) == vector.hex("a128gcm_acs_to_sdk_key_hex"))
    }

    @Test("EMVCo device-data variant: PartyVInfo is the directory server ID")
    func emvcoDeviceData() throws {
        let channel = Vectors.entry("emvco_sdk_acs_channel")
        let vector = Vectors.entry("emvco_device_data_ecdh_es")
        let sdkKey = try privateKey(fromJWK: channel.object("sdk_ephemeral_private_jwk"))
        let dsKey = try P256PublicJWK(jsonObject: channel.object("acs_ephemeral_public_jwk"))
        let z = try sdkKey.sharedSecretFromKeyAgreement(with: dsKey.keyAgreementKey).withUnsafeBytes { Array($0) }
        let cek = ConcatKDF.emvcoKey(sharedSecret: z, partyVInfo: vector.string("directory_server_id"))
        #expect(cek.withUnsafeBytes { Array($0) } == vector.hex("cek_hex"))
    }

    private func removingD(_ jwk: JSONObject) -> JSONObject {
        var copy = jwk
        copy["d"] = nil
        return copy
    }
}
