// The DocC articles' Swift snippets that build on Linux without the TestLab, compiled: each is pasted here unchanged
// inside a function that supplies the names it takes from the text around it. `DocSnippetTests` checks that every
// snippet of the README and the articles appears in a compiled file — this one, the tools package's
// `DocSnippetRunTests.swift` (the one-call snippets, run against the TestLab) or `Tests/ThreeDS2UISnippetTests` (SwiftUI
// and UIKit, compiled by the Apple workflow) — so an article that drifts from the API fails the build or the test.
import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum DocSnippets {
    static func configuration(dsEncryptionCertificatePEM: String, dsRootsPEM: String) throws -> ConfigParameters {
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_XXXX_020300_00001"  // assigned by EMVCo
        config.appIdentifier = "com.example.shop"
        config.appVersion = "4.2.0"
        try config.addDirectoryServer(
            DirectoryServer(
                id: "A000000004",
                encryptionKey: dsEncryptionCertificatePEM,  // RSA → RSA-OAEP-256, P-256 → ECDH-ES
                keyID: "key-2026-01",  // sent as the JWE kid, if your DS wants one
                rootCertificates: dsRootsPEM,
                displayName: "Mastercard Identity Check"))
        return config
    }

    static func trustBundle(config: inout ConfigParameters, bundleURL: URL) throws {
        try config.addDirectoryServers(from: TrustBundle(contentsOf: bundleURL))
    }

    static func trustBundleConfiguration(bundleURL: URL) throws -> ConfigParameters {
        var config = ConfigParameters()
        try config.addDirectoryServers(from: TrustBundle(contentsOf: bundleURL))
        return config
    }

    struct AppListeners: ClientEventListener, SecurityEventListener {
        func clientEvent(_ event: ClientEvent) { print("3-D Secure: \(event)") }
        func securityWarningsChanged(_ warnings: [Warning], previous: [Warning], stage: SecurityChecks.Stage) {
            print("security findings at \(stage): \(warnings.map(\.id)), before: \(previous.map(\.id))")
        }
    }

    static func initialise(
        config: ConfigParameters, myListener: any ClientEventListener, mySecurityListener: any SecurityEventListener,
        myLook: UiCustomization
    ) throws -> ThreeDS2Service {
        let service = ThreeDS2Service(clientEventListener: myListener, securityEventListener: mySecurityListener)
        try service.initialize(configParameters: config, locale: Locale(identifier: "de_DE"), uiCustomization: myLook)
        for warning in try service.warnings where warning.severity == .high {
            // SW01 rooted/jailbroken, SW02 tampered, SW03 emulator, SW05 unsupported OS: decide your policy.
        }
        return service
    }

    static func customize(service: ThreeDS2Service, config: ConfigParameters, jsonData: Data) throws
        -> [UiCustomizationType: UiCustomization]
    {
        var light = UiCustomization()
        try light.toolbar.setHeaderText("Acme Bank")
        try light.toolbar.setBackgroundColor("#0B3D91")
        try light.toolbar.text.setColor("#FFFFFF")
        light.label.setHeadingTextAlignment(.center)
        var submit = ButtonCustomization()
        try submit.setBackgroundColor("#1B7F3B")
        try submit.text.setColor("#FFFFFF")
        try submit.setHeight(48)
        light.setButtonCustomization(submit, for: .submit)
        var dark = light
        try dark.toolbar.setBackgroundColor("#1E1E2E")
        try service.initialize(
            configParameters: config, locale: Locale(identifier: "de_DE"),
            uiCustomizations: [.default: light, .dark: dark])
        // or from JSON in the vendor SDKs' vocabulary:
        let appearances = try UiCustomization.appearances(fromJSON: Array(jsonData))
        return appearances
    }

    static func transaction(service: ThreeDS2Service) throws -> (Transaction, AuthenticationRequestParameters) {
        let transaction = try service.createTransaction(directoryServerID: .mastercard, messageVersion: "2.2.0")
        let areq = try transaction.getAuthenticationRequestParameters()
        return (transaction, areq)
    }

    static func areqValue(
        transaction: Transaction, myPresenter: any ChallengePresenter, cardNumber: String, answer: Data
    ) throws -> (Data, ChallengeParameters) {
        var request = try transaction.authenticationRequest(presenter: myPresenter, challengeTimeout: .seconds(5 * 60))
        try request.addField("acctNumber", .string(cardNumber))
        let body = try JSONEncoder().encode(request)  // {"deviceChannel":"01",…,"acctNumber":…}
        // … your backend answers in ARes field names; for transStatus C:
        let parameters = try JSONDecoder().decode(ChallengeParameters.self, from: answer)
        return (body, parameters)
    }

    static func close(transaction: Transaction) {
        transaction.close()
    }

    /// The ARes fields as an app's backend model might hold them.
    struct ARes {
        let threeDSServerTransID: String
        let acsTransID: String
        let acsReferenceNumber: String
        let acsSignedContent: String
    }

    static func challenge(ares: ARes, transaction: Transaction, myPresenter: any ChallengePresenter) async throws {
        let parameters = ChallengeParameters(
            threeDSServerTransactionID: ares.threeDSServerTransID, acsTransactionID: ares.acsTransID,
            acsRefNumber: ares.acsReferenceNumber, acsSignedContent: ares.acsSignedContent)
        let outcome = try await transaction.challenge(parameters, presenter: myPresenter)
        switch outcome {
        case .completed(let status): print("finished with transStatus \(status)")  // the RReq result: ask your backend
        case .cancelled, .timedOut: break
        case .protocolError(let erro): print("Erro \(erro.errorCode)")
        case .runtimeError(let failure): print("failed: \(failure.code)")
        }
    }

    @MainActor
    final class CheckoutModel: ChallengeStatusReceiver, ProgressIndicator {
        var busy = false
        var scheme: ProcessingScheme?  // its directoryServerID picks the mark; logo is the image you configured
        var result = ""
        func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
            self.scheme = scheme
            busy = true
        }
        func hide() { busy = false }
        func completed(_ event: CompletionEvent) { result = event.transactionStatus.rawValue }
        func cancelled() { result = "cancelled" }
        func timedout() { result = "timed out" }
        func protocolError(_ event: ProtocolErrorEvent) { result = "failed" }  // errorMessage is for your logs
        func runtimeError(_ event: RuntimeErrorEvent) { result = "failed" }  // errorMessage is for your logs
    }

    @MainActor
    static func viewModel(
        transaction: Transaction, parameters: ChallengeParameters, presenter: any ChallengePresenter
    ) async throws {
        let model = CheckoutModel()
        let progress = transaction.getProgressView(indicator: model, clock: ContinuousClock())
        await progress.start()  // while your backend is asked
        // …
        await progress.stop()  // stays visible at least two seconds
        try transaction.doChallenge(
            challengeParameters: parameters, challengeStatusReceiver: model, timeout: .seconds(300),
            presenter: presenter)
    }

    enum Presenters {
        struct CodePresenter: ChallengePresenter {
            let code: String
            func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
                var form = form  // laid out with your customization and locale: draw it, then act on it
                _ = form.perform(.type(code))
                return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)  // form.note says why when nil
            }
        }
    }
}

/// The testing article's snippets (`ThreeDS2SDKTesting`'s `TestingACheckout`), compiled and run as tests.
@Suite("The testing article's snippets", .timeLimit(.minutes(1)))
struct TestingArticleSnippets {
    @Test func payWithACodeChallenge() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(
            dataDirectory: scratchDirectory("checkout"), locale: Locale(identifier: "de"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y")
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0,
            presenter: ScriptedPresenter(answers: [.text("123456")]), transport: transport, clock: ManualClock()
        ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
        #expect(service.cardholderText(for: outcome) == service.strings[.completed])  // in German
    }

    @Test func silentACS() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("silent"))
        let acs = ScriptedACS(pki: pki)
        let transport = ScriptedTransport { _ in .neverReturn }  // never answers, never gives up
        let clock = ManualClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", presenter: IdlePresenter(), transport: transport, clock: clock
            ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
        }
        _ = await transport.log.request(at: 0)  // the first CReq is out
        await clock.advance(by: .seconds(10))  // no CRes in 10 s: the SDK posts Erro 402
        _ = await transport.log.request(at: 1)
        await clock.advance(by: .seconds(5))  // the Erro's bound: the outcome arrives
        guard case .challenged(.timedOut) = await payment.value else {
            Issue.record("expected timed out")
            return
        }
    }
}
