import Crypto
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

/// Directory-server keys and roots made once for the whole run.
struct DSFixture: Sendable {
    let root: IssuedCertificate
    let rsaEncryption: IssuedCertificate
    let ecEncryption: IssuedCertificate

    static let shared: Result<DSFixture, any Error> = Result {
        let root = try CertificateAuthority.makeRoot(commonName: "Test DS Root", key: .makeP256())
        return DSFixture(
            root: root,
            rsaEncryption: try CertificateAuthority.issue(
                commonName: "DS RSA encryption", key: .makeRSA(), role: .encryption, issuer: root),
            ecEncryption: try CertificateAuthority.issue(
                commonName: "DS EC encryption", key: .makeP256(), role: .encryption, issuer: root))
    }

    static func get() throws -> DSFixture { try shared.get() }

    var rsaPrivateDER: [UInt8] {
        guard case .rsa(let key) = rsaEncryption.privateKey else { return [] }
        return Array(key.derRepresentation)
    }

    var ecPrivate: P256.KeyAgreement.PrivateKey? {
        guard case .p256(let key) = ecEncryption.privateKey else { return nil }
        return try? P256.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation)
    }
}

/// A configuration with an RSA directory server (A000000004, kid "ds-key-1") and an EC one (A000000003).
func makeConfiguration(
    dataDirectory: String, restricted: Set<String> = [], enabled: Set<String> = []
) throws -> ConfigParameters {
    let ds = try DSFixture.get()
    var config = ConfigParameters()
    config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
    config.appIdentifier = "org.example.shop"
    config.appVersion = "4.2.0"
    config.dataDirectory = dataDirectory
    config.restrictedParameters = restricted
    config.enabledParameters = enabled
    try config.addDirectoryServer(
        DirectoryServer(
            id: "A000000004", encryptionKey: try ds.rsaEncryption.certificatePEM, keyID: "ds-key-1",
            rootCertificates: try ds.root.certificatePEM, displayName: "Test Scheme"))
    try config.addDirectoryServer(
        DirectoryServer(
            id: "A000000003", encryptionKey: try ds.ecEncryption.certificatePEM,
            rootCertificates: try ds.root.certificatePEM))
    return config
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> String {
    scratchDirectory("sdk")
}

/// Asserts that `body` throws a ``ThreeDS2Error`` with code `kind`, returning it.
@discardableResult
func expectSDKError<T>(
    _ kind: ThreeDS2Error.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> ThreeDS2Error? {
    do {
        _ = try body()
        Issue.record("expected \(kind), nothing thrown", sourceLocation: sourceLocation)
    } catch let error as ThreeDS2Error {
        if error.code != kind { Issue.record("expected \(kind), got \(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected \(kind), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A probe that implements only `SystemProbe`'s requirements, none of the members with a default
/// (`runtimeEnvironment`, `platformFacts(_:)`, `excludeFromBackup(_:)`): the tests of those defaults use it. The
/// platform, its facts and the data directory come from `base`; everything else reads as absent.
struct RequirementsOnlyProbe: SystemProbe {
    let base: FakeSystemProbe
    var isSimulator = false
    var platform: DevicePlatform { base.platform }
    func readFile(_ path: String) -> String? { nil }
    func fileExists(_ path: String) -> Bool { false }
    func isWritable(_ path: String) -> Bool { false }
    func symbolicLinkDestination(_ path: String) -> String? { nil }
    func sha256OfFile(_ path: String) -> String? { nil }
    func environment(_ name: String) -> String? { nil }
    func sysctlString(_ name: String) -> String? { nil }
    func sysctlInteger(_ name: String) -> Int? { nil }
    var loadedImagePaths: [String] { [] }
    var operatingSystemVersion: OperatingSystemVersion? { nil }
    func platformFact(_ fact: PlatformFact) -> PlatformFactValue? { base.platformFact(fact) }
    var effectiveUserID: UInt32 { 501 }
    var executablePath: String? { nil }
    var hostName: String? { nil }
    var machine: String? { nil }
    var ipAddress: String? { nil }
    var isTracedByKernel: Bool { false }
    var defaultDataDirectory: URL { base.defaultDataDirectory }
}
