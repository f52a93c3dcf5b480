public import SwiftASN1
public import X509

/// The policy binding a JWS signer's chain to signing content, composed with swift-certificates' `RFC5280Policy`
/// (which checks neither key purposes nor signature strength):
/// - the signer (`x5c[0]`) is not a CA (`basicConstraints` absent or `cA` false);
/// - when the signer has an extended key usage, it allows signing content: `anyExtendedKeyUsage` or any purpose
///   other than TLS server, TLS client, OCSP signing and time stamping (3-D Secure signer certificates carry
///   scheme-specific purposes, so only purposes that positively mean something else are refused);
/// - every issuer below the trust anchor has a key usage with `keyCertSign`;
/// - every certificate below the trust anchor is signed with ECDSA or RSA PKCS #1 v1.5 over SHA-256, SHA-384 or
///   SHA-512, or Ed25519: SHA-1, MD5 and anything unknown are refused. The anchor's self-signature is not relied on.
public struct SignerPolicy: VerifierPolicy {
    /// No critical extension is processed here beyond what `RFC5280Policy` processes.
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    /// Creates the policy.
    public init() {}

    private static let strongSignatures: [Certificate.SignatureAlgorithm] = [
        .ecdsaWithSHA256, .ecdsaWithSHA384, .ecdsaWithSHA512, .sha256WithRSAEncryption, .sha384WithRSAEncryption,
        .sha512WithRSAEncryption, .ed25519,
    ]

    private static let otherPurposes: [ExtendedKeyUsage.Usage] = [
        .serverAuth, .clientAuth, .ocspSigning, .timeStamping,
    ]

    /// Checks a candidate chain (leaf first, trust anchor last).
    ///
    /// - Parameter chain: The chain.
    /// - Returns: Whether it meets the policy, with the reason when not.
    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let certificates = Array(chain)
        let leaf = chain.leaf
        let name = CertificateName.readable(leaf.subject)
        do {
            if case .isCertificateAuthority? = try leaf.extensions.basicConstraints {
                return .failsToMeetPolicy(reason: "the signer \(name) is a CA certificate, not an end entity")
            }
            if let usage = try leaf.extensions.extendedKeyUsage {
                let purposes = Array(usage)
                if !purposes.contains(.any), purposes.allSatisfy({ Self.otherPurposes.contains($0) }) {
                    return .failsToMeetPolicy(
                        reason: "the signer \(name)'s extended key usage allows only \(purposes), not signing content")
                }
            }
            for issuer in certificates.dropFirst().dropLast() {
                guard let usage = try issuer.extensions.keyUsage, usage.keyCertSign else {
                    return .failsToMeetPolicy(
                        reason: "the issuer \(CertificateName.readable(issuer.subject)) lacks the keyCertSign key usage"
                    )
                }
            }
        } catch {
            return .failsToMeetPolicy(reason: "a certificate extension of the chain of \(name) is malformed: \(error)")
        }
        for certificate in certificates.dropLast()
        where !Self.strongSignatures.contains(certificate.signatureAlgorithm) {
            return .failsToMeetPolicy(
                reason:
                    "\(CertificateName.readable(certificate.subject)) is signed with \(certificate.signatureAlgorithm), "
                    + "which is refused (SHA-1, MD5 and unknown algorithms)")
        }
        return .meetsPolicy
    }
}
