public import Crypto
public import Foundation
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import ThreeDS2TestLab
import X509
import _CryptoExtras

/// The keys, messages and certificates the measurements share, made once per run.
public struct Fixtures: Sendable {
    /// A P-256 scalar drawn once: the key-generation floors multiply it, outside the loop of drawing.
    public let fixedScalar: Data
    /// The SDK's and the ACS's keys of the key-agreement row.
    public let sdkKey: P256.KeyAgreement.PrivateKey
    /// The ACS's public key of the key-agreement row.
    public let acsKey: P256.KeyAgreement.PublicKey
    /// The SDK reference number: PartyVInfo of the Concat KDF.
    public let reference = "3DS_LOA_SDK_PPFU_020100_00007"
    /// The device data: 2 KB.
    public let deviceData = [UInt8](repeating: UInt8(ascii: "a"), count: 2048)
    /// The directory server's RSA-2048 public key (DER) and its P-256 key.
    public let dsRSAPublicDER: [UInt8]
    /// The directory server's P-256 key (ECDH-ES device data).
    public let dsEC: P256.KeyAgreement.PrivateKey
    /// A 1 KB challenge message.
    public let message = [UInt8](repeating: UInt8(ascii: "b"), count: 1024)
    /// The channel keys of one transaction, derived from a fixed secret: the CRes of the exchange and payment rows
    /// are encrypted once under them (a fresh key per payment would need an ACS in the loop).
    public let channelKeys: ChannelKeys
    /// The ACS transaction ID of the exchange and payment rows (the channel key's `kid`).
    public let acsTransID = "d7c1ee99-9478-44a6-b1f2-391e29c6b340"
    /// The DS root and its intermediate, which the ACS signer certificates chain to.
    public let root: IssuedCertificate
    /// The DS intermediate that issues the ACS signer certificates.
    public let intermediate: IssuedCertificate
    /// The SDK's check of ACS signed content, trusting `root`.
    public let verifier: X5CVerifier

    /// Draws the keys, issues the DS PKI and derives the channel keys once.
    public init() throws {
        fixedScalar = P256.KeyAgreement.PrivateKey.ephemeral().rawRepresentation
        sdkKey = P256.KeyAgreement.PrivateKey()
        acsKey = P256.KeyAgreement.PrivateKey().publicKey
        dsRSAPublicDER = Array(try _RSA.Encryption.PrivateKey(keySize: .bits2048).publicKey.derRepresentation)
        dsEC = P256.KeyAgreement.PrivateKey()
        channelKeys = ChannelKeys(
            sharedSecret: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }, sdkReferenceNumber: reference)
        root = try CertificateAuthority.makeRoot(commonName: "Bench DS Root", key: .makeRSA())
        intermediate = try CertificateAuthority.issue(
            commonName: "Bench DS CA", key: .makeRSA(), role: .authority(pathLength: 0), issuer: root)
        verifier = try X5CVerifier(roots: [root.certificate])
    }

    /// The whole 32-byte channel key: what A128CBC-HS256 uses in both directions.
    public var channelKey: SymmetricKey { channelKeys.sdkToACS(.a128cbcHS256) }

    /// The length of the Concat KDF input for `reference`.
    public var kdfInputLength: Int { 4 + 32 + 4 + 4 + 4 + reference.utf8.count + 4 }
}
