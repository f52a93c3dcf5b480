import Crypto
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

@Suite("ThreeDS2Service lifecycle and transactions")
struct ServiceTests {
    @Test("lifecycle: not initialised, initialised, already initialised, cleaned up, initialised again")
    func lifecycle() throws {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        let config = try makeConfiguration(dataDirectory: try temporaryDirectory())
        expectSDKError(.notInitialized) { try service.warnings }
        expectSDKError(.notInitialized) { try service.sdkVersion }
        expectSDKError(.notInitialized) { try service.createTransaction(directoryServerID: "A000000004") }
        expectSDKError(.notInitialized) { try service.cleanup() }
        try service.initialize(configParameters: config)
        #expect(try service.sdkVersion == ThreeDS2Service.version)
        let again = expectSDKError(.alreadyInitialized) { try service.initialize(configParameters: config) }
        #expect(again?.message.contains("cleanup") == true)
        try service.cleanup()
        expectSDKError(.notInitialized) { try service.sdkVersion }
        expectSDKError(.notInitialized) { try service.cleanup() }
        try service.initialize(configParameters: config, locale: nil, uiCustomizations: [:])
        #expect(try service.warnings.isEmpty)
    }

    @Test("message versions: nil is the highest, each supported one holds, others are refused with the list")
    func versions() throws {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        #expect(try service.createTransaction(directoryServerID: "A000000004").messageVersion == .v2_3_1)
        for version in ["2.1.0", "2.2.0", "2.3.1"] {
            let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: version)
            #expect(try transaction.getAuthenticationRequestParameters().messageVersion.rawValue == version)
        }
        let error = expectSDKError(.invalidInput) {
            try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.0.0")
        }
        #expect(error?.message.contains("2.1.0, 2.2.0, 2.3.1") == true)
        // The typed form: each supported version as a value, and a parsed but unsupported one refused the same way.
        for version in MessageVersion.supported {
            let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: version)
            #expect(transaction.messageVersion == version)
        }
        let old = try #require(MessageVersion("2.0.0"))
        expectSDKError(.invalidInput) {
            try service.createTransaction(directoryServerID: "A000000004", messageVersion: old)
        }
        let unknown = expectSDKError(.invalidInput) { try service.createTransaction(directoryServerID: "F000000000") }
        #expect(unknown?.message.contains("A000000003, A000000004") == true)
    }

    @Test("AReq parameters: lower-case UUIDs, a fresh P-256 JWK per transaction, reference number, stable values")
    func parameters() throws {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        let first = try service.createTransaction(directoryServerID: "A000000004")
        let second = try service.createTransaction(directoryServerID: "A000000004")
        let a = try first.getAuthenticationRequestParameters()
        let b = try second.getAuthenticationRequestParameters()
        for id in [a.sdkTransactionID, a.sdkAppID] {
            #expect(UUID(uuidString: id) != nil && id == id.lowercased() && id.count == 36)
        }
        #expect(a.sdkTransactionID != b.sdkTransactionID)
        #expect(a.sdkAppID == b.sdkAppID)
        #expect(a.sdkEphemeralPublicKey != b.sdkEphemeralPublicKey)
        #expect(a.sdkEphemeralPublicKey.hasPrefix(#"{"kty":"EC","crv":"P-256","x":""#))
        #expect(try P256PublicJWK(jsonString: a.sdkEphemeralPublicKey).x.count == 32)
        // The typed key and its two EMVCo forms are one datum: the text and the members are the typed key's JWK.
        #expect(try P256PublicJWK(jsonString: a.sdkEphemeralPublicKey) == a.ephemeralPublicKey)
        #expect(a.ephemeralPublicKey != b.ephemeralPublicKey && a.ephemeralPublicKey.x.count == 32)
        #expect(
            a.sdkEphemeralPublicKeyJWK
                == [
                    "kty": "EC", "crv": "P-256", "x": Base64.urlEncode(a.ephemeralPublicKey.x),
                    "y": Base64.urlEncode(a.ephemeralPublicKey.y),
                ])
        #expect(a.sdkReferenceNumber == "3DS_LOA_SDK_TEST_020300_00001")
        #expect(try first.getAuthenticationRequestParameters() == a)
        #expect(a.sdkEphemeralPublicKey.count <= 256)
    }

    @Test("close is idempotent, drops the key, and later use is a runtime error")
    func close() throws {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        let transaction = try service.createTransaction(directoryServerID: "A000000004")
        _ = try transaction.getAuthenticationRequestParameters()
        transaction.close()
        transaction.close()
        #expect(transaction.isClosed)
        expectSDKError(.runtime) { try transaction.getAuthenticationRequestParameters() }
    }

    @Test("the SDK App ID persists per install and app version, and is re-created when the version changes")
    func sdkAppID() throws {
        let directory = try temporaryDirectory()
        func appID(version: String) throws -> String {
            var config = try makeConfiguration(dataDirectory: directory)
            config.appVersion = version
            let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
            try service.initialize(configParameters: config)
            return try service.createTransaction(directoryServerID: "A000000003").getAuthenticationRequestParameters()
                .sdkAppID
        }
        let first = try appID(version: "1.0")
        #expect(try appID(version: "1.0") == first)
        let upgraded = try appID(version: "1.1")
        #expect(upgraded != first)
        #expect(try appID(version: "1.1") == upgraded)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files == ["sdk-app-id-org.example.shop.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + files[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("an unwritable data directory is a runtime error with the cause")
    func unwritableDirectory() throws {
        let file = try temporaryDirectory() + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        let error = expectSDKError(.runtime) {
            try service.initialize(configParameters: try makeConfiguration(dataDirectory: file + "/sub"))
        }
        #expect(error?.underlying != nil)
        expectSDKError(.notInitialized) { try service.sdkVersion }
    }

    @Test("client events are reported in order, without sensitive content")
    func events() throws {
        let recorder = RecordingEventListener()
        let service = ThreeDS2Service(clientEventListener: recorder, systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()))
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
        let parameters = try transaction.getAuthenticationRequestParameters()
        transaction.close()
        try service.cleanup()
        let events = recorder.events
        #expect(
            events == [
                .initialized(warnings: []),
                .transactionCreated(
                    sdkTransactionID: transaction.sdkTransactionID, messageVersion: .v2_2_0,
                    directoryServerID: "A000000004"),
                .authenticationRequestParametersBuilt(
                    sdkTransactionID: transaction.sdkTransactionID, deviceDataCharacters: parameters.deviceData.count),
                .transactionClosed(sdkTransactionID: transaction.sdkTransactionID),
                .cleanedUp,
            ])
    }

    @Test("customizations per appearance fall back to the default one")
    func appearances() throws {
        var light = UiCustomization()
        try light.toolbar.setHeaderText("Light")
        var dark = UiCustomization()
        try dark.toolbar.setHeaderText("Dark")
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(
            configParameters: try makeConfiguration(dataDirectory: try temporaryDirectory()),
            uiCustomizations: [.default: light, .dark: dark])
        #expect(try service.uiCustomization(for: .dark).toolbar.headerText == "Dark")
        #expect(try service.uiCustomization(for: .monochrome).toolbar.headerText == "Light")
    }
}
