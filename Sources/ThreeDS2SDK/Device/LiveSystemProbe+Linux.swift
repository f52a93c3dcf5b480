public import Foundation

/// Where Linux keeps what device information and the security checks read: every Linux path the SDK opens is here.
/// The reading goes through a ``SystemProbe`` (so tests give recorded files); only the live probe's calls are
/// Linux-only.
enum LinuxPaths {
    static let osRelease = "/etc/os-release"
    static let kernelRelease = "/proc/sys/kernel/osrelease"
    static let productName = "/sys/class/dmi/id/product_name"
    static let dmiVendorFiles = ["sys_vendor", "product_name", "bios_vendor"].map { "/sys/class/dmi/id/\($0)" }
    static let framebufferSize = "/sys/class/graphics/fb0/virtual_size"
    static let cpuInfo = "/proc/cpuinfo"
    static let processStatus = "/proc/self/status"
    static let preload = "/etc/ld.so.preload"
}

/// The Linux branch of device-information collection: DMI, `os-release`, the framebuffer, through the probe.
struct LinuxDeviceSource {
    let probe: any SystemProbe

    /// C002: the DMI product name, else the machine architecture (an empty DMI file names nothing).
    func deviceModel() -> String? { nonBlank(probe.readFile(LinuxPaths.productName)) ?? probe.machine }

    /// C003: `NAME` from `os-release`, else the platform.
    func osName() -> String? { osRelease()["NAME"] ?? DevicePlatform.linux.rawValue }

    /// C004: `VERSION_ID` from `os-release`, else the kernel release.
    func osVersion() -> String? { osRelease()["VERSION_ID"] ?? probe.readFile(LinuxPaths.kernelRelease) }

    /// C008: the framebuffer's virtual size, `W,H` in the file.
    func screenResolution() -> (width: Int, height: Int)? {
        guard let size = nonBlank(probe.readFile(LinuxPaths.framebufferSize)) else { return nil }
        let parts = size.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }

    private func osRelease() -> [String: String] {
        guard let text = probe.readFile(LinuxPaths.osRelease) else { return [:] }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return fields
    }

    private func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}

#if os(Linux)
    import Glibc

    /// The start of glibc's (and musl's) `struct dl_phdr_info`: the object's load address and its path.
    private struct SharedObjectInfoPrefix {
        var address: UInt
        var name: UnsafePointer<CChar>?
    }

    /// What only Linux has: `/proc`, the XDG data directory.
    extension LiveSystemProbe {
        /// Linux.
        public var platform: DevicePlatform { .linux }

        /// The resolved `/proc/self/exe`.
        public var executablePath: String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        }

        /// Never: there are no simulator builds on Linux.
        public var isSimulator: Bool { false }

        /// Never: on Linux a tracer shows in `/proc/self/status` (`TracerPid`), which the checks read as a file.
        public var isTracedByKernel: Bool { false }

        /// None: Linux has no `sysctlbyname`; the checks read `/proc` and `/sys` instead.
        public func sysctlString(_ name: String) -> String? { nil }

        /// None: Linux has no `sysctlbyname`.
        public func sysctlInteger(_ name: String) -> Int? { nil }

        /// The shared objects loaded into the process, from the dynamic linker (`dl_iterate_phdr`, found with
        /// `dlsym` because the Glibc module does not import `<link.h>`): about a microsecond, where formatting and
        /// reading `/proc/self/maps` takes about a hundred.
        public var loadedImagePaths: [String] {
            typealias Visit = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
            typealias Iterate = @convention(c) (Visit, UnsafeMutableRawPointer?) -> Int32
            guard let symbol = dlsym(nil, "dl_iterate_phdr") else { return [] }
            let iterate = unsafeBitCast(symbol, to: Iterate.self)
            var paths: [String] = []
            withUnsafeMutablePointer(to: &paths) { list in
                _ = iterate(
                    { info, _, context in
                        guard let info, let context,
                            let name = info.assumingMemoryBound(to: SharedObjectInfoPrefix.self).pointee.name,
                            name.pointee != 0
                        else { return 0 }
                        context.assumingMemoryBound(to: [String].self).pointee.append(String(cString: name))
                        return 0
                    }, list)
            }
            return paths
        }

        /// The kernel release, as numbers (`6.1.0-18-amd64` is 6.1.0).
        public var operatingSystemVersion: OperatingSystemVersion? {
            readFile(LinuxPaths.kernelRelease).flatMap(OperatingSystemVersion.init(parsing:))
        }

        /// None: Linux has no UIKit facts.
        public func platformFact(_ fact: PlatformFact) -> PlatformFactValue? { nil }

        /// `$XDG_DATA_HOME/threeds2sdk`, else `~/.local/share/threeds2sdk`.
        public var defaultDataDirectory: URL {
            if let xdg = environment("XDG_DATA_HOME"), !xdg.isEmpty {
                return URL(fileURLWithPath: xdg).appendingPathComponent("threeds2sdk")
            }
            let home = environment("HOME") ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(".local/share/threeds2sdk")
        }
    }
#endif
