import Foundation
public import ThreeDS2Messages

/// The challenge UI's state machine without any UI framework: the processing indicator or the current screen's form
/// state, the transaction's presentation (handed over with the processing indicator, before the first network call,
/// and with every form state), the appearance (pinned or the system's), and the continuation the SDK waits on. The
/// SwiftUI `ChallengeViewModel` is a thin `ObservableObject` around it; Linux tests drive it with the same screen
/// scripts as the terminal and scripted presenters.
@MainActor
public final class ChallengeScreenModel {
    /// What is on show.
    public enum Phase: Sendable, Equatable {
        /// Nothing yet.
        case idle
        /// The processing indicator, with the payment system (directory server ID, name, logo) while the 3DS Server
        /// is asked.
        case processing(ProcessingScheme?)
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
    /// The transaction's presentation the SDK handed over with the processing indicator or the latest screen (look
    /// per appearance, texts, image loader), the presenter's overrides applied.
    public private(set) var settings = PresentationSettings() {
        willSet { onChange?() }
    }
    /// The system's appearance, reported by the UI from its colour scheme.
    public private(set) var systemAppearance: ImageAppearance = .default {
        willSet { onChange?() }
    }
    /// What the presenter changes over what `initialize` got (its own look and texts, the pinned appearance, the
    /// HTML reader): the presenter's ``ChallengePresenter/presentationOverrides``, applied by the SDK.
    public nonisolated let presentationOverrides: PresentationOverrides
    /// The appearance the app pinned; `nil` follows the system.
    public var pinnedAppearance: ImageAppearance? { presentationOverrides.appearance }

    private let opener: (any OOBAppOpener)?
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
        self.presentationOverrides = PresentationOverrides(
            customization: customization, strings: strings, appearance: appearance, htmlReader: htmlReader)
        self.opener = opener
    }

    /// The appearance in use: the pinned one, else the system's.
    public var appearance: ImageAppearance { pinnedAppearance ?? systemAppearance }
    /// The SDK's texts in use.
    public var strings: SDKStrings { settings.strings }
    /// The look of the appearance in use, resolved (the processing indicator draws its `progress`).
    public var style: ResolvedStyle { settings.style(for: appearance) }

    /// Shows a screen's form state, as the SDK built it, and waits for the cardholder's answer; a cancelled task
    /// answers with a cancel. When the model follows the system's appearance, the screen is drawn in it.
    ///
    /// - Parameter form: The screen's form state.
    /// - Returns: The answer.
    public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        pending?.resume(returning: ChallengeAnswer(.cancel))
        pending = nil
        settings = form.presentation
        self.form = form.presentation.appearance == appearance ? form : redrawn(form)
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
        case .openApp(let url)?: openApp(url)
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
            form = redrawn(current)
        }
    }

    /// A screen drawn again, untouched, in the appearance in use.
    private func redrawn(_ current: ChallengeFormState) -> ChallengeFormState {
        current.presentation.applying(PresentationOverrides(appearance: appearance)).formState(for: current.screen)
    }

    /// Shows the processing indicator (not over a screen), drawn with the transaction's presentation.
    ///
    /// - Parameters:
    ///   - scheme: The payment system (directory server ID, name, logo), while the 3DS Server is asked.
    ///   - presentation: The transaction's presentation, the presenter's overrides applied.
    public func showProcessing(_ scheme: ProcessingScheme?, presentation: PresentationSettings) {
        settings = presentation
        if case .screen = phase { return }
        phase = .processing(scheme)
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
        phase = .processing(nil)
        pending.resume(returning: answer)
    }

    /// Opens the bank's app through the opener (failing without one) and performs what became of it.
    private func openApp(_ url: URL) {
        Task {
            let result = await opener?.open(url) ?? .failed
            guard var current = form else { return }
            let effect = current.perform(.appOpenResult(result))
            form = current
            if let answer = effect?.answer { self.answer(answer) }
        }
    }
}
