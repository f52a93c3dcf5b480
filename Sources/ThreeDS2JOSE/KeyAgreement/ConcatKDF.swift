public import Crypto
public import Foundation

/// The single-step key derivation of NIST SP 800-56A §5.8.1 ("Concat KDF") with SHA-256, as RFC 7518 §4.6.2
/// uses it.
///
/// `DerivedKey = H(counter₁ ‖ Z ‖ OtherInfo) ‖ H(counter₂ ‖ Z ‖ OtherInfo) ‖ …`, truncated to the key length, where
/// `OtherInfo = AlgorithmID ‖ PartyUInfo ‖ PartyVInfo ‖ SuppPubInfo`; the first three are each a 32-bit big-endian
/// length followed by the bytes, and SuppPubInfo is the key length in bits as a 32-bit big-endian integer.
public enum ConcatKDF {
    /// The largest key this derivation produces, in bits. Far above any JOSE need; it bounds the loop.
    public static let maxKeyLengthBits = 8192

    /// Derives a key.
    ///
    /// - Parameters:
    ///   - sharedSecret: Z, the ECDH shared secret.
    ///   - keyLengthBits: The key length in bits, a positive multiple of 8 up to ``maxKeyLengthBits``.
    ///   - algorithmID: The AlgorithmID data (without its length prefix).
    ///   - partyUInfo: The PartyUInfo data.
    ///   - partyVInfo: The PartyVInfo data.
    /// - Returns: The derived key bytes.
    /// - Throws: ``JOSEError`` with code `invalidKey` for a key length that is not a positive multiple of 8 within
    ///   the bound.
    public static func deriveKey(
        sharedSecret: some DataProtocol,
        keyLengthBits: Int,
        algorithmID: some DataProtocol,
        partyUInfo: some DataProtocol,
        partyVInfo: some DataProtocol
    ) throws(JOSEError) -> [UInt8] {
        guard keyLengthBits > 0, keyLengthBits % 8 == 0, keyLengthBits <= maxKeyLengthBits else {
            throw JOSEError(.invalidKey, "Concat KDF key length \(keyLengthBits) bits is not a positive multiple of 8")
        }
        var otherInfo: [UInt8] = []
        for part in [Array(algorithmID), Array(partyUInfo), Array(partyVInfo)] {
            otherInfo.append(contentsOf: bigEndian32(part.count))
            otherInfo.append(contentsOf: part)
        }
        otherInfo.append(contentsOf: bigEndian32(keyLengthBits))

        let keyLength = keyLengthBits / 8
        var output: [UInt8] = []
        output.reserveCapacity(keyLength + SHA256.byteCount)
        var counter = 1
        while output.count < keyLength {
            var hash = SHA256()
            hash.update(data: bigEndian32(counter))
            hash.update(data: sharedSecret)
            hash.update(data: otherInfo)
            output.append(contentsOf: hash.finalize())
            counter += 1
        }
        defer { Wipe.zero(&output) }
        return Array(output.prefix(keyLength))
    }

    /// Derives a 256-bit key with the EMVCo profile: AlgorithmID and PartyUInfo empty, PartyVInfo the given
    /// reference string (the SDK reference number for the SDK–ACS channel, the directory server ID for device
    /// data).
    ///
    /// - Parameters:
    ///   - sharedSecret: Z, the ECDH shared secret.
    ///   - partyVInfo: The reference string, used as its UTF-8 bytes.
    /// - Returns: The 32-byte key.
    public static func emvcoKey(sharedSecret: some DataProtocol, partyVInfo: String) -> SymmetricKey {
        do {
            var bytes = try deriveKey(
                sharedSecret: sharedSecret, keyLengthBits: 256, algorithmID: [UInt8](), partyUInfo: [UInt8](),
                partyVInfo: Array(partyVInfo.utf8))
            defer { Wipe.zero(&bytes) }
            return SymmetricKey(data: bytes)
        } catch {
            preconditionFailure("256 bits is a valid Concat KDF length: \(error)")
        }
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: value)
        return [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension SharedSecret {
    /// The raw shared secret Z.
    var rawBytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
