import Foundation
public import ThreeDS2NIOTransport
public import ThreeDS2SDK

extension TestLab {
    /// The SDK reference number the lab's examples use.
    public static let exampleSDKReferenceNumber = "3DS_LOA_SDK_TLAB_020300_00001"

    /// An SDK configuration that talks to this lab: both directory servers (RSA and EC keys, the lab's DS root),
    /// and plain HTTP on loopback when the lab runs without TLS. The lab's TLS root goes to the transport
    /// (``makeTransport()``), not to the SDK.
    ///
    /// - Parameters:
    ///   - sdkReferenceNumber: The SDK reference number.
    ///   - dataDirectory: Where the SDK keeps its App ID.
    /// - Returns: The configuration.
    /// - Throws: ``ThreeDS2Error`` or a PEM encoding error.
    public func sdkConfiguration(sdkReferenceNumber: String = exampleSDKReferenceNumber, dataDirectory: String? = nil)
        throws -> ConfigParameters
    {
        var config = ConfigParameters()
        config.sdkReferenceNumber = sdkReferenceNumber
        config.appIdentifier = "org.threeds2.testlab.app"
        config.appVersion = "1.0"
        config.dataDirectory = dataDirectory
        let roots = try pki.dsRoot.certificatePEM
        try config.addDirectoryServer(
            DirectoryServer(
                scheme: Self.rsaDirectoryServer,
                encryptionKeys: [.init(key: try pki.dsEncryptionRSA.certificatePEM)], rootCertificates: roots))
        try config.addDirectoryServer(
            DirectoryServer(
                scheme: Self.ecDirectoryServer,
                encryptionKeys: [.init(key: try pki.dsEncryptionEC.certificatePEM)], rootCertificates: roots))
        config.allowsPlainHTTPLoopback = !options.useTLS
        return config
    }

    /// A transport that trusts the lab's TLS root.
    ///
    /// - Throws: ``TransportError`` when the root cannot be read.
    public func makeTransport() throws -> HTTPClientTransport {
        try HTTPClientTransport(additionalTrustRootsPEM: [try pki.tlsRoot.certificatePEM])
    }
}
