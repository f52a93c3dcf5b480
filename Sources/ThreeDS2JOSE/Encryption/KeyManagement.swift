public import Crypto
import _CryptoExtras

/// How the ECDH-ES shared secret is turned into the content-encryption key (RFC 7518 §4.6.2 Concat KDF inputs).
public enum ECDHKeyDerivation: Sendable, Hashable {
    /// The EMVCo profile: AlgorithmID and PartyUInfo empty, PartyVInfo the given reference string (the directory
    /// server ID for device data). Nothing about it appears in the JWE header: the recipient knows the string.
    case emvco(partyVInfo: String)
    /// Standard JOSE: AlgorithmID is the `enc` value, PartyUInfo and PartyVInfo are sent as `apu` and `apv` when
    /// not empty.
    case standard(partyUInfo: [UInt8] = [], partyVInfo: [UInt8] = [])

    /// Derives the content-encryption key for `encryption`.
    ///
    /// keydatalen is the key length of `encryption`, as RFC 7518 §4.6.2 defines it for direct key agreement; for
    /// A128CBC-HS256 that is the 256 bits of the EMVCo profile. (EMVCo's own examples all use A128CBC-HS256; with
    /// A128GCM this profile therefore derives a 128-bit key with SuppPubInfo = 128.)
    func contentKey(sharedSecret: SharedSecret, encryption: ContentEncryption) throws(JOSEError) -> SymmetricKey {
        let algorithmID: [UInt8]
        let partyU: [UInt8]
        let partyV: [UInt8]
        switch self {
        case .emvco(let reference):
            (algorithmID, partyU, partyV) = ([], [], Array(reference.utf8))
        case .standard(let u, let v):
            (algorithmID, partyU, partyV) = (Array(encryption.rawValue.utf8), u, v)
        }
        var secret = sharedSecret.rawBytes
        defer { Wipe.zero(&secret) }
        var bytes = try ConcatKDF.deriveKey(
            sharedSecret: secret, keyLengthBits: encryption.keyByteCount * 8,
            algorithmID: algorithmID, partyUInfo: partyU, partyVInfo: partyV)
        defer { Wipe.zero(&bytes) }
        return SymmetricKey(data: bytes)
    }
}

/// The recipient of a JWE: how the content-encryption key is agreed or transported (`alg`).
public enum JWERecipient: Sendable {
    /// `dir`: the key is shared in advance; its length must match the `enc`.
    case direct(SymmetricKey)
    /// `RSA-OAEP-256`: a random key is wrapped with RSAES-OAEP (SHA-256, MGF1 with SHA-256) to this public key,
    /// given as SubjectPublicKeyInfo DER. The key must be at least 2048 bits.
    case rsaOAEP256(publicKeyDER: [UInt8])
    /// `ECDH-ES` (direct key agreement): a fresh ephemeral P-256 key is agreed with this public key and sent as
    /// `epk`.
    case ecdhES(P256.KeyAgreement.PublicKey, derivation: ECDHKeyDerivation)

    /// The `alg` header value.
    public var algorithm: String {
        switch self {
        case .direct: "dir"
        case .rsaOAEP256: "RSA-OAEP-256"
        case .ecdhES: "ECDH-ES"
        }
    }
}

/// The key a JWE is decrypted with; it fixes the one `alg` accepted.
public enum JWEDecryptionKey: Sendable {
    /// `dir`, with one key per accepted `enc`: a JWE whose `enc` has no key here is refused.
    case direct([ContentEncryption: SymmetricKey])
    /// `RSA-OAEP-256`, with the private key as PKCS#1 or PKCS#8 DER.
    case rsaOAEP256(privateKeyDER: [UInt8])
    /// `ECDH-ES`, with the recipient's static private key.
    case ecdhES(P256.KeyAgreement.PrivateKey, derivation: ECDHKeyDerivation)

    /// The one `alg` this key accepts.
    public var algorithm: String {
        switch self {
        case .direct: "dir"
        case .rsaOAEP256: "RSA-OAEP-256"
        case .ecdhES: "ECDH-ES"
        }
    }
}
