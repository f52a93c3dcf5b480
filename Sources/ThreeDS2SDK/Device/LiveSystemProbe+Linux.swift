#if os(Linux)
    public import Foundation

    /// What only Linux has: `/proc`, the XDG data directory.
    extension LiveSystemProbe {
        /// The resolved `/proc/self/exe`.
        public var executablePath: String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        }

        /// `Linux`.
        public var platformName: String { "Linux" }

        /// Never: there are no simulator builds on Linux.
        public var isSimulator: Bool { false }

        /// Never: on Linux a tracer shows in `/proc/self/status` (`TracerPid`), which the checks read as a file.
        public var isTracedByKernel: Bool { false }

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
