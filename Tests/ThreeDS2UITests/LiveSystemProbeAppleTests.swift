// Apple-only: compiled and run by `.github/workflows/apple.yml` (`xcodebuild test` on an iOS Simulator), never on
// Linux, where this target is not declared.
#if os(iOS)
    import Foundation
    import Testing
    import ThreeDS2SDK
    import UIKit

    /// Every member of the live probe, executed on an iOS Simulator: the UIKit branch, sysctl, dyld and the files.
    @Suite("LiveSystemProbe on iOS")
    struct LiveSystemProbeAppleTests {
        @Test("every UI fact, in one call off the main thread and on it, and each alone")
        func everyFact() async throws {
            let probe = LiveSystemProbe()
            let all = PlatformFact.allCases
            let offMain = await Task.detached { probe.platformFacts(all) }.value
            let onMain = await MainActor.run { probe.platformFacts(all) }
            let expected = await MainActor.run {
                (
                    system: UIDevice.current.systemName, idiom: Double(UIDevice.current.userInterfaceIdiom.rawValue),
                    label: Double(UIFont.labelFontSize)
                )
            }
            for facts in [offMain, onMain] {
                #expect(facts[.systemName] == .text(expected.system))
                #expect(facts[.userInterfaceIdiom] == .number(expected.idiom))
                #expect(facts[.labelFontSize] == .number(expected.label))
                guard case .texts(let families)? = facts[.fontFamilyNames] else {
                    Issue.record("no font families")
                    continue
                }
                #expect(!families.isEmpty)
                guard case .text(let fontName)? = facts[.systemFontName] else {
                    Issue.record("no system font name")
                    continue
                }
                #expect(!fontName.isEmpty)
                guard case .texts(let languages)? = facts[.preferredLanguages] else {
                    Issue.record("no preferred languages")
                    continue
                }
                #expect(!languages.isEmpty)
                #expect(facts[.appStoreReceiptExists] == .flag(false) || facts[.appStoreReceiptExists] == nil)
                // The screen is read through the app's connected scenes; a test without a host app has none.
                if case .size(let width, let height)? = facts[.nativeScreenSize] {
                    #expect(width > 0 && height > 0)
                }
            }
            for fact in all {
                #expect(probe.platformFact(fact) == onMain[fact], "\(fact)")
            }
        }

        @Test("the probe's other members on the Simulator")
        func members() throws {
            let probe = LiveSystemProbe()
            #expect(probe.platform == .iOS)
            #expect(probe.isSimulator)
            #expect(probe.runtimeEnvironment == .simulator)
            #expect(probe.sysctlString("hw.machine")?.isEmpty == false)
            #expect(probe.sysctlInteger("hw.ncpu").map { $0 > 0 } == true)
            #expect(probe.loadedImagePaths.contains { $0.hasSuffix("/libSystem.B.dylib") })
            #expect((probe.operatingSystemVersion?.majorVersion ?? 0) >= 16)
            let executable = try #require(probe.executablePath)
            #expect(probe.sha256OfFile(executable)?.count == 64)
            #expect(probe.defaultDataDirectory.path.contains("Application Support"))
            _ = probe.isTracedByKernel
            _ = probe.effectiveUserID
            _ = (probe.hostName, probe.machine, probe.ipAddress)
            #expect(probe.environment("SIMULATOR_MODEL_IDENTIFIER")?.isEmpty == false)
        }

        @Test("the Simulator raises SW03 and no SW01 (the Mac's /bin/bash is not a jailbreak)")
        func checks() {
            let ids = SecurityChecks().run().map(\.id.rawValue)
            #expect(ids.contains("SW03"))
            #expect(!ids.contains("SW01"))
        }
    }
#endif
