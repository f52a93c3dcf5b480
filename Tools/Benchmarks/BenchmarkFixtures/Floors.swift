public import Crypto
public import Foundation
import ThreeDS2JOSE
import _CryptoExtras

/// The bare swift-crypto operations a composite is built from: what any implementation must do.
extension Fixtures {
    /// The scalar multiplication from a fixed scalar and the affine coordinates of its result.
    public func keyGenerationFloor() throws {
        blackHole(try P256.KeyAgreement.PrivateKey(rawRepresentation: fixedScalar).publicKey.rawRepresentation)
    }

    /// ECDH plus one SHA-256 over the Concat KDF's input.
    public func keyAgreementFloor() throws {
        let secret = try sdkKey.sharedSecretFromKeyAgreement(with: acsKey)
        blackHole(
            secret.withUnsafeBytes {
                SHA256.hash(data: Array($0) + [UInt8](repeating: 0, count: kdfInputLength - 32))
            })
    }

    /// RSA-OAEP-256 of a fresh content key to the directory server, then the device data sealed under it.
    public func deviceDataRSAFloor() throws {
        let publicKey = try _RSA.Encryption.PublicKey(derRepresentation: dsRSAPublicDER)
        let cek = SymmetricKey(size: .bits256)
        blackHole(try cek.withUnsafeBytes { try publicKey.encrypt(Array($0), padding: .PKCS1_OAEP_SHA256) })
        try cbcSealFloor(deviceData, key: cek, aadLength: 60)
    }

    /// ECDH from a fixed scalar, one SHA-256 for the content key, then the device data sealed under it.
    public func deviceDataECDHESFloor() throws {
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: fixedScalar)
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: dsEC.publicKey)
        let cek = SymmetricKey(
            data: secret.withUnsafeBytes { SHA256.hash(data: Array($0) + [UInt8](repeating: 0, count: 30)) })
        try cbcSealFloor(deviceData, key: cek, aadLength: 190)
    }
}

/// AES-128-CBC and HMAC-SHA-256 over the bytes A128CBC-HS256 seals, with a fixed IV.
public func cbcSealFloor(_ plaintext: [UInt8], key: SymmetricKey, aadLength: Int) throws {
    let (mac, enc) = key.withUnsafeBytes { (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32])) }
    let iv = try AES._CBC.IV(ivBytes: [UInt8](repeating: 1, count: 16))
    let ciphertext = try AES._CBC.encrypt(plaintext, using: enc, iv: iv)
    blackHole(
        HMAC<SHA256>.authenticationCode(for: [UInt8](repeating: 0, count: aadLength + 16 + 8) + ciphertext, using: mac))
}

/// HMAC-SHA-256 and AES-128-CBC over the bytes A128CBC-HS256 opens.
public func cbcOpenFloor(_ ciphertext: Data, iv: [UInt8], key: SymmetricKey, aadLength: Int) throws {
    let (mac, enc) = key.withUnsafeBytes { (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32])) }
    blackHole(
        HMAC<SHA256>.authenticationCode(for: [UInt8](repeating: 0, count: aadLength + 16 + 8) + ciphertext, using: mac))
    blackHole(try AES._CBC.decrypt(ciphertext, using: enc, iv: AES._CBC.IV(ivBytes: iv)))
}

/// The initialization vector and ciphertext of a compact JWE (its third and fourth parts).
public func ivAndCiphertext(ofCompact compact: String) throws -> (iv: [UInt8], ciphertext: Data) {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return (iv: try Base64.urlDecode(parts[2]), ciphertext: Data(try Base64.urlDecode(parts[3])))
}

/// Keeps `value` alive and opaque to the optimizer, so that the work producing it is not optimized away.
@inline(never) public func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
