#if canImport(Darwin)
    import Darwin
    public import Foundation

    /// What only Apple platforms have: the app bundle, `sysctl`, Application Support. Compiled only by the Apple
    /// workflow (`.github/workflows/apple.yml`).
    extension LiveSystemProbe {
        /// The main bundle's executable.
        public var executablePath: String? { Bundle.main.executablePath }

        /// `iOS` or `macOS`.
        public var platformName: String {
            #if os(iOS)
                "iOS"
            #else
                "macOS"
            #endif
        }

        /// Whether this is a simulator build.
        public var isSimulator: Bool {
            #if targetEnvironment(simulator)
                true
            #else
                false
            #endif
        }

        /// `P_TRACED` from `sysctl(KERN_PROC_PID)`.
        public var isTracedByKernel: Bool {
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
            return sysctl(&mib, UInt32(mib.count), &info, &size, nil, 0) == 0 && info.kp_proc.p_flag & P_TRACED != 0
        }

        /// `Application Support/threeds2sdk` in the user domain.
        public var defaultDataDirectory: URL {
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory())
            return base.appendingPathComponent("threeds2sdk")
        }
    }
#endif
