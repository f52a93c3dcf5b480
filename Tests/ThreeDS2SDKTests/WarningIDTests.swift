import Testing
import ThreeDS2SDKTesting

@testable import ThreeDS2SDK

@Suite("Warning IDs as types")
struct WarningIDTests {
    @Test("the EMVCo security warnings and the SDK's own have their texts; device data carries the text")
    func ids() {
        let ids: [Warning.ID] = [
            .jailbroken, .tampered, .emulator, .debuggerAttached, .unsupportedOS, .lowContrast,
            .directoryServerCertificateExpiring,
        ]
        #expect(ids.map(\.rawValue) == ["SW01", "SW02", "SW03", "SW04", "SW05", "UI01", "DSCERT01"])
        let root = SecurityChecks(probe: FakeSystemProbe.clean(euid: 0), minimumOSVersion: nil).run()
        #expect(root.map(\.id) == [.jailbroken])
        let info = DeviceInformation(securityWarnings: [.jailbroken, .debuggerAttached])
        #expect(info.json.hasSuffix(#""SW":["SW01","SW04"]}"#))
        #expect("\(Warning(id: .emulator, message: "VM", severity: .high))" == "SW03 (HIGH): VM")
    }
}
