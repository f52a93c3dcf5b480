import Foundation
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// Issue 33: an iPhone or iPad app reports the iOS platform in the Simulator, on an Apple-silicon Mac and as Mac
/// Catalyst, where the Mac's own files (`/bin/bash`, `/usr/sbin/sshd`) are stock. Each case is driven through the
/// fake probe with the Mac's files present.
@Suite("An iPhone app whose host is a Mac")
struct MacHostTests {
    private func ids(_ probe: FakeSystemProbe) -> [String] { SecurityChecks(probe: probe).run().map(\.id.rawValue) }

    @Test("no jailbreak finding from the Mac's files", arguments: [RuntimeEnvironment.iOSAppOnMac, .macCatalyst])
    func noJailbreakOnMac(runtime: RuntimeEnvironment) {
        let probe = FakeSystemProbe.iPhone(
            files: FakeSystemProbe.macHostFiles, writablePaths: ["/private"],
            symbolicLinks: ["/usr/share": "/System/Volumes/Data/usr/share"], runtime: runtime)
        #expect(probe.runtimeEnvironment == runtime)
        #expect(ids(probe).isEmpty)
    }

    @Test("the Simulator raises SW03 and no SW01 from the Mac's files")
    func simulator() {
        let probe = FakeSystemProbe.iPhone(files: FakeSystemProbe.macHostFiles, runtime: .simulator)
        #expect(probe.isSimulator)
        #expect(ids(probe) == ["SW03"])
    }

    @Test("a probe that says only Simulator build is in the Simulator")
    func simulatorFromBuildFlag() {
        let probe = FakeSystemProbe.iPhone(files: FakeSystemProbe.macHostFiles, isSimulator: true)
        #expect(probe.runtimeEnvironment == .simulator)
        #expect(ids(probe) == ["SW03"])
    }

    @Test("on the phone itself the same files are still a jailbreak")
    func phone() {
        let probe = FakeSystemProbe.iPhone(files: FakeSystemProbe.macHostFiles)
        #expect(probe.runtimeEnvironment == .native)
        #expect(ids(probe) == ["SW01"])
    }

    @Test("root is still SW01 on a Mac host", arguments: [RuntimeEnvironment.iOSAppOnMac, .macCatalyst])
    func rootOnMac(runtime: RuntimeEnvironment) {
        #expect(ids(FakeSystemProbe.iPhone(euid: 0, runtime: runtime)) == ["SW01"])
    }

    @Test("C002 names the Mac (hw.model) on a Mac host and the phone (hw.machine) on the phone")
    func deviceModel() throws {
        for (runtime, model) in [
            (RuntimeEnvironment.native, "iPhone15,2"), (.iOSAppOnMac, "Mac14,9"), (.macCatalyst, "Mac14,9"),
        ] {
            let probe = FakeSystemProbe.iPhone(runtime: runtime)
            let info = DeviceInformationCollector(probe: probe, restricted: [], enabled: []).collect(
                DeviceInformationContext(
                    locale: Locale(identifier: "en_GB"), appIdentifier: "com.example.shop", sdkAppID: "id",
                    sdkVersion: "0.1.0", sdkReferenceNumber: "ref", sdkTransactionID: "tx", now: Date()),
                warnings: [])
            #expect(info.collected[.deviceModel] == .text(model), "\(runtime)")
        }
    }

    @Test("a probe that does not implement runtimeEnvironment derives it from isSimulator")
    func protocolDefault() {
        #expect(RequirementsOnlyProbe(base: .iPhone(), isSimulator: true).runtimeEnvironment == .simulator)
        #expect(RequirementsOnlyProbe(base: .iPhone(), isSimulator: false).runtimeEnvironment == .native)
        #expect(RuntimeEnvironment.allCases.filter(\.hostIsMac) == [.simulator, .iOSAppOnMac, .macCatalyst])
    }
}
