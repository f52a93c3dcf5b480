public import Crypto
public import Foundation
import _CryptoExtras

/// A JWE content-encryption algorithm (`enc`, RFC 7518 §5).
public enum ContentEncryption: String, Sendable, Hashable, CaseIterable {
    /// AES-128-CBC with HMAC-SHA-256 truncated to 128 bits (RFC 7518 §5.2.3): a 32-byte key whose first half is
    /// the MAC key and second half the AES key.
    case a128cbcHS256 = "A128CBC-HS256"
    /// AES-128-GCM (RFC 7518 §5.3): a 16-byte key.
    case a128gcm = "A128GCM"

    /// The content-encryption key length in bytes.
    public var keyByteCount: Int {
        switch self {
        case .a128cbcHS256: 32
        case .a128gcm: 16
        }
    }

    /// The IV length in bytes.
    public var ivByteCount: Int {
        switch self {
        case .a128cbcHS256: 16
        case .a128gcm: 12
        }
    }

    /// The authentication-tag length in bytes.
    public var tagByteCount: Int { 16 }

    /// The output of content encryption.
    public struct Sealed: Sendable, Hashable {
        /// The ciphertext.
        public var ciphertext: [UInt8]
        /// The authentication tag.
        public var tag: [UInt8]
    }

    /// A fresh random IV of the right length.
    public func randomIV() -> [UInt8] {
        // swift-crypto's generator (BoringSSL's RAND_bytes) serves this from user space; drawing byte by byte
        // from SystemRandomNumberGenerator would cost one system call per byte.
        SymmetricKey(size: .init(bitCount: ivByteCount * 8)).withUnsafeBytes { Array($0) }
    }

    /// Encrypts and authenticates.
    ///
    /// - Parameters:
    ///   - plaintext: The plaintext.
    ///   - key: The content-encryption key, ``keyByteCount`` bytes.
    ///   - iv: The IV, ``ivByteCount`` bytes. It must never repeat under the same key.
    ///   - aad: The additional authenticated data (for JWE, the ASCII of the encoded protected header).
    /// - Returns: Ciphertext and tag.
    /// - Throws: ``JOSEError`` with code `invalidKey`, `invalidIV` or `cryptographicFailure`.
    public func seal(
        _ plaintext: some DataProtocol, key: SymmetricKey, iv: [UInt8], aad: [UInt8]
    ) throws(JOSEError) -> Sealed {
        try checkSizes(key: key, iv: iv)
        do {
            switch self {
            case .a128cbcHS256:
                let (macKey, encryptionKey) = splitCBCKey(key)
                let ciphertext = try AES._CBC.encrypt(plaintext, using: encryptionKey, iv: AES._CBC.IV(ivBytes: iv))
                let tag = Self.cbcTag(macKey: macKey, aad: aad, iv: iv, ciphertext: ciphertext)
                return Sealed(ciphertext: Array(ciphertext), tag: tag)
            case .a128gcm:
                let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: aad)
                return Sealed(ciphertext: Array(box.ciphertext), tag: Array(box.tag))
            }
        } catch {
            throw JOSEError(.cryptographicFailure, "\(rawValue) encryption failed: \(error)")
        }
    }

    /// Checks the tag, then decrypts.
    ///
    /// For A128CBC-HS256 the HMAC tag is compared in constant time before any decryption, so a forged
    /// ciphertext never reaches the padding check. For A128GCM the tag is verified by the AEAD open.
    ///
    /// - Parameters:
    ///   - ciphertext: The ciphertext.
    ///   - tag: The authentication tag.
    ///   - key: The content-encryption key.
    ///   - iv: The IV.
    ///   - aad: The additional authenticated data.
    /// - Returns: The plaintext.
    /// - Throws: ``JOSEError`` with code `authenticationFailed` (tag mismatch), `decryptionFailed`, `invalidKey`
    ///   or `invalidIV`.
    public func open(
        ciphertext: [UInt8], tag: [UInt8], key: SymmetricKey, iv: [UInt8], aad: [UInt8]
    ) throws(JOSEError) -> [UInt8] {
        try checkSizes(key: key, iv: iv)
        guard tag.count == tagByteCount else {
            throw JOSEError(.authenticationFailed, "\(rawValue) tag is \(tag.count) bytes, expected \(tagByteCount)")
        }
        switch self {
        case .a128cbcHS256:
            let (macKey, encryptionKey) = splitCBCKey(key)
            let expected = Self.cbcTag(macKey: macKey, aad: aad, iv: iv, ciphertext: ciphertext)
            guard ConstantTime.equal(expected, tag) else {
                throw JOSEError(.authenticationFailed, "A128CBC-HS256 authentication tag does not match")
            }
            do {
                return Array(try AES._CBC.decrypt(ciphertext, using: encryptionKey, iv: AES._CBC.IV(ivBytes: iv)))
            } catch {
                throw JOSEError(.decryptionFailed, "A128CBC-HS256 ciphertext did not decrypt (padding)")
            }
        case .a128gcm:
            do {
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: key, authenticating: aad))
            } catch {
                throw JOSEError(.authenticationFailed, "A128GCM authentication tag does not match")
            }
        }
    }

    private func checkSizes(key: SymmetricKey, iv: [UInt8]) throws(JOSEError) {
        guard key.bitCount == keyByteCount * 8 else {
            throw JOSEError(.invalidKey, "\(rawValue) needs a \(keyByteCount)-byte key, got \(key.bitCount / 8) bytes")
        }
        guard iv.count == ivByteCount else {
            throw JOSEError(.invalidIV, "\(rawValue) needs a \(ivByteCount)-byte IV, got \(iv.count) bytes")
        }
    }

    private func splitCBCKey(_ key: SymmetricKey) -> (mac: SymmetricKey, encryption: SymmetricKey) {
        key.withUnsafeBytes { bytes in
            (SymmetricKey(data: bytes[0..<16]), SymmetricKey(data: bytes[16..<32]))
        }
    }

    /// RFC 7518 §5.2.2.1: the first 16 bytes of HMAC-SHA-256(MAC_KEY, AAD ‖ IV ‖ ciphertext ‖ AL), where AL is the
    /// AAD length in bits as a 64-bit big-endian integer.
    private static func cbcTag(macKey: SymmetricKey, aad: [UInt8], iv: [UInt8], ciphertext: some DataProtocol)
        -> [UInt8]
    {
        var hmac = HMAC<SHA256>(key: macKey)
        hmac.update(data: aad)
        hmac.update(data: iv)
        hmac.update(data: ciphertext)
        let aadBits = UInt64(aad.count) * 8
        hmac.update(data: (0..<8).map { UInt8(truncatingIfNeeded: aadBits >> (56 - 8 * UInt64($0))) })
        return Array(Array(hmac.finalize()).prefix(16))
    }
}

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// Whether two byte strings are equal, examining every byte of both regardless of where they differ.
    ///
    /// - Parameters:
    ///   - lhs: The first bytes.
    ///   - rhs: The second bytes.
    /// - Returns: `true` when the lengths and all bytes are equal.
    public static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
