import Crypto
public import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) public import X509
import _CryptoExtras

/// Verifies a compact JWS whose signer is identified by an `x5c` certificate chain leading to trusted roots.
///
/// The verification key comes from `x5c[0]` and nowhere else: `jwk`, `jku` and `x5u` headers are never trusted
/// (never read, never fetched). Steps, each failing with its own ``JOSEError`` code:
/// 1. shape: three parts, strict base64url, header JSON, `alg` PS256 or ES256 (`none` and all others refused),
///    no `crit`;
/// 2. `x5c`: an array of 1…``maxChainLength`` padded standard-base64 DER certificates;
/// 3. validity: every `x5c` certificate must be within its validity period at the validation time
///    (`certificateExpired`, naming which);
/// 4. path: RFC 5280 validation from `x5c[0]` through the other `x5c` certificates to one of the roots, at the
///    validation time, composed with ``SignerPolicy`` (the signer is no CA and may sign content, issuers carry
///    `keyCertSign`, no SHA-1 or MD5 signatures) (`untrustedCertificateChain`);
/// 5. key usage: when the leaf has a key-usage extension it must allow digital signatures
///    (`keyUsageNotPermitted`);
/// 6. the leaf key matches `alg` (RSA ≥ 2048 bits for PS256, P-256 for ES256), and the signature verifies.
public struct X5CVerifier: Sendable {
    /// The most certificates accepted in `x5c`.
    public static let maxChainLength = 8

    private let roots: CertificateStore
    private let validationTime: Date?
    private let maxCompactBytes: Int

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - roots: The trusted root certificates; at least one.
    ///   - validationTime: The time certificates are checked at; the current time at each verification when `nil`.
    ///   - maxCompactBytes: The largest JWS accepted, in bytes.
    /// - Throws: ``JOSEError`` with code `untrustedCertificateChain` when `roots` is empty.
    public init(roots: [Certificate], validationTime: Date? = nil, maxCompactBytes: Int = JWS.defaultMaxCompactBytes)
        throws(JOSEError)
    {
        guard !roots.isEmpty else {
            throw JOSEError(.untrustedCertificateChain, "no trusted root certificates were given")
        }
        self.roots = CertificateStore(roots)
        self.validationTime = validationTime
        self.maxCompactBytes = maxCompactBytes
    }

    /// A JWS whose chain and signature verified.
    public struct Verified: Sendable {
        /// The protected header as sent.
        public var header: JSONObject
        /// The algorithm that verified.
        public var algorithm: JWSAlgorithm
        /// The payload bytes.
        public var payload: [UInt8]
        /// The validated chain, signer first, ending at the trusted root.
        public var chain: [Certificate]
    }

    /// Verifies a compact JWS.
    ///
    /// - Parameter compact: The compact serialization.
    /// - Returns: The header, algorithm, payload and validated chain.
    /// - Throws: ``JOSEError`` naming the failing step.
    public func verify(_ compact: String) async throws(JOSEError) -> Verified {
        let parsed = try JWS.Parsed(compact, maxCompactBytes: maxCompactBytes)
        let certificates = try Self.decodeChain(parsed.header)
        let time = validationTime ?? Date()
        for (index, certificate) in certificates.enumerated() {
            if time < certificate.notValidBefore || time > certificate.notValidAfter {
                throw JOSEError(
                    .certificateExpired,
                    "x5c[\(index)] (\(CertificateName.readable(certificate.subject))) is valid from \(certificate.notValidBefore) to "
                        + "\(certificate.notValidAfter), not at \(time)")
            }
        }
        let leaf = certificates[0]
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            SignerPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        let chain: [Certificate]
        switch result {
        case .validCertificate(let validated):
            chain = Array(validated)
        case .couldNotValidate(let failures):
            let reasons = failures.prefix(3).map { "\($0.policyFailureReason)" }.joined(separator: "; ")
            throw JOSEError(
                .untrustedCertificateChain,
                "x5c chain of \(CertificateName.readable(leaf.subject)) does not lead to a trusted root: \(reasons.isEmpty ? "no path" : reasons)"
            )
        }
        let keyUsage: KeyUsage?
        do {
            keyUsage = try leaf.extensions.keyUsage
        } catch {
            throw JOSEError(.invalidCertificate, "x5c[0] key-usage extension is malformed: \(error)", underlying: error)
        }
        if let keyUsage, !keyUsage.digitalSignature {
            throw JOSEError(
                .keyUsageNotPermitted,
                "x5c[0] (\(CertificateName.readable(leaf.subject))) key usage does not allow digital signatures")
        }
        switch parsed.algorithm {
        case .ps256:
            guard let key = _RSA.Signing.PublicKey(leaf.publicKey) else {
                throw JOSEError(.invalidKey, "JWS \"alg\" is PS256 but x5c[0] does not hold an RSA key")
            }
            try parsed.verify(rsa: key)
        case .es256:
            guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
                throw JOSEError(.invalidKey, "JWS \"alg\" is ES256 but x5c[0] does not hold a P-256 key")
            }
            try parsed.verify(ecdsa: key)
        }
        return Verified(header: parsed.header, algorithm: parsed.algorithm, payload: parsed.payload, chain: chain)
    }

    private static func decodeChain(_ header: JSONObject) throws(JOSEError) -> [Certificate] {
        guard let value = header["x5c"] else {
            throw JOSEError(.invalidHeader, "JWS header \"x5c\" is missing; the signer must be identified by x5c")
        }
        guard case .array(let entries) = value, !entries.isEmpty else {
            throw JOSEError(.invalidHeader, "JWS header \"x5c\" must be a non-empty array of base64 certificates")
        }
        guard entries.count <= maxChainLength else {
            throw JOSEError(
                .inputTooLarge, "JWS header \"x5c\" has \(entries.count) certificates; at most \(maxChainLength)")
        }
        var certificates: [Certificate] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let text) = entry else {
                throw JOSEError(.invalidHeader, "x5c[\(index)] must be a string, found \(entry.typeName)")
            }
            let der = try Base64.standardDecode(text, what: "x5c[\(index)]")
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw JOSEError(
                    .invalidCertificate, "x5c[\(index)] is not a certificate this verifier can read: \(error)",
                    underlying: error)
            }
        }
        return certificates
    }
}
