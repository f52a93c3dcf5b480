import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

@Suite("ConfigParameters")
struct ConfigurationTests {
    @Test("group/name/value: add, read, remove; duplicates and empty names refused")
    func groupNameValue() throws {
        var config = ConfigParameters()
        try config.addParam(name: "a", value: "1")
        try config.addParam(group: "g", name: "a", value: nil)
        #expect(try config.getParamValue(name: "a") == "1")
        #expect(try config.getParamValue(group: "g", name: "a") == "")
        #expect(try config.getParamValue(group: "other", name: "a") == nil)
        expectSDKError(.invalidInput) { try config.addParam(name: "a", value: "2") }
        expectSDKError(.invalidInput) { try config.addParam(name: "", value: "2") }
        expectSDKError(.invalidInput) { try config.addParam(group: "", name: "x", value: "2") }
        expectSDKError(.invalidInput) { try config.getParamValue(name: "") }
        #expect(try config.removeParam(name: "a") == "1")
        #expect(try config.removeParam(name: "a") == nil)
        try config.addParam(name: "a", value: "3")
        #expect(try config.getParamValue(name: "a") == "3")
    }

    @Test("typed accessors share the group/name/value store")
    func typedAccessors() throws {
        var config = ConfigParameters()
        config.sdkReferenceNumber = "REF"
        #expect(try config.getParamValue(group: "sdk", name: "sdkReferenceNumber") == "REF")
        try config.addParam(group: "sdk", name: "appVersion", value: "9")
        #expect(config.appVersion == "9")
        config.restrictedParameters = ["C010", "C009"]
        #expect(try config.getParamValue(group: "sdk", name: "restrictedParameters") == "C009,C010")
        #expect(config.restrictedParameters == ["C009", "C010"])
        config.allowsPlainHTTPLoopback = true
        #expect(config[.allowPlainHTTPLoopback] == "true")
        config.allowsPlainHTTPLoopback = false
        #expect(config[.allowPlainHTTPLoopback] == nil)
    }

    @Test("directory servers round-trip and duplicates are refused")
    func directoryServers() throws {
        var config = try makeConfiguration(dataDirectory: "/nonexistent")
        #expect(config.directoryServerIDs == ["A000000003", "A000000004"])
        let server = try #require(config.directoryServer(id: "A000000004"))
        #expect(
            server.keyID == "ds-key-1" && server.displayName == "Test Scheme"
                && server.deviceDataEncryption == .a128cbcHS256)
        expectSDKError(.invalidInput) { try config.addDirectoryServer(server) }
        expectSDKError(.invalidInput) {
            try config.addDirectoryServer(DirectoryServer(id: "", encryptionKey: "x", rootCertificates: ""))
        }
    }

    @Test("initialize names the bad parameter")
    func validation() throws {
        let directory = try temporaryDirectory()
        let ds = try DSFixture.get()
        let cases: [(String, (inout ConfigParameters) throws -> Void)] = [
            ("sdkReferenceNumber", { $0.sdkReferenceNumber = nil }),
            ("at most 32", { $0.sdkReferenceNumber = String(repeating: "R", count: 33) }),
            ("logLevel", { $0[.logLevel] = "loud" }),
            ("expectedExecutableSHA256", { $0[.expectedExecutableSHA256] = "abc" }),
            ("allowPlainHTTPLoopback", { $0[.allowPlainHTTPLoopback] = "yes" }),
            (
                "A000000009 encryption key",
                {
                    try $0.addDirectoryServer(
                        DirectoryServer(
                            id: "A000000009", encryptionKey: "not a key", rootCertificates: try ds.root.certificatePEM))
                }
            ),
            (
                "A000000009 encryption key",
                {
                    try $0.addDirectoryServer(
                        DirectoryServer(
                            id: "A000000009",
                            encryptionKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
                            rootCertificates: try ds.root.certificatePEM))
                }
            ),
            (
                "no root certificate",
                {
                    try $0.addDirectoryServer(
                        DirectoryServer(
                            id: "A000000009", encryptionKey: try ds.ecEncryption.certificatePEM, rootCertificates: ""))
                }
            ),
            (
                "A000000009 root certificates",
                {
                    try $0.addDirectoryServer(
                        DirectoryServer(
                            id: "A000000009", encryptionKey: try ds.ecEncryption.certificatePEM,
                            rootCertificates: "garbage"))
                }
            ),
            (
                "RSA needs at least 2048 bits",
                {
                    let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
                    try $0.addDirectoryServer(
                        DirectoryServer(
                            id: "A000000009", encryptionKey: small.publicKey.pemRepresentation,
                            rootCertificates: try ds.root.certificatePEM))
                }
            ),
        ]
        for (expected, mutate) in cases {
            var config = try makeConfiguration(dataDirectory: directory)
            try mutate(&config)
            let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
            // Roots that are not PEM are a file-format error; the rest invalid input.
            let code: ThreeDS2Error.Code = expected == "A000000009 root certificates" ? .malformedPEM : .invalidInput
            let error = expectSDKError(code) { try service.initialize(configParameters: config) }
            #expect(error?.code.isInvalidInput == true)
            #expect(error?.message.contains(expected) == true, "\(expected): \(String(describing: error))")
        }
    }

    @Test("encryption keys are read from a PEM public key and from base64 DER")
    func keyForms() throws {
        let ds = try DSFixture.get()
        let directory = try temporaryDirectory()
        var config = try makeConfiguration(dataDirectory: directory)
        try config.addDirectoryServer(
            DirectoryServer(
                id: "PEMKEY", encryptionKey: ds.ecEncryption.certificate.publicKey.serializeAsPEM().pemString,
                rootCertificates: try ds.root.certificatePEM))
        try config.addDirectoryServer(
            DirectoryServer(
                id: "DERCERT", encryptionKey: Data(try ds.rsaEncryption.certificateDER).base64EncodedString(),
                rootCertificates: try ds.root.certificatePEM))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config)
        for id: DirectoryServerID in ["PEMKEY", "DERCERT"] {
            #expect(
                try !service.createTransaction(directoryServerID: id).getAuthenticationRequestParameters().deviceData
                    .isEmpty)
        }
    }
}

@Suite("UiCustomization")
struct CustomizationTests {
    @Test("malformed colours and bad sizes are invalid input naming the field")
    func validation() {
        var toolbar = ToolbarCustomization()
        let colour = expectSDKError(.invalidInput) { try toolbar.setBackgroundColor("red") }
        #expect(colour?.message.contains("toolbar background colour") == true)
        for bad in ["#12345", "#GGGGGG", "123456", "#1234567", ""] {
            expectSDKError(.invalidInput) { try toolbar.text.setColor(bad) }
        }
        let size = expectSDKError(.invalidInput) { try toolbar.text.setFontSize(0) }
        #expect(size?.message.contains("font size") == true)
        expectSDKError(.invalidInput) { try toolbar.setHeaderText("  ") }
        var box = TextBoxCustomization()
        expectSDKError(.invalidInput) { try box.setBorderWidth(-1) }
        expectSDKError(.invalidInput) { try box.setCornerRadius(-3) }
        var button = ButtonCustomization()
        expectSDKError(.invalidInput) { try button.setBorderColor("#12") }
        expectSDKError(.invalidInput) { try button.text.setFontName("") }
    }

    @Test("valid values are kept")
    func accepted() throws {
        var toolbar = ToolbarCustomization()
        try toolbar.setBackgroundColor("#1a2B3c")
        try toolbar.setHeaderText("Secure checkout")
        try toolbar.text.setFontSize(17)
        try toolbar.text.setFontName("Inter")
        #expect(toolbar.backgroundColor?.description == "#1A2B3C")
        #expect(
            toolbar.headerText == "Secure checkout" && toolbar.text.fontSize == 17 && toolbar.text.fontName == "Inter")
        #expect(try HexColor("#801A2B3C").description == "#801A2B3C")
    }

    @Test("button types by enum and by name; unknown names refused")
    func buttons() throws {
        var ui = UiCustomization()
        var submit = ButtonCustomization()
        try submit.setCornerRadius(8)
        try ui.setButtonCustomization(submit, for: "verify")
        #expect(ui.buttonCustomization(for: .submit).cornerRadius == 8)
        #expect(try ui.buttonCustomization(for: "SUBMIT").cornerRadius == 8)
        expectSDKError(.invalidInput) { try ui.setButtonCustomization(submit, for: "PANIC") }
    }

    @Test("text/background under 4.5:1 is accepted with a warning; enough contrast gives none")
    func contrast() throws {
        var ui = UiCustomization()
        var cancel = ButtonCustomization()
        try cancel.text.setColor("#777777")
        try cancel.setBackgroundColor("#888888")
        ui.setButtonCustomization(cancel, for: .cancel)
        try ui.toolbar.text.setColor("#FFFFFF")
        try ui.toolbar.setBackgroundColor("#000000")
        #expect(ui.contrastWarnings.count == 1)
        #expect(ui.contrastWarnings.first?.message.contains("CANCEL button") == true)
        #expect(try HexColor("#FFFFFF").contrastRatio(with: HexColor("#000000")) > 20.9)
    }

    @Test("a label's text on the screen background is checked too: white on white warns once, dark on white not")
    func labelContrast() throws {
        var ui = UiCustomization()
        try ui.setBackground("#FFFFFF")
        try ui.label.text.setColor("#FFFFFF")
        try ui.label.heading.setColor("#0B3D91")
        let warnings = ui.contrastWarnings
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.message.contains("label text #FFFFFF on #FFFFFF") == true, "\(warnings)")
        try ui.label.text.setColor("#222222")
        #expect(ui.contrastWarnings.isEmpty)
        // Without a screen background the platform's own is not known: nothing to compare with.
        var unset = UiCustomization()
        try unset.label.text.setColor("#FFFFFF")
        #expect(unset.contrastWarnings.isEmpty)
    }
}
