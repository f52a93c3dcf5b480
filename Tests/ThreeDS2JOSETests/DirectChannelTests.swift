import Crypto
import Testing
import ThreeDS2JOSE

@Suite("Prepared dir encrypter and decrypter")
struct DirectChannelTests {
    private func key(_ encryption: ContentEncryption) -> SymmetricKey {
        SymmetricKey(size: .init(bitCount: encryption.keyByteCount * 8))
    }

    @Test("byte for byte what JWE.encrypt writes, as a string or as bytes", arguments: ContentEncryption.allCases)
    func sameOutput(encryption: ContentEncryption) throws {
        let key = key(encryption)
        let iv = [UInt8](repeating: 0x2A, count: encryption.ivByteCount)
        let encrypter = try JWE.DirectEncrypter(key: key, encryption: encryption, keyID: "acs-1")
        for length in [0, 1, 2, 3, 15, 16, 17, 1024] {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let reference = try JWE.encrypt(plaintext, to: .direct(key), encryption: encryption, keyID: "acs-1", iv: iv)
            #expect(try encrypter.encrypt(plaintext, iv: iv) == reference)
            #expect(try encrypter.encryptedBytes(plaintext, iv: iv) == Array(reference.utf8))
            let decrypted = try JWE.decrypt(reference, using: .direct([encryption: key]))
            #expect(decrypted.plaintext == plaintext)
        }
        // Without an IV each message gets a fresh random one.
        #expect(try encrypter.encrypt([1]) != encrypter.encrypt([1]))
    }

    /// A `dir` A128GCM JWE sealed with an IV of any length, as an ACS may build it.
    private func gcmCompact(_ plaintext: [UInt8], key: SymmetricKey, iv: [UInt8]) throws -> String {
        let header = Base64.urlEncode(#"{"alg":"dir","enc":"A128GCM","kid":"acs"}"#.utf8)
        let box = try AES.GCM.seal(
            plaintext, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: Array(header.utf8))
        return [header, "", Base64.urlEncode(iv), Base64.urlEncode(box.ciphertext), Base64.urlEncode(box.tag)]
            .joined(separator: ".")
    }

    @Test("A128GCM CRes IVs of 12 and 16 bytes are accepted (the EMVCo sample derives 16); others are refused")
    func gcmIVLengths() throws {
        let key = key(.a128gcm)
        let decrypter = try JWE.DirectDecrypter(keys: [.a128gcm: key], expecting: .init(keyID: .exactly("acs")))
        // The ACS-to-SDK IV of the SDK Technical Guide's sample: 0xFF bytes, the counter in the last byte.
        let emvcoIV = [UInt8](repeating: 0xFF, count: 15) + [0x01]
        for iv in [[UInt8](repeating: 7, count: 12), emvcoIV] {
            let compact = try gcmCompact(Array("cres".utf8), key: key, iv: iv)
            #expect(try decrypter.decrypt(compact).plaintext == Array("cres".utf8), "\(iv.count)-byte IV")
            #expect(try JWE.decrypt(compact, using: .direct([.a128gcm: key])).plaintext == Array("cres".utf8))
            var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var tag = try Base64.urlDecode(parts[4])
            tag[0] ^= 1
            parts[4] = Base64.urlEncode(tag)
            expectJOSEError(.authenticationFailed) { try decrypter.decrypt(parts.joined(separator: ".")) }
        }
        let good = try gcmCompact([1], key: key, iv: [UInt8](repeating: 1, count: 12))
            .split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for count in [8, 13, 32] {
            var parts = good
            parts[2] = Base64.urlEncode([UInt8](repeating: 1, count: count))
            expectJOSEError(.invalidIV) { try decrypter.decrypt(parts.joined(separator: ".")) }
        }
        // The SDK still sends 12 bytes, and CBC takes only 16.
        expectJOSEError(.invalidIV) {
            try JWE.DirectEncrypter(key: key, encryption: .a128gcm).encrypt([1], iv: emvcoIV)
        }
        #expect(ContentEncryption.a128cbcHS256.acceptedIVByteCounts == [16])
    }

    @Test("the RFC 7520 §5.6 vector decrypts through the prepared decrypter too")
    func knownAnswer() throws {
        let vector = Vectors.entry("rfc7520_5_6_dir_a128gcm")
        let key = SymmetricKey(data: try vector.bytes("key"))
        let decrypter = try JWE.DirectDecrypter(
            keys: [.a128gcm: key], expecting: .init(keyID: .exactly("77c7e2b8-6e13-45cf-8672-617b5b45243a")))
        let compact = vector.string("compact")
        let expected = Array(vector.string("plaintext_utf8").utf8)
        #expect(try decrypter.decrypt(compact).plaintext == expected)
        #expect(try decrypter.decrypt(bytes: Array(compact.utf8)).plaintext == expected)
    }

    @Test("every refusal of JWE.decrypt is a refusal here, with the same code", arguments: ContentEncryption.allCases)
    func sameRefusals(encryption: ContentEncryption) throws {
        let key = key(encryption)
        let good = try JWE.encrypt(Array("hello".utf8), to: .direct(key), encryption: encryption, keyID: "k")
        let parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func replacing(_ index: Int, with value: String) -> String {
            var copy = parts
            copy[index] = value
            return copy.joined(separator: ".")
        }
        let other = try JWE.encrypt([1], to: .direct(key), encryption: encryption, keyID: "other")
        let bad: [String] = [
            try tamper(good, part: 4), try tamper(good, part: 3), try tamper(good, part: 2), other,
            replacing(0, with: Base64.urlEncode(#"{"alg":"dir","enc":"\#(encryption.rawValue)"}"#.utf8)),
            replacing(0, with: Base64.urlEncode(#"{"alg":"RSA-OAEP-256","enc":"A128GCM","kid":"k"}"#.utf8)),
            replacing(0, with: Base64.urlEncode(#"{"alg":"dir","enc":"A128GCM","kid":"k","zip":"DEF"}"#.utf8)),
            replacing(1, with: "AAAA"), replacing(2, with: "AAAA"), replacing(3, with: parts[3] + "="),
            replacing(4, with: "A"), parts.dropLast().joined(separator: "."), good + ".", "",
        ]
        let expectations = JWE.Expectations(keyID: .exactly("k"))
        let decrypter = try JWE.DirectDecrypter(keys: [encryption: key], expecting: expectations)
        for (index, compact) in bad.enumerated() {
            // Alternate with a good message: a refusal leaves the decrypter usable.
            #expect(try decrypter.decrypt(good).plaintext == Array("hello".utf8))
            let reference: JOSEError
            do {
                _ = try JWE.decrypt(compact, using: .direct([encryption: key]), expecting: expectations)
                Issue.record("case \(index) was accepted by JWE.decrypt")
                continue
            } catch {
                reference = error
            }
            let prepared = expectJOSEError(reference.code) { try decrypter.decrypt(bytes: Array(compact.utf8)) }
            #expect(prepared?.message == reference.message, "case \(index)")
        }
    }

    @Test("a message with another enc, or without a key for its enc, or under another key, is refused")
    func otherEncAndKey() throws {
        let cbc = key(.a128cbcHS256)
        let decrypter = try JWE.DirectDecrypter(keys: [.a128cbcHS256: cbc], expecting: .init(keyID: .exactly("k")))
        let first = try JWE.encrypt([1], to: .direct(cbc), encryption: .a128cbcHS256, keyID: "k")
        #expect(try decrypter.decrypt(first).plaintext == [1])
        let gcm = try JWE.encrypt([2], to: .direct(key(.a128gcm)), encryption: .a128gcm, keyID: "k")
        expectJOSEError(.unexpectedEncryption) { try decrypter.decrypt(gcm) }
        // The same header with another key's ciphertext: the tag check still runs.
        let foreign = try JWE.encrypt([3], to: .direct(key(.a128cbcHS256)), encryption: .a128cbcHS256, keyID: "k")
        expectJOSEError(.authenticationFailed) { try decrypter.decrypt(foreign) }
        #expect(try decrypter.decrypt(first).plaintext == [1])
    }

    @Test("a key of the wrong length is refused when the encrypter or decrypter is made")
    func keyLength() {
        expectJOSEError(.invalidKey) {
            try JWE.DirectEncrypter(key: SymmetricKey(size: .bits128), encryption: .a128cbcHS256)
        }
        expectJOSEError(.invalidKey) {
            try JWE.DirectDecrypter(keys: [.a128gcm: SymmetricKey(size: .bits256)], expecting: .init())
        }
        expectJOSEError(.invalidIV) {
            try JWE.DirectEncrypter(key: SymmetricKey(size: .bits128), encryption: .a128gcm).encrypt([1], iv: [0])
        }
    }
}
