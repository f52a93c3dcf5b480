import Crypto
import ThreeDS2JOSE

/// The SDK's composite operations that both runners measure: `threeds-benchmarks` against their floors, the
/// `Composites` benchmark for CPU, allocations and memory.
extension Fixtures {
    /// A fresh SDK ephemeral key and its public JWK as JSON text.
    public func keyGenerationAndJWK() {
        blackHole(P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey).jsonString)
    }

    /// ECDH and the Concat KDF of the EMVCo profile.
    public func keyAgreementAndKDF() throws {
        let secret = try sdkKey.sharedSecretFromKeyAgreement(with: acsKey)
        blackHole(ConcatKDF.emvcoKey(sharedSecret: secret.withUnsafeBytes { Array($0) }, partyVInfo: reference))
    }

    /// The device data JWE to the directory server's RSA-2048 key (RSA-OAEP-256, A128CBC-HS256).
    public func deviceDataRSA() throws {
        blackHole(
            try JWE.encrypt(deviceData, to: .rsaOAEP256(publicKeyDER: dsRSAPublicDER), encryption: .a128cbcHS256))
    }

    /// The device data JWE to the directory server's P-256 key (ECDH-ES, A128CBC-HS256).
    public func deviceDataECDHES() throws {
        blackHole(
            try JWE.encrypt(
                deviceData, to: .ecdhES(dsEC.publicKey, derivation: .emvco(partyVInfo: "A000000004")),
                encryption: .a128cbcHS256))
    }
}
