public import Foundation

/// The seam through which the SDK reads its environment: files, environment variables, kernel values, loaded images
/// and the platform's UI facts. Security checks and device-information collection read nothing else, and every
/// decision about what they read lives in platform-neutral code, so tests drive the iOS, macOS and Linux branches
/// with a fake system and recorded values.
public protocol SystemProbe: Sendable {
    /// The platform the code runs on; it selects the branch of the checks and of device-information collection.
    var platform: DevicePlatform { get }
    /// The contents of a small text file, or `nil` when it cannot be read. Reads are bounded in size.
    func readFile(_ path: String) -> String?
    /// Whether a file or directory exists.
    func fileExists(_ path: String) -> Bool
    /// Whether the process may write at the path (`access(W_OK)`; nothing is written).
    func isWritable(_ path: String) -> Bool
    /// Where a symbolic link at the path points, or `nil` when the path is not a symbolic link (`readlink`).
    func symbolicLinkDestination(_ path: String) -> String?
    /// The SHA-256 (lower-case hex) of a file's contents, or `nil` when it cannot be read.
    func sha256OfFile(_ path: String) -> String?
    /// An environment variable.
    func environment(_ name: String) -> String?
    /// A string-valued kernel variable (`sysctlbyname` on Apple platforms; `nil` elsewhere).
    func sysctlString(_ name: String) -> String?
    /// An integer-valued kernel variable (`sysctlbyname` on Apple platforms; `nil` elsewhere).
    func sysctlInteger(_ name: String) -> Int?
    /// The paths of the images (executable and libraries) loaded into the process.
    var loadedImagePaths: [String] { get }
    /// The operating system's version as the OS reports it in structured form (on Linux, the kernel release).
    var operatingSystemVersion: OperatingSystemVersion? { get }
    /// A fact only the platform's UI frameworks know (UIKit, AppKit), or `nil` where the platform has none.
    func platformFact(_ fact: PlatformFact) -> PlatformFactValue?
    /// Several facts at once: on Apple platforms one hop to the main thread for all of them, so device data never
    /// waits on the main thread once per fact. The SDK asks for every fact it needs in one call, before it takes
    /// any lock. Probes that do not implement it ask ``platformFact(_:)`` for each.
    func platformFacts(_ facts: [PlatformFact]) -> [PlatformFact: PlatformFactValue]
    /// The effective user ID.
    var effectiveUserID: UInt32 { get }
    /// The path of the running executable.
    var executablePath: String? { get }
    /// The host name (`gethostname`).
    var hostName: String? { get }
    /// The machine architecture (uname machine).
    var machine: String? { get }
    /// The first non-loopback IP address.
    var ipAddress: String? { get }
    /// Whether the code runs in a simulator build.
    var isSimulator: Bool { get }
    /// Where an Apple app's process runs: natively, in the Simulator, as an iPhone/iPad app on a Mac, or as Mac
    /// Catalyst. Probes that do not implement it report ``RuntimeEnvironment/simulator`` for a simulator build and
    /// ``RuntimeEnvironment/native`` otherwise.
    var runtimeEnvironment: RuntimeEnvironment { get }
    /// Whether the kernel reports the process as traced by a debugger (beyond what `/proc` shows).
    var isTracedByKernel: Bool { get }
    /// Where the SDK keeps its per-install data when the app does not say.
    var defaultDataDirectory: URL { get }
    /// Marks a file so that device backups leave it out (`URLResourceValues.isExcludedFromBackup` on Apple
    /// platforms), so a backup restored to another device does not bring a per-installation value along.
    ///
    /// - Parameter path: The file.
    /// - Returns: Whether the file is now excluded; `true` where the platform has no such backup. Probes that do not
    ///   implement it mark nothing and return `true`.
    func excludeFromBackup(_ path: String) -> Bool
}

/// Where an app's process runs. An iPhone or iPad app reports the iOS platform in four places, and only on a real
/// iPhone or iPad are the jailbreak heuristics' files (`/bin/bash`, `/usr/sbin/sshd`, …) a finding: on a Mac
/// (Simulator, iPhone/iPad app on an Apple-silicon Mac, Mac Catalyst) they belong to macOS.
public enum RuntimeEnvironment: String, Sendable, Hashable, CaseIterable {
    /// The platform's own hardware: an iPhone or iPad for an iOS app, a Mac for a macOS app, a Linux host.
    case native
    /// The iOS Simulator (a simulator build; the host is a Mac).
    case simulator
    /// An iPhone or iPad app running on an Apple-silicon Mac (`ProcessInfo.isiOSAppOnMac`).
    case iOSAppOnMac
    /// An iPad app built for the Mac with Mac Catalyst (`targetEnvironment(macCatalyst)`).
    case macCatalyst

    /// Whether the process runs on a Mac although its platform may say iOS: the Simulator, an iPhone/iPad app on a
    /// Mac, Mac Catalyst.
    public var hostIsMac: Bool { self != .native }
}

extension SystemProbe {
    /// ``RuntimeEnvironment/simulator`` for a simulator build, ``RuntimeEnvironment/native`` otherwise: the
    /// environment of a probe that does not tell.
    public var runtimeEnvironment: RuntimeEnvironment { isSimulator ? .simulator : .native }

    /// Nothing: a platform without device backups (Linux).
    ///
    /// - Parameter path: The file.
    /// - Returns: `true`.
    public func excludeFromBackup(_ path: String) -> Bool { true }

    /// Each fact from ``platformFact(_:)``; the facts the platform does not know are left out.
    ///
    /// - Parameter facts: The facts wanted.
    /// - Returns: The known values, by fact.
    public func platformFacts(_ facts: [PlatformFact]) -> [PlatformFact: PlatformFactValue] {
        var values: [PlatformFact: PlatformFactValue] = [:]
        for fact in facts { values[fact] = platformFact(fact) }
        return values
    }
}

/// A fact that only the platform's UI frameworks know; each is one call into UIKit or AppKit.
public enum PlatformFact: String, Sendable, Hashable, CaseIterable {
    /// `UIDevice.current.systemName`.
    case systemName
    /// `UIDevice.current.name` (a generic name such as "iPhone" since iOS 16).
    case deviceName
    /// `UIDevice.current.identifierForVendor`.
    case identifierForVendor
    /// `UIDevice.current.userInterfaceIdiom`'s raw value.
    case userInterfaceIdiom
    /// `UIFont.familyNames`.
    case fontFamilyNames
    /// `UIFont.fontNames(forFamilyName:)` of the system font's family.
    case systemFontFamilyFontNames
    /// The system font's name.
    case systemFontName
    /// `UIFont.labelFontSize`.
    case labelFontSize
    /// `UIFont.buttonFontSize`.
    case buttonFontSize
    /// `UIFont.smallSystemFontSize`.
    case smallSystemFontSize
    /// `UIFont.systemFontSize`.
    case systemFontSize
    /// `NSLocale.system`'s identifier.
    case systemLocaleIdentifier
    /// `Locale.availableIdentifiers`.
    case availableLocaleIdentifiers
    /// `Locale.preferredLanguages`.
    case preferredLanguages
    /// `NSTimeZone.default`'s offset from UTC, in seconds.
    case defaultTimeZoneOffset
    /// `Bundle.main.appStoreReceiptURL`.
    case appStoreReceiptURL
    /// Whether a non-empty file exists at `Bundle.main.appStoreReceiptURL`.
    case appStoreReceiptExists
    /// The size in native pixels of the screen of the app's own window scene (the one in front first; never an
    /// external display's).
    case nativeScreenSize
}

/// The value of a ``PlatformFact`` as the platform returned it, before any formatting.
public enum PlatformFactValue: Sendable, Hashable {
    /// Text.
    case text(String)
    /// A number.
    case number(Double)
    /// A list of texts.
    case texts([String])
    /// A size.
    case size(width: Double, height: Double)
    /// A yes or no.
    case flag(Bool)
}

/// The real system: the shared part; the platform calls live in `LiveSystemProbe+Linux.swift` and
/// `LiveSystemProbe+Darwin.swift`.
public struct LiveSystemProbe: SystemProbe {
    /// The most bytes read from one file.
    public static let maxFileBytes = 1 << 20

    /// Creates the probe.
    public init() {}

    /// Reads at most ``maxFileBytes`` of a file as UTF-8.
    public func readFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            // `nil` from the read is the end of the file at once: an empty file, whose contents are "".
            let data = try handle.read(upToCount: Self.maxFileBytes) ?? Data()
            return String(decoding: data, as: UTF8.self)
        } catch {
            return nil
        }
    }

    /// Whether the path exists.
    public func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// `access(path, W_OK)`, through `FileManager.isWritableFile(atPath:)`.
    public func isWritable(_ path: String) -> Bool { FileManager.default.isWritableFile(atPath: path) }

    /// `readlink`, through `FileManager.destinationOfSymbolicLink(atPath:)`.
    public func symbolicLinkDestination(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }
}
