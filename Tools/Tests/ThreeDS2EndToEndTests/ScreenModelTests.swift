import Clocks
import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// A presenter built as the SwiftUI one is (a presenter around the platform-neutral screen model), with a script
/// standing in for the cardholder's taps: each screen gets the next scripted answer's actions through the model.
@MainActor
final class ModelPresenter: ChallengePresenter {
    let model = ChallengeScreenModel(opener: FixedOOBAppOpener(result: .returned), htmlReader: LibXML2FormReader())
    private var script: [ScriptedAnswer]
    private(set) var screens: [String] = []

    init(script: [ScriptedAnswer]) { self.script = script }

    /// The same opener the model uses: the ACS is told the app can be opened.
    nonisolated var oobAppOpener: (any OOBAppOpener)? { FixedOOBAppOpener(result: .returned) }

    /// The model's overrides (its HTML reader), as the SwiftUI presenter declares them.
    nonisolated var presentationOverrides: PresentationOverrides { model.presentationOverrides }

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        screens.append(form.screen.uiType.rawValue)
        Task { @MainActor in self.play() }
        return await model.present(form)
    }

    func dismiss(outcome: ChallengeOutcome) async { model.finish(outcome) }

    /// Taps the next answer's controls while the screen is on show.
    private func play() {
        guard model.phase == .screen, !script.isEmpty else { return }
        for action in script.removeFirst().formActions {
            model.perform(action)
            guard model.phase == .screen else { return }
        }
    }
}

@Suite("The SwiftUI view's screen model, driven on Linux by the screen scripts")
struct ScreenModelTests {
    @Test(
        "each challenge kind completes through the model with the scripts the scripted presenter passes",
        arguments: [
            (Scenario.text, "2.2.0", [ScriptedAnswer.text("123456")]),
            (.singleSelect, "2.2.0", [.select(["mail"])]),
            (.multiSelect, "2.2.0", [.select(["q3", "q1"])]),
            (.outOfBand, "2.2.0", [.continue()]),
            (.html, "2.2.0", [.html(fields: ["otp": "123456"], button: "Verify")]),
            (.information, "2.3.1", [.continue(), .text("123456")]),
            (.htmlOutOfBand, "2.3.1", [.openApp()]),
        ])
    @MainActor
    func kinds(_ scenario: Scenario, _ version: String, _ script: [ScriptedAnswer]) async throws {
        let lab = try await LabPool.shared.lab()
        let transport = try lab.makeTransport()
        let service = ThreeDS2Service()
        var look = UiCustomization()
        try look.toolbar.setHeaderText("Acme")
        try service.initialize(
            configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()),
            uiCustomizations: [.default: look])
        defer { try? service.cleanup() }
        let presenter = ModelPresenter(script: script)
        let outcome = await service.authenticate(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: MessageVersion(version),
            presenter: presenter,
            transport: transport, clock: TestClock(),
            requestor: labRequestor(lab, transport: transport, card: scenario.cardNumber))
        guard case .challenged(let challenge) = outcome else {
            Issue.record("\(scenario): \(outcome)")
            return
        }
        #expect(challenge == .completed(transStatus: .authenticated), "\(scenario)")
        #expect(presenter.screens.first == scenario.firstUIType(version: version))
        #expect(
            presenter.model.phase == .finished(.completed(transStatus: .authenticated)) && presenter.model.form == nil)
        #expect(presenter.model.settings.style(for: .default).toolbar.headerText == "Acme")
        try await transport.shutdown()
    }
}
