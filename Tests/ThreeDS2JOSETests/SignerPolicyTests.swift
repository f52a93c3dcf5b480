import Crypto
import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

/// Crafted chains the signer policy refuses: each verified before the policy was composed in.
@Suite("Signer chain policy")
struct SignerPolicyTests {
    private let payload = Array(#"{"acsURL":"https://127.0.0.1/acs"}"#.utf8)

    /// A certificate with exactly the given extensions and signature algorithm.
    private func issue(
        _ name: String, key: LabPrivateKey, issuer: IssuedCertificate?,
        signature: Certificate.SignatureAlgorithm? = nil,
        @ExtensionsBuilder extensions: () throws -> Result<
            Certificate.Extensions, any Error
        >
    ) throws -> IssuedCertificate {
        let subject = try DistinguishedName { CommonName(name) }
        let signer = issuer?.privateKey ?? key
        let algorithm: Certificate.SignatureAlgorithm
        switch signer {
        case .rsa: algorithm = signature ?? .sha256WithRSAEncryption
        case .p256: algorithm = signature ?? .ecdsaWithSHA256
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.certificatePublicKey,
            notValidBefore: Date(timeIntervalSinceNow: -3600), notValidAfter: Date(timeIntervalSinceNow: 86400),
            issuer: issuer?.certificate.subject ?? subject, subject: subject, signatureAlgorithm: algorithm,
            extensions: try extensions().get(), issuerPrivateKey: signer.certificateKey)
        return IssuedCertificate(certificate: certificate, privateKey: key)
    }

    private func verify(_ signer: IssuedCertificate, chain: [IssuedCertificate], root: IssuedCertificate)
        async throws -> X5CVerifier.Verified
    {
        let compact = try JWS.sign(
            payload, with: signer.privateKey.jwsKey, certificateChain: ([signer] + chain).map(\.certificate))
        return try await X5CVerifier(roots: [root.certificate]).verify(compact)
    }

    private func root() throws -> IssuedCertificate {
        try CertificateAuthority.makeRoot(commonName: "Policy Root", key: .makeP256())
    }

    private func intermediate(_ root: IssuedCertificate, keyCertSign: Bool = true) throws -> IssuedCertificate {
        try issue("Policy Intermediate", key: .makeP256(), issuer: root) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: keyCertSign ? false : true, keyCertSign: keyCertSign, cRLSign: true))
        }
    }

    @Test("a TLS-only leaf (extended key usage serverAuth, clientAuth) does not sign content")
    func tlsOnlyLeaf() async throws {
        let root = try root()
        let ca = try intermediate(root)
        let tls = try issue("TLS only", key: .makeP256(), issuer: ca) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth, .clientAuth])
        }
        await expectJOSEError(.untrustedCertificateChain) { try await verify(tls, chain: [ca], root: root) }
        // The same leaf with a purpose that is not TLS-only signs.
        let signing = try issue("Signing", key: .makeP256(), issuer: ca) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth, .codeSigning])
        }
        #expect(try await verify(signing, chain: [ca], root: root).chain.count == 3)
    }

    @Test("a CA certificate used as the signer is refused")
    func caAsLeaf() async throws {
        let root = try root()
        let ca = try issue("CA signer", key: .makeP256(), issuer: root) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
        }
        let error = await expectJOSEError(.untrustedCertificateChain) { try await verify(ca, chain: [], root: root) }
        #expect(error?.message.contains("CA certificate") == true, "\(String(describing: error))")
    }

    @Test("an intermediate without keyCertSign cannot issue the signer")
    func intermediateWithoutKeyCertSign() async throws {
        let root = try root()
        let ca = try intermediate(root, keyCertSign: false)
        let leaf = try issue("Leaf", key: .makeP256(), issuer: ca) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        let error = await expectJOSEError(.untrustedCertificateChain) {
            try await verify(leaf, chain: [ca], root: root)
        }
        #expect(error?.message.contains("keyCertSign") == true, "\(String(describing: error))")
    }

    @Test("a SHA-1-signed signer or intermediate is refused")
    func sha1() async throws {
        let root = try CertificateAuthority.makeRoot(commonName: "RSA Root", key: try .makeRSA())
        let ca = try issue("SHA-1 intermediate", key: try .makeRSA(), issuer: root, signature: .sha1WithRSAEncryption) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true))
        }
        let leaf = try issue("Leaf", key: .makeP256(), issuer: ca) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        await expectJOSEError(.untrustedCertificateChain) { try await verify(leaf, chain: [ca], root: root) }
        let goodCA = try issue("SHA-256 intermediate", key: try .makeRSA(), issuer: root) {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true))
        }
        let sha1Leaf = try issue("SHA-1 leaf", key: .makeP256(), issuer: goodCA, signature: .sha1WithRSAEncryption) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        await expectJOSEError(.untrustedCertificateChain) { try await verify(sha1Leaf, chain: [goodCA], root: root) }
        let goodLeaf = try issue("SHA-256 leaf", key: .makeP256(), issuer: goodCA) {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        #expect(try await verify(goodLeaf, chain: [goodCA], root: root).chain.count == 3)
    }
}
