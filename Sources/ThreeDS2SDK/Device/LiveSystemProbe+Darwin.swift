#if canImport(Darwin)
    import Darwin
    public import Foundation
    import MachO
    #if canImport(UIKit)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #endif

    /// What only Apple platforms have: the app bundle, `sysctl`, dyld, UIKit/AppKit facts, Application Support.
    /// Compiled only by the Apple workflow (`.github/workflows/apple.yml`). Each member is one call into the platform;
    /// what is read for which parameter or check, and how it is formatted, is decided in platform-neutral code.
    extension LiveSystemProbe {
        /// iOS or macOS.
        public var platform: DevicePlatform {
            #if os(iOS)
                .iOS
            #else
                .macOS
            #endif
        }

        /// The main bundle's executable.
        public var executablePath: String? { Bundle.main.executablePath }

        /// Whether this is a simulator build.
        public var isSimulator: Bool {
            #if targetEnvironment(simulator)
                true
            #else
                false
            #endif
        }

        /// The Simulator, an iPhone/iPad app on a Mac (`ProcessInfo.isiOSAppOnMac`, iOS 14+), Mac Catalyst, or
        /// the device itself.
        public var runtimeEnvironment: RuntimeEnvironment {
            #if targetEnvironment(simulator)
                .simulator
            #elseif targetEnvironment(macCatalyst)
                .macCatalyst
            #else
                // False for Mac Catalyst apps and for Mac apps; true only for an iPhone/iPad app on a Mac.
                ProcessInfo.processInfo.isiOSAppOnMac ? .iOSAppOnMac : .native
            #endif
        }

        /// `P_TRACED` from `sysctl(KERN_PROC_PID)`.
        public var isTracedByKernel: Bool {
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
            return sysctl(&mib, UInt32(mib.count), &info, &size, nil, 0) == 0 && info.kp_proc.p_flag & P_TRACED != 0
        }

        /// `sysctlbyname` for a string value.
        public func sysctlString(_ name: String) -> String? {
            var size = 0
            guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0, size <= 4096 else { return nil }
            var buffer = [CChar](repeating: 0, count: size)
            guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// `sysctlbyname` for a 32-bit integer value.
        public func sysctlInteger(_ name: String) -> Int? {
            var value: Int32 = 0
            var size = MemoryLayout<Int32>.size
            guard sysctlbyname(name, &value, &size, nil, 0) == 0 else { return nil }
            return Int(value)
        }

        /// dyld's loaded images.
        public var loadedImagePaths: [String] {
            (0..<_dyld_image_count()).compactMap { index in _dyld_get_image_name(index).map { String(cString: $0) } }
        }

        /// `ProcessInfo.operatingSystemVersion`.
        public var operatingSystemVersion: OperatingSystemVersion? { ProcessInfo.processInfo.operatingSystemVersion }

        /// One UIKit or AppKit call, made on the main thread.
        public func platformFact(_ fact: PlatformFact) -> PlatformFactValue? { platformFacts([fact])[fact] }

        /// Every fact asked for, in one hop to the main thread (none when called there). The SDK calls this once per
        /// device-data collection, holding no lock, so the main thread may use the SDK meanwhile.
        public func platformFacts(_ facts: [PlatformFact]) -> [PlatformFact: PlatformFactValue] {
            // UIKit's values are main-actor isolated; device data is built synchronously on the caller's thread.
            if Thread.isMainThread { return MainActor.assumeIsolated { Self.mainThreadFacts(facts) } }
            return DispatchQueue.main.sync { MainActor.assumeIsolated { Self.mainThreadFacts(facts) } }
        }

        @MainActor
        private static func mainThreadFacts(_ facts: [PlatformFact]) -> [PlatformFact: PlatformFactValue] {
            var values: [PlatformFact: PlatformFactValue] = [:]
            for fact in facts { values[fact] = mainThreadFact(fact) }
            return values
        }

        #if canImport(UIKit)
            @MainActor
            private static func mainThreadFact(_ fact: PlatformFact) -> PlatformFactValue? {
                let device = UIDevice.current
                let systemFont = UIFont.systemFont(ofSize: UIFont.systemFontSize)
                switch fact {
                case .systemName: return .text(device.systemName)
                case .deviceName: return .text(device.name)
                case .identifierForVendor: return device.identifierForVendor.map { .text($0.uuidString) }
                case .userInterfaceIdiom: return .number(Double(device.userInterfaceIdiom.rawValue))
                case .fontFamilyNames: return .texts(UIFont.familyNames)
                case .systemFontFamilyFontNames: return .texts(UIFont.fontNames(forFamilyName: systemFont.familyName))
                case .systemFontName: return .text(systemFont.fontName)
                case .labelFontSize: return .number(Double(UIFont.labelFontSize))
                case .buttonFontSize: return .number(Double(UIFont.buttonFontSize))
                case .smallSystemFontSize: return .number(Double(UIFont.smallSystemFontSize))
                case .systemFontSize: return .number(Double(UIFont.systemFontSize))
                case .systemLocaleIdentifier: return .text(NSLocale.system.identifier)
                case .availableLocaleIdentifiers: return .texts(Locale.availableIdentifiers)
                case .preferredLanguages: return .texts(Locale.preferredLanguages)
                case .defaultTimeZoneOffset: return .number(Double(NSTimeZone.default.secondsFromGMT()))
                case .appStoreReceiptURL: return Bundle.main.appStoreReceiptURL.map { .text($0.absoluteString) }
                case .appStoreReceiptExists:
                    // A receipt is a non-empty file: an empty one (left by an interrupted refresh) is none.
                    // Read, not stat'ed: one byte tells (no file-timestamp API, which the privacy manifest would
                    // have to declare).
                    return Bundle.main.appStoreReceiptURL.map { url in
                        let handle = FileHandle(forReadingAtPath: url.path)
                        defer { try? handle?.close() }
                        let first = try? handle?.read(upToCount: 1)
                        return .flag(first?.isEmpty == false)
                    }
                case .nativeScreenSize:
                    // The app's own window scene (an external display's scene has another role), the one in front
                    // first.
                    let scenes = (sharedApplication()?.connectedScenes ?? []).compactMap { $0 as? UIWindowScene }
                        .filter { $0.session.role == .windowApplication }
                    let screen = (scenes.first { $0.activationState == .foregroundActive } ?? scenes.first)?.screen
                    return screen.map { .size(width: $0.nativeBounds.width, height: $0.nativeBounds.height) }
                }
            }

            /// The app's `UIApplication`, without naming `UIApplication.shared`: that property is unavailable in app
            /// extensions (`NS_EXTENSION_UNAVAILABLE_IOS`), which link this core too, so naming it would stop an
            /// extension built with extension-only APIs from compiling the SDK. Asked of the class at run time, and
            /// only in an app (an extension's bundle is an `.appex`, where there is none): `nil` otherwise, and C008
            /// is then not read.
            @MainActor
            private static func sharedApplication() -> UIApplication? {
                let selector = NSSelectorFromString("sharedApplication")
                guard Bundle.main.bundleURL.pathExtension != "appex", UIApplication.responds(to: selector) else {
                    return nil
                }
                return UIApplication.perform(selector)?.takeUnretainedValue() as? UIApplication
            }
        #else
            @MainActor
            private static func mainThreadFact(_ fact: PlatformFact) -> PlatformFactValue? {
                switch fact {
                case .nativeScreenSize:
                    guard let screen = NSScreen.main else { return nil }
                    let scale = screen.backingScaleFactor
                    return .size(width: screen.frame.width * scale, height: screen.frame.height * scale)
                default: return nil
                }
            }
        #endif

        /// Sets `isExcludedFromBackup` on the file (iCloud and computer backups leave it out).
        ///
        /// - Parameter path: The file.
        /// - Returns: Whether the attribute was set.
        public func excludeFromBackup(_ path: String) -> Bool {
            var url = URL(fileURLWithPath: path)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            do {
                try url.setResourceValues(values)
                return true
            } catch {
                return false
            }
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
