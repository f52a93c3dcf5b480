public import Foundation
import SwiftASN1
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) public import ThreeDS2SDK
import X509

/// The TestLab's own PKI, made fresh at each start: a directory-server root and intermediate, ACS signers (RSA for
/// PS256, EC for ES256), directory-server encryption keys (RSA and EC), and a TLS root with a certificate for
/// 127.0.0.1 and localhost.
public struct LabPKI: Sendable {
    /// The DS CA root: the trust anchor for ACS signed content.
    public let dsRoot: IssuedCertificate
    /// The DS CA intermediate that issues the ACS signers.
    public let dsIntermediate: IssuedCertificate
    /// The RSA ACS signer (PS256).
    public let acsSignerRSA: IssuedCertificate
    /// The EC ACS signer (ES256).
    public let acsSignerEC: IssuedCertificate
    /// The RSA directory-server encryption key and certificate.
    public let dsEncryptionRSA: IssuedCertificate
    /// The EC directory-server encryption key and certificate.
    public let dsEncryptionEC: IssuedCertificate
    /// The TLS root the client must trust.
    public let tlsRoot: IssuedCertificate
    /// The TLS server certificate for 127.0.0.1 and localhost.
    public let tlsServer: IssuedCertificate
    /// The lab's own Split-SDK Server identity: a P-256 signing key and its certificate, which the lab's DS registers
    /// as ``TestLab/splitSDKServerID`` (a Split-SDK Server under test signs its SDK Server Signed Content with it).
    public let splitSDKServer: IssuedCertificate

    /// Makes a fresh PKI.
    ///
    /// - Parameter host: The IPv4 address the TLS server certificate names besides 127.0.0.1 and localhost.
    /// - Throws: An error from key generation or certificate construction.
    public static func make(host: String = "127.0.0.1") throws -> LabPKI {
        let longAgo = Date(timeIntervalSinceNow: -7 * 86400)
        let dsRoot = try CertificateAuthority.makeRoot(
            commonName: "ThreeDS2 TestLab DS Root", key: .makeRSA(), notValidBefore: longAgo)
        let dsIntermediate = try CertificateAuthority.issue(
            commonName: "ThreeDS2 TestLab DS Intermediate", key: .makeP256(), role: .authority(pathLength: 0),
            issuer: dsRoot, notValidBefore: longAgo)
        let tlsRoot = try CertificateAuthority.makeRoot(
            commonName: "ThreeDS2 TestLab TLS Root", key: .makeP256(), notValidBefore: longAgo)
        return LabPKI(
            dsRoot: dsRoot, dsIntermediate: dsIntermediate,
            acsSignerRSA: try CertificateAuthority.issue(
                commonName: "ThreeDS2 TestLab ACS (RSA)", key: .makeRSA(), role: .signer, issuer: dsIntermediate),
            acsSignerEC: try CertificateAuthority.issue(
                commonName: "ThreeDS2 TestLab ACS (EC)", key: .makeP256(), role: .signer, issuer: dsIntermediate),
            dsEncryptionRSA: try CertificateAuthority.issue(
                commonName: "ThreeDS2 TestLab DS encryption (RSA)", key: .makeRSA(), role: .encryption, issuer: dsRoot),
            dsEncryptionEC: try CertificateAuthority.issue(
                commonName: "ThreeDS2 TestLab DS encryption (EC)", key: .makeP256(), role: .encryption, issuer: dsRoot),
            tlsRoot: tlsRoot,
            tlsServer: try CertificateAuthority.issue(
                commonName: "127.0.0.1", key: .makeP256(),
                role: .tlsServer(ipAddresses: Array(Set(["127.0.0.1", host])).sorted(), dnsNames: ["localhost"]),
                issuer: tlsRoot),
            splitSDKServer: try CertificateAuthority.issue(
                commonName: "ThreeDS2 TestLab Split-SDK Server", key: .makeP256(), role: .signer, issuer: dsRoot))
    }

    /// The files a client needs, by name: the PEM files and the trust bundle that references them.
    public var clientFiles: [String: String] {
        get throws {
            var files = [
                "ds-root.pem": try dsRoot.certificatePEM,
                "ds-encryption-rsa.pem": try dsEncryptionRSA.certificatePEM,
                "ds-encryption-ec.pem": try dsEncryptionEC.certificatePEM,
                "tls-root.pem": try tlsRoot.certificatePEM,
                // The test directory server's private keys, for `threeds inspect device-data` (never a real DS's).
                "ds-decryption-rsa-key.pem": dsEncryptionRSA.privateKey.pemRepresentation,
                "ds-decryption-ec-key.pem": dsEncryptionEC.privateKey.pemRepresentation,
                // The lab's Split-SDK Server identity, registered with the lab's DS (a test server's, never a real one).
                "split-sdk-server.pem": try splitSDKServer.certificatePEM,
                "split-sdk-server-key.pem": splitSDKServer.privateKey.pemRepresentation,
            ]
            files[TrustBundle.fileName] = try trustBundle.json(referencing: files)
            return files
        }
    }

    /// The lab's two directory servers as a trust bundle (``TrustBundle``); written by the SDK's writer with its
    /// certificates as the PEM files beside it, so the folder ``writeClientFiles(to:)`` fills is a bundle folder.
    public var trustBundle: TrustBundle {
        get throws {
            let root = try dsRoot.certificatePEM
            return TrustBundle(directoryServers: [
                DirectoryServer(
                    scheme: TestLab.rsaDirectoryServer,
                    encryptionKeys: [.init(key: try dsEncryptionRSA.certificatePEM, keyID: "testlab-rsa")],
                    rootCertificates: root),
                DirectoryServer(
                    scheme: TestLab.ecDirectoryServer,
                    encryptionKeys: [.init(key: try dsEncryptionEC.certificatePEM, keyID: "testlab-ec")],
                    rootCertificates: root),
            ])
        }
    }

    /// Writes ``clientFiles`` to a directory (created if needed).
    ///
    /// - Parameter directory: The directory.
    /// - Throws: A file-system error.
    public func writeClientFiles(to directory: URL) throws {
        // The folder holds private keys: made 0700; the keys are created 0600 (never readable by others, not even
        // for a moment), the certificates and the bundle, which are public, 0644 as any shared file.
        try SecretFile.makeDirectory(directory.path)
        for (name, contents) in try clientFiles {
            try SecretFile.write(
                Array(contents.utf8), to: directory.appendingPathComponent(name).path,
                mode: Self.isPrivateKeyFile(name) ? 0o600 : 0o644)
        }
    }

    /// Whether a file of ``clientFiles`` holds a private key (the test directory server's decryption keys).
    ///
    /// - Parameter name: The file's name.
    /// - Returns: `true` for a key file.
    public static func isPrivateKeyFile(_ name: String) -> Bool {
        name.hasSuffix("-key.pem")
    }
}
