import Crypto
public import Foundation
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A fake system: files, environment, identity, kernel values and UI facts given by the test, for any platform. It
/// records every file read and every UI fact asked for, so a test can prove a restricted parameter was never read.
public final class FakeSystemProbe: SystemProbe, Sendable {
    /// The platform reported.
    public let platform: DevicePlatform
    /// The files, by path, with their text.
    public let files: [String: String]
    /// The environment variables.
    public let variables: [String: String]
    /// The effective user ID.
    public let effectiveUserID: UInt32
    /// The path of the running executable.
    public let executablePath: String?
    /// The host name.
    public let hostName: String?
    /// The machine architecture.
    public let machine: String?
    /// The first non-loopback IP address.
    public let ipAddress: String?
    /// Whether the code runs in a simulator build.
    public let isSimulator: Bool
    /// Whether the kernel reports the process as traced.
    public let isTracedByKernel: Bool
    /// Where the process runs: the device itself, the Simulator, an iPhone/iPad app on a Mac, Mac Catalyst.
    public let runtimeEnvironment: RuntimeEnvironment
    /// The UI frameworks' facts.
    public let facts: [PlatformFact: PlatformFactValue]
    /// String-valued kernel variables.
    public let sysctlStrings: [String: String]
    /// Integer-valued kernel variables.
    public let sysctlIntegers: [String: Int]
    /// The paths of the loaded images.
    public let loadedImagePaths: [String]
    /// The paths the process may write at.
    public let writablePaths: Set<String>
    /// Symbolic links, by path, with their destinations.
    public let symbolicLinks: [String: String]
    /// The operating system's version.
    public let operatingSystemVersion: OperatingSystemVersion?
    /// A directory under the temporary directory.
    public var defaultDataDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fake-system")
    }
    private let reads = Locked<[String]>([])
    private let factReads = Locked<[PlatformFact]>([])
    private let batches = Locked<[[PlatformFact]]>([])
    private let hashes = Locked<[String]>([])
    private let excluded = Locked<[String]>([])
    /// Whether ``excludeFromBackup(_:)`` fails, as setting the attribute can on a read-only volume.
    public let backupExclusionFails: Bool

    /// Creates a system from what the test gives; every value has a plain Linux default. The runtime environment is
    /// the Simulator for a simulator build and the device itself otherwise, unless the test names one.
    public init(
        platform: DevicePlatform = .linux, files: [String: String] = [:], environment: [String: String] = [:],
        effectiveUserID: UInt32 = 1000, executablePath: String? = nil, hostName: String? = "host-7f3a-SECRET",
        machine: String? = "x86_64", ipAddress: String? = "203.0.113.77", isSimulator: Bool = false,
        isTracedByKernel: Bool = false, runtimeEnvironment: RuntimeEnvironment? = nil,
        facts: [PlatformFact: PlatformFactValue] = [:],
        sysctlStrings: [String: String] = [:], sysctlIntegers: [String: Int] = [:], loadedImagePaths: [String] = [],
        writablePaths: Set<String> = [], symbolicLinks: [String: String] = [:],
        operatingSystemVersion: OperatingSystemVersion? = OperatingSystemVersion(
            majorVersion: 6, minorVersion: 1, patchVersion: 0),
        backupExclusionFails: Bool = false
    ) {
        self.backupExclusionFails = backupExclusionFails
        self.platform = platform
        self.isSimulator = isSimulator
        self.isTracedByKernel = isTracedByKernel
        self.runtimeEnvironment = runtimeEnvironment ?? (isSimulator ? .simulator : .native)
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

    /// The fake file's text; the read is recorded in ``readPaths``.
    public func readFile(_ path: String) -> String? {
        reads.withLock { $0.append(path) }
        return files[path]
    }

    /// Whether a fake file is at the path.
    public func fileExists(_ path: String) -> Bool { files[path] != nil }
    /// Whether the path is in ``writablePaths``.
    public func isWritable(_ path: String) -> Bool { writablePaths.contains(path) }
    /// The link's destination from ``symbolicLinks``.
    public func symbolicLinkDestination(_ path: String) -> String? { symbolicLinks[path] }
    /// The hash of a fake file's text, else of the real file at the path; the path is recorded in ``hashedPaths``.
    public func sha256OfFile(_ path: String) -> String? {
        hashes.withLock { $0.append(path) }
        if let text = files[path] {
            return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        return LiveSystemProbe().sha256OfFile(path)
    }
    /// The variable from ``variables``.
    public func environment(_ name: String) -> String? { variables[name] }
    /// The value from ``sysctlStrings``.
    public func sysctlString(_ name: String) -> String? { sysctlStrings[name] }
    /// The value from ``sysctlIntegers``.
    public func sysctlInteger(_ name: String) -> Int? { sysctlIntegers[name] }
    /// The fact from ``facts``; the question is recorded in ``readFacts``.
    public func platformFact(_ fact: PlatformFact) -> PlatformFactValue? {
        factReads.withLock { $0.append(fact) }
        return facts[fact]
    }
    /// The facts from ``facts``, asked for at once (one main-thread hop on a real Apple device); the call is
    /// recorded in ``factBatches`` and each fact in ``readFacts``.
    public func platformFacts(_ wanted: [PlatformFact]) -> [PlatformFact: PlatformFactValue] {
        batches.withLock { $0.append(wanted) }
        var values: [PlatformFact: PlatformFactValue] = [:]
        for fact in wanted { values[fact] = platformFact(fact) }
        return values
    }
    /// Every call of ``platformFacts(_:)``, in order, with the facts it asked for.
    public var factBatches: [[PlatformFact]] { batches.withLock { $0 } }
    /// Records the path in ``excludedFromBackup``; fails when ``backupExclusionFails``.
    public func excludeFromBackup(_ path: String) -> Bool {
        guard !backupExclusionFails else { return false }
        excluded.withLock { $0.append(path) }
        return true
    }
    /// Every path marked as excluded from backups, in order.
    public var excludedFromBackup: [String] { excluded.withLock { $0 } }
    /// Every path hashed, in order.
    public var hashedPaths: [String] { hashes.withLock { $0 } }
    /// Every path read, in order.
    public var readPaths: [String] { reads.withLock { $0 } }
    /// Every UI fact asked for, in order.
    public var readFacts: [PlatformFact] { factReads.withLock { $0 } }

    /// A clean, unvirtualised Debian-like system.
    public static func clean(
        extraFiles: [String: String] = [:], environment: [String: String] = [:], euid: UInt32 = 1000,
        isSimulator: Bool = false, isTracedByKernel: Bool = false, loadedImagePaths: [String] = []
    ) -> FakeSystemProbe {
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
        return FakeSystemProbe(
            files: files, environment: environment, effectiveUserID: euid, isSimulator: isSimulator,
            isTracedByKernel: isTracedByKernel, loadedImagePaths: loadedImagePaths)
    }

    /// UIKit facts as an iPhone 14 Pro on iOS 17.5.1 gives them: values written from Apple's documentation and the
    /// device's published specifications (a 1179 × 2556 screen), not recorded on a device; the font and locale lists
    /// are cut short. The Apple workflow's `ThreeDS2UITests` reads the real ones in a Simulator.
    public static let iPhoneFacts: [PlatformFact: PlatformFactValue] = [
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

    /// An iPhone app as its probe reports it: no Linux file is there to read. `runtime` places it on the phone
    /// (the default), in the Simulator, on an Apple-silicon Mac or as Mac Catalyst; on a Mac host `hw.machine` is
    /// the architecture and `hw.model` the Mac, as the kernel reports them there.
    public static func iPhone(
        facts: [PlatformFact: PlatformFactValue] = iPhoneFacts, files: [String: String] = [:], euid: UInt32 = 501,
        loadedImagePaths: [String] = ["/private/var/containers/Bundle/Application/0B7E/Shop.app/Shop"],
        writablePaths: Set<String> = [], symbolicLinks: [String: String] = [:], isSimulator: Bool = false,
        runtime: RuntimeEnvironment? = nil, environment: [String: String] = [:],
        version: OperatingSystemVersion = OperatingSystemVersion(majorVersion: 17, minorVersion: 5, patchVersion: 1)
    ) -> FakeSystemProbe {
        let simulated = isSimulator || runtime == .simulator
        let environmentHere = runtime ?? (simulated ? .simulator : .native)
        return FakeSystemProbe(
            platform: .iOS, files: files, environment: environment, effectiveUserID: euid,
            hostName: "Janes-iPhone", machine: "arm64", ipAddress: "192.168.1.23", isSimulator: simulated,
            runtimeEnvironment: environmentHere, facts: facts,
            sysctlStrings: environmentHere.hostIsMac
                ? ["hw.machine": "arm64", "hw.model": "Mac14,9"] : ["hw.machine": "iPhone15,2", "hw.model": "D73AP"],
            loadedImagePaths: loadedImagePaths, writablePaths: writablePaths, symbolicLinks: symbolicLinks,
            operatingSystemVersion: version)
    }

    /// Files every Mac has that the iOS jailbreak heuristics look for (`SecurityChecks/jailbreakPaths`): the shells,
    /// ssh and sshd. An iPhone app on a Mac, in the Simulator or as Mac Catalyst sees them.
    public static let macHostFiles: [String: String] = [
        "/bin/bash": "", "/bin/sh": "", "/usr/bin/ssh": "", "/usr/sbin/sshd": "",
    ]

    /// A Mac as its probe reports it.
    public static func mac(files: [String: String] = [:], hypervisor: Bool = false) -> FakeSystemProbe {
        FakeSystemProbe(
            platform: .macOS, files: files, hostName: "Janes-MacBook-Pro", machine: "arm64",
            facts: [.nativeScreenSize: .size(width: 3024, height: 1964)],
            sysctlStrings: ["hw.model": "Mac14,9"], sysctlIntegers: ["kern.hv_vmm_present": hypervisor ? 1 : 0],
            operatingSystemVersion: OperatingSystemVersion(majorVersion: 14, minorVersion: 5, patchVersion: 0))
    }
}
