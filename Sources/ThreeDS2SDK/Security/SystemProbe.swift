import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
}

/// The real system.
public struct LiveSystemProbe: SystemProbe {
    /// The most bytes read from one file.
    public static let maxFileBytes = 1 << 20

    /// Creates the probe.
    public init() {}

    /// Reads at most ``maxFileBytes`` of a file as UTF-8.
    public func readFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.maxFileBytes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the path exists.
    public func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The environment variable's value.
    public func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

    /// `geteuid()`.
    public var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// The resolved path of the running executable.
    public var executablePath: String? {
        #if os(Linux)
            return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
            return Bundle.main.executablePath
        #endif
    }

    /// `gethostname()`.
    public var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `uname().machine`.
    public var machine: String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The first IPv4 (else IPv6) address of an up, non-loopback interface.
    public var ipAddress: String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var candidates: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET { return text }
            candidates.append(text)
        }
        return candidates.first
    }
}
