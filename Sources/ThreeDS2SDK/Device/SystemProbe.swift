public import Foundation

/// The seam through which the SDK reads its environment: files, environment variables, the user ID and the
/// running executable. Security checks and device-information collection read nothing else, so tests give them
/// a fake system.
public protocol SystemProbe: Sendable {
    /// The contents of a small text file, or `nil` when it cannot be read. Reads are bounded in size.
    func readFile(_ path: String) -> String?
    /// Whether a file or directory exists.
    func fileExists(_ path: String) -> Bool
    /// An environment variable.
    func environment(_ name: String) -> String?
    /// The effective user ID.
    var effectiveUserID: UInt32 { get }
    /// The path of the running executable.
    var executablePath: String? { get }
    /// The host name.
    var hostName: String? { get }
    /// The machine architecture (uname machine).
    var machine: String? { get }
    /// The first non-loopback IP address.
    var ipAddress: String? { get }
    /// The platform's name (device parameter C001): `Linux`, `macOS`, `iOS`.
    var platformName: String { get }
    /// Whether the code runs in a simulator build.
    var isSimulator: Bool { get }
    /// Whether the kernel reports the process as traced by a debugger (beyond what `/proc` shows).
    var isTracedByKernel: Bool { get }
    /// Where the SDK keeps its per-install data when the app does not say.
    var defaultDataDirectory: URL { get }
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
}
