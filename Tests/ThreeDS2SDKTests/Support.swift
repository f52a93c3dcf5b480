import Crypto
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2TestLab
import ThreeDS2TestSupport
import X509
import _CryptoExtras

/// A fake system: files, environment and identity given by the test. It records every file read, so a test can
/// prove a restricted parameter was never read.
final class FakeSystem: SystemProbe, Sendable {
    let files: [String: String]
    let variables: [String: String]
    let effectiveUserID: UInt32
    let executablePath: String?
    let hostName: String?
    let machine: String?
    let ipAddress: String?
    let platformName = "Linux"
    let isSimulator: Bool
    let isTracedByKernel: Bool
    var defaultDataDirectory: URL { FileManager.default.temporaryDirectory.appendingPathComponent("fake-system") }
    private let reads = Locked<[String]>([])

    init(
        files: [String: String] = [:], environment: [String: String] = [:], effectiveUserID: UInt32 = 1000,
        executablePath: String? = nil, hostName: String? = "host-7f3a-SECRET", machine: String? = "x86_64",
        ipAddress: String? = "203.0.113.77", isSimulator: Bool = false, isTracedByKernel: Bool = false
    ) {
        self.isSimulator = isSimulator
        self.isTracedByKernel = isTracedByKernel
        self.files = files
        self.variables = environment
        self.effectiveUserID = effectiveUserID
        self.executablePath = executablePath
        self.hostName = hostName
        self.machine = machine
        self.ipAddress = ipAddress
    }

    func readFile(_ path: String) -> String? {
        reads.withLock { $0.append(path) }
        return files[path]
    }

    func fileExists(_ path: String) -> Bool { files[path] != nil }
    func environment(_ name: String) -> String? { variables[name] }
    var readPaths: [String] { reads.withLock { $0 } }

    /// A clean, unvirtualised Debian-like system.
    static func clean(
        extraFiles: [String: String] = [:], environment: [String: String] = [:], euid: UInt32 = 1000,
        isSimulator: Bool = false, isTracedByKernel: Bool = false
    ) -> FakeSystem {
        var files = [
            "/etc/os-release":
                "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n",
            "/proc/sys/kernel/osrelease": "6.1.0-18-amd64\n",
            "/proc/cpuinfo": "processor : 0\nflags : fpu vme de pse sse sse2\n",
            "/proc/self/status": "Name: test\nTracerPid:\t0\n",
            "/sys/class/dmi/id/product_name": "ThinkPad X1\n",
            "/sys/class/dmi/id/sys_vendor": "LENOVO\n",
        ]
        files.merge(extraFiles) { $1 }
        return FakeSystem(
            files: files, environment: environment, effectiveUserID: euid, isSimulator: isSimulator,
            isTracedByKernel: isTracedByKernel)
    }
}

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
func makeConfiguration(dataDirectory: String, restricted: Set<String> = []) throws -> ConfigParameters {
    let ds = try DSFixture.get()
    var config = ConfigParameters()
    config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
    config.appIdentifier = "org.example.shop"
    config.appVersion = "4.2.0"
    config.dataDirectory = dataDirectory
    config.restrictedParameters = restricted
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

/// Asserts that `body` throws a ``ThreeDS2Error`` of `kind`, returning it.
@discardableResult
func expectSDKError<T>(
    _ kind: ThreeDS2Error.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> ThreeDS2Error? {
    do {
        _ = try body()
        Issue.record("expected \(kind), nothing thrown", sourceLocation: sourceLocation)
    } catch let error as ThreeDS2Error {
        if error.kind != kind { Issue.record("expected \(kind), got \(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected \(kind), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Records client and security events.
final class EventRecorder: ClientEventListener, SecurityEventListener, Sendable {
    let events = Locked<[ClientEvent]>([])
    let securityChanges = Locked<[([String], [String], SecurityChecks.Stage)]>([])

    func clientEvent(_ event: ClientEvent) { events.withLock { $0.append(event) } }

    func securityWarningsChanged(
        _ warnings: [ThreeDS2SDK.Warning], previous: [ThreeDS2SDK.Warning], stage: SecurityChecks.Stage
    ) {
        securityChanges.withLock { $0.append((warnings.map(\.id), previous.map(\.id), stage)) }
    }
}
