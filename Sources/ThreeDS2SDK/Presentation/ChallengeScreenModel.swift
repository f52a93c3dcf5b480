public import ThreeDS2Messages

/// The challenge UI's state machine without any UI framework: the processing indicator or the current screen's form
/// state, the settings from `initialize`, the appearance (pinned or the system's), and the continuation the SDK
/// waits on. The SwiftUI `ChallengeViewModel` is a thin `ObservableObject` around it; Linux tests drive it with the
/// same screen scripts as the terminal and scripted presenters.
@MainActor
public final class ChallengeScreenModel {
    /// What is on show.
    public enum Phase: Sendable, Equatable {
        /// Nothing yet.
        case idle
        /// The processing indicator, with the directory server's name while the 3DS Server is asked.
        case processing(directoryServerName: String?)
        /// A challenge screen.
        case screen
        /// The challenge ended; the presenter dismisses its UI.
        case finished(ChallengeOutcome)
    }

    /// Called before anything on show changes (the SwiftUI wrapper sends `objectWillChange`).
    public var onChange: (@MainActor () -> Void)?
    /// Called once the challenge ends, whatever the outcome.
    public var onFinish: (@MainActor (ChallengeOutcome) -> Void)?

    /// What is on show.
    public private(set) var phase: Phase = .idle {
        willSet { onChange?() }
    }
    /// The current screen's form state.
    public private(set) var form: ChallengeFormState? {
        willSet { onChange?() }
    }
    /// What the SDK handed over with the latest screen (look per appearance, texts, image loader).
    public private(set) var settings = PresentationSettings() {
        willSet { onChange?() }
    }
    /// The system's appearance, reported by the UI from its colour scheme.
    public private(set) var systemAppearance: ImageAppearance = .default {
        willSet { onChange?() }
    }
    /// The presenter's own look, overriding what `initialize` got (`nil`: the SDK's).
    public let customization: UiCustomization?
    /// The appearance the app pinned; `nil` follows the system.
    public let pinnedAppearance: ImageAppearance?

    private let fixedStrings: SDKStrings?
    private let opener: (any OOBAppOpener)?
    private let htmlReader: (any HTMLFormReader)?
    private var pending: CheckedContinuation<ChallengeAnswer, Never>?
    /// Whether the app went to the background since it was last in front.
    private var leftForBackground = false

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - customization: A look for this presenter only; `nil` draws what `initialize` got.
    ///   - strings: Texts for this presenter only; `nil` uses those of the locale `initialize` got.
    ///   - appearance: The appearance to pin; `nil` follows the system's colour scheme.
    ///   - opener: How the bank's app is opened.
    ///   - htmlReader: Reads HTML screens into native controls; `nil` when a web view shows them.
    public init(
        customization: UiCustomization? = nil, strings: SDKStrings? = nil, appearance: ImageAppearance? = nil,
        opener: (any OOBAppOpener)?, htmlReader: (any HTMLFormReader)? = nil
    ) {
        self.customization = customization
        self.fixedStrings = strings
        self.pinnedAppearance = appearance
        self.opener = opener
        self.htmlReader = htmlReader
    }

    /// The appearance in use: the pinned one, else the system's.
    public var appearance: ImageAppearance { pinnedAppearance ?? systemAppearance }
    /// The SDK's texts in use.
    public var strings: SDKStrings { fixedStrings ?? settings.strings }
    /// The look of the appearance in use, resolved (the processing indicator draws its `progress`).
    public var style: ResolvedStyle { effectiveSettings.style(for: appearance) }

    private var effectiveSettings: PresentationSettings {
        var effective = settings
        if let fixedStrings { effective.strings = fixedStrings }
        if let customization { effective.uiCustomizations = [.default: customization] }
        return effective
    }

    /// Shows a screen with what `initialize` got and waits for the cardholder's answer; a cancelled task answers
    /// with a cancel.
    ///
    /// - Parameters:
    ///   - screen: The screen.
    ///   - settings: The settings the SDK handed over.
    /// - Returns: The answer.
    public func present(_ screen: ChallengeScreen, settings: PresentationSettings) async -> ChallengeAnswer {
        pending?.resume(returning: ChallengeAnswer(.cancel))
        pending = nil
        self.settings = settings
        form = effectiveSettings.formState(for: screen, appearance: appearance, htmlReader: htmlReader)
        phase = .screen
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: ChallengeAnswer(.cancel))
                } else {
                    pending = continuation
                }
            }
        } onCancel: {
            Task { @MainActor in self.answer(ChallengeAnswer(.cancel)) }
        }
    }

    /// Applies a cardholder action through the form state's effects: an answer goes to the SDK, the bank's app is
    /// opened through the opener (the round trip is the core's), a note stays on the form.
    ///
    /// - Parameter action: The action.
    public func perform(_ action: FormAction) {
        guard var current = form else { return }
        let effect = current.perform(action)
        form = current
        switch effect {
        case .send(let answer)?: self.answer(answer)
        case .openApp?: openApp()
        case .showNote?, nil: break
        }
    }

    /// Where the app stands, as the platform's lifecycle reports it (SwiftUI's `ScenePhase`, UIKit's scene states).
    public enum AppPhase: Sendable, Hashable {
        /// In front and receiving events.
        case active
        /// In front but not receiving events: Control Center, a notification, a Face ID prompt over it.
        case inactive
        /// Not visible: the cardholder switched to another app (the bank's) or to the home screen.
        case background
    }

    /// Follows the app's lifecycle: ``returnedToForeground()`` runs when the app comes back to the front after it
    /// was in the background (the cardholder went to the bank's app), not when a system sheet over it (Control
    /// Center, a Face ID prompt, a notification) only made it inactive for a moment.
    ///
    /// - Parameter phase: The phase the app is in now.
    public func appPhaseChanged(_ phase: AppPhase) {
        switch phase {
        case .background: leftForBackground = true
        case .inactive: break
        case .active:
            guard leftForBackground else { return }
            leftForBackground = false
            returnedToForeground()
        }
    }

    /// The cardholder came back to the app: an HTML screen shows its refresh page; a screen that opened the bank's
    /// app continues on its own; an out-of-band screen shows `challengeAddInfo`.
    public func returnedToForeground() {
        perform(.returnedFromApp)
        if form?.screen.htmlRefresh != nil { perform(.refresh) }
    }

    /// Follows the system's colour scheme (unless the app pinned an appearance): the next screen draws the dark
    /// customization and dark images; the screen on show is drawn again when nothing has been entered on it.
    ///
    /// - Parameter dark: Whether the system is in dark mode.
    public func systemColorSchemeChanged(dark: Bool) {
        let next: ImageAppearance = dark ? .dark : .default
        guard next != systemAppearance else { return }
        systemAppearance = next
        if pinnedAppearance == nil, let current = form, current.entries.allSatisfy(\.isEmpty), current.chosen.isEmpty {
            form = effectiveSettings.formState(for: current.screen, appearance: appearance, htmlReader: htmlReader)
        }
    }

    /// Shows the processing indicator (not over a screen).
    ///
    /// - Parameter directoryServerName: The directory server's name, while the 3DS Server is asked.
    public func showProcessing(_ directoryServerName: String?) {
        if case .screen = phase { return }
        phase = .processing(directoryServerName: directoryServerName)
    }

    /// Hides the processing indicator.
    public func hideProcessing() {
        if case .processing = phase { phase = .idle }
    }

    /// Ends the challenge UI.
    ///
    /// - Parameter outcome: The outcome.
    public func finish(_ outcome: ChallengeOutcome) {
        answer(ChallengeAnswer(.cancel))
        form = nil
        phase = .finished(outcome)
        onFinish?(outcome)
    }

    private func answer(_ answer: ChallengeAnswer) {
        guard let pending else { return }
        self.pending = nil
        phase = .processing(directoryServerName: nil)
        pending.resume(returning: answer)
    }

    private func openApp() {
        Task {
            guard var current = form else { return }
            let answer = await current.openApp(using: opener)
            form = current
            if let answer { self.answer(answer) }
        }
    }
}
