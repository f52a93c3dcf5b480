import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

@Suite("Screen model (the SwiftUI view's, without SwiftUI)")
@MainActor
struct ScreenModelUnitTests {
    private let oob: [String: JSONValue] = [
        "oobContinueLabel": .string("Done"), "oobAppURL": .string("https://bank.example/app"),
        "oobAppLabel": .string("Open"),
        "challengeAddInfo": .string("Approved in your banking app?"),
    ]

    @Test("challengeAddInfo replaces the text once the cardholder is back; continue then answers")
    func additionalInfo() async throws {
        let model = ChallengeScreenModel(opener: nil)
        let screen = try formScreen("04", oob, version: .v2_3_1)
        let answer = Task { await model.present(ChallengeFormState(screen: screen)) }
        for _ in 0..<10_000 where model.phase != .screen { await Task.yield() }
        let form = try #require(model.form)
        guard
            case .text(let text, let warning)? = form.layout.elements.first(where: {
                if case .text = $0 { true } else { false }
            })
        else {
            Issue.record("no text element")
            return
        }
        #expect(form.shownText(text, warning: warning).text.plain == "T")
        model.returnedToForeground()
        let back = try #require(model.form)
        #expect(back.shownText(text, warning: warning).text.plain == "Approved in your banking app?")
        #expect(model.phase == .screen, "back without the app opened: the cardholder presses continue")
        model.perform(.continueChallenge)
        #expect(await answer.value == ChallengeAnswer(.oobContinue(automatic: false)))
        #expect(model.phase == .processing(nil))
    }

    @Test("only a return from the background counts as back from the bank's app; a system sheet does not")
    func lifecycle() async throws {
        let model = ChallengeScreenModel(opener: nil)
        let screen = try formScreen("04", oob, version: .v2_3_1)
        let answer = Task { await model.present(ChallengeFormState(screen: screen)) }
        for _ in 0..<10_000 where model.phase != .screen { await Task.yield() }
        // Control Center or a Face ID prompt: inactive, then active again.
        model.appPhaseChanged(.inactive)
        model.appPhaseChanged(.active)
        #expect(model.form?.returnedFromApp == false)
        model.appPhaseChanged(.active)
        #expect(model.form?.returnedFromApp == false, "active twice is not a return")
        // To the bank's app and back.
        model.appPhaseChanged(.inactive)
        model.appPhaseChanged(.background)
        #expect(model.form?.returnedFromApp == false)
        model.appPhaseChanged(.inactive)
        model.appPhaseChanged(.active)
        #expect(model.form?.returnedFromApp == true)
        model.perform(.cancel)
        #expect(await answer.value == ChallengeAnswer(.cancel))
    }

    @Test("the system's dark mode picks the DARK customization unless the app pinned one")
    func systemAppearance() async throws {
        var light = UiCustomization()
        try light.toolbar.setHeaderText("Light")
        var dark = UiCustomization()
        try dark.toolbar.setHeaderText("Dark")
        let settings = PresentationSettings(uiCustomizations: [.default: light, .dark: dark])
        let screen = try formScreen("01")

        let following = ChallengeScreenModel(opener: nil)
        let first = Task { await following.present(settings.formState(for: screen)) }
        for _ in 0..<10_000 where following.phase != .screen { await Task.yield() }
        #expect(following.form?.style.toolbar.headerText == "Light")
        following.systemColorSchemeChanged(dark: true)
        #expect(following.appearance == .dark && following.form?.style.toolbar.headerText == "Dark")
        #expect(following.form?.layout.appearance == .dark, "dark images too")
        following.perform(.cancel)
        _ = await first.value

        let pinned = ChallengeScreenModel(appearance: .default, opener: nil)
        let second = Task {
            await pinned.present(settings.applying(pinned.presentationOverrides).formState(for: screen))
        }
        for _ in 0..<10_000 where pinned.phase != .screen { await Task.yield() }
        pinned.systemColorSchemeChanged(dark: true)
        #expect(pinned.form?.style.toolbar.headerText == "Light" && pinned.appearance == .default)
        pinned.perform(.cancel)
        #expect(await second.value == ChallengeAnswer(.cancel))
    }

    @Test("processing, then the screen, then finished; the change callback fires before each change")
    func phases() async throws {
        let model = ChallengeScreenModel(opener: nil)
        var changes = 0
        model.onChange = { changes += 1 }
        var finished: ChallengeOutcome?
        model.onFinish = { finished = $0 }
        model.showProcessing(
            ProcessingScheme(directoryServerID: "A000000004", name: "Scheme DS"), presentation: PresentationSettings())
        // Two changes: the presentation it is drawn with, then the phase.
        #expect(
            model.phase == .processing(ProcessingScheme(directoryServerID: "A000000004", name: "Scheme DS"))
                && changes == 2)
        model.hideProcessing()
        #expect(model.phase == .idle)
        model.finish(.cancelled)
        #expect(model.phase == .finished(.cancelled) && finished == .cancelled && model.form == nil)
    }
}
