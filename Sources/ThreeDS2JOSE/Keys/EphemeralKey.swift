public import Crypto

extension P256.KeyAgreement.PrivateKey {
    /// A fresh ephemeral P-256 key for one ECDH agreement: the SDK's transaction key, a JWE's `epk`.
    ///
    /// The scalar is 32 bytes from swift-crypto's generator (the bytes of a fresh `SymmetricKey`: on Linux the
    /// standard library's `SystemRandomNumberGenerator`, which reads `getrandom`; on Apple platforms CryptoKit's own
    /// generator), kept only when it lies in [1, n − 1],
    /// where n is the order of the curve; otherwise it is drawn again. That is the distribution
    /// `EC_KEY_generate_key` produces, and the rejection happens with probability below 2⁻³² per draw.
    ///
    /// Why not `P256.KeyAgreement.PrivateKey()`: on Linux swift-crypto generates through BoringSSL's FIPS path, which
    /// after the scalar multiplication signs and verifies a test message with the new key (`EC_KEY_check_fips`, a
    /// pairwise consistency test meant for long-lived keys in a FIPS module). That path made an SDK key cost 77 µs
    /// (`perf` put about 60 % of it in the test), against 8 µs for the same key built from a drawn scalar, while the
    /// key is used for one agreement and thrown away. The range check and the public point come from BoringSSL either way
    /// (`EC_KEY_set_private_key`, `EC_POINT_mul`).
    ///
    /// This function's copy of the scalar is overwritten before it returns; the comparison against n does not branch
    /// on the scalar's bytes.
    ///
    /// - Returns: The key.
    public static func ephemeral() -> P256.KeyAgreement.PrivateKey {
        var scalar = [UInt8](repeating: 0, count: 32)
        defer { Wipe.zero(&scalar) }
        // 64 draws all out of range has probability below 2⁻²⁰⁴⁸; the bound only keeps the loop finite.
        for _ in 0..<64 {
            fillRandom(&scalar)
            if isValidScalar(scalar), let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar) {
                return key
            }
        }
        return P256.KeyAgreement.PrivateKey()
    }

    /// Fills `bytes` from swift-crypto's secure generator: the bytes of a fresh `SymmetricKey` of that size (on Linux
    /// the standard library's `SystemRandomNumberGenerator`, one `getrandom` call per eight bytes, which stops the
    /// process rather than return predictable bytes; on Apple platforms CryptoKit's generator). Only public API:
    /// no standard-library internals, no C module of the platform. swift-crypto zeroes the key's own storage when it
    /// is released.
    package static func fillRandom(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        let drawn = SymmetricKey(size: SymmetricKeySize(bitCount: bytes.count * 8))
        drawn.withUnsafeBytes { source in
            bytes.withUnsafeMutableBytes { target in target.copyMemory(from: source) }
        }
    }

    /// The order n of P-256, big-endian.
    private static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// Whether 32 big-endian bytes are a scalar in [1, n − 1], without branching on their values: the borrow out of
    /// `scalar − n` says `scalar < n`, and an OR over the bytes says it is not zero.
    package static func isValidScalar(_ scalar: [UInt8]) -> Bool {
        precondition(scalar.count == 32, "a P-256 scalar is 32 bytes")
        var borrow: UInt16 = 0
        var any: UInt8 = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let difference = UInt16(scalar[index]) &- UInt16(order[index]) &- borrow
            borrow = (difference >> 8) & 1
            any |= scalar[index]
        }
        return (borrow == 1) && (any != 0)
    }
}
