public import Crypto
public import Foundation
import SwiftASN1
public import X509
public import _CryptoExtras

/// A private key of a test PKI (the TestLab's, or one a test makes): RSA for PS256 and RSA-OAEP-256, P-256 for ES256 and ECDH-ES.
public enum LabPrivateKey: Sendable {
    /// An RSA key.
    case rsa(_RSA.Signing.PrivateKey)
    /// A P-256 key.
    case p256(P256.Signing.PrivateKey)

    /// A fresh RSA-2048 key.
    public static func makeRSA() throws -> LabPrivateKey { .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)) }

    /// A fresh P-256 key.
    public static func makeP256() -> LabPrivateKey { .p256(P256.Signing.PrivateKey()) }

    /// The key as swift-certificates wants it for signing certificates.
    public var certificateKey: Certificate.PrivateKey {
        switch self {
        case .rsa(let key): Certificate.PrivateKey(key)
        case .p256(let key): Certificate.PrivateKey(key)
        }
    }

    /// The public half as a certificate public key.
    public var certificatePublicKey: Certificate.PublicKey { certificateKey.publicKey }

    /// The PKCS#8 PEM of the private key.
    public var pemRepresentation: String {
        switch self {
        case .rsa(let key): key.pkcs8PEMRepresentation
        case .p256(let key): key.pemRepresentation
        }
    }

    /// The signature algorithm a certificate signed with this key uses.
    var signatureAlgorithm: Certificate.SignatureAlgorithm {
        switch self {
        case .rsa: .sha256WithRSAEncryption
        case .p256: .ecdsaWithSHA256
        }
    }
}

/// A certificate with its private key.
public struct IssuedCertificate: Sendable {
    /// The certificate.
    public var certificate: Certificate
    /// Its private key.
    public var privateKey: LabPrivateKey

    /// Pairs a certificate with its key (for certificates a test builds itself).
    ///
    /// - Parameters:
    ///   - certificate: The certificate.
    ///   - privateKey: Its private key.
    public init(certificate: Certificate, privateKey: LabPrivateKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// The PEM of the certificate.
    public var certificatePEM: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// The DER of the certificate.
    public var certificateDER: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }
}

/// Issues the certificates of a private test PKI: roots, intermediates, signing leaves and TLS server
/// certificates. Nothing here is for production: the keys live in memory and are made fresh each run.
public enum CertificateAuthority {
    /// What an issued certificate may be used for.
    public enum Role: Sendable {
        /// A CA that may issue further certificates; `pathLength` bounds how many CAs may follow it.
        case authority(pathLength: Int?)
        /// An end-entity certificate that signs content (key usage digitalSignature).
        case signer
        /// An end-entity certificate for key transport or agreement (key usage keyEncipherment or keyAgreement).
        case encryption
        /// A TLS server certificate for the given IP addresses and DNS names.
        case tlsServer(ipAddresses: [String], dnsNames: [String])
        /// An end-entity certificate whose key usage deliberately lacks digitalSignature (for negative tests).
        case keyEnciphermentOnly
    }

    /// Makes a self-signed root CA.
    ///
    /// - Parameters:
    ///   - commonName: The subject common name.
    ///   - key: The root's key.
    ///   - notValidBefore: Start of validity.
    ///   - notValidAfter: End of validity.
    /// - Returns: The root with its key.
    /// - Throws: An error from certificate construction.
    public static func makeRoot(
        commonName: String, key: LabPrivateKey, notValidBefore: Date = Date(timeIntervalSinceNow: -3600),
        notValidAfter: Date = Date(timeIntervalSinceNow: 365 * 86400)
    ) throws -> IssuedCertificate {
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.certificatePublicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: name, subject: name,
            signatureAlgorithm: key.signatureAlgorithm,
            extensions: try extensions(
                for: .authority(pathLength: nil), publicKey: key.certificatePublicKey, issuerKey: nil),
            issuerPrivateKey: key.certificateKey)
        return IssuedCertificate(certificate: certificate, privateKey: key)
    }

    /// Issues a certificate signed by `issuer`.
    ///
    /// - Parameters:
    ///   - commonName: The subject common name.
    ///   - key: The subject's key.
    ///   - role: What the certificate may be used for.
    ///   - issuer: The issuing CA.
    ///   - notValidBefore: Start of validity.
    ///   - notValidAfter: End of validity.
    /// - Returns: The certificate with its key.
    /// - Throws: An error from certificate construction.
    public static func issue(
        commonName: String, key: LabPrivateKey, role: Role, issuer: IssuedCertificate,
        notValidBefore: Date = Date(timeIntervalSinceNow: -3600),
        notValidAfter: Date = Date(timeIntervalSinceNow: 365 * 86400)
    ) throws -> IssuedCertificate {
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.certificatePublicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: issuer.certificate.subject,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: issuer.privateKey.signatureAlgorithm,
            extensions: try extensions(
                for: role, publicKey: key.certificatePublicKey, issuerKey: issuer.certificate.publicKey),
            issuerPrivateKey: issuer.privateKey.certificateKey)
        return IssuedCertificate(certificate: certificate, privateKey: key)
    }

    private static func extensions(
        for role: Role, publicKey: Certificate.PublicKey, issuerKey: Certificate.PublicKey?
    ) throws -> Certificate.Extensions {
        let subjectKeyID = SubjectKeyIdentifier(hash: publicKey)
        let authorityKeyID = issuerKey.map {
            AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: $0).keyIdentifier)
        }
        switch role {
        case .authority(let pathLength):
            return try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                subjectKeyID
                if let authorityKeyID { authorityKeyID }
            }
        case .signer:
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                subjectKeyID
                if let authorityKeyID { authorityKeyID }
            }
        case .encryption:
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(keyEncipherment: true, keyAgreement: true))
                subjectKeyID
                if let authorityKeyID { authorityKeyID }
            }
        case .keyEnciphermentOnly:
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(keyEncipherment: true))
                subjectKeyID
                if let authorityKeyID { authorityKeyID }
            }
        case .tlsServer(let ipAddresses, let dnsNames):
            let names = SubjectAlternativeNames(
                ipAddresses.map { GeneralName.ipAddress(ASN1OctetString(contentBytes: ipBytes($0)[...])) }
                    + dnsNames.map { GeneralName.dnsName($0) })
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
                try ExtendedKeyUsage([.serverAuth])
                names
                subjectKeyID
                if let authorityKeyID { authorityKeyID }
            }
        }
    }

    private static func ipBytes(_ address: String) -> [UInt8] {
        address.split(separator: ".").compactMap { UInt8($0) }
    }
}

extension SubjectKeyIdentifier {
    /// The method-1 key identifier of RFC 5280 §4.2.1.2: SHA-1 of the subject public key bits.
    init(hash publicKey: Certificate.PublicKey) {
        let digest = Insecure.SHA1.hash(data: publicKey.subjectPublicKeyInfoBytes)
        self.init(keyIdentifier: ArraySlice(digest))
    }
}
