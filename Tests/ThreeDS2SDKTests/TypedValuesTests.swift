import Clocks
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// Issue 35, point 3: the values that have a type are taken and given as that type.
@Suite("Typed values: directory server IDs, configuration paths, AReq fields, trust bundles")
struct TypedValuesTests {
    static let pki = Result { try DirectoryServerPKI.make() }

    @Test("a directory server ID is typed in every API, and a literal still reads as one")
    func directoryServerIDs() throws {
        let pki = try Self.pki.get()
        let service = try pki.initializedService(id: .visa, dataDirectory: scratchDirectory("typed-ids"))
        let transaction = try service.createTransaction(directoryServerID: .visa)
        #expect(transaction.directoryServerID == DirectoryServerID.visa)
        transaction.close()
        // A literal, as code written for the String API passes it.
        let literal = try service.createTransaction(directoryServerID: "A000000003", messageVersion: "2.2.0")
        #expect(literal.directoryServerID.rawValue == "A000000003")
        literal.close()
        #expect(throws: ThreeDS2Error(.invalidInput, "")) { try service.createTransaction(directoryServerID: .jcb) }
        var config = ConfigParameters()
        try config.addDirectoryServer(try pki.directoryServer(id: .discover))
        #expect(config.directoryServerIDs == [.discover])
        #expect(config.directoryServer(id: .discover)?.id == .discover)
        #expect(config.directoryServer(id: .visa) == nil)
    }

    @Test("the test directory servers are defined once: the registry's entries carry their IDs and names")
    func testSchemes() {
        #expect(CardScheme.testRSA.id == .testRSA && CardScheme.testEC.id == .testEC)
        #expect(CardScheme.registered(.testRSA) == .testRSA && CardScheme.registered(.testEC) == .testEC)
        #expect(CardScheme.testRSA.isTest && CardScheme.testEC.isTest)
        let server = DirectoryServer(scheme: .testEC, encryptionKeys: [.init(key: "k")], rootCertificates: "")
        #expect(server.id == .testEC && server.resolvedDisplayName == CardScheme.testEC.name)
    }

    @Test("a configuration path names its group and parameter; an error carries it typed")
    func configurationPaths() throws {
        let path = ConfigParameters.Path.directoryServer(.mastercard, .rootCertificates)
        #expect(path.group == "ds:A000000004" && path.name == "rootCertificates")
        #expect(path.description == "ds:A000000004.rootCertificates" && path.directoryServerID == .mastercard)
        let sdk = ConfigParameters.Path.sdk(.sdkReferenceNumber)
        #expect(sdk.group == ConfigParameters.sdkGroup && sdk.name == "sdkReferenceNumber")
        #expect(sdk.directoryServerID == nil)
        // The path reads the value back through the EMVCo API.
        var config = ConfigParameters()
        try config.addDirectoryServer(try Self.pki.get().directoryServer())
        let key = ConfigParameters.Path.directoryServer(.mastercard, .encryptionKey)
        #expect(
            try config.getParamValue(group: key.group, name: key.name)
                == config.directoryServer(id: .mastercard)?.encryptionKey)
        // An unusable key names its field, typed.
        var broken = try Self.pki.get().directoryServer()
        broken.encryptionKey = "not a key"
        let failure = try #require(broken.evaluate().failure)
        #expect(failure.parameter == .directoryServer(.mastercard, .encryptionKey))
        // An SDK parameter at fault is named too.
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config[.logLevel] = "loud"
        do {
            try ThreeDS2Service(systemProbe: FakeSystemProbe.clean()).initialize(configParameters: config)
            Issue.record("a log level that is none was accepted")
        } catch {
            #expect(error.parameter == .sdk(.logLevel) && error.parameter?.description == "sdk.logLevel")
        }
    }

    @Test("an app adds its purchase fields to the AReq value and encodes it once; the SDK's names stay the SDK's")
    func authenticationRequestFields() throws {
        let pki = try Self.pki.get()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("typed-areq"))
        let transaction = try service.createTransaction(directoryServerID: .mastercard, messageVersion: .v2_2_0)
        defer { transaction.close() }
        var areq = try transaction.authenticationRequest(presenter: IdlePresenter())
        #expect(areq.deviceChannel == .app)
        try areq.addField("acctNumber", .string("4000000000002000"))
        try areq.addField("purchaseAmount", .string("1999"))
        #expect(throws: ThreeDS2Error(.invalidInput, "")) { try areq.addField("sdkTransID", .string("x")) }
        #expect(throws: ThreeDS2Error(.invalidInput, "")) { try areq.addField("acctNumber", .string("x")) }
        #expect(throws: ThreeDS2Error(.invalidInput, "")) { try areq.addField("", .string("x")) }
        let withCurrency = try areq.adding(["purchaseCurrency": .string("978"), "purchaseExponent": .integer(2)])
        #expect(
            withCurrency.additionalFields.names == [
                "acctNumber", "purchaseAmount", "purchaseCurrency", "purchaseExponent",
            ])
        // JSONEncoder and `json` give the same object: the SDK's fields, then the app's.
        let encoded = try JSONEncoder().encode(withCurrency)
        guard case .object(let decoded) = try JSONParser().parse(Array(encoded)) else {
            Issue.record("the AReq is not a JSON object")
            return
        }
        #expect(decoded == withCurrency.json)
        #expect(decoded["deviceChannel"] == .string("01") && decoded["acctNumber"] == .string("4000000000002000"))
        #expect(
            decoded["purchaseExponent"] == .number("2")
                && decoded["sdkEphemPubKey"]?.objectValue?["kty"] == .string("EC"))
        #expect(withCurrency.json.names.prefix(2) == ["messageVersion", "deviceChannel"])
        #expect(
            withCurrency.json.names.suffix(4) == [
                "acctNumber", "purchaseAmount", "purchaseCurrency", "purchaseExponent",
            ])
    }

    @Test("the trust-bundle writer's JSON reads back as the same bundle, inline and through files beside it")
    func trustBundleRoundTrip() throws {
        let pki = try Self.pki.get()
        let other = try DirectoryServerPKI.make(name: "Other DS")
        let root = try pki.root.certificatePEM
        let encryption = try pki.encryption.certificatePEM
        let bundle = TrustBundle(directoryServers: [
            DirectoryServer(
                id: .mastercard, encryptionKeys: [.init(key: encryption, keyID: "mc-1")], rootCertificates: root,
                displayName: "Mastercard (test)", deviceDataEncryption: .a128gcm),
            DirectoryServer(
                id: .visa,
                encryptionKeys: [
                    .init(key: try other.encryption.certificatePEM), .init(key: encryption, keyID: "v-2"),
                ],
                rootCertificates: try other.root.certificatePEM + "\n" + root, intermediateCertificates: root,
                allowsUnchainedEncryptionCertificates: true),
        ])
        // Inline: every certificate as `pem`.
        let inline = bundle.json()
        #expect(try TrustBundle(json: Array(inline.utf8), baseDirectory: nil) == bundle)
        #expect(!inline.contains("\"file\""))
        // Through files: the certificates that are files are referenced, and the folder reads back the same.
        let files = ["ds-root.pem": root, "ds-encryption.pem": encryption]
        let referencing = bundle.json(referencing: files)
        #expect(
            referencing.contains("\"file\":\"ds-encryption.pem\"") && referencing.contains("\"file\":\"ds-root.pem\""))
        let folder = URL(fileURLWithPath: scratchDirectory("typed-bundle"))
        for (name, contents) in files {
            try Data(contents.utf8).write(to: folder.appendingPathComponent(name))
        }
        try Data(referencing.utf8).write(to: folder.appendingPathComponent(TrustBundle.fileName))
        #expect(try TrustBundle(contentsOf: folder) == bundle)
        // A file reference without a folder is refused: the writer's references need the files beside them.
        #expect(throws: ThreeDS2Error(.malformedTrustBundle, "")) {
            try TrustBundle(json: Array(referencing.utf8), baseDirectory: nil)
        }
    }
}
