import Foundation
import Logging
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// Issue 33: the SDK App ID is per installation; its file is left out of device backups, so a backup restored to
/// another phone does not bring it along.
@Suite("The SDK App ID's file is excluded from backups")
struct BackupExclusionTests {
    @Test("initialize marks the file it writes, and marks it again when it reads it (a file an older SDK wrote)")
    func marked() throws {
        let directory = try temporaryDirectory()
        let file = URL(fileURLWithPath: directory).appendingPathComponent("sdk-app-id-org.example.shop.json").path
        let probe = FakeSystemProbe.iPhone()
        let service = ThreeDS2Service(systemProbe: probe)
        let config = try makeConfiguration(dataDirectory: directory)
        try service.initialize(configParameters: config)
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(probe.excludedFromBackup == [file])
        try service.cleanup()
        try service.initialize(configParameters: config)
        #expect(probe.excludedFromBackup == [file, file])
    }

    @Test("when the attribute cannot be set, initialize still succeeds and logs a warning")
    func failureIsLogged() throws {
        let capture = LogCapture()
        let probe = FakeSystemProbe(platform: .iOS, backupExclusionFails: true)
        let service = ThreeDS2Service(logger: Logger(label: "test", factory: capture.handler), systemProbe: probe)
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        #expect(try service.sdkVersion == ThreeDS2Service.version)
        #expect(capture.text.contains("could not be excluded from backups"))
        #expect(probe.excludedFromBackup.isEmpty)
    }

    @Test("the store reports the exclusion with the ID; a probe without backups reports it done")
    func store() throws {
        let directory = URL(fileURLWithPath: try temporaryDirectory())
        let marked = try SDKAppIDStore(directory: directory, probe: FakeSystemProbe.iPhone())
            .sdkAppID(appIdentifier: "com.example.app", appVersion: "1")
        #expect(marked.excludedFromBackup)
        let failed = try SDKAppIDStore(directory: directory, probe: FakeSystemProbe(backupExclusionFails: true))
            .sdkAppID(appIdentifier: "com.example.app", appVersion: "1")
        #expect(!failed.excludedFromBackup)
        #expect(failed.id == marked.id, "the same file, the same ID")
        #expect(LiveSystemProbe().excludeFromBackup(directory.path), "Linux has no device backups")
    }
}
