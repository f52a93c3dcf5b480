import Crypto
public import Foundation
import SwiftASN1
import ThreeDS2Messages
import ThreeDS2SDK
public import ThreeDS2SplitServer
import X509

extension TestLab {
    /// A Split-SDK Server's configuration for this lab (the split tests' and `threeds demo --split`'s): the lab's RSA
    /// directory server (its encryption certificate and roots), and the Split-SDK Server identity the lab's DS
    /// registers (``splitSDKServerID`` with ``LabPKI/splitSDKServer``), so the lab checks each split AReq's signed
    /// content.
    ///
    /// - Parameters:
    ///   - apiKey: The merchant API key.
    ///   - merchantOrigin: The merchant page's origin.
    /// - Returns: The configuration; the variant is `80`, a code of no public meaning (the Browser variant's is not
    ///   public): configuration, never a claim.
    /// - Throws: When the lab's signer is not a P-256 key, or a PEM cannot be read.
    public func splitServerConfiguration(apiKey: String, merchantOrigin: String) throws -> SplitServerConfiguration {
        let signer = pki.splitSDKServer
        guard case .p256(let key) = signer.privateKey else {
            throw TestLabError(.failed, "the lab's Split-SDK Server key is not P-256")
        }
        let directoryServer = DirectoryServer(
            scheme: Self.rsaDirectoryServer,
            encryptionKeys: [.init(key: try pki.dsEncryptionRSA.certificatePEM)],
            rootCertificates: try pki.dsRoot.certificatePEM)
        return SplitServerConfiguration(
            merchantAPIKey: apiKey, merchantOrigin: merchantOrigin,
            directoryServers: [
                .init(
                    directoryServer: directoryServer, splitSDKServerID: Self.splitSDKServerID.rawValue,
                    signingKey: key, certificateChain: [signer.certificate])
            ],
            variant: SDKVariant(rawValue: "80"), sdkReferenceNumber: Self.exampleSDKReferenceNumber)
    }

    /// The same configuration read from a lab's PKI folder (`--pki-dir`: `ds-encryption-rsa.pem`, `ds-root.pem`,
    /// `split-sdk-server.pem`, `split-sdk-server-key.pem`), for a Split-SDK Server in another process than the lab
    /// (the tests that kill an instance).
    ///
    /// - Parameters:
    ///   - directory: The lab's PKI folder.
    ///   - apiKey: The merchant API key.
    ///   - merchantOrigin: The merchant page's origin.
    /// - Returns: The configuration.
    /// - Throws: When a file is missing or is not what it should be.
    public static func splitServerConfiguration(pkiDirectory directory: URL, apiKey: String, merchantOrigin: String)
        throws -> SplitServerConfiguration
    {
        func file(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        let key = try P256.Signing.PrivateKey(pemRepresentation: try file("split-sdk-server-key.pem"))
        let certificate = try Certificate(pemEncoded: try file("split-sdk-server.pem"))
        let directoryServer = DirectoryServer(
            scheme: rsaDirectoryServer, encryptionKeys: [.init(key: try file("ds-encryption-rsa.pem"))],
            rootCertificates: try file("ds-root.pem"))
        return SplitServerConfiguration(
            merchantAPIKey: apiKey, merchantOrigin: merchantOrigin,
            directoryServers: [
                .init(
                    directoryServer: directoryServer, splitSDKServerID: splitSDKServerID.rawValue, signingKey: key,
                    certificateChain: [certificate])
            ],
            variant: SDKVariant(rawValue: "80"), sdkReferenceNumber: exampleSDKReferenceNumber)
    }
}
