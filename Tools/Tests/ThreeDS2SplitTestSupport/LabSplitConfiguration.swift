import Foundation
import ThreeDS2Messages
import ThreeDS2SDK
public import ThreeDS2SplitServer
public import ThreeDS2TestLab

/// The Split-SDK Server's configuration for a TestLab, shared by the split test targets: the lab's RSA directory
/// server (its encryption certificate and roots), and the Split-SDK Server identity the lab's DS registers
/// (`TestLab.splitSDKServerID` with `lab.pki.splitSDKServer`), so the lab checks each split AReq's signed content.
///
/// - Parameters:
///   - lab: The lab.
///   - apiKey: The merchant API key.
///   - merchantOrigin: The merchant page's origin.
/// - Returns: The configuration; the variant is `80`, a code of no public meaning (the Browser variant's is not
///   public): configuration, never a claim.
/// - Throws: When the lab's signer is not a P-256 key, or a PEM cannot be read.
public func labSplitConfiguration(_ lab: TestLab, apiKey: String, merchantOrigin: String) throws
    -> SplitServerConfiguration
{
    let signer = lab.pki.splitSDKServer
    guard case .p256(let key) = signer.privateKey else {
        throw TestLabError(.failed, "the lab's Split-SDK Server key is not P-256")
    }
    let directoryServer = DirectoryServer(
        scheme: TestLab.rsaDirectoryServer,
        encryptionKeys: [.init(key: try lab.pki.dsEncryptionRSA.certificatePEM)],
        rootCertificates: try lab.pki.dsRoot.certificatePEM)
    return SplitServerConfiguration(
        merchantAPIKey: apiKey, merchantOrigin: merchantOrigin,
        directoryServers: [
            .init(
                directoryServer: directoryServer, splitSDKServerID: TestLab.splitSDKServerID.rawValue,
                signingKey: key, certificateChain: [signer.certificate])
        ],
        variant: SDKVariant(rawValue: "80"), sdkReferenceNumber: TestLab.exampleSDKReferenceNumber)
}
