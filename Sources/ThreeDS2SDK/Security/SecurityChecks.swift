public import Foundation

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
    let minimumOSVersion: OperatingSystemVersion?
    let expectedExecutableSHA256: String?
    /// The service's once-per-process hash, computed off the calling thread; `nil` hashes at each run (a caller of
    /// the public initializer).
    let executableDigest: ExecutableDigest?

    /// Creates the checks.
    ///
    /// - Parameters:
    ///   - probe: Where the checks read the system; the probe's platform selects the checks that apply.
    ///   - minimumOSVersion: The lowest OS version considered supported, compared with the OS's structured version
    ///     (the kernel release on Linux); `nil` checks nothing.
    ///   - expectedExecutableSHA256: The expected SHA-256 (lower-case hex) of the app's executable; `nil` skips.
    ///     Checks made this way hash the executable at each ``run()``, on the caller's thread; a
    ///     ``ThreeDS2Service`` hashes it once, on a background queue.
    public init(
        probe: any SystemProbe = LiveSystemProbe(), minimumOSVersion: OperatingSystemVersion? = nil,
        expectedExecutableSHA256: String? = nil
    ) {
        self.init(
            probe: probe, minimumOSVersion: minimumOSVersion, expectedExecutableSHA256: expectedExecutableSHA256,
            executableDigest: nil)
    }

    init(
        probe: any SystemProbe, minimumOSVersion: OperatingSystemVersion?, expectedExecutableSHA256: String?,
        executableDigest: ExecutableDigest?
    ) {
        self.probe = probe
        self.minimumOSVersion = minimumOSVersion
        self.expectedExecutableSHA256 = expectedExecutableSHA256
        self.executableDigest = executableDigest
    }

    /// Runs every check.
    ///
    /// - Returns: The warnings raised, in ID order.
    public func run() -> [Warning] {
        [privileged(), tampered(), virtualized(), debuggerAttached(), unsupportedOS()].compactMap { $0 }
    }

    /// Files that exist only on a jailbroken iOS device: package managers and their data, substrate and its
    /// successors, the rootless jailbreaks' `/var/jb`, and markers the common jailbreaks leave (iOS only).
    public static let jailbreakPaths = [
        "/Applications/Cydia.app", "/Applications/Sileo.app", "/Applications/Zebra.app",
        "/Applications/Installer.app", "/Library/MobileSubstrate/MobileSubstrate.dylib",
        "/Library/MobileSubstrate/DynamicLibraries", "/usr/lib/libsubstitute.dylib", "/usr/lib/substrate",
        "/usr/lib/TweakInject", "/usr/lib/libhooker.dylib", "/var/lib/cydia", "/private/var/lib/apt",
        "/private/var/lib/cydia", "/private/var/stash", "/etc/apt", "/usr/libexec/cydia", "/usr/sbin/sshd",
        "/usr/bin/ssh", "/bin/bash", "/bin/sh", "/var/jb", "/private/preboot/jb", "/var/binpack",
        "/.bootstrapped_electra", "/.installed_unc0ver", "/.cydia_no_stash", "/var/checkra1n.dmg",
        "/Library/PreferenceLoader",
    ]

    /// System locations an app's sandbox never lets it write on iOS; writable means the sandbox is gone.
    public static let systemPathsNeverWritable = ["/", "/private", "/root", "/usr", "/bin", "/sbin", "/etc/apt"]

    /// System folders that are real folders on iOS and become symbolic links when a jailbreak moves ("stashes")
    /// them to the data partition. (`/var`, `/etc` and `/tmp` are links on every iPhone and are not listed.)
    public static let systemPathsNeverSymbolicLinks = [
        "/Applications", "/Library/Ringtones", "/Library/Wallpaper", "/usr/include", "/usr/libexec", "/usr/share",
        "/usr/arm-apple-darwin9",
    ]

    /// Names of hooking and instrumentation frameworks; a loaded image whose file name contains one (ignoring case)
    /// raises SW02 on every platform.
    public static let hookingLibraryNames = [
        "substrate", "substitute", "frida", "cycript", "libhooker", "ellekit", "tweakinject", "sslkillswitch",
        "systemhook", "pspawn_payload", "rocketbootstrap",
    ]

    func privileged() -> Warning? {
        var reasons: [String] = []
        if probe.effectiveUserID == 0 { reasons.append("running with root privileges") }
        // The filesystem heuristics read an iPhone's or iPad's own filesystem. In the Simulator, as an iPhone/iPad app
        // on a Mac and as Mac Catalyst, the platform is iOS but the files are the Mac's, where `/bin/bash`,
        // `/usr/sbin/sshd` and a writable `/private/tmp` are stock: they are not read there.
        if probe.platform == .iOS, !probe.runtimeEnvironment.hostIsMac {
            for path in Self.jailbreakPaths where probe.fileExists(path) {
                reasons.append("jailbreak artefact \(path)")
            }
            for path in Self.systemPathsNeverWritable where probe.isWritable(path) {
                reasons.append("\(path) is writable outside the sandbox")
            }
            for path in Self.systemPathsNeverSymbolicLinks where probe.symbolicLinkDestination(path) != nil {
                reasons.append("\(path) is a symbolic link")
            }
        }
        return Self.warning(.jailbroken, "Privileged or jailbroken environment: ", reasons)
    }

    func tampered() -> Warning? {
        var reasons: [String] = []
        for name in ["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"] {
            if let value = probe.environment(name), !value.trimmingCharacters(in: .whitespaces).isEmpty {
                reasons.append("\(name) is set")
            }
        }
        if probe.platform == .linux, let preload = probe.readFile(LinuxPaths.preload),
            !preload.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            reasons.append("/etc/ld.so.preload lists libraries")
        }
        for name in Self.hookingLibraries(in: probe.loadedImagePaths) {
            reasons.append("hooking library \(name) is loaded")
        }
        if let expected = expectedExecutableSHA256 {
            let state = executableDigest?.current(probe) ?? .done(probe.executablePath.flatMap(probe.sha256OfFile))
            switch state {
            case .done(let actual?) where actual != expected:
                reasons.append("executable hash differs from the configured one")
            case .done(nil): reasons.append("executable could not be hashed")
            // Still being hashed off the calling thread: a later check compares.
            case .done, .notStarted, .pending: break
            }
        }
        return Self.warning(.tampered, "The SDK integrity has been tampered: ", reasons)
    }

    /// A high-severity warning naming each reason found, or `nil` when none was.
    static func warning(_ id: Warning.ID, _ summary: String, _ reasons: [String]) -> Warning? {
        reasons.isEmpty ? nil : Warning(id: id, message: summary + reasons.joined(separator: ", "), severity: .high)
    }

    /// The file names among `paths` that name a hooking framework, each once.
    package static func hookingLibraries(in paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let lowered = name.lowercased()
            if Self.hookingLibraryNames.contains(where: { lowered.contains($0) }), !found.contains(name) {
                found.append(name)
            }
        }
        return found
    }

    func virtualized() -> Warning? {
        var reasons: [String] = []
        if probe.isSimulator || probe.runtimeEnvironment == .simulator { reasons.append("simulator build") }
        switch probe.platform {
        case .linux: reasons += linuxVirtualization()
        case .iOS, .macOS:
            if probe.sysctlInteger("kern.hv_vmm_present") == 1 { reasons.append("the kernel reports a hypervisor") }
        }
        return Self.warning(.emulator, "An emulator or virtual machine is being used: ", reasons)
    }

    private func linuxVirtualization() -> [String] {
        var reasons: [String] = []
        // Every processor's block repeats the same flags: the first `flags` line decides. Lines and words are cut on
        // bytes (cutting a String walks characters, and /proc/cpuinfo runs to tens of kilobytes).
        if let cpuinfo = probe.readFile(LinuxPaths.cpuInfo),
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
        for path in LinuxPaths.dmiVendorFiles {
            guard let value = probe.readFile(path)?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            if let vendor = vendors.first(where: { value.localizedCaseInsensitiveContains($0) }) {
                reasons.append("DMI \(path.split(separator: "/").last ?? "") names \(vendor)")
            }
        }
        return reasons
    }

    func debuggerAttached() -> Warning? {
        if probe.platform == .linux, let status = probe.readFile(LinuxPaths.processStatus),
            let line = Self.firstLine(of: status, startingWith: "TracerPid:"),
            let pid = Int(
                String(decoding: line.dropFirst("TracerPid:".utf8.count), as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)),
            pid != 0
        {
            return Warning(
                id: .debuggerAttached, message: "A debugger is attached (tracer process \(pid))", severity: .medium)
        }
        if probe.isTracedByKernel {
            return Warning(id: .debuggerAttached, message: "A debugger is attached", severity: .medium)
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

    /// SW05. Not evaluated for an iOS app on a Mac (an iPhone/iPad app on Apple silicon, Mac Catalyst): the version
    /// read there is the Mac's (`ProcessInfo.operatingSystemVersion`), which `sdk.minimumOSVersion`, an iOS version,
    /// does not describe (macOS 15 would be "below" iOS 16). The Simulator reports the simulated iOS and is compared.
    func unsupportedOS() -> Warning? {
        if probe.platform == .iOS, [.iOSAppOnMac, .macCatalyst].contains(probe.runtimeEnvironment) { return nil }
        guard let minimum = minimumOSVersion, let current = probe.operatingSystemVersion else { return nil }
        guard current.isAtLeast(minimum) else {
            return Warning(
                id: .unsupportedOS,
                message:
                    "The OS version \(current.dottedDescription) is below the supported minimum"
                    + " \(minimum.dottedDescription)",
                severity: .high)
        }
        return nil
    }
}
