import Clocks
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

/// What the AReq announces is what the SDK holds to: the app's render options, and the 2.3.1 SDK type.
@Suite("Render options honoured; the 2.3.1 AReq's sdkType", .timeLimit(.minutes(5)))
struct RenderOptionsAndSDKTypeTests {
    /// Native screens only: no HTML interface, no UI type 05 or 06.
    static let nativeOnly = DeviceRenderOptions(
        interface: .native, uiTypes: [.text, .singleSelect, .multiSelect, .outOfBand])

    /// An HTML screen (UI 05) with a one-field form.
    static func htmlScreen(for version: MessageVersion) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .html, messageVersion: version)
        screen.html = "<form action=\"https://acs.example/\"><input name=\"otp\"><input type=\"submit\"></form>"
        return screen
    }

    /// Pays through `authenticate` with `presenter` against an ACS showing `screens`; returns the outcome, the AReq
    /// the backend got and the Erros the ACS received.
    func pay(version: MessageVersion, presenter: ScriptedPresenter, screens: [ChallengeScreen]) async throws -> (
        AuthenticationOutcome, JSONObject?, [JSONObject]
    ) {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("render-\(version)"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: screens, finalStatus: "Y")
        let sent = Locked<JSONObject?>(nil)
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: version, presenter: presenter, transport: transport,
            clock: TestClock()
        ) { areq in
            sent.withLock { $0 = areq.json }
            return .challenge(try acs.challengeParameters(for: areq))
        }
        let erros = transport.log.requests.compactMap { acs.errorMessage(in: $0) }
        return (outcome, sent.withLock { $0 }, erros)
    }

    @Test("a presenter without HTML announces so in the AReq, and a CRes with UI 05 ends in Erro 203 on acsUiType")
    func htmlRefusedWhenNotAnnounced() async throws {
        for version in [MessageVersion.v2_2_0, .v2_3_1] {
            let presenter = ScriptedPresenter(answers: [.text("123456")], renderOptions: Self.nativeOnly)
            let (outcome, areq, erros) = try await pay(
                version: version, presenter: presenter, screens: [Self.htmlScreen(for: version)])
            let options = areq?["deviceRenderOptions"]?.objectValue
            #expect(options?["sdkInterface"] == .string("01"))
            #expect(options?["sdkUiType"] == .array(["01", "02", "03", "04"].map { .string($0) }))
            guard case .challenged(.protocolError(let erro)) = outcome else {
                Issue.record("\(version): expected Erro 203, got \(outcome)")
                continue
            }
            #expect(erro.errorCode == .invalidFormat && erro.errorDetail == "acsUiType")
            #expect(presenter.screens.isEmpty, "the presenter was never handed a screen it said it cannot draw")
            #expect(erros.count == 1)
            #expect(erros.first?["errorCode"] == .string("203") && erros.first?["errorDetail"] == .string("acsUiType"))
        }
    }

    @Test("the same presenter completes a native screen, and an HTML-only presenter refuses a native one")
    func announcedTypesPass() async throws {
        let native = ScriptedPresenter(answers: [.text("123456")], renderOptions: Self.nativeOnly)
        let (completed, _, none) = try await pay(
            version: .v2_2_0, presenter: native, screens: [ScriptedACS.textScreen(for: .v2_2_0)])
        guard case .challenged(.completed(.authenticated)) = completed else {
            Issue.record("expected a completed challenge, got \(completed)")
            return
        }
        #expect(none.isEmpty)
        let htmlOnly = ScriptedPresenter(
            answers: [.text("123456")], renderOptions: DeviceRenderOptions(interface: .html, uiTypes: [.text, .html]))
        let (refused, _, erros) = try await pay(
            version: .v2_2_0, presenter: htmlOnly, screens: [ScriptedACS.textScreen(for: .v2_2_0)])
        guard case .challenged(.protocolError(let erro)) = refused else {
            Issue.record("expected Erro 203, got \(refused)")
            return
        }
        #expect(erro.errorDetail == "acsUiType" && erros.count == 1)
        #expect(DeviceRenderOptions.all(for: .v2_3_1).announces(.htmlOutOfBand))
        #expect(!Self.nativeOnly.announces(.html) && Self.nativeOnly.announces(.outOfBand))
    }

    @Test("07 (information) is defined for both interfaces: an HTML-only presenter that lists it draws it")
    func informationOnEitherInterface() {
        let types: [UIType] = [.html, .htmlOutOfBand, .information]
        #expect(DeviceRenderOptions(interface: .html, uiTypes: types).announces(.information))
        #expect(DeviceRenderOptions(interface: .native, uiTypes: [.text, .information]).announces(.information))
        #expect(DeviceRenderOptions(interface: .both, uiTypes: [.information]).announces(.information))
        #expect(!DeviceRenderOptions(interface: .html, uiTypes: [.html]).announces(.information))
        #expect(!DeviceRenderOptions(interface: .html, uiTypes: types + [.text]).announces(.text))
    }

    @Test("a 2.3.1 AReq says sdkType 01 with its defaultSdkType; 2.1.0 and 2.2.0 AReqs carry neither")
    func sdkTypeOnlyIn231() throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("sdk-type"))
        for version in MessageVersion.supported {
            let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: version)
            defer { transaction.close() }
            let parameters = try transaction.getAuthenticationRequestParameters()
            var areq = try transaction.authenticationRequest(presenter: IdlePresenter())
            let object = areq.json
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(areq)) as? [String: Any]
            if version == .v2_3_1 {
                #expect(parameters.sdkType == .defaultSDK && parameters.defaultSDKType == DefaultSDKType())
                #expect(object["sdkType"] == .string("01"))
                #expect(
                    object["defaultSdkType"]
                        == .object(["sdkVariant": .string("01"), "wrappedInd": .string("N")]))
                #expect(encoded?["sdkType"] as? String == "01")
                #expect(encoded?["defaultSdkType"] as? [String: String] == ["sdkVariant": "01", "wrappedInd": "N"])
                areq.defaultSDKType?.wrapped = true
                #expect(areq.json["defaultSdkType"]?.objectValue?["wrappedInd"] == .string("Y"))
            } else {
                #expect(parameters.sdkType == nil && parameters.defaultSDKType == nil)
                #expect(object["sdkType"] == nil && object["defaultSdkType"] == nil, "\(version)")
                #expect(encoded?["sdkType"] == nil && encoded?["defaultSdkType"] == nil, "\(version)")
            }
            #expect(throws: ThreeDS2Error.self) { try areq.addField("sdkType", .string("02")) }
        }
        #expect(DefaultSDKType(.object(["sdkVariant": .string("01")])) == DefaultSDKType())
        // A variant of the directory servers' range stays representable; a value that is not two digits does not.
        #expect(
            DefaultSDKType(.object(["sdkVariant": .string("80"), "wrappedInd": .string("N")]))
                == DefaultSDKType(variant: DefaultSDKType.Variant(rawValue: "80")))
        #expect(DefaultSDKType(.object(["sdkVariant": .string("1"), "wrappedInd": .string("N")])) == nil)
        #expect(
            SDKType(rawValue: "02") == .splitSDK && SDKType.splitSDK.isWellFormed
                && !SDKType(rawValue: "0x").isWellFormed)
        #expect(DefaultSDKType(.object(["sdkVariant": .string("01"), "wrappedInd": .string("X")])) == nil)
    }

    @Test("the processing indicator gets the directory server's ID as a type, its name and the app's logo")
    func indicatorGetsTheScheme() async throws {
        let pki = try DirectoryServerPKI.make()
        var server = try pki.directoryServer(id: .visa)
        server.logo = SchemeLogo(imageName: "visa-mark", accessibilityLabel: "Visa")
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.appIdentifier = "org.example.shop"
        config.appVersion = "4.2.0"
        config.dataDirectory = scratchDirectory("scheme-logo")
        try config.addDirectoryServer(server)
        try config.addDirectoryServer(try pki.directoryServer(id: .mastercard))
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: config)
        let indicator = RecordingProgressIndicator()
        for id in [DirectoryServerID.visa, .mastercard] {
            let transaction = try service.createTransaction(directoryServerID: id, messageVersion: .v2_2_0)
            let dialog = transaction.getProgressView(indicator: indicator, clock: TestClock())
            await dialog.start()
            await dialog.stop(keepingMinimum: false)
            transaction.close()
        }
        #expect(
            indicator.schemes == [
                ProcessingScheme(
                    directoryServerID: .visa, name: "Test Scheme",
                    logo: SchemeLogo(imageName: "visa-mark", accessibilityLabel: "Visa")),
                ProcessingScheme(directoryServerID: .mastercard, name: "Test Scheme"),
            ])
    }

    @Test("the logo's accessibility text: its own label, never the name a second time")
    func logoAccessibilityLabel() {
        let name = "Test Scheme"
        let labelled = ProcessingScheme(
            directoryServerID: .mastercard, name: name, logo: SchemeLogo(imageName: "mark", accessibilityLabel: "Mark"))
        #expect(labelled.logoAccessibilityLabel == "Mark")
        let unlabelled = ProcessingScheme(directoryServerID: .mastercard, name: name, logo: SchemeLogo(imageName: "m"))
        #expect(unlabelled.logoAccessibilityLabel == nil)
        let same = ProcessingScheme(
            directoryServerID: .mastercard, name: name, logo: SchemeLogo(imageName: "m", accessibilityLabel: name))
        #expect(same.logoAccessibilityLabel == nil)
        #expect(ProcessingScheme(directoryServerID: .mastercard, name: name).logoAccessibilityLabel == nil)
    }
}
