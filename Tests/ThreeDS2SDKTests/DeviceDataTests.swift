import Crypto
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

@Suite("Device data, as the directory server sees it")
struct DeviceDataTests {
    private func decrypt(
        _ parameters: AuthenticationRequestParameters, ds: DirectoryServerID, expectKid: String?,
        enc: ContentEncryption = .a128cbcHS256
    ) throws -> (JSONObject, JSONObject) {
        let fixture = try DSFixture.get()
        let key: JWEDecryptionKey
        if ds == "A000000004" {
            key = .rsaOAEP256(privateKeyDER: fixture.rsaPrivateDER)
        } else {
            key = .ecdhES(try #require(fixture.ecPrivate), derivation: .emvco(partyVInfo: ds.rawValue))
        }
        let result = try JWE.decrypt(
            parameters.deviceData, using: key,
            expecting: .init(encryptions: [enc], keyID: expectKid.map { .exactly($0) } ?? .any))
        let json = try #require(try JSONParser().parse(result.plaintext).objectValue)
        return (result.header, json)
    }

    @Test("C002 falls back to the machine when the DMI product name is empty or blank")
    func blankProductName() throws {
        for content in ["", " \n"] {
            let probe = FakeSystemProbe.clean(extraFiles: ["/sys/class/dmi/id/product_name": content])
            let service = ThreeDS2Service(systemProbe: probe)
            try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
            let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
            let (_, json) = try decrypt(
                try transaction.getAuthenticationRequestParameters(), ds: "A000000004", expectKid: "ds-key-1")
            #expect(json["DD"]?.objectValue?["C002"] == .string("x86_64"), "product_name \(content.debugDescription)")
        }
    }

    @Test("RSA directory server: RSA-OAEP-256, A128CBC-HS256, kid; every field checked")
    func rsaDirectoryServer() throws {
        let directory = try temporaryDirectory()
        let probe = FakeSystemProbe.clean(environment: ["LD_PRELOAD": "/tmp/evil.so"])
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(
            configParameters: try makeConfiguration(dataDirectory: directory, restricted: ["C009", "C010"]),
            locale: Locale(identifier: "fr_FR"))
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
        let before = Date()
        let parameters = try transaction.getAuthenticationRequestParameters()
        let after = Date()
        let (header, json) = try decrypt(parameters, ds: "A000000004", expectKid: "ds-key-1")
        #expect(header.names == ["alg", "enc", "kid"])
        #expect(header["alg"] == .string("RSA-OAEP-256") && header["enc"] == .string("A128CBC-HS256"))
        #expect(json.names == ["DV", "DD", "DPNA", "SW"])
        #expect(json["DV"] == .string("1.7"))
        #expect(json["SW"] == .array([.string("SW02")]))
        let dd = try #require(json["DD"]?.objectValue)
        let expected: [String: String] = [
            "C001": "Linux", "C002": "ThinkPad X1", "C003": "Debian GNU/Linux", "C004": "12", "C005": "fr-FR",
            "C013": "org.example.shop", "C014": parameters.sdkAppID, "C015": ThreeDS2Service.version,
            "C016": "3DS_LOA_SDK_TEST_020300_00001", "C018": parameters.sdkTransactionID,
        ]
        for (id, value) in expected { #expect(dd[id] == .string(value), "\(id)") }
        #expect(dd["C006"]?.stringValue.flatMap(Int.init) != nil)
        let timestamp = try #require(dd["C017"]?.stringValue)
        #expect(timestamp.count == 14 && timestamp.allSatisfy(\.isNumber))
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMddHHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let stamped = try #require(formatter.date(from: timestamp))
        // Stamped during the call, to the whole second (the stamp has no fraction): a bound on order, not on speed.
        #expect(
            stamped >= before.addingTimeInterval(-1) && stamped <= after,
            "\(timestamp) not between \(before) and \(after)")
        let dpna = try #require(json["DPNA"]?.objectValue)
        #expect(
            dpna == [
                "C007": .string("RE02"), "C008": .string("RE04"), "C009": .string("RE01"), "C010": .string("RE01"),
                "C011": .string("RE03"), "C012": .string("RE03"),
            ])
        #expect(Set(dd.names).union(dpna.names).count == 18)
        #expect(Set(dd.names).isDisjoint(with: dpna.names))
    }

    @Test("EC directory server: ECDH-ES with the directory server ID as PartyVInfo, A128GCM when configured, no kid")
    func ecDirectoryServer() throws {
        let ds = try DSFixture.get()
        var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        try config.addDirectoryServer(
            DirectoryServer(
                id: "A000000152", encryptionKey: try ds.ecEncryption.certificatePEM,
                rootCertificates: try ds.root.certificatePEM, deviceDataEncryption: .a128gcm))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config)
        for (id, enc) in [(DirectoryServerID.visa, ContentEncryption.a128cbcHS256), (.discover, .a128gcm)] {
            let parameters = try service.createTransaction(directoryServerID: id).getAuthenticationRequestParameters()
            let (header, json) = try decrypt(parameters, ds: id, expectKid: nil, enc: enc)
            #expect(
                header["alg"] == .string("ECDH-ES") && header["enc"] == .string(enc.rawValue) && header["kid"] == nil)
            let epk = try #require(header["epk"]?.objectValue)
            #expect(epk.names == ["kty", "crv", "x", "y"])
            // The epk is not the SDK ephemeral key of the channel.
            #expect(
                P256PublicJWK(try P256PublicJWK(jsonObject: epk).keyAgreementKey).jsonString
                    != parameters.sdkEphemeralPublicKey)
            #expect(json["DD"]?.objectValue?["C018"] == .string(parameters.sdkTransactionID))
            // The wrong PartyVInfo fails: the directory server ID really is bound in.
            let fixture = try DSFixture.get()
            expectJOSE(.authenticationFailed) {
                try JWE.decrypt(
                    parameters.deviceData,
                    using: .ecdhES(try #require(fixture.ecPrivate), derivation: .emvco(partyVInfo: "A000000999")))
            }
        }
    }

    @Test("a restricted parameter is never read")
    func restrictedNotRead() throws {
        let probe = FakeSystemProbe.clean()
        let service = ThreeDS2Service(systemProbe: probe)
        try service.initialize(
            configParameters: try makeConfiguration(
                dataDirectory: try temporaryDirectory(), restricted: ["C002", "C003", "C004"]))
        let parameters = try service.createTransaction(directoryServerID: "A000000004")
            .getAuthenticationRequestParameters()
        let (_, json) = try decrypt(parameters, ds: "A000000004", expectKid: "ds-key-1")
        #expect(json["DPNA"]?.objectValue?["C002"] == .string("RE01"))
        #expect(
            json["DPNA"]?.objectValue?["C003"] == .string("RE01")
                && json["DPNA"]?.objectValue?["C004"] == .string("RE01"))
        // /etc/os-release is read only for C003 and C004: with both restricted it is never opened.
        #expect(!probe.readPaths.contains("/etc/os-release"))
        #expect(probe.readPaths.contains("/proc/self/status"))
    }

    @Test("on this machine: real values are collected and the JSON stays under 64,000 characters")
    func liveMachine() throws {
        let service = ThreeDS2Service()
        try service.initialize(
            configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()),
            locale: Locale(identifier: "en_US"))
        let parameters = try service.createTransaction(directoryServerID: "A000000004")
            .getAuthenticationRequestParameters()
        let (_, json) = try decrypt(parameters, ds: "A000000004", expectKid: "ds-key-1")
        let dd = try #require(json["DD"]?.objectValue)
        #if os(Linux)
            #expect(dd["C001"] == .string("Linux"))
        #else
            #expect(dd["C001"] == .string("macOS"))
        #endif
        #expect(dd["C005"] == .string("en-US"))
        #expect(dd["C003"]?.stringValue?.isEmpty == false)
        #expect(json.serialized.count < 64_000)
        #expect(parameters.deviceData.count < 64_000)
    }
}

func expectJOSE<T>(_ code: JOSEError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("expected \(code)", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Security checks SW01–SW05")
struct SecurityCheckTests {
    private func ids(_ probe: FakeSystemProbe, minimum: String? = nil, hash: String? = nil) -> [String] {
        SecurityChecks(
            probe: probe, minimumOSVersion: minimum.flatMap(OperatingSystemVersion.init(parsing:)),
            expectedExecutableSHA256: hash
        ).run().map(\.id.rawValue)
    }

    @Test("a clean system raises nothing")
    func clean() { #expect(ids(FakeSystemProbe.clean(), minimum: "5.10").isEmpty) }

    @Test("SW01: root, or jailbreak artefacts")
    func privileged() {
        #expect(ids(FakeSystemProbe.clean(euid: 0)) == ["SW01"])
        #expect(ids(FakeSystemProbe.iPhone(files: ["/Applications/Cydia.app": ""])) == ["SW01"])
        #expect(
            ids(FakeSystemProbe.clean(extraFiles: ["/Applications/Cydia.app": ""])).isEmpty, "iOS paths on iOS only")
        #expect(SecurityChecks(probe: FakeSystemProbe.clean(euid: 0)).run().first?.severity == .high)
    }

    @Test("SW02: injected libraries, ld.so.preload, or an executable hash mismatch")
    func tampering() throws {
        for variable in ["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"] {
            #expect(ids(FakeSystemProbe.clean(environment: [variable: "/x.so"])) == ["SW02"])
        }
        #expect(ids(FakeSystemProbe.clean(environment: ["LD_PRELOAD": "  "])).isEmpty)
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/etc/ld.so.preload": "/lib/hook.so\n"])) == ["SW02"])
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/etc/ld.so.preload": "\n"])).isEmpty)
        let file = try temporaryDirectory() + "/app"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("binary".utf8)))
        let digest = SHA256.hash(data: Data("binary".utf8)).map { String(format: "%02x", $0) }.joined()
        let probe = FakeSystemProbe(files: [:], executablePath: file)
        #expect(ids(probe, hash: digest).isEmpty)
        #expect(ids(probe, hash: String(repeating: "0", count: 64)) == ["SW02"])
        #expect(ids(FakeSystemProbe(files: [:], executablePath: nil), hash: digest) == ["SW02"])
    }

    @Test("SW03: hypervisor CPU flag or virtual-machine DMI strings")
    func emulator() {
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/proc/cpuinfo": "flags : fpu sse hypervisor\n"])) == ["SW03"])
        #expect(
            ids(FakeSystemProbe.clean(extraFiles: ["/proc/cpuinfo": "flags : fpu sse\nbugs : hypervisor_thing\n"]))
                .isEmpty)
        for vendor in ["QEMU", "VMware, Inc.", "innotek GmbH", "Xen"] {
            #expect(ids(FakeSystemProbe.clean(extraFiles: ["/sys/class/dmi/id/sys_vendor": vendor])) == ["SW03"])
        }
        #expect(
            ids(FakeSystemProbe.clean(isSimulator: true)) == ["SW03"], "a simulator build, as the platform reports it")
        // The layout /proc/cpuinfo really has: blocks per processor, tab-separated names, the flag last on its line
        // and no final line break.
        let block = "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu vme sse2 hypervisor\nbogomips\t: 1.0\n\n"
        let twoProcessors =
            block + block.replacingOccurrences(of: "hypervisor\nbogomips\t: 1.0\n\n", with: "hypervisor")
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/proc/cpuinfo": twoProcessors])) == ["SW03"])
        let bare = twoProcessors.replacingOccurrences(of: " hypervisor", with: " hypervisorx")
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/proc/cpuinfo": bare])).isEmpty, "a whole flag, not a prefix")
        #expect(
            ids(FakeSystemProbe.clean(extraFiles: ["/proc/cpuinfo": "vmx flags\t: hypervisor\nflags\t: fpu\n"]))
                .isEmpty,
            "only a line that starts with flags")
    }

    @Test("the live probe reads whole files up to its bound, and nothing from what is not a readable file")
    func liveFiles() throws {
        let probe = LiveSystemProbe()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, Int)] = [("empty", 0), ("small", 300), ("chunks", 40_000), ("large", (1 << 20) + 5000)]
        for (name, size) in cases {
            let path = directory.appendingPathComponent(name).path
            let text = String((0..<size).map { index in Character(UnicodeScalar(UInt8(97 + index % 26))) })
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let read = try #require(probe.readFile(path), "\(name)")
            #expect(read.utf8.count == min(size, LiveSystemProbe.maxFileBytes), "\(name)")
            #expect(read == String(text.prefix(LiveSystemProbe.maxFileBytes)), "\(name)")
        }
        #expect(probe.readFile(directory.appendingPathComponent("missing").path) == nil)
        #expect(probe.readFile(directory.path) == nil, "a directory is not a file")
        #if os(Linux)
            #expect(probe.readFile("/proc/self/status")?.contains("TracerPid:") == true)
        #else
            // Apple platforms have no /proc (the macOS job of .github/workflows/apple.yml runs this test).
            #expect(probe.readFile("/proc/self/status") == nil)
            #expect(
                probe.readFile("/System/Library/CoreServices/SystemVersion.plist")?.contains("ProductVersion") == true)
        #endif
    }

    @Test("the live probe reads environment variables as Foundation does")
    func liveEnvironment() {
        let probe = LiveSystemProbe()
        for name in ["PATH", "HOME"] {
            #expect(probe.environment(name) == ProcessInfo.processInfo.environment[name], "\(name)")
        }
        #expect(probe.environment("THREEDS_SURELY_UNSET_\(UInt32.random(in: 0...UInt32.max))") == nil)
    }

    @Test("SW04: a tracer is attached")
    func debugger() {
        let probe = FakeSystemProbe.clean(extraFiles: ["/proc/self/status": "Name: x\nTracerPid:\t4242\n"])
        #expect(ids(probe) == ["SW04"])
        #expect(
            ids(FakeSystemProbe.clean(extraFiles: ["/proc/self/status": "Name: x\nTracerPid:\t0\nUid:\t0\n"])).isEmpty)
        #expect(ids(FakeSystemProbe.clean(extraFiles: ["/proc/self/status": "Name: x\nTracerPid: 77"])) == ["SW04"])
        #expect(SecurityChecks(probe: probe).run().first?.severity == .medium)
        #expect(ids(FakeSystemProbe.clean(isTracedByKernel: true)) == ["SW04"], "P_TRACED, as the platform reports it")
    }

    @Test("SW05: OS version under the configured minimum")
    func osVersion() {
        #expect(ids(FakeSystemProbe.clean(), minimum: "6.2") == ["SW05"])
        #expect(ids(FakeSystemProbe.clean(), minimum: "6.1").isEmpty)
        #expect(ids(FakeSystemProbe.clean(), minimum: "6.1.1") == ["SW05"])
        #expect(ids(FakeSystemProbe.clean()).isEmpty)
    }

    @Test("several findings at once, in ID order")
    func combined() {
        let probe = FakeSystemProbe.clean(
            extraFiles: ["/proc/cpuinfo": "flags : hypervisor\n", "/proc/self/status": "TracerPid: 9\n"],
            environment: ["LD_AUDIT": "a"], euid: 0)
        #expect(ids(probe, minimum: "7") == ["SW01", "SW02", "SW03", "SW04", "SW05"])
    }

    @Test("re-run at transaction creation; the listener hears about a change")
    func listener() throws {
        let recorder = RecordingEventListener()
        let environment = MutableSystem()
        let service = ThreeDS2Service(securityEventListener: recorder, systemProbe: environment)
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        _ = try service.createTransaction(directoryServerID: "A000000004")
        #expect(recorder.changes.isEmpty)
        environment.tracer.withLock { $0 = 77 }
        _ = try service.createTransaction(directoryServerID: "A000000004")
        let changes = recorder.changes.map {
            ($0.warnings.map(\.id.rawValue), $0.previous.map(\.id.rawValue), $0.stage)
        }
        #expect(changes.count == 1)
        #expect(changes.first?.0 == ["SW04"] && changes.first?.1 == [] && changes.first?.2 == .transactionCreation)
        #expect(try service.warnings.map(\.id.rawValue) == ["SW04"])
        let parameters = try service.createTransaction(directoryServerID: "A000000003")
            .getAuthenticationRequestParameters()
        let fixture = try DSFixture.get()
        let plain = try JWE.decrypt(
            parameters.deviceData,
            using: .ecdhES(try #require(fixture.ecPrivate), derivation: .emvco(partyVInfo: "A000000003"))
        ).plaintext
        #expect(try JSONParser().parse(plain).objectValue?["SW"] == .array([.string("SW04")]))
    }
}

/// A system whose tracer can change during a test.
final class MutableSystem: SystemProbe, Sendable {
    let tracer = Locked(0)
    let platform = DevicePlatform.linux
    func readFile(_ path: String) -> String? {
        path == "/proc/self/status" ? "TracerPid:\t\(tracer.withLock { $0 })\n" : nil
    }
    func fileExists(_ path: String) -> Bool { false }
    func isWritable(_ path: String) -> Bool { false }
    func symbolicLinkDestination(_ path: String) -> String? { nil }
    func sha256OfFile(_ path: String) -> String? { nil }
    func environment(_ name: String) -> String? { nil }
    func sysctlString(_ name: String) -> String? { nil }
    func sysctlInteger(_ name: String) -> Int? { nil }
    func platformFact(_ fact: PlatformFact) -> PlatformFactValue? { nil }
    var loadedImagePaths: [String] { [] }
    var operatingSystemVersion: OperatingSystemVersion? { nil }
    var effectiveUserID: UInt32 { 1000 }
    var executablePath: String? { nil }
    var hostName: String? { "h" }
    var machine: String? { "m" }
    var ipAddress: String? { nil }
    var isSimulator: Bool { false }
    var isTracedByKernel: Bool { false }
    var defaultDataDirectory: URL { FileManager.default.temporaryDirectory }
}

@Suite("Logging")
struct LoggingTests {
    @Test("a full run at trace level logs nothing sensitive")
    func noSecrets() throws {
        let capture = LogCapture()
        let logger = Logger(label: "test", factory: capture.handler)
        let probe = FakeSystemProbe.clean()
        let service = ThreeDS2Service(logger: logger, systemProbe: probe)
        var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        config[.logLevel] = "trace"
        try service.initialize(configParameters: config)
        var collected: [AuthenticationRequestParameters] = []
        for ds: DirectoryServerID in ["A000000004", "A000000003"] {
            let transaction = try service.createTransaction(directoryServerID: ds)
            collected.append(try transaction.getAuthenticationRequestParameters())
            transaction.close()
        }
        try service.cleanup()
        let text = capture.text
        // The log is not empty: it records what happened.
        #expect(
            text.contains("transaction created") && text.contains("device data encrypted")
                && text.contains("initialised"))
        // Plaintext device data values, the encrypted blob and the keys never appear.
        for secret in ["host-7f3a-SECRET", "203.0.113.77", "ThinkPad", "\"DD\"", "C009"] {
            #expect(!text.contains(secret), "log contains \(secret)")
        }
        for parameters in collected {
            #expect(!text.contains(parameters.deviceData))
            #expect(!text.contains(String(parameters.deviceData.prefix(40))))
            #expect(!text.contains(parameters.sdkEphemeralPublicKey))
        }
    }
}

@Suite("Locale tag")
struct LocaleTagTests {
    @Test(
        "lang-COUNTRY, without numeric regions",
        arguments: [("fr_FR", "fr-FR"), ("en_001", "en"), ("de", "de"), ("ja_JP", "ja-JP")])
    func tag(identifier: String, expected: String) throws {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(
            configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()),
            locale: Locale(identifier: identifier))
        let parameters = try service.createTransaction(directoryServerID: "A000000004")
            .getAuthenticationRequestParameters()
        let plaintext = try JWE.decrypt(
            parameters.deviceData, using: .rsaOAEP256(privateKeyDER: try DSFixture.get().rsaPrivateDER)
        ).plaintext
        #expect(try JSONParser().parse(plaintext).objectValue?["DD"]?.objectValue?["C005"] == .string(expected))
    }
}
