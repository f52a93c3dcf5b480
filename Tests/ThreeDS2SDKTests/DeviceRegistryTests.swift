import Foundation
import Testing
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

/// The device data a directory server decrypts for a service running on `probe`.
private func deviceData(
    _ probe: FakeSystemProbe, restricted: Set<String> = [], enabled: Set<String> = [],
    locale: Locale = Locale(identifier: "en_GB")
) throws -> (dd: JSONObject, dpna: JSONObject, sw: JSONValue?) {
    let service = ThreeDS2Service(systemProbe: probe)
    try service.initialize(
        configParameters: try makeConfiguration(
            dataDirectory: try temporaryDirectory(), restricted: restricted, enabled: enabled),
        locale: locale)
    let parameters = try service.createTransaction(directoryServerID: "A000000004")
        .getAuthenticationRequestParameters()
    let plaintext = try JWE.decrypt(
        parameters.deviceData, using: .rsaOAEP256(privateKeyDER: try DSFixture.get().rsaPrivateDER)
    ).plaintext
    let json = try #require(try JSONParser().parse(plaintext).objectValue)
    return (
        try #require(json["DD"]?.objectValue), try #require(json["DPNA"]?.objectValue), json["SW"]
    )
}

private func strings(_ items: [String]) -> JSONValue { .array(items.map { .string($0) }) }

@Suite("Device parameter registry")
struct DeviceRegistryTests {
    @Test("the registry is exactly C001–C018 and I001–I015, in order, each ID once")
    func exactIDs() {
        let expected = (1...18).map { String(format: "C%03d", $0) } + (1...15).map { String(format: "I%03d", $0) }
        #expect(DeviceParameter.registry.map(\.id.rawValue) == expected)
        #expect(DeviceParameterID.all.map(\.rawValue) == expected)
        #expect(Set(DeviceParameter.registry.map(\.id)).count == 33)
        for id in DeviceParameterID.all { #expect(DeviceParameterID(id.rawValue) == id) }
        for unknown in ["C019", "C000", "I016", "c001", "C01", "A069", " C001", ""] {
            #expect(DeviceParameterID(unknown) == nil, "\(unknown)")
        }
        #expect(
            DeviceParameterID.deviceModel.rawValue == "C002"
                && DeviceParameterID.appStoreReceiptExists.rawValue == "I015")
    }

    @Test("every entry says where it comes from or why it is never read; the iOS ones only on iOS")
    func entries() {
        for entry in DeviceParameter.registry {
            #expect(entry.sources.isEmpty != (entry.reasonNeverRead == nil), "\(entry.id)")
            #expect(entry.collectedByDefault.isSubset(of: entry.platforms), "\(entry.id)")
            if entry.id.rawValue.hasPrefix("I") {
                #expect(entry.platforms == [.iOS], "\(entry.id)")
                #expect(!entry.isReported(on: .linux) && !entry.isReported(on: .macOS) && entry.isReported(on: .iOS))
            } else {
                #expect(DevicePlatform.allCases.allSatisfy(entry.isReported(on:)), "\(entry.id)")
            }
            let off = entry.platforms.subtracting(entry.collectedByDefault)
            #expect(off.isEmpty == (entry.notCollectedByDefaultBecause == nil), "\(entry.id) says why it is off")
        }
        #expect(DeviceParameter.entry(.ipAddress).collectedByDefault == [.linux], "C010 is off on Apple platforms")
        #expect(DeviceParameter.entry(.deviceName).collectedByDefault == [.iOS, .linux])
        #expect(DeviceParameter.entry(.latitude).reasonNeverRead == .permissionRequired)
        #expect(DeviceParameter.entry(.hardwareID).reasonNeverRead == .unsupportedPlatform)
    }

    @Test("an iPhone's recorded values give the iOS data set, and no Linux file is read")
    func iPhoneDataSet() throws {
        let probe = FakeSystemProbe.iPhone()
        let (dd, dpna, sw) = try deviceData(probe)
        #expect(dd["C001"] == .string("iOS"))
        #expect(dd["C002"] == .string("iPhone15,2"))
        #expect(dd["C003"] == .string("iOS"))
        #expect(dd["C004"] == .string("17.5.1"))
        #expect(dd["C005"] == .string("en-GB"))
        #expect(dd["C008"] == .string("1179x2556"))
        #expect(dd["C009"] == .string("iPhone"), "UIDevice.name, never the host name")
        #expect(dd["C013"] == .string("org.example.shop"))
        #expect(dd["I001"] == .string("6F1C0A4E-2B7D-4C41-9A0E-3D5B8C7A1F20"))
        #expect(dd["I002"] == .string("0"))
        #expect(dd["I003"] == strings(["Academy Engraved LET", "Al Nile", "American Typewriter", "Helvetica Neue"]))
        #expect(dd["I004"] == strings([""]), "never empty")
        #expect(dd["I005"] == .string(".SFUI-Regular"))
        #expect(dd["I006"] == .string("17") && dd["I007"] == .string("18"))
        #expect(dd["I008"] == .string("12") && dd["I009"] == .string("14"))
        #expect(dd["I011"] == strings(["en_GB", "de_DE", "fr_FR"]))
        #expect(dd["I012"] == strings(["en-GB", "de-DE"]))
        #expect(dd["I013"] == .string("60"))
        #expect(dd["I015"] == .string("false"))
        let expectedDPNA: JSONObject = [
            "C007": .string("RE02"), "C010": .string("RE01"), "C011": .string("RE03"), "C012": .string("RE03"),
            "I010": .string("RE04"), "I014": .string("RE01"),
        ]
        #expect(dpna == expectedDPNA)
        #expect(Set(dd.names).union(dpna.names).count == 33, "every C and I parameter is reported")
        #expect(sw == .array([]))
        #expect(probe.readPaths.isEmpty, "an iPhone has no /etc or /proc: \(probe.readPaths)")
        #expect(!probe.readFacts.contains(.appStoreReceiptURL), "off by default: never read")
        let text = dd.serialized
        #expect(!text.contains("Janes-iPhone") && !text.contains("192.168.1.23"))
    }

    @Test("a Mac: hw.model, the native screen, no host name or address by default, no iOS parameters")
    func macDataSet() throws {
        let (dd, dpna, _) = try deviceData(FakeSystemProbe.mac())
        #expect(dd["C001"] == .string("macOS") && dd["C003"] == .string("macOS"))
        #expect(dd["C002"] == .string("Mac14,9") && dd["C004"] == .string("14.5") && dd["C008"] == .string("3024x1964"))
        #expect(dpna["C009"] == .string("RE01") && dpna["C010"] == .string("RE01"))
        #expect(!dd.names.contains { $0.hasPrefix("I") } && !dpna.names.contains { $0.hasPrefix("I") })
    }

    @Test("the Simulator reports the simulated model, not the host Mac's")
    func simulatorModel() throws {
        let probe = FakeSystemProbe.iPhone(isSimulator: true, environment: ["SIMULATOR_MODEL_IDENTIFIER": "iPhone16,1"])
        #expect(try deviceData(probe).dd["C002"] == .string("iPhone16,1"))
    }

    @Test("every DPNA reason: restricted by the app, off by default, unsupported, permission, no value")
    func unavailableReasons() throws {
        var facts = FakeSystemProbe.iPhoneFacts
        facts[.identifierForVendor] = nil  // before the first unlock after a restart
        facts[.fontFamilyNames] = .texts([])
        facts[.labelFontSize] = .text("seventeen")
        facts[.systemLocaleIdentifier] = .text("en_US")
        facts[.nativeScreenSize] = .size(width: 0, height: 0)
        let probe = FakeSystemProbe.iPhone(facts: facts)
        let (dd, dpna, _) = try deviceData(probe, restricted: ["I012", "C002"], enabled: ["C010", "I014"])
        #expect(dpna["I012"] == .string("RE01") && dpna["C002"] == .string("RE01"), "restricted by the app")
        #expect(!probe.readFacts.contains(.preferredLanguages), "a restricted parameter is never read")
        #expect(dd["C010"] == .string("192.168.1.23"), "enabled by the app")
        #expect(dd["I014"]?.stringValue?.hasSuffix("sandboxReceipt") == true)
        #expect(dpna["C007"] == .string("RE02") && dpna["C011"] == .string("RE03"))
        #expect(dpna["I001"] == .string("RE04") && dpna["I003"] == .string("RE04") && dpna["I006"] == .string("RE04"))
        #expect(dpna["C008"] == .string("RE04"), "an impossible screen size")
        #expect(dd["I010"] == .string("en-US"), "a system locale that names a language")
        #expect(dpna["C009"] == nil && dd["C009"] == .string("iPhone"))
    }

    @Test("Linux: DMI and os-release through the probe; a blank framebuffer size is RE04")
    func linuxSources() throws {
        let probe = FakeSystemProbe.clean(extraFiles: ["/sys/class/graphics/fb0/virtual_size": "1920,1080\n"])
        let (dd, dpna, _) = try deviceData(probe)
        #expect(dd["C002"] == .string("ThinkPad X1\n".trimmingCharacters(in: .newlines)))
        #expect(dd["C003"] == .string("Debian GNU/Linux") && dd["C004"] == .string("12"))
        #expect(dd["C008"] == .string("1920x1080") && dd["C009"] == .string("host-7f3a-SECRET"))
        #expect(dd["C010"] == .string("203.0.113.77"), "collected by default on Linux")
        #expect(dpna.names.allSatisfy { $0.hasPrefix("C") })
        let blank = FakeSystemProbe.clean(extraFiles: ["/sys/class/graphics/fb0/virtual_size": "\n"])
        #expect(try deviceData(blank).dpna["C008"] == .string("RE04"))
    }

    @Test("restricted and enabled IDs: an unknown ID is refused by name; an ID in both lists is refused")
    func configuredIDs() throws {
        for (restricted, enabled, named) in [
            (Set(["C02"]), Set<String>(), "C02"), (["C009", "c010"], [], "c010"), ([], ["I016"], "I016"),
            (["A069"], [], "A069"),
        ] {
            let service = ThreeDS2Service(systemProbe: FakeSystemProbe.iPhone())
            do {
                try service.initialize(
                    configParameters: try makeConfiguration(
                        dataDirectory: try temporaryDirectory(), restricted: restricted, enabled: enabled))
                Issue.record("accepted \(named)")
            } catch let error as ThreeDS2Error {
                #expect(error.code == .invalidInput && error.message.contains("\"\(named)\""), "\(error.message)")
            }
        }
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.iPhone())
        do {
            try service.initialize(
                configParameters: try makeConfiguration(
                    dataDirectory: try temporaryDirectory(), restricted: ["C010"], enabled: ["C010"]))
            Issue.record("accepted C010 in both lists")
        } catch let error as ThreeDS2Error {
            #expect(error.code == .invalidInput && error.message.contains("C010"))
        }
    }

    @Test("lists are bounded: at most 1,000 entries of 256 characters and 16,000 characters in all")
    func boundedLists() throws {
        var facts = FakeSystemProbe.iPhoneFacts
        facts[.availableLocaleIdentifiers] = .texts((0..<5_000).map { "locale_\($0)" })
        facts[.fontFamilyNames] = .texts([String(repeating: "f", count: 1_000)])
        let (dd, _, _) = try deviceData(FakeSystemProbe.iPhone(facts: facts))
        let locales = try #require(dd["I011"]?.arrayValue)
        #expect(locales.count <= 1_000 && !locales.isEmpty)
        #expect(locales.compactMap(\.stringValue).joined().count <= 16_000)
        #expect(dd["I003"]?.arrayValue?.first?.stringValue?.count == 256)
    }
}

@Suite("Structured OS versions")
struct OperatingSystemVersionTests {
    @Test(
        "parsing a version or a kernel release",
        arguments: [
            ("17", 17, 0, 0), ("17.5", 17, 5, 0), ("17.5.1", 17, 5, 1), ("6.1.0-18-amd64", 6, 1, 0),
            ("5.10.0+", 5, 10, 0), (" 13.6.7\n", 13, 6, 7), ("1.2.3.4", 1, 2, 3),
        ])
    func parses(text: String, major: Int, minor: Int, patch: Int) throws {
        let version = try #require(OperatingSystemVersion(parsing: text))
        #expect(version.majorVersion == major && version.minorVersion == minor && version.patchVersion == patch)
    }

    @Test("display strings and garbage are not versions")
    func refuses() {
        for text in ["Version 17.5 (Build 21F79)", "", "v17", ".5", "abc", "99999999999"] {
            #expect(OperatingSystemVersion(parsing: text) == nil, "\(text)")
        }
    }

    @Test("a minimum OS version that is not a version is refused at initialize")
    func configuration() throws {
        for bad in ["Version 17.5 (Build 21F79)", "seventeen", "17.x"] {
            var config = try makeConfiguration(dataDirectory: try temporaryDirectory())
            config[.minimumOSVersion] = bad
            #expect(throws: ThreeDS2Error.self) {
                try ThreeDS2Service(systemProbe: FakeSystemProbe.iPhone()).initialize(configParameters: config)
            }
        }
    }
}

@Suite("Security checks on Apple platforms, from recorded inputs")
struct AppleSecurityCheckTests {
    private func ids(_ probe: FakeSystemProbe, minimum: String? = nil) -> [String] {
        SecurityChecks(probe: probe, minimumOSVersion: minimum.flatMap(OperatingSystemVersion.init(parsing:))).run()
            .map(\.id.rawValue)
    }

    @Test("a stock iPhone and a Mac raise nothing, even with a minimum OS version configured")
    func clean() {
        #expect(
            ids(FakeSystemProbe.iPhone(), minimum: "16").isEmpty,
            "17.5.1 is above 16 (the display string compared as 0)")
        #expect(ids(FakeSystemProbe.mac(files: ["/bin/bash": "", "/usr/sbin/sshd": ""]), minimum: "13").isEmpty)
    }

    @Test("SW05 compares structured versions on iOS, macOS and Linux")
    func osVersions() {
        #expect(ids(FakeSystemProbe.iPhone(), minimum: "17.6") == ["SW05"])
        #expect(ids(FakeSystemProbe.iPhone(), minimum: "17.5.1").isEmpty)
        #expect(ids(FakeSystemProbe.iPhone(), minimum: "17.5.2") == ["SW05"])
        #expect(ids(FakeSystemProbe.mac(), minimum: "15") == ["SW05"])
        #expect(ids(FakeSystemProbe.mac(), minimum: "14.5").isEmpty)
        #expect(ids(FakeSystemProbe.clean(), minimum: "6.1").isEmpty)
        #expect(ids(FakeSystemProbe.clean(), minimum: "6.10") == ["SW05"], "6.1 is below 6.10: numbers, not text")
        let message = SecurityChecks(
            probe: FakeSystemProbe.iPhone(), minimumOSVersion: OperatingSystemVersion(parsing: "18")
        ).run().first?.message
        #expect(message == "The OS version 17.5.1 is below the supported minimum 18.0")
    }

    @Test("SW05 is not raised for an iOS app on a Mac, whose OS version is the Mac's; the Simulator is compared")
    func osVersionOnMacHosts() {
        let macOS15 = OperatingSystemVersion(majorVersion: 15, minorVersion: 6, patchVersion: 0)
        for runtime: RuntimeEnvironment in [.iOSAppOnMac, .macCatalyst] {
            let probe = FakeSystemProbe.iPhone(files: FakeSystemProbe.macHostFiles, runtime: runtime, version: macOS15)
            #expect(ids(probe, minimum: "16").isEmpty, "\(runtime)")
        }
        let simulator = FakeSystemProbe.iPhone(
            files: FakeSystemProbe.macHostFiles, runtime: .simulator, version: macOS15)
        #expect(ids(simulator, minimum: "16") == ["SW03", "SW05"])
    }

    @Test("SW01 on iOS: every listed jailbreak file, a writable system path, a stashed system folder")
    func jailbreak() {
        for path in SecurityChecks.jailbreakPaths {
            #expect(ids(FakeSystemProbe.iPhone(files: [path: ""])) == ["SW01"], "\(path)")
        }
        for path in SecurityChecks.systemPathsNeverWritable {
            #expect(ids(FakeSystemProbe.iPhone(writablePaths: [path])) == ["SW01"], "\(path)")
        }
        for path in SecurityChecks.systemPathsNeverSymbolicLinks {
            #expect(ids(FakeSystemProbe.iPhone(symbolicLinks: [path: "/var/stash/x"])) == ["SW01"], "\(path)")
        }
        #expect(ids(FakeSystemProbe.iPhone(symbolicLinks: ["/var": "private/var", "/etc": "private/etc"])).isEmpty)
        #expect(ids(FakeSystemProbe.iPhone(euid: 0)) == ["SW01"])
        let message = SecurityChecks(probe: FakeSystemProbe.iPhone(files: ["/var/jb": ""])).run().first?.message ?? ""
        #expect(message.contains("/var/jb"))
    }

    @Test("SW02: a hooking framework among the loaded images, on iOS and on Linux")
    func hooking() {
        let base = "/private/var/containers/Bundle/Application/0B7E/Shop.app/"
        for name in [
            "FridaGadget.dylib", "MobileSubstrate.dylib", "libsubstitute.dylib", "libcycript.dylib",
            "libhooker.dylib", "libellekit.dylib", "SSLKillSwitch2.dylib", "systemhook.dylib",
        ] {
            #expect(
                ids(FakeSystemProbe.iPhone(loadedImagePaths: [base + "Shop", "/usr/lib/" + name])) == ["SW02"],
                "\(name)")
        }
        #expect(ids(FakeSystemProbe.iPhone(loadedImagePaths: [base + "Shop", "/usr/lib/libobjc.A.dylib"])).isEmpty)
        #expect(ids(FakeSystemProbe.clean(loadedImagePaths: ["/tmp/frida-agent-64.so"])) == ["SW02"])
        let message =
            SecurityChecks(probe: FakeSystemProbe.iPhone(loadedImagePaths: ["/x/FridaGadget.dylib"])).run().first?
            .message
        #expect(message?.contains("FridaGadget.dylib") == true)
    }

    @Test("the live probe lists this process's shared objects; a hooking name among them is found")
    func liveImages() {
        let images = LiveSystemProbe().loadedImagePaths
        #if os(Linux)
            #expect(images.contains { $0.hasSuffix("/libc.so.6") }, "\(images)")
        #else
            // dyld's list on macOS (the macOS job of .github/workflows/apple.yml runs this test).
            #expect(images.contains { $0.hasSuffix("/libSystem.B.dylib") }, "\(images)")
        #endif
        #expect(images.contains { $0.contains("libswiftCore") })
        #expect(SecurityChecks.hookingLibraries(in: images).isEmpty)
        #expect(
            SecurityChecks.hookingLibraries(in: images + ["/tmp/re.frida.server/frida-agent-64.so"]) == [
                "frida-agent-64.so"
            ])
        #expect(SecurityChecks.hookingLibraries(in: ["/a/b/FRIDA-gadget.so", "/c/frida-gadget.so"]).count == 2)
    }

    @Test("SW03 on Apple platforms: the kernel's hypervisor flag, or a simulator build")
    func virtualMachine() {
        #expect(ids(FakeSystemProbe.mac(hypervisor: true)) == ["SW03"])
        #expect(ids(FakeSystemProbe.iPhone(isSimulator: true)) == ["SW03"])
    }

    @Test("no Linux file is read on Apple platforms: TracerPid, ld.so.preload and cpuinfo are Linux's")
    func noLinuxFiles() {
        let probe = FakeSystemProbe.iPhone(files: [
            "/proc/self/status": "TracerPid:\t7\n", "/etc/ld.so.preload": "/x.so\n",
            "/proc/cpuinfo": "flags : hypervisor\n",
        ])
        #expect(ids(probe).isEmpty)
        #expect(probe.readPaths.isEmpty)
    }
}

@Suite("Security listener")
struct SecurityListenerTests {
    @Test("each finding with its severity at initialize and at every later check")
    func eachFinding() throws {
        let recorder = RecordingEventListener()
        // Root in the Simulator: SW01 (the jailbreak files are the Mac's there and are not read) and SW03.
        let probe = FakeSystemProbe.iPhone(euid: 0, isSimulator: true)
        let service = ThreeDS2Service(securityEventListener: recorder, systemProbe: probe)
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        let atInitialize = recorder.findings.map { ($0.warning.id.rawValue, $0.warning.severity, $0.stage) }
        #expect(atInitialize.map(\.0) == ["SW01", "SW03"])
        #expect(atInitialize.allSatisfy { $0.1 == .high && $0.2 == .initialization })
        _ = try service.createTransaction(directoryServerID: "A000000004")
        let all = recorder.findings.map { ($0.warning.id.rawValue, $0.warning.severity, $0.stage) }
        #expect(all.count == 4 && all.suffix(2).allSatisfy { $0.2 == .transactionCreation })
    }
}

@Suite("UTF-8 validation below iOS 18")
struct UTF8ValidationTests {
    @Test("the package's validation agrees with the standard library's on valid and ill-formed bytes")
    func agrees() {
        let samples: [[UInt8]] = [
            [], Array("plain".utf8), Array("é€😀".utf8), [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80],
            [0xEF, 0xBF, 0xBD], [0xFF], [0x61, 0x80, 0x62], Array("ok".utf8) + [0xE2, 0x82],
        ]
        #expect(String(utf8Validating: [0xC3]) == nil && String(utf8Validating: [0xED, 0xA0, 0x80]) == nil)
        #expect(String(utf8Validating: Array("é€😀".utf8)) == "é€😀" && String(utf8Validating: []) == "")
        // The reference needs iOS 18 / macOS 15 on Apple platforms (the workflow runs this suite on macOS too).
        guard #available(iOS 18, macOS 15, *) else { return }
        for bytes in samples {
            #expect(String(utf8Validating: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}
