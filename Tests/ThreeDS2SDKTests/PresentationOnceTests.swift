import Clocks
import Foundation
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// What `initialize` got in these tests: German, and a progress colour and toolbar title per appearance.
private enum AppLook {
    static let progressColor = "#0B3D91"
    static let darkProgressColor = "#FFCC00"

    static func customizations() throws -> [UiCustomizationType: UiCustomization] {
        var light = UiCustomization()
        try light.progress.setIndicatorColor(progressColor)
        try light.toolbar.setHeaderText("Hell")
        var dark = UiCustomization()
        try dark.progress.setIndicatorColor(darkProgressColor)
        try dark.toolbar.setHeaderText("Dunkel")
        return [.default: light, .dark: dark]
    }

    /// A service initialised as an app in Germany with its own look, on the testing product's PKI.
    static func service(_ pki: DirectoryServerPKI, _ name: String) throws -> ThreeDS2Service {
        let service = ThreeDS2Service(systemProbe: FakeSystemProbe.clean())
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.appIdentifier = "org.example.shop"
        config.appVersion = "4.2.0"
        config.dataDirectory = scratchDirectory(name)
        try config.addDirectoryServer(try pki.directoryServer())
        try service.initialize(
            configParameters: config, locale: Locale(identifier: "de_DE"), uiCustomizations: try customizations())
        return service
    }
}

/// Records what the processing indicator was drawn with, and when.
private final class LookRecordingIndicator: ProgressIndicator, Sendable {
    let events = Locked<[String]>([])
    func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
        let color = presentation.style.progress.indicatorColor.map { "\($0)" } ?? "none"
        let text = presentation.strings[.processing]
        events.withLock { $0.append("show \(presentation.strings.language) \(color) \(text)") }
    }
    func hide() { events.withLock { $0.append("hide") } }
}

/// The presenter `Challenge.md` shows, recording what each form state it is handed carries.
private final class ArticlePresenter: ChallengePresenter, Sendable {
    let seen = Locked<[String]>([])
    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        seen.withLock {
            $0.append("\(form.layout.strings.language) \(form.style.toolbar.headerText ?? "-")")
        }
        var form = form
        _ = form.perform(.type("123456"))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }
}

/// A presenter around the platform-neutral screen model, as the SwiftUI presenter is: it is also the indicator.
@MainActor
private final class ModelPresenter: ChallengePresenter, ProgressIndicator {
    let model = ChallengeScreenModel(opener: nil)
    var frames: [String] = []

    private func frame(_ what: String) {
        let color = model.style.progress.indicatorColor.map { "\($0)" } ?? "none"
        frames.append("\(what) \(model.strings.language) \(color)")
    }

    func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
        model.showProcessing(scheme, presentation: presentation)
        frame("processing")
    }
    func hide() { model.hideProcessing() }

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        Task { @MainActor in
            self.frame("screen \(self.model.form?.style.toolbar.headerText ?? "-")")
            self.model.perform(.setEntry("123456"))
            self.model.perform(.submit())
        }
        return await model.present(form)
    }
    func dismiss(outcome: ChallengeOutcome) async { model.finish(outcome) }
}

@Suite("Presentation built once per transaction (issue 35)", .timeLimit(.minutes(1)))
struct PresentationOnceTests {
    let pki: DirectoryServerPKI

    init() throws { pki = try DirectoryServerPKI.make() }

    static func completed(_ outcome: AuthenticationOutcome) -> Bool {
        if case .challenged(.completed(.authenticated)) = outcome { return true }
        return false
    }

    /// A code challenge through the testing product's doubles (or a frictionless answer), on a test clock.
    func pay(
        _ service: ThreeDS2Service, presenter: some ChallengePresenter, progress: (any ProgressIndicator)? = nil,
        clock: TestClock<Duration> = TestClock(), frictionless: Bool = false,
        beforeAReq: @escaping @Sendable () -> Void = {}
    ) async -> AuthenticationOutcome {
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y")
        return await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: presenter, progress: progress,
            transport: transport, clock: clock
        ) { areq in
            beforeAReq()
            return frictionless
                ? .frictionless(transStatus: .authenticated) : .challenge(try acs.challengeParameters(for: areq))
        }
    }

    @Test("the processing indicator is drawn in the app's language and progress colour before the AReq is sent")
    func indicatorBeforeAReq() async throws {
        let service = try AppLook.service(pki, "present-indicator")
        defer { try? service.cleanup() }
        let indicator = LookRecordingIndicator()
        let shownBeforeAReq = Locked<[String]>([])
        let outcome = await pay(
            service, presenter: ScriptedPresenter(answers: []), progress: indicator, frictionless: true
        ) {
            shownBeforeAReq.withLock { $0 = indicator.events.withLock { $0 } }
        }
        guard case .frictionless(.authenticated) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let german = SDKStrings(locale: Locale(identifier: "de"))[.processing]
        let color = try HexColor(AppLook.progressColor)
        #expect(shownBeforeAReq.withLock { $0 } == ["show de \(color) \(german)"])
    }

    @Test("the two-step API's indicator gets the transaction's presentation too")
    func getProgressView() async throws {
        let service = try AppLook.service(pki, "present-progress-view")
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
        defer { transaction.close() }
        let indicator = LookRecordingIndicator()
        await transaction.getProgressView(indicator: indicator, clock: TestClock()).start()
        let color = try HexColor(AppLook.progressColor)
        #expect(indicator.events.withLock { $0 }.first?.hasPrefix("show de \(color) ") == true)
    }

    @Test("a presenter written as Challenge.md shows draws the app's language and customization")
    func articlePresenter() async throws {
        let service = try AppLook.service(pki, "present-article")
        defer { try? service.cleanup() }
        let presenter = ArticlePresenter()
        let outcome = await pay(service, presenter: presenter)
        #expect(Self.completed(outcome), "\(outcome)")
        #expect(presenter.seen.withLock { $0 } == ["de Hell"])
    }

    @Test("the scripted presenter is handed the app's language and customization from its first screen")
    func scriptedPresenter() async throws {
        let service = try AppLook.service(pki, "present-scripted")
        defer { try? service.cleanup() }
        let presenter = ScriptedPresenter(answers: [.text("123456")])
        let outcome = await pay(service, presenter: presenter)
        #expect(Self.completed(outcome), "\(outcome)")
        let first = try #require(presenter.forms.first)
        #expect(first.layout.strings.language == "de" && first.style.toolbar.headerText == "Hell")
        #expect(first.presentation.style.progress.indicatorColor == (try HexColor(AppLook.progressColor)))
    }

    @Test("the screen model, through the core, shows the app's language and progress colour from the first frame")
    @MainActor
    func screenModel() async throws {
        let service = try AppLook.service(pki, "present-model")
        defer { try? service.cleanup() }
        let presenter = ModelPresenter()
        let clock = TestClock()
        let payment = Task { await pay(service, presenter: presenter, clock: clock) }
        // The indicator is the presenter: its two-second minimum runs on the test clock.
        for _ in 0..<10_000 where presenter.frames.isEmpty { await Task.yield() }
        await clock.advance(by: .seconds(2))
        let outcome = await payment.value
        #expect(Self.completed(outcome), "\(outcome)")
        let color = try HexColor(AppLook.progressColor)
        #expect(presenter.frames == ["processing de \(color)", "screen Hell de \(color)"])
    }

    @Test("a presenter's overrides are applied once, over every appearance, and the rest is kept")
    func overrides() throws {
        let transaction = PresentationSettings(
            uiCustomizations: try AppLook.customizations(), strings: SDKStrings(locale: Locale(identifier: "de")))
        #expect(transaction.customization(for: .monochrome).toolbar.headerText == "Hell", "resolved once")
        #expect(transaction.customization(for: .dark).toolbar.headerText == "Dunkel")
        var own = UiCustomization()
        try own.toolbar.setHeaderText("Eigen")
        let applied = transaction.applying(
            PresentationOverrides(customization: own, appearance: .dark, density: .medium))
        #expect(UiCustomizationType.allCases.allSatisfy { applied.uiCustomizations[$0]?.toolbar.headerText == "Eigen" })
        #expect(applied.strings.language == "de" && applied.appearance == .dark && applied.density == .medium)
        let form = applied.formState(for: try formScreen("01"))
        #expect(form.layout.appearance == .dark && form.style.toolbar.headerText == "Eigen")
        #expect(transaction.applying(.none).strings.language == "de")
    }

    @Test("the transaction's customization per appearance falls back to the default one, resolved at creation")
    func transactionCustomization() async throws {
        let service = try AppLook.service(pki, "present-fallback")
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: "2.2.0")
        defer { transaction.close() }
        #expect(transaction.uiCustomization(for: .monochrome).toolbar.headerText == "Hell")
        #expect(try service.uiCustomization(for: .monochrome).toolbar.headerText == "Hell")
        #expect(transaction.presentationSettings.strings.language == "de")
        #expect(transaction.presentationSettings.imageLoader != nil)
    }
}
