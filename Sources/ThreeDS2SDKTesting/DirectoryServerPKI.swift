public import Foundation
public import ThreeDS2SDK
import X509

/// A directory server's PKI for tests, in memory: a root, an intermediate that issues ACS signers, an ACS signer
/// (ES256) and the directory server's encryption certificate (ECDH-ES). P-256 keys only, so it is made in
/// milliseconds; nothing here is for production.
public struct DirectoryServerPKI: Sendable {
    /// The root the SDK trusts for ACS signed content.
    public let root: IssuedCertificate
    /// The intermediate that issues ``acsSigner``.
    public let intermediate: IssuedCertificate
    /// The certificate an ACS signs its signed content with.
    public let acsSigner: IssuedCertificate
    /// The directory server's encryption certificate (device data).
    public let encryption: IssuedCertificate

    /// Makes a fresh PKI.
    ///
    /// - Parameter name: A prefix for the certificates' common names.
    /// - Returns: The PKI.
    /// - Throws: An error from certificate construction.
    public static func make(name: String = "Test DS") throws -> DirectoryServerPKI {
        let root = try CertificateAuthority.makeRoot(commonName: "\(name) Root", key: .makeP256())
        let intermediate = try CertificateAuthority.issue(
            commonName: "\(name) Intermediate", key: .makeP256(), role: .authority(pathLength: 0), issuer: root)
        return DirectoryServerPKI(
            root: root, intermediate: intermediate,
            acsSigner: try CertificateAuthority.issue(
                commonName: "\(name) ACS signer", key: .makeP256(), role: .signer, issuer: intermediate),
            encryption: try CertificateAuthority.issue(
                commonName: "\(name) encryption", key: .makeP256(), role: .encryption, issuer: root))
    }

    /// The directory server as an app configures it: this PKI's encryption certificate and root.
    ///
    /// - Parameter id: The registered application provider identifier.
    /// - Returns: The directory server.
    /// - Throws: An error from PEM encoding.
    public func directoryServer(id: DirectoryServerID = .mastercard) throws -> DirectoryServer {
        DirectoryServer(
            id: id, encryptionKey: try encryption.certificatePEM, rootCertificates: try root.certificatePEM,
            displayName: "Test Scheme")
    }

    /// A service initialized for this directory server, as an app's tests need one: a clean ``FakeSystemProbe``
    /// (no security finding) unless another probe is given, a test SDK reference number and app identity, and the
    /// SDK App ID kept in `dataDirectory`; the locale, customization and listeners an app's test wants to see at work
    /// (the cardholder texts in Arabic, a security listener told of a rooted device).
    ///
    /// - Parameters:
    ///   - id: The directory server's ID.
    ///   - dataDirectory: Where the SDK keeps its App ID (a scratch directory of the test).
    ///   - locale: The locale for the SDK's texts; the current locale when `nil`.
    ///   - uiCustomization: The look; the SDK's default when `nil`.
    ///   - clientEventListener: Told what the SDK does.
    ///   - securityEventListener: Told each security finding.
    ///   - systemProbe: The system the checks read; a clean ``FakeSystemProbe`` when `nil`.
    /// - Returns: The initialized service.
    /// - Throws: `ThreeDS2Error` from `initialize`, or an error from PEM encoding.
    public func initializedService(
        id: DirectoryServerID = .mastercard, dataDirectory: String, locale: Locale? = nil,
        uiCustomization: UiCustomization? = nil, clientEventListener: (any ClientEventListener)? = nil,
        securityEventListener: (any SecurityEventListener)? = nil, systemProbe: (any SystemProbe)? = nil
    ) throws -> ThreeDS2Service {
        let service = ThreeDS2Service(
            clientEventListener: clientEventListener, securityEventListener: securityEventListener,
            systemProbe: systemProbe ?? FakeSystemProbe.clean())
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.appIdentifier = "org.example.shop"
        config.appVersion = "4.2.0"
        config.dataDirectory = dataDirectory
        try config.addDirectoryServer(try directoryServer(id: id))
        try service.initialize(configParameters: config, locale: locale, uiCustomization: uiCustomization)
        return service
    }

    /// Signs ACS signed content as an ACS does: ES256 with the chain signer, intermediate, root in `x5c`.
    ///
    /// - Parameter content: The content.
    /// - Returns: The JWS compact serialization.
    /// - Throws: An error from signing.
    public func sign(_ content: ACSSignedContent) throws -> String {
        guard case .p256(let key) = acsSigner.privateKey else {
            throw JOSEError(.invalidKey, "the ACS signer is not a P-256 key")
        }
        return try JWS.sign(
            content.json.serializedBytes, with: .es256(key),
            certificateChain: [acsSigner.certificate, intermediate.certificate, root.certificate])
    }
}
