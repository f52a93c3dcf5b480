import Crypto
import Foundation
import SwiftASN1
import ThreeDS2JOSE
import ThreeDS2Messages
public import ThreeDS2TestLab
@_spi(FixedExpiryValidationTime) public import X509
import _CryptoExtras

/// One ACS signed content (an `x5c` chain of three certificates to the DS root) and the bare work of checking it: the
/// three certificates parsed, the path validated, the signature verified with the leaf key. (The signing input and
/// signature are cut out once, here: `String.split` walks characters, and on 5 KB it costs as much as the chain.)
public struct SignedContentCase: Sendable {
    /// The signed content in compact form, as the ARes carries it.
    public let compact: String
    /// The three certificates of its `x5c` chain (signer, intermediate, root), DER.
    public let ders: [[UInt8]]
    /// The signer certificate's key (RSA for PS256, P-256 for ES256).
    public let signerKey: LabPrivateKey
    /// The trusted DS root.
    public let roots: CertificateStore
    /// The JWS signing input (header and payload, base64url, with the dot between).
    public let signingInput: [UInt8]
    /// The decoded JWS signature.
    public let signature: [UInt8]

    /// Signs the payload an ACS signs (its URL and a fresh ephemeral key) with a new `signerKey` certified by the
    /// fixtures' intermediate.
    public init(signerKey: LabPrivateKey, label: String, fixtures: Fixtures) throws {
        let signer = try CertificateAuthority.issue(
            commonName: "Bench ACS \(label)", key: signerKey, role: .signer, issuer: fixtures.intermediate)
        let jwsKey: JWSSigningKey
        switch signerKey {
        case .rsa(let key): jwsKey = .ps256(privateKeyDER: Array(key.derRepresentation))
        case .p256(let key): jwsKey = .es256(key)
        }
        let payload = ACSSignedContent(
            acsURL: "https://127.0.0.1:8443/acs",
            acsEphemeralPublicKey: P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey),
            sdkEphemeralPublicKey: P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey)
        ).json.serializedBytes
        compact = try JWS.sign(
            payload, with: jwsKey,
            certificateChain: [signer.certificate, fixtures.intermediate.certificate, fixtures.root.certificate])
        ders = try [signer.certificateDER, fixtures.intermediate.certificateDER, fixtures.root.certificateDER]
        self.signerKey = signerKey
        roots = CertificateStore([fixtures.root.certificate])
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        signingInput = Array(compact.utf8[parts[0].startIndex..<parts[1].endIndex])
        signature = try Base64.urlDecode(String(decoding: parts[2], as: UTF8.self))
    }

    /// The bare work of the check: the three certificates parsed, the path validated, the signature verified.
    public func floor() async throws {
        let certificates = try ders.map { try Certificate(derEncoded: $0) }
        var chainVerifier = Verifier(rootCertificates: roots) { RFC5280Policy(fixedExpiryValidationTime: Date()) }
        blackHole(
            await chainVerifier.validate(
                leaf: certificates[0], intermediates: CertificateStore(certificates.dropFirst())))
        switch signerKey {
        case .rsa:
            let key = _RSA.Signing.PublicKey(certificates[0].publicKey)!
            blackHole(
                key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .PSS))
        case .p256:
            let key = P256.Signing.PublicKey(certificates[0].publicKey)!
            blackHole(
                key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: signingInput))
        }
    }
}

/// The two signed contents the rows, the payment and the peer check: PS256 (RSA) and ES256 (P-256).
public struct SignedContents: Sendable {
    /// Signed with PS256 by an RSA-2048 signer.
    public let ps256: SignedContentCase
    /// Signed with ES256 by a P-256 signer.
    public let es256: SignedContentCase

    /// Issues both signers under the fixtures' intermediate and signs one payload with each.
    public init(_ fixtures: Fixtures) throws {
        ps256 = try SignedContentCase(signerKey: try .makeRSA(), label: "PS256", fixtures: fixtures)
        es256 = try SignedContentCase(signerKey: .makeP256(), label: "ES256", fixtures: fixtures)
    }
}
