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

    /// The IV length in bytes this layer sends.
    public var ivByteCount: Int {
        switch self {
        case .a128cbcHS256: 16
        case .a128gcm: 12
        }
    }

    /// The IV lengths accepted on decryption. GCM is defined for any IV length and the EMVCo SDK Technical Guide's
    /// channel sample derives a 16-byte GCM IV, which ACSs send; 12 bytes is what RFC 7518 asks of senders.
    public var acceptedIVByteCounts: Set<Int> {
        switch self {
        case .a128cbcHS256: [16]
        case .a128gcm: [12, 16]
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
        let prepared = try PreparedContentKey(key, for: self)
        try checkIV(iv.count)
        let box = try withBytes(aad) { aad throws(JOSEError) in
            try withBytes(iv) { iv throws(JOSEError) in try prepared.seal(plaintext, iv: iv, aad: aad) }
        }
        return Sealed(ciphertext: Array(box.ciphertext), tag: Array(box.tag))
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
        let prepared = try PreparedContentKey(key, for: self)
        try checkIV(iv.count)
        return try withBytes(aad) { aad throws(JOSEError) in
            try withBytes(iv) { iv throws(JOSEError) in
                try withBytes(ciphertext) { ciphertext throws(JOSEError) in
                    try withBytes(tag) { tag throws(JOSEError) in
                        try prepared.open(ciphertext: ciphertext, tag: tag, iv: iv, aad: aad)
                    }
                }
            }
        }
    }

    func checkIV(_ count: Int) throws(JOSEError) {
        guard count == ivByteCount else {
            throw JOSEError(.invalidIV, "\(rawValue) needs a \(ivByteCount)-byte IV, got \(count) bytes")
        }
    }
}

/// `body` over the bytes of `array`, keeping the typed error (`Array.withUnsafeBytes` rethrows untyped).
func withBytes<R>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(JOSEError) -> R) throws(JOSEError) -> R {
    let result: Result<R, JOSEError> = array.withUnsafeBytes { buffer in
        do throws(JOSEError) { return .success(try body(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
}

/// A content-encryption key checked for its algorithm once and split once (the MAC and AES halves of
/// A128CBC-HS256), for use on every message of a channel.
struct PreparedContentKey: Sendable {
    let encryption: ContentEncryption
    private let key: SymmetricKey
    private let aesKey: SymmetricKey
    /// HMAC keyed once: each tag starts from a copy of this state (copy-on-write), so the key schedule of the MAC
    /// is not redone per message.
    private let keyedHMAC: HMAC<SHA256>?

    init(_ key: SymmetricKey, for encryption: ContentEncryption) throws(JOSEError) {
        guard key.bitCount == encryption.keyByteCount * 8 else {
            throw JOSEError(
                .invalidKey,
                "\(encryption.rawValue) needs a \(encryption.keyByteCount)-byte key, got \(key.bitCount / 8) bytes")
        }
        self.encryption = encryption
        self.key = key
        switch encryption {
        case .a128cbcHS256:
            let (macKey, aesKey) = key.withUnsafeBytes {
                (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32]))
            }
            self.aesKey = aesKey
            keyedHMAC = HMAC<SHA256>(key: macKey)
        case .a128gcm:
            aesKey = key
            keyedHMAC = nil  // GCM authenticates itself
        }
    }

    /// Ciphertext and tag, as swift-crypto returns them (no copies).
    struct Box {
        var ciphertext: Data
        var tag: Data
    }

    /// Encrypts; the IV length must already be checked.
    func seal(_ plaintext: some DataProtocol, iv: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer)
        throws(JOSEError) -> Box
    {
        do {
            switch encryption {
            case .a128cbcHS256:
                let ciphertext = try AES._CBC.encrypt(plaintext, using: aesKey, iv: AES._CBC.IV(ivBytes: iv))
                let tag = ciphertext.withUnsafeBytes { cbcTag(aad: aad, iv: iv, ciphertext: $0) }
                return Box(ciphertext: ciphertext, tag: tag)
            case .a128gcm:
                let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv), authenticating: aad)
                return Box(ciphertext: box.ciphertext, tag: box.tag)
            }
        } catch {
            throw JOSEError(
                .cryptographicFailure, "\(encryption.rawValue) encryption failed: \(error)", underlying: error)
        }
    }

    /// Checks the tag (constant time for CBC, by the AEAD for GCM), then decrypts; the IV length must already be
    /// checked.
    func open(
        ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer
    ) throws(JOSEError) -> [UInt8] {
        let name = encryption.rawValue
        guard tag.count == encryption.tagByteCount else {
            throw JOSEError(
                .authenticationFailed, "\(name) tag is \(tag.count) bytes, expected \(encryption.tagByteCount)")
        }
        switch encryption {
        case .a128cbcHS256:
            let expected = cbcTag(aad: aad, iv: iv, ciphertext: ciphertext)
            guard expected.withUnsafeBytes({ ConstantTime.equal($0, tag) }) else {
                throw JOSEError(.authenticationFailed, "A128CBC-HS256 authentication tag does not match")
            }
            do {
                return Array(try AES._CBC.decrypt(ciphertext, using: aesKey, iv: AES._CBC.IV(ivBytes: iv)))
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

    /// ``open(ciphertext:tag:iv:aad:)`` over `IV ‖ ciphertext ‖ tag` in one buffer (the IV length already checked).
    func open(combined: Data, ivCount: Int, ciphertextCount: Int, aad: UnsafeRawBufferPointer) throws(JOSEError)
        -> [UInt8]
    {
        let tagCount = combined.count - ivCount - ciphertextCount
        if encryption == .a128gcm, tagCount == encryption.tagByteCount, ivCount == encryption.ivByteCount {
            do {
                return Array(try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: aad))
            } catch {
                throw JOSEError(.authenticationFailed, "A128GCM authentication tag does not match")
            }
        }
        let result: Result<[UInt8], JOSEError> = combined.withUnsafeBytes { all in
            do throws(JOSEError) {
                return .success(
                    try open(
                        ciphertext: UnsafeRawBufferPointer(rebasing: all[ivCount..<ivCount + ciphertextCount]),
                        tag: UnsafeRawBufferPointer(rebasing: all[(ivCount + ciphertextCount)...]),
                        iv: UnsafeRawBufferPointer(rebasing: all[..<ivCount]), aad: aad))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// RFC 7518 §5.2.2.1: the first 16 bytes of HMAC-SHA-256(MAC_KEY, AAD ‖ IV ‖ ciphertext ‖ AL), where AL is the
    /// AAD length in bits as a 64-bit big-endian integer.
    private func cbcTag(aad: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer)
        -> Data
    {
        var hmac = keyedHMAC ?? HMAC<SHA256>(key: key)
        hmac.update(data: aad)
        hmac.update(data: iv)
        hmac.update(data: ciphertext)
        withUnsafeBytes(of: (UInt64(aad.count) * 8).bigEndian) { hmac.update(data: $0) }
        return hmac.finalize().withUnsafeBytes { Data($0.prefix(16)) }
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
        lhs.withUnsafeBytes { lhs in rhs.withUnsafeBytes { rhs in equal(lhs, rhs) } }
    }

    /// Whether two byte buffers are equal, examining every byte of both regardless of where they differ.
    ///
    /// - Parameters:
    ///   - lhs: The first bytes.
    ///   - rhs: The second bytes.
    /// - Returns: `true` when the lengths and all bytes are equal.
    public static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
