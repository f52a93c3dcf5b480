import Dispatch
import Foundation
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// Where a ``GatedProbe`` stops.
private enum GatePoint: Sendable {
    /// In the UI facts (device-data collection; on an iPhone, the hop to the main thread).
    case platformFacts
    /// In the security checks (the first thing SW01 reads).
    case effectiveUserID
    /// In the executable's hash (SW02).
    case sha256
}

/// A one-time gate: the probe signals `entered` and waits for `release` at its gate point, as the main-thread hop
/// waits for a busy main thread.
private final class Gate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let passed = Locked(false)

    func pass() {
        guard
            passed.withLock({ passed in
                defer { passed = true }; return !passed
            })
        else { return }
        entered.signal()
        release.wait()
    }
}

/// A fake iPhone that blocks once at one gate point until the test releases it.
private struct GatedProbe: SystemProbe {
    let base: FakeSystemProbe
    let point: GatePoint
    let gate: Gate

    var platform: DevicePlatform { base.platform }
    func readFile(_ path: String) -> String? { base.readFile(path) }
    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func isWritable(_ path: String) -> Bool { base.isWritable(path) }
    func symbolicLinkDestination(_ path: String) -> String? { base.symbolicLinkDestination(path) }
    func sha256OfFile(_ path: String) -> String? {
        if point == .sha256 { gate.pass() }
        return base.sha256OfFile(path)
    }
    func environment(_ name: String) -> String? { base.environment(name) }
    func sysctlString(_ name: String) -> String? { base.sysctlString(name) }
    func sysctlInteger(_ name: String) -> Int? { base.sysctlInteger(name) }
    var loadedImagePaths: [String] { base.loadedImagePaths }
    var operatingSystemVersion: OperatingSystemVersion? { base.operatingSystemVersion }
    func platformFact(_ fact: PlatformFact) -> PlatformFactValue? {
        if point == .platformFacts { gate.pass() }
        return base.platformFact(fact)
    }
    func platformFacts(_ facts: [PlatformFact]) -> [PlatformFact: PlatformFactValue] {
        if point == .platformFacts { gate.pass() }
        return base.platformFacts(facts)
    }
    var effectiveUserID: UInt32 {
        if point == .effectiveUserID { gate.pass() }
        return base.effectiveUserID
    }
    var executablePath: String? { base.executablePath }
    var hostName: String? { base.hostName }
    var machine: String? { base.machine }
    var ipAddress: String? { base.ipAddress }
    var isSimulator: Bool { base.isSimulator }
    var runtimeEnvironment: RuntimeEnvironment { base.runtimeEnvironment }
    var isTracedByKernel: Bool { base.isTracedByKernel }
    var defaultDataDirectory: URL { base.defaultDataDirectory }
}

/// Runs `body` on another thread and reports whether it finished within the bound. The bound only guards the test
/// against a hang (the old code waited there until the gate opened); nothing is timed.
private func finishes(within seconds: Int = 60, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + .seconds(seconds)) == .success
}

/// Issue 33: nothing waits on the main thread, or on the probe, under a lock.
@Suite("No lock is held while the device is read")
struct NoWaitUnderLockTests {
    @Test("isClosed and close() never wait for device-data collection; the build then fails as closed")
    func closeDuringCollection() throws {
        let gate = Gate()
        let service = ThreeDS2Service(
            systemProbe: GatedProbe(base: .iPhone(), point: .platformFacts, gate: gate))
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        let transaction = try service.createTransaction(directoryServerID: "A000000004")
        let outcome = Locked<Result<AuthenticationRequestParameters, ThreeDS2Error>?>(nil)
        let built = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = Result { () throws(ThreeDS2Error) in try transaction.getAuthenticationRequestParameters() }
            outcome.withLock { $0 = result }
            built.signal()
        }
        #expect(gate.entered.wait(timeout: .now() + .seconds(60)) == .success, "collection reached the UI facts")
        let answered = finishes {
            _ = transaction.isClosed
            transaction.close()
            _ = transaction.isClosed
        }
        gate.release.signal()
        #expect(answered, "isClosed and close() waited for device-data collection")
        #expect(built.wait(timeout: .now() + .seconds(60)) == .success)
        #expect(transaction.isClosed)
        switch outcome.withLock({ $0 }) {
        case .failure(let error)?: #expect(error.code == .runtime && error.message.contains("closed"))
        case .success?: Issue.record("parameters built for a transaction closed meanwhile")
        case nil: Issue.record("the build did not finish")
        }
    }

    @Test("warnings and cleanup() never wait for initialize's checks and file")
    func lifecycleDuringInitialize() throws {
        let gate = Gate()
        let service = ThreeDS2Service(
            systemProbe: GatedProbe(base: .iPhone(), point: .effectiveUserID, gate: gate))
        let config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        let initialized = DispatchSemaphore(value: 0)
        let failure = Locked<ThreeDS2Error?>(nil)
        DispatchQueue.global().async {
            do throws(ThreeDS2Error) {
                try service.initialize(configParameters: config)
            } catch {
                failure.withLock { $0 = error }
            }
            initialized.signal()
        }
        #expect(gate.entered.wait(timeout: .now() + .seconds(60)) == .success, "initialize reached the checks")
        let codes = Locked<[ThreeDS2Error.Code]>([])
        let answered = finishes {
            do throws(ThreeDS2Error) { _ = try service.warnings } catch { codes.withLock { $0.append(error.code) } }
            do throws(ThreeDS2Error) { try service.cleanup() } catch { codes.withLock { $0.append(error.code) } }
        }
        gate.release.signal()
        #expect(answered, "warnings and cleanup() waited for initialize")
        #expect(codes.withLock { $0 } == [.notInitialized, .notInitialized])
        #expect(initialized.wait(timeout: .now() + .seconds(60)) == .success)
        #expect(failure.withLock { $0 } == nil)
        #expect(try service.warnings.isEmpty)
    }

    @Test("a second initialize that raced the first loses with alreadyInitialized, the first's context stays")
    func racingInitialize() throws {
        let gate = Gate()
        let probe = GatedProbe(base: .iPhone(), point: .effectiveUserID, gate: gate)
        let service = ThreeDS2Service(systemProbe: probe)
        let config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        let first = DispatchSemaphore(value: 0)
        let firstError = Locked<ThreeDS2Error?>(nil)
        DispatchQueue.global().async {
            do throws(ThreeDS2Error) { try service.initialize(configParameters: config) } catch {
                firstError.withLock { $0 = error }
            }
            first.signal()
        }
        #expect(gate.entered.wait(timeout: .now() + .seconds(60)) == .success)
        // The first is inside its checks, holding no lock: the second runs its own checks and publishes first.
        let secondError = Locked<ThreeDS2Error?>(nil)
        let answered = finishes {
            do throws(ThreeDS2Error) { try service.initialize(configParameters: config) } catch {
                secondError.withLock { $0 = error }
            }
        }
        gate.release.signal()
        #expect(answered, "the second initialize waited for the first one's checks")
        #expect(secondError.withLock { $0 } == nil)
        #expect(first.wait(timeout: .now() + .seconds(60)) == .success)
        #expect(firstError.withLock { $0 }?.code == .alreadyInitialized)
        #expect(try service.sdkVersion == ThreeDS2Service.version)
    }

    @Test("device data asks for every UI fact in one call, and only for the parameters read")
    func oneHop() throws {
        let probe = FakeSystemProbe.iPhone()
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        _ = try service.createTransaction(directoryServerID: "A000000004").getAuthenticationRequestParameters()
        #expect(probe.factBatches.count == 1)
        let batch = try #require(probe.factBatches.first)
        #expect(Set(batch) == Set(probe.readFacts), "no fact read outside the one call")
        #expect(batch.contains(.nativeScreenSize) && batch.contains(.fontFamilyNames))
        // A Linux host has no UI fact: no call.
        let linux = FakeSystemProbe.clean()
        let linuxService = ThreeDS2Service(systemProbe: linux)
        try linuxService.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        _ = try linuxService.createTransaction(directoryServerID: "A000000004").getAuthenticationRequestParameters()
        #expect(linux.factBatches.isEmpty && linux.readFacts.isEmpty)
    }

    @Test("a probe without platformFacts(_:) is asked for each fact")
    func defaultBatch() {
        let probe = RequirementsOnlyProbe(base: .iPhone())
        let values = probe.platformFacts([.deviceName, .systemName, .appStoreReceiptURL])
        #expect(
            values == [
                .deviceName: .text("iPhone"), .systemName: .text("iOS"),
                .appStoreReceiptURL: FakeSystemProbe.iPhoneFacts[.appStoreReceiptURL]!,
            ])
        #expect(probe.base.readFacts == [.deviceName, .systemName, .appStoreReceiptURL])
        #expect(probe.base.factBatches.isEmpty)
    }
}

/// Issue 33: SW02's executable hash is computed once per service (an app's one service: once per process), on a
/// background queue, never on the thread that calls initialize or creates a transaction.
@Suite("SW02: the executable hashed once, off the calling thread")
struct ExecutableDigestTests {
    private static let executable = "/private/var/containers/Bundle/Application/0B7E/Shop.app/Shop"
    private static let mismatch = String(repeating: "0", count: 64)

    private func config(expecting hash: String) throws -> ConfigParameters {
        var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        config[.expectedExecutableSHA256] = hash
        return config
    }

    private static func probe() -> FakeSystemProbe {
        FakeSystemProbe(platform: .macOS, files: [executable: "the app's code"], executablePath: executable)
    }

    @Test("one hash for initialize, every transaction, and initialize again after cleanup")
    func once() throws {
        let probe = Self.probe()
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(configParameters: try config(expecting: Self.mismatch))
        #expect(service.executableDigest.waitUntilDone(timeout: .now() + .seconds(60)))
        for _ in 0..<3 { _ = try service.createTransaction(directoryServerID: "A000000004") }
        #expect(try service.warnings.map(\.id.rawValue) == ["SW02"])
        try service.cleanup()
        try service.initialize(configParameters: try config(expecting: Self.mismatch))
        _ = try service.createTransaction(directoryServerID: "A000000004")
        #expect(try service.warnings.map(\.id.rawValue) == ["SW02"], "the kept hash is compared at once")
        #expect(probe.hashedPaths == [Self.executable])
    }

    @Test("the matching hash raises nothing")
    func matching() throws {
        let probe = Self.probe()
        let expected = try #require(probe.sha256OfFile(Self.executable))
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(configParameters: try config(expecting: expected))
        #expect(service.executableDigest.waitUntilDone(timeout: .now() + .seconds(60)))
        _ = try service.createTransaction(directoryServerID: "A000000004")
        #expect(try service.warnings.isEmpty)
    }

    @Test("initialize does not wait for the hash; the first check after it raises SW02 and tells the listener")
    func offTheCallingThread() throws {
        let gate = Gate()
        let recorder = RecordingEventListener()
        let service = ThreeDS2Service(
            securityEventListener: recorder,
            systemProbe: GatedProbe(base: Self.probe(), point: .sha256, gate: gate))
        let config = try config(expecting: Self.mismatch)
        let failure = Locked<ThreeDS2Error?>(nil)
        let answered = finishes {
            do throws(ThreeDS2Error) { try service.initialize(configParameters: config) } catch {
                failure.withLock { $0 = error }
            }
        }
        #expect(gate.entered.wait(timeout: .now() + .seconds(60)) == .success, "the hash started")
        #expect(answered, "initialize waited for the executable's hash")
        #expect(failure.withLock { $0 } == nil)
        #expect(try service.warnings.isEmpty, "nothing is compared while the hash is pending")
        gate.release.signal()
        #expect(service.executableDigest.waitUntilDone(timeout: .now() + .seconds(60)))
        _ = try service.createTransaction(directoryServerID: "A000000004")
        #expect(try service.warnings.map(\.id.rawValue) == ["SW02"])
        let changes = recorder.changes.map {
            ($0.warnings.map(\.id.rawValue), $0.previous.map(\.id.rawValue), $0.stage)
        }
        #expect(changes.last?.0 == ["SW02"] && changes.last?.1 == [] && changes.last?.2 == .transactionCreation)
    }

    @Test("an executable that cannot be read raises SW02 once the hash is done")
    func unreadable() throws {
        let probe = FakeSystemProbe(platform: .macOS, executablePath: "/nonexistent/Shop")
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(configParameters: try config(expecting: Self.mismatch))
        #expect(service.executableDigest.waitUntilDone(timeout: .now() + .seconds(60)))
        _ = try service.createTransaction(directoryServerID: "A000000004")
        let warning = try #require(try service.warnings.first)
        #expect(warning.id.rawValue == "SW02" && warning.message.contains("could not be hashed"))
    }
}
