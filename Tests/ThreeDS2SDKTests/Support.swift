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

/// A fake system: files, environment, identity, kernel values and UI facts given by the test, for any platform. It
/// records every file read and every UI fact asked for, so a test can prove a restricted parameter was never read.
final class FakeSystem: SystemProbe, Sendable {
    let platform: DevicePlatform
    let files: [String: String]
    let variables: [String: String]
    let effectiveUserID: UInt32
    let executablePath: String?
    let hostName: String?
    let machine: String?
    let ipAddress: String?
    let isSimulator: Bool
    let isTracedByKernel: Bool
    let facts: [PlatformFact: PlatformFactValue]
    let sysctlStrings: [String: String]
    let sysctlIntegers: [String: Int]
    let loadedImagePaths: [String]
    let writablePaths: Set<String>
    let symbolicLinks: [String: String]
    let operatingSystemVersion: OperatingSystemVersion?
    var defaultDataDirectory: URL { FileManager.default.temporaryDirectory.appendingPathComponent("fake-system") }
    private let reads = Locked<[String]>([])
    private let factReads = Locked<[PlatformFact]>([])

    init(
        platform: DevicePlatform = .linux, files: [String: String] = [:], environment: [String: String] = [:],
        effectiveUserID: UInt32 = 1000, executablePath: String? = nil, hostName: String? = "host-7f3a-SECRET",
        machine: String? = "x86_64", ipAddress: String? = "203.0.113.77", isSimulator: Bool = false,
        isTracedByKernel: Bool = false, facts: [PlatformFact: PlatformFactValue] = [:],
        sysctlStrings: [String: String] = [:], sysctlIntegers: [String: Int] = [:], loadedImagePaths: [String] = [],
        writablePaths: Set<String> = [], symbolicLinks: [String: String] = [:],
        operatingSystemVersion: OperatingSystemVersion? = OperatingSystemVersion(
            majorVersion: 6, minorVersion: 1, patchVersion: 0)
    ) {
        self.platform = platform
        self.isSimulator = isSimulator
        self.isTracedByKernel = isTracedByKernel
        self.files = files
        self.variables = environment
        self.effectiveUserID = effectiveUserID
        self.executablePath = executablePath
        self.hostName = hostName
        self.machine = machine
        self.ipAddress = ipAddress
        self.facts = facts
        self.sysctlStrings = sysctlStrings
        self.sysctlIntegers = sysctlIntegers
        self.loadedImagePaths = loadedImagePaths
        self.writablePaths = writablePaths
        self.symbolicLinks = symbolicLinks
        self.operatingSystemVersion = operatingSystemVersion
    }

    func readFile(_ path: String) -> String? {
        reads.withLock { $0.append(path) }
        return files[path]
    }

    func fileExists(_ path: String) -> Bool { files[path] != nil }
    func isWritable(_ path: String) -> Bool { writablePaths.contains(path) }
    func symbolicLinkDestination(_ path: String) -> String? { symbolicLinks[path] }
    /// The hash of a fake file's text, else of the real file at the path.
    func sha256OfFile(_ path: String) -> String? {
        if let text = files[path] {
            return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        return LiveSystemProbe().sha256OfFile(path)
    }
    func environment(_ name: String) -> String? { variables[name] }
    func sysctlString(_ name: String) -> String? { sysctlStrings[name] }
    func sysctlInteger(_ name: String) -> Int? { sysctlIntegers[name] }
    func platformFact(_ fact: PlatformFact) -> PlatformFactValue? {
        factReads.withLock { $0.append(fact) }
        return facts[fact]
    }
    var readPaths: [String] { reads.withLock { $0 } }
    var readFacts: [PlatformFact] { factReads.withLock { $0 } }

    /// A clean, unvirtualised Debian-like system.
    static func clean(
        extraFiles: [String: String] = [:], environment: [String: String] = [:], euid: UInt32 = 1000,
        isSimulator: Bool = false, isTracedByKernel: Bool = false, loadedImagePaths: [String] = []
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
            isTracedByKernel: isTracedByKernel, loadedImagePaths: loadedImagePaths)
    }

    /// The UIKit facts an iPhone 14 Pro on iOS 17.5.1 reported (recorded values; the font and locale lists cut short).
    static let iPhoneFacts: [PlatformFact: PlatformFactValue] = [
        .systemName: .text("iOS"), .deviceName: .text("iPhone"),
        .identifierForVendor: .text("6F1C0A4E-2B7D-4C41-9A0E-3D5B8C7A1F20"), .userInterfaceIdiom: .number(0),
        .fontFamilyNames: .texts(["Academy Engraved LET", "Al Nile", "American Typewriter", "Helvetica Neue"]),
        .systemFontFamilyFontNames: .texts([]), .systemFontName: .text(".SFUI-Regular"),
        .labelFontSize: .number(17), .buttonFontSize: .number(18), .smallSystemFontSize: .number(12),
        .systemFontSize: .number(14), .systemLocaleIdentifier: .text(""),
        .availableLocaleIdentifiers: .texts(["en_GB", "de_DE", "fr_FR"]),
        .preferredLanguages: .texts(["en-GB", "de-DE"]),
        .defaultTimeZoneOffset: .number(3600),
        .appStoreReceiptURL: .text(
            "file:///private/var/mobile/Containers/Data/Application/0B7E/StoreKit/sandboxReceipt"),
        .appStoreReceiptExists: .flag(false), .nativeScreenSize: .size(width: 1179, height: 2556),
    ]

    /// An iPhone as its probe reports it: no Linux file is there to read.
    static func iPhone(
        facts: [PlatformFact: PlatformFactValue] = iPhoneFacts, files: [String: String] = [:], euid: UInt32 = 501,
        loadedImagePaths: [String] = ["/private/var/containers/Bundle/Application/0B7E/Shop.app/Shop"],
        writablePaths: Set<String> = [], symbolicLinks: [String: String] = [:], isSimulator: Bool = false,
        environment: [String: String] = [:],
        version: OperatingSystemVersion = OperatingSystemVersion(majorVersion: 17, minorVersion: 5, patchVersion: 1)
    ) -> FakeSystem {
        FakeSystem(
            platform: .iOS, files: files, environment: environment, effectiveUserID: euid,
            hostName: "Janes-iPhone", machine: "arm64", ipAddress: "192.168.1.23", isSimulator: isSimulator,
            facts: facts, sysctlStrings: ["hw.machine": "iPhone15,2"], loadedImagePaths: loadedImagePaths,
            writablePaths: writablePaths, symbolicLinks: symbolicLinks, operatingSystemVersion: version)
    }

    /// A Mac as its probe reports it.
    static func mac(files: [String: String] = [:], hypervisor: Bool = false) -> FakeSystem {
        FakeSystem(
            platform: .macOS, files: files, hostName: "Janes-MacBook-Pro", machine: "arm64",
            facts: [.nativeScreenSize: .size(width: 3024, height: 1964)],
            sysctlStrings: ["hw.model": "Mac14,9"], sysctlIntegers: ["kern.hv_vmm_present": hypervisor ? 1 : 0],
            operatingSystemVersion: OperatingSystemVersion(majorVersion: 14, minorVersion: 5, patchVersion: 0))
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

/// Records client and security events.
final class EventRecorder: ClientEventListener, SecurityEventListener, Sendable {
    let events = Locked<[ClientEvent]>([])
    let securityChanges = Locked<[([String], [String], SecurityChecks.Stage)]>([])

    func clientEvent(_ event: ClientEvent) { events.withLock { $0.append(event) } }

    func securityWarningsChanged(
        _ warnings: [ThreeDS2SDK.Warning], previous: [ThreeDS2SDK.Warning], stage: SecurityChecks.Stage
    ) {
        securityChanges.withLock { $0.append((warnings.map(\.id.rawValue), previous.map(\.id.rawValue), stage)) }
    }
}
