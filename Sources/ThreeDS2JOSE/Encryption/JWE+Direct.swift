public import Crypto
public import Foundation

extension JWE {
    /// The protected header of a `dir` JWE: `{"alg":"dir","enc":…,"kid":…}`.
    static func directHeader(encryption: ContentEncryption, keyID: String?) -> JSONObject {
        var header: JSONObject = ["alg": .string("dir"), "enc": .string(encryption.rawValue)]
        if let keyID { header["kid"] = .string(keyID) }
        return header
    }

    /// Encrypts `dir` JWEs under one key for the life of a channel. The key is checked and split once and the
    /// protected header built and encoded once; each message then costs its cipher, its MAC and its base64url.
    ///
    /// The output is byte for byte what ``JWE/encrypt(_:to:encryption:keyID:iv:)`` produces with
    /// ``JWERecipient/direct(_:)`` and the same IV.
    public struct DirectEncrypter: Sendable {
        /// The content encryption.
        public let encryption: ContentEncryption
        private let key: PreparedContentKey
        private let encodedHeader: [UInt8]

        /// Prepares an encrypter.
        ///
        /// - Parameters:
        ///   - key: The content-encryption key, ``ContentEncryption/keyByteCount`` bytes.
        ///   - encryption: The content encryption.
        ///   - keyID: The `kid` header, when one is wanted.
        /// - Throws: ``JOSEError`` with code `invalidKey` when the key length does not fit `encryption`.
        public init(key: SymmetricKey, encryption: ContentEncryption, keyID: String? = nil) throws(JOSEError) {
            self.encryption = encryption
            self.key = try PreparedContentKey(key, for: encryption)
            encodedHeader = Base64.urlEncodedBytes(directHeader(encryption: encryption, keyID: keyID).serializedBytes)
        }

        /// Encrypts one message.
        ///
        /// - Parameters:
        ///   - plaintext: The plaintext.
        ///   - iv: The IV; random when `nil`. Pass a derived IV only when the protocol guarantees it never repeats
        ///     under this key.
        /// - Returns: The compact serialization.
        /// - Throws: ``JOSEError`` with code `invalidIV` or `cryptographicFailure`.
        public func encrypt(_ plaintext: some DataProtocol, iv: [UInt8]? = nil) throws(JOSEError) -> String {
            try assemble(encodedHeader: encodedHeader, encryptedKey: [], plaintext, key: key, iv: iv)
        }

        /// Encrypts one message to the ASCII bytes of its compact serialization, ready for an HTTP body.
        ///
        /// - Parameters:
        ///   - plaintext: The plaintext.
        ///   - iv: The IV; random when `nil`.
        /// - Returns: The compact serialization as bytes.
        /// - Throws: ``JOSEError`` with code `invalidIV` or `cryptographicFailure`.
        public func encryptedBytes(_ plaintext: some DataProtocol, iv: [UInt8]? = nil) throws(JOSEError) -> [UInt8] {
            let sealed = try Sealed(encodedHeader: encodedHeader, encryptedKey: [], plaintext, key: key, iv: iv)
            return [UInt8](unsafeUninitializedCapacity: sealed.compactCount) { output, initialized in
                initialized = sealed.write(output)
            }
        }
    }

    /// Decrypts `dir` JWEs with fixed keys and expectations for the life of a channel.
    ///
    /// It runs every check ``JWE/decrypt(_:using:expecting:)`` runs, on every message.
    public struct DirectDecrypter: Sendable {
        /// The expectations every message is held to.
        public let expectations: Expectations
        private let cbcKey: PreparedContentKey?
        private let gcmKey: PreparedContentKey?

        /// Prepares a decrypter.
        ///
        /// - Parameters:
        ///   - keys: One key per accepted `enc`; a message whose `enc` has no key here is refused.
        ///   - expectations: Accepted `enc` values, `kid` and size bound.
        /// - Throws: ``JOSEError`` with code `invalidKey` when a key's length does not fit its `enc`.
        public init(keys: [ContentEncryption: SymmetricKey], expecting expectations: Expectations) throws(JOSEError) {
            self.expectations = expectations
            cbcKey = try keys[.a128cbcHS256].map { key throws(JOSEError) in
                try PreparedContentKey(key, for: .a128cbcHS256)
            }
            gcmKey = try keys[.a128gcm].map { key throws(JOSEError) in try PreparedContentKey(key, for: .a128gcm) }
        }

        /// Decrypts one message.
        ///
        /// - Parameter compact: The compact serialization.
        /// - Returns: The header, content encryption and plaintext.
        /// - Throws: ``JOSEError`` naming the failing part or header member.
        public func decrypt(_ compact: String) throws(JOSEError) -> Decrypted {
            var text = compact
            let result: Result<Decrypted, JOSEError> = text.withUTF8 { bytes in
                do throws(JOSEError) { return .success(try decrypt(buffer: bytes)) } catch { return .failure(error) }
            }
            return try result.get()
        }

        /// Decrypts one message given as the bytes of its compact serialization (an HTTP body as received).
        ///
        /// - Parameter compact: The compact serialization as bytes.
        /// - Returns: The header, content encryption and plaintext.
        /// - Throws: ``JOSEError`` naming the failing part or header member.
        public func decrypt(bytes compact: [UInt8]) throws(JOSEError) -> Decrypted {
            let result: Result<Decrypted, JOSEError> = compact.withUnsafeBufferPointer { bytes in
                do throws(JOSEError) { return .success(try decrypt(buffer: bytes)) } catch { return .failure(error) }
            }
            return try result.get()
        }

        private func decrypt(buffer: UnsafeBufferPointer<UInt8>) throws(JOSEError) -> Decrypted {
            try CompactSerialization.withParts(
                buffer, partCount: 5, kind: "JWE", maxBytes: expectations.maxCompactBytes
            ) { bytes, parts throws(JOSEError) in
                let checked = try CheckedHeader(
                    UnsafeBufferPointer(rebasing: bytes[parts[0]]), algorithm: "dir", expecting: expectations)
                let encrypted = try Encrypted(bytes: bytes, parts: parts, encryption: checked.encryption)
                guard encrypted.encryptedKey.isEmpty else {
                    throw JOSEError(
                        .malformedCompactSerialization, "JWE part 2 (encrypted key) must be empty for \"dir\"")
                }
                guard let key = checked.encryption == .a128gcm ? gcmKey : cbcKey else {
                    throw JOSEError(
                        .unexpectedEncryption, "no key is held for JWE \"enc\" \"\(checked.encryption.rawValue)\"")
                }
                let plaintext = try encrypted.open(with: key)
                return Decrypted(header: checked.header, encryption: checked.encryption, plaintext: plaintext)
            }
        }
    }
}
