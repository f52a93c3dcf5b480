/// The RSA key rule, written once for encryption and signing: a key is read from DER as its role needs it, and a
/// modulus under ``minimumBits`` is refused, the role named in the error.
enum RSAKeyPolicy {
    /// The smallest modulus accepted; RFC 7518 §4.3 and §3.5 require at least 2048 bits.
    static let minimumBits = 2048

    /// Reads a key from DER, refusing DER that is not such a key and (when `checkingSize`) a key under
    /// ``minimumBits``.
    ///
    /// - Parameters:
    ///   - der: The key's DER.
    ///   - role: What the key is for, as errors name it ("PS256 signing key").
    ///   - kind: What the DER must be ("an RSA private key").
    ///   - checkingSize: Whether to apply the size rule here (a verifier applies it to the key it is handed).
    ///   - size: The key's modulus size in bits.
    ///   - make: Reads the DER.
    /// - Returns: The key.
    /// - Throws: `JOSEError` with code `invalidKey`.
    static func read<Key>(
        _ der: [UInt8], as role: String, expecting kind: String, checkingSize: Bool = true, size: KeyPath<Key, Int>,
        _ make: ([UInt8]) throws -> Key
    ) throws(JOSEError) -> Key {
        let key: Key
        do {
            key = try make(der)
        } catch {
            throw JOSEError(.invalidKey, "\(role) is not \(kind) in DER")
        }
        if checkingSize { try requireSize(key[keyPath: size], role: role) }
        return key
    }

    /// Refuses a modulus under ``minimumBits``.
    ///
    /// - Parameters:
    ///   - bits: The modulus size.
    ///   - role: What the key is for, as the error names it.
    /// - Throws: `JOSEError` with code `invalidKey`.
    static func requireSize(_ bits: Int, role: String) throws(JOSEError) {
        guard bits >= minimumBits else {
            throw JOSEError(.invalidKey, "\(role) has \(bits) bits; at least \(minimumBits) are required")
        }
    }
}
