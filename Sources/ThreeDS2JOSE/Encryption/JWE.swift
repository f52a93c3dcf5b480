import Crypto
public import Foundation
import _CryptoExtras

/// Compact JWE (RFC 7516 §7.1): `BASE64URL(header).BASE64URL(encrypted key).BASE64URL(IV).BASE64URL(ciphertext)
/// .BASE64URL(tag)`, with the algorithms of ``JWERecipient`` and ``ContentEncryption``.
public enum JWE {
    /// Bounds and expectations applied by ``decrypt(_:using:expecting:)``.
    public struct Expectations: Sendable, Hashable {
        /// What the `kid` header must be.
        public enum KeyID: Sendable, Hashable {
            /// Any `kid`, or none.
            case any
            /// Exactly this `kid`.
            case exactly(String)
        }

        /// The `enc` values accepted.
        public var encryptions: Set<ContentEncryption>
        /// The `kid` requirement.
        public var keyID: KeyID
        /// The largest compact serialization accepted, in bytes.
        public var maxCompactBytes: Int

        /// Creates expectations.
        ///
        /// - Parameters:
        ///   - encryptions: The `enc` values accepted.
        ///   - keyID: The `kid` requirement.
        ///   - maxCompactBytes: The largest compact serialization accepted, in bytes (default 512 KiB).
        public init(
            encryptions: Set<ContentEncryption> = Set(ContentEncryption.allCases), keyID: KeyID = .any,
            maxCompactBytes: Int = 512 * 1024
        ) {
            self.encryptions = encryptions
            self.keyID = keyID
            self.maxCompactBytes = maxCompactBytes
        }
    }

    /// A decrypted JWE.
    public struct Decrypted: Sendable {
        /// The protected header as sent.
        public var header: JSONObject
        /// The content encryption used.
        public var encryption: ContentEncryption
        /// The plaintext.
        public var plaintext: [UInt8]
    }

    /// The largest protected header accepted, in bytes of JSON.
    public static let maxHeaderBytes = 8 * 1024

    /// Encrypts to a compact JWE.
    ///
    /// - Parameters:
    ///   - plaintext: The plaintext.
    ///   - recipient: How the content key is agreed or transported.
    ///   - encryption: The content encryption.
    ///   - keyID: The `kid` header, when one is wanted.
    ///   - iv: The IV; random when `nil`. Pass a derived IV only when the protocol guarantees it never repeats
    ///     under the same key.
    /// - Returns: The compact serialization.
    /// - Throws: ``JOSEError`` with code `invalidKey`, `invalidIV` or `cryptographicFailure`.
    public static func encrypt(
        _ plaintext: some DataProtocol, to recipient: JWERecipient, encryption: ContentEncryption,
        keyID: String? = nil, iv: [UInt8]? = nil
    ) throws(JOSEError) -> String {
        var header = directHeader(encryption: encryption, keyID: keyID)
        header["alg"] = .string(recipient.algorithm)
        let contentKey: SymmetricKey
        var encryptedKey: [UInt8] = []
        switch recipient {
        case .direct(let key):
            contentKey = key
        case .rsaOAEP256(let publicKeyDER):
            contentKey = SymmetricKey(size: .init(bitCount: encryption.keyByteCount * 8))
            encryptedKey = try wrapRSA(contentKey, publicKeyDER: publicKeyDER)
        case .ecdhES(let recipientKey, let derivation):
            let ephemeral = P256.KeyAgreement.PrivateKey.ephemeral()
            header["epk"] = .object(P256PublicJWK(ephemeral.publicKey).jsonObject)
            if case .standard(let partyU, let partyV) = derivation {
                if !partyU.isEmpty { header["apu"] = .string(Base64.urlEncode(partyU)) }
                if !partyV.isEmpty { header["apv"] = .string(Base64.urlEncode(partyV)) }
            }
            let secret = try agree(ephemeral, with: recipientKey)
            contentKey = try derivation.contentKey(sharedSecret: secret, encryption: encryption)
        }
        return try assemble(
            encodedHeader: Base64.urlEncodedBytes(header.serializedBytes), encryptedKey: encryptedKey, plaintext,
            key: try PreparedContentKey(contentKey, for: encryption), iv: iv)
    }

    /// Seals `plaintext` and writes the compact serialization straight into one string.
    static func assemble(
        encodedHeader: [UInt8], encryptedKey: [UInt8], _ plaintext: some DataProtocol, key: PreparedContentKey,
        iv: [UInt8]?
    ) throws(JOSEError) -> String {
        let sealed = try Sealed(encodedHeader: encodedHeader, encryptedKey: encryptedKey, plaintext, key: key, iv: iv)
        return String(unsafeUninitializedCapacity: sealed.compactCount, initializingUTF8With: sealed.write)
    }

    /// A sealed message ready to be written in compact form.
    struct Sealed {
        let encodedHeader: [UInt8]
        let encryptedKey: [UInt8]
        let iv: [UInt8]
        let box: PreparedContentKey.Box

        init(
            encodedHeader: [UInt8], encryptedKey: [UInt8], _ plaintext: some DataProtocol, key: PreparedContentKey,
            iv: [UInt8]?
        ) throws(JOSEError) {
            let iv = iv ?? key.encryption.randomIV()
            try key.encryption.checkIV(iv.count)
            box = try withBytes(encodedHeader) { aad throws(JOSEError) in
                try withBytes(iv) { iv throws(JOSEError) in try key.seal(plaintext, iv: iv, aad: aad) }
            }
            self.encodedHeader = encodedHeader
            self.encryptedKey = encryptedKey
            self.iv = iv
        }

        /// The length of the compact serialization.
        var compactCount: Int {
            encodedHeader.count + 4 + Base64.encodedCount(encryptedKey.count, pad: false)
                + Base64.encodedCount(iv.count, pad: false) + Base64.encodedCount(box.ciphertext.count, pad: false)
                + Base64.encodedCount(box.tag.count, pad: false)
        }

        /// Writes the compact serialization to `output` (``compactCount`` bytes); returns the count written.
        func write(_ output: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var written = encodedHeader.withUnsafeBufferPointer { header in
                _ = output.initialize(fromContentsOf: header)
                return header.count
            }
            func append(_ bytes: UnsafeRawBufferPointer) {
                output[written] = UInt8(ascii: ".")
                written += 1
                written += Base64.urlEncode(bytes, into: UnsafeMutableBufferPointer(rebasing: output[written...]))
            }
            encryptedKey.withUnsafeBytes(append)
            iv.withUnsafeBytes(append)
            box.ciphertext.withUnsafeBytes(append)
            box.tag.withUnsafeBytes(append)
            return written
        }
    }

    /// Decrypts a compact JWE after checking its header against the key and the expectations.
    ///
    /// Order of checks: size; five parts; strict base64url for each part; header JSON; no `crit` or `zip`; `alg`
    /// equal to the key's; `enc` accepted; `kid` as expected; encrypted-key part empty for `dir` and `ECDH-ES`;
    /// IV length; then the tag (constant time), and only then decryption.
    ///
    /// - Parameters:
    ///   - compact: The compact serialization.
    ///   - key: The decryption key; it fixes the accepted `alg`.
    ///   - expectations: Accepted `enc` values, `kid` and size bound.
    /// - Returns: The header, content encryption and plaintext.
    /// - Throws: ``JOSEError`` naming the failing part or header member.
    public static func decrypt(
        _ compact: String, using key: JWEDecryptionKey, expecting expectations: Expectations = Expectations()
    ) throws(JOSEError) -> Decrypted {
        try CompactSerialization.withParts(
            compact, partCount: 5, kind: "JWE", maxBytes: expectations.maxCompactBytes
        ) { bytes, parts throws(JOSEError) in
            let headerPart = UnsafeBufferPointer(rebasing: bytes[parts[0]])
            let checked = try CheckedHeader(headerPart, algorithm: key.algorithm, expecting: expectations)
            let encrypted = try Encrypted(bytes: bytes, parts: parts, encryption: checked.encryption)
            let contentKey: SymmetricKey
            switch key {
            case .direct(let keys):
                try requireEmpty(encrypted.encryptedKey, algorithm: checked.algorithm)
                guard let directKey = keys[checked.encryption] else {
                    throw JOSEError(
                        .unexpectedEncryption, "no key is held for JWE \"enc\" \"\(checked.encryption.rawValue)\"")
                }
                contentKey = directKey
            case .rsaOAEP256(let privateKeyDER):
                contentKey = try unwrapRSA(
                    encrypted.encryptedKey, privateKeyDER: privateKeyDER, encryption: checked.encryption)
            case .ecdhES(let privateKey, let derivation):
                try requireEmpty(encrypted.encryptedKey, algorithm: checked.algorithm)
                contentKey = try agreedKey(checked, privateKey: privateKey, derivation: derivation)
            }
            let plaintext = try encrypted.open(with: try PreparedContentKey(contentKey, for: checked.encryption))
            return Decrypted(header: checked.header, encryption: checked.encryption, plaintext: plaintext)
        }
    }

    /// The protected header of a JWE, checked against the key's `alg` and the expectations.
    struct CheckedHeader: Sendable {
        var header: JSONObject
        var algorithm: String
        var encryption: ContentEncryption

        init(
            _ part: UnsafeBufferPointer<UInt8>, algorithm expectedAlgorithm: String,
            expecting expectations: Expectations
        )
            throws(JOSEError)
        {
            header = try CompactSerialization.decodeHeader(part, kind: "JWE", maxBytes: maxHeaderBytes)
            for name in ["crit", "zip"] where header[name] != nil {
                throw JOSEError(.unsupportedHeaderParameter, "JWE header \"\(name)\" is not supported")
            }
            guard let algorithm = try header.optionalString("alg") else {
                throw JOSEError(.invalidHeader, "JWE header \"alg\" is missing")
            }
            guard ["dir", "RSA-OAEP-256", "ECDH-ES"].contains(algorithm) else {
                throw JOSEError(.unsupportedAlgorithm, "JWE header \"alg\" \"\(algorithm)\" is not supported")
            }
            guard algorithm == expectedAlgorithm else {
                throw JOSEError(
                    .unexpectedAlgorithm, "JWE header \"alg\" is \"\(algorithm)\", expected \"\(expectedAlgorithm)\"")
            }
            self.algorithm = algorithm
            guard let encName = try header.optionalString("enc") else {
                throw JOSEError(.invalidHeader, "JWE header \"enc\" is missing")
            }
            guard let encryption = ContentEncryption(rawValue: encName), expectations.encryptions.contains(encryption)
            else {
                let accepted = expectations.encryptions.map(\.rawValue).sorted().joined(separator: ", ")
                throw JOSEError(
                    .unexpectedEncryption,
                    "JWE header \"enc\" \"\(encName)\" is not accepted (accepted: \(accepted))")
            }
            self.encryption = encryption
            if case .exactly(let expectedKeyID) = expectations.keyID {
                let keyID = try header.optionalString("kid")
                // Byte for byte: `String ==` would take canonically equivalent spellings as equal.
                guard let keyID, keyID.utf8.elementsEqual(expectedKeyID.utf8) else {
                    throw JOSEError(
                        .unexpectedKeyID,
                        "JWE header \"kid\" is \(keyID.map { "\"\($0)\"" } ?? "missing"), expected \"\(expectedKeyID)\""
                    )
                }
            }
        }
    }

    /// The decoded parts 2 to 5 of a compact JWE, with the IV length checked, and the encoded header as the AAD.
    /// IV, ciphertext and tag are decoded into one buffer, `IV ‖ ciphertext ‖ tag`, the layout AES-GCM opens.
    struct Encrypted {
        var aad: UnsafeBufferPointer<UInt8>
        var encryptedKey: [UInt8]
        var combined: Data
        var ivCount: Int
        var ciphertextCount: Int

        init(bytes: UnsafeBufferPointer<UInt8>, parts: [Range<Int>], encryption: ContentEncryption) throws(JOSEError) {
            aad = UnsafeBufferPointer(rebasing: bytes[parts[0]])
            let keyPart = UnsafeBufferPointer(rebasing: bytes[parts[1]])
            encryptedKey = keyPart.isEmpty ? [] : try Base64.urlDecode(keyPart, what: "JWE part 2 (encrypted key)")
            let sections = [
                (UnsafeBufferPointer(rebasing: bytes[parts[2]]), "JWE part 3 (IV)"),
                (UnsafeBufferPointer(rebasing: bytes[parts[3]]), "JWE part 4 (ciphertext)"),
                (UnsafeBufferPointer(rebasing: bytes[parts[4]]), "JWE part 5 (tag)"),
            ]
            for (symbols, what) in sections where symbols.count % 4 == 1 {
                throw Base64.error(.length, symbols: symbols, what: what)
            }
            let counts = sections.map { Base64.decodedCount($0.0.count) }
            var combined = Data(count: counts.reduce(0, +))
            let failure = combined.withUnsafeMutableBytes { output -> JOSEError? in
                var offset = 0
                for ((symbols, what), count) in zip(sections, counts) {
                    do throws(Base64.DecodeFailure) {
                        offset += try Base64.urlDecode(
                            symbols, into: UnsafeMutableRawBufferPointer(rebasing: output[offset..<offset + count]))
                    } catch {
                        return Base64.error(error, symbols: symbols, what: what)
                    }
                }
                return nil
            }
            if let failure { throw failure }
            guard encryption.acceptedIVByteCounts.contains(counts[0]) else {
                let accepted = encryption.acceptedIVByteCounts.sorted().map(String.init).joined(separator: " or ")
                throw JOSEError(
                    .invalidIV, "JWE part 3 (IV) is \(counts[0]) bytes; \(encryption.rawValue) takes \(accepted)")
            }
            self.combined = combined
            ivCount = counts[0]
            ciphertextCount = counts[1]
        }

        /// Checks the tag, then decrypts. (Valid only while the buffer the AAD points into is.)
        func open(with key: PreparedContentKey) throws(JOSEError) -> [UInt8] {
            try key.open(
                combined: combined, ivCount: ivCount, ciphertextCount: ciphertextCount, aad: UnsafeRawBufferPointer(aad)
            )
        }
    }

    private static func agreedKey(
        _ checked: CheckedHeader, privateKey: P256.KeyAgreement.PrivateKey, derivation: ECDHKeyDerivation
    ) throws(JOSEError) -> SymmetricKey {
        let header = checked.header
        guard let epkValue = header["epk"] else {
            throw JOSEError(.invalidHeader, "JWE header \"epk\" is missing for ECDH-ES")
        }
        guard case .object(let epkObject) = epkValue else {
            throw JOSEError(.invalidHeader, "JWE header \"epk\" must be a JWK object")
        }
        let epk = try P256PublicJWK(jsonObject: epkObject)
        var effective = derivation
        if case .standard = derivation {
            let partyU = try header.optionalString("apu").map { text throws(JOSEError) in
                try Base64.urlDecode(text, what: "JWE header \"apu\"")
            }
            let partyV = try header.optionalString("apv").map { text throws(JOSEError) in
                try Base64.urlDecode(text, what: "JWE header \"apv\"")
            }
            effective = .standard(partyUInfo: partyU ?? [], partyVInfo: partyV ?? [])
        }
        let secret = try agree(privateKey, with: epk.keyAgreementKey)
        return try effective.contentKey(sharedSecret: secret, encryption: checked.encryption)
    }

    private static func requireEmpty(_ encryptedKey: [UInt8], algorithm: String) throws(JOSEError) {
        guard encryptedKey.isEmpty else {
            throw JOSEError(
                .malformedCompactSerialization, "JWE part 2 (encrypted key) must be empty for \"\(algorithm)\"")
        }
    }

    private static func agree(_ privateKey: P256.KeyAgreement.PrivateKey, with publicKey: P256.KeyAgreement.PublicKey)
        throws(JOSEError) -> SharedSecret
    {
        do {
            return try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw JOSEError(.cryptographicFailure, "ECDH key agreement failed: \(error)", underlying: error)
        }
    }

    private static func wrapRSA(_ contentKey: SymmetricKey, publicKeyDER: [UInt8]) throws(JOSEError) -> [UInt8] {
        let publicKey = try RSAKeyPolicy.read(
            publicKeyDER, as: "RSA-OAEP-256 recipient key", expecting: "an RSA public key", size: \.keySizeInBits
        ) { try _RSA.Encryption.PublicKey(derRepresentation: $0) }
        do {
            return Array(
                try contentKey.withUnsafeBytes { try publicKey.encrypt(Array($0), padding: .PKCS1_OAEP_SHA256) })
        } catch {
            throw JOSEError(.cryptographicFailure, "RSA-OAEP-256 key wrapping failed: \(error)", underlying: error)
        }
    }

    /// Unwraps an RSA-OAEP-256 content key. A failed unwrap, or a key of the wrong length, is replaced by a random
    /// key (RFC 7516 §11.5), so that the failure surfaces only as a tag mismatch and leaks nothing about the
    /// padding check.
    private static func unwrapRSA(_ encryptedKey: [UInt8], privateKeyDER: [UInt8], encryption: ContentEncryption)
        throws(JOSEError) -> SymmetricKey
    {
        let privateKey = try RSAKeyPolicy.read(
            privateKeyDER, as: "RSA-OAEP-256 decryption key", expecting: "an RSA private key", checkingSize: false,
            size: \.keySizeInBits
        ) { try _RSA.Encryption.PrivateKey(derRepresentation: $0) }
        guard !encryptedKey.isEmpty else {
            throw JOSEError(.malformedCompactSerialization, "JWE part 2 (encrypted key) is empty for \"RSA-OAEP-256\"")
        }
        let random = SymmetricKey(size: .init(bitCount: encryption.keyByteCount * 8))
        guard let unwrapped = try? privateKey.decrypt(encryptedKey, padding: .PKCS1_OAEP_SHA256),
            unwrapped.count == encryption.keyByteCount
        else { return random }
        return SymmetricKey(data: unwrapped)
    }
}
