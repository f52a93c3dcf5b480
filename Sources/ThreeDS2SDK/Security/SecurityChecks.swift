import Crypto
import Foundation

/// The EMVCo security checks SW01–SW05, each reading its inputs through a ``SystemProbe``.
public struct SecurityChecks: Sendable {
    /// Where the checks ran.
    public enum Stage: String, Sendable, Hashable {
        /// At ``ThreeDS2Service/initialize(configParameters:locale:uiCustomization:)``.
        case initialization
        /// At transaction creation.
        case transactionCreation
        /// At the start of a challenge.
        case challengeStart
    }

    let probe: any SystemProbe
    let minimumOSVersion: String?
    let expectedExecutableSHA256: String?

    /// Creates the checks.
    ///
    /// - Parameters:
    ///   - probe: Where the checks read the system.
    ///   - minimumOSVersion: The lowest OS (kernel on Linux) version considered supported; `nil` checks nothing.
    ///   - expectedExecutableSHA256: The expected SHA-256 (lower-case hex) of the app's executable; `nil` skips.
    public init(
        probe: any SystemProbe = LiveSystemProbe(), minimumOSVersion: String? = nil,
        expectedExecutableSHA256: String? = nil
    ) {
        self.probe = probe
        self.minimumOSVersion = minimumOSVersion
        self.expectedExecutableSHA256 = expectedExecutableSHA256
    }

    /// Runs every check.
    ///
    /// - Returns: The warnings raised, in ID order.
    public func run() -> [Warning] {
        [privileged(), tampered(), virtualized(), debuggerAttached(), unsupportedOS()].compactMap { $0 }
    }

    func privileged() -> Warning? {
        var reasons: [String] = []
        if probe.effectiveUserID == 0 { reasons.append("running with root privileges") }
        for path in [
            "/Applications/Cydia.app", "/Library/MobileSubstrate/MobileSubstrate.dylib", "/var/lib/cydia",
            "/private/var/lib/apt",
        ]
        where probe.fileExists(path) {
            reasons.append("jailbreak artefact \(path)")
        }
        return reasons.isEmpty
            ? nil
            : Warning(
                id: "SW01", message: "Privileged or jailbroken environment: " + reasons.joined(separator: ", "),
                severity: .high)
    }

    func tampered() -> Warning? {
        var reasons: [String] = []
        for name in ["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"] {
            if let value = probe.environment(name), !value.trimmingCharacters(in: .whitespaces).isEmpty {
                reasons.append("\(name) is set")
            }
        }
        if let preload = probe.readFile("/etc/ld.so.preload"),
            !preload.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            reasons.append("/etc/ld.so.preload lists libraries")
        }
        if let expected = expectedExecutableSHA256 {
            if let actual = executableHash() {
                if actual != expected { reasons.append("executable hash differs from the configured one") }
            } else {
                reasons.append("executable could not be hashed")
            }
        }
        return reasons.isEmpty
            ? nil
            : Warning(
                id: "SW02", message: "The SDK integrity has been tampered: " + reasons.joined(separator: ", "),
                severity: .high)
    }

    private func executableHash() -> String? {
        guard let path = probe.executablePath, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    func virtualized() -> Warning? {
        var reasons: [String] = []
        if probe.isSimulator { reasons.append("simulator build") }
        // Every processor's block repeats the same flags: the first `flags` line decides. Lines and words are cut on
        // bytes (cutting a String walks characters, and /proc/cpuinfo runs to tens of kilobytes).
        if let cpuinfo = probe.readFile("/proc/cpuinfo"),
            let flags = Self.firstLine(of: cpuinfo, startingWith: "flags"),
            flags.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
                .contains(where: { $0.elementsEqual("hypervisor".utf8) })
        {
            reasons.append("CPU reports a hypervisor")
        }
        let vendors = [
            "QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Bochs", "Parallels", "Microsoft Corporation",
            "Amazon EC2", "Google Compute Engine",
        ]
        for file in ["sys_vendor", "product_name", "bios_vendor"] {
            guard
                let value = probe.readFile("/sys/class/dmi/id/\(file)")?.trimmingCharacters(in: .whitespacesAndNewlines)
            else { continue }
            if let vendor = vendors.first(where: { value.localizedCaseInsensitiveContains($0) }) {
                reasons.append("DMI \(file) names \(vendor)")
            }
        }
        return reasons.isEmpty
            ? nil
            : Warning(
                id: "SW03", message: "An emulator or virtual machine is being used: " + reasons.joined(separator: ", "),
                severity: .high)
    }

    func debuggerAttached() -> Warning? {
        if let status = probe.readFile("/proc/self/status"),
            let line = Self.firstLine(of: status, startingWith: "TracerPid:"),
            let pid = Int(
                String(decoding: line.dropFirst("TracerPid:".utf8.count), as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)),
            pid != 0
        {
            return Warning(id: "SW04", message: "A debugger is attached (tracer process \(pid))", severity: .medium)
        }
        if probe.isTracedByKernel {
            return Warning(id: "SW04", message: "A debugger is attached", severity: .medium)
        }
        return nil
    }

    /// The bytes of the first line of `text` that starts with `prefix`, without its line break.
    static func firstLine(of text: String, startingWith prefix: String) -> Substring.UTF8View? {
        let bytes = text.utf8
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = bytes[lineStart..<lineEnd]
            if line.starts(with: prefix.utf8) { return line }
            lineStart = lineEnd == bytes.endIndex ? lineEnd : bytes.index(after: lineEnd)
        }
        return nil
    }

    func unsupportedOS() -> Warning? {
        guard let minimum = minimumOSVersion else { return nil }
        let current =
            probe.readFile("/proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ProcessInfo.processInfo.operatingSystemVersionString
        guard Self.version(current, isAtLeast: minimum) else {
            return Warning(
                id: "SW05", message: "The OS version \(current) is below the supported minimum \(minimum)",
                severity: .high)
        }
        return nil
    }

    /// Compares dotted numeric versions, ignoring any suffix after the numbers ("6.1.0-18-amd64" → 6.1.0).
    static func version(_ version: String, isAtLeast minimum: String) -> Bool {
        func numbers(_ text: String) -> [Int] {
            let numeric = text.prefix { $0.isNumber || $0 == "." }
            return numeric.split(separator: ".").map { Int($0) ?? 0 }
        }
        let (lhs, rhs) = (numbers(version), numbers(minimum))
        for index in 0..<max(lhs.count, rhs.count) {
            let (a, b) = (index < lhs.count ? lhs[index] : 0, index < rhs.count ? rhs[index] : 0)
            if a != b { return a > b }
        }
        return true
    }
}
