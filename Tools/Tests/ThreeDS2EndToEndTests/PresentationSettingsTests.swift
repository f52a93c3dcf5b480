import Clocks
import Foundation
import Testing
import ThreeDS2NIOTransport
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// A presenter that draws what the SDK hands over, in the dark appearance it pins: it records the toolbar and
/// language of each form state.
final class SettingsRecordingPresenter: ChallengePresenter, Sendable {
    let seen = Locked<[String]>([])
    var presentationOverrides: PresentationOverrides { PresentationOverrides(appearance: .dark) }

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        let toolbar = form.layout.elements.first.map { "\($0)" } ?? "none"
        seen.withLock { $0.append("\(form.style.appearance.rawValue) \(form.layout.strings.language) \(toolbar)") }
        _ = form.perform(.type("123456"))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }
}

@Suite("Presentation settings from initialize")
struct PresentationSettingsTests {
    @Test("initialize's customization per appearance and locale reach the presenter through the form state")
    func settingsReachPresenter() async throws {
        let lab = try await LabPool.shared.lab()
        var light = UiCustomization()
        try light.toolbar.setHeaderText("Hell")
        var dark = UiCustomization()
        try dark.toolbar.setHeaderText("Dunkel")
        let service = ThreeDS2Service()
        try service.initialize(
            configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()),
            locale: Locale(identifier: "de_DE"), uiCustomizations: [.default: light, .dark: dark])
        defer { try? service.cleanup() }
        let configured = try service.createTransaction(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
        let transport = try lab.makeTransport()
        let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
            parameters: try configured.getAuthenticationRequestParameters(),
            purchase: Purchase(cardNumber: Scenario.text.cardNumber, amount: "100", currency: "978"))
        let challenge = try #require(response.challengeParameters)
        #expect(configured.presentationSettings.strings.language == "de")
        #expect(configured.presentationSettings.style(for: .default).toolbar.headerText == "Hell")
        let presenter = SettingsRecordingPresenter()
        let outcome = try await configured.challenge(
            challenge, presenter: presenter, timeout: .seconds(300), transport: transport, clock: TestClock())
        #expect(outcome == .completed(transStatus: .authenticated))
        let seen = presenter.seen.withLock { $0 }
        #expect(seen.count == 1 && seen[0].hasPrefix("DARK de toolbar(title: \"Dunkel\""), "\(seen)")
        try await transport.shutdown()
    }
}
