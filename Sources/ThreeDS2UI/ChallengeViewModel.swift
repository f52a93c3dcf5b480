#if canImport(SwiftUI)
    public import Combine
    public import ThreeDS2Messages
    public import ThreeDS2SDK

    /// What the SwiftUI challenge views draw: the processing indicator or the current screen's form state. Views read
    /// it and send ``perform(_:)`` actions; every protocol decision stays in ``ChallengeFormState``.
    ///
    /// An `ObservableObject` (iOS 13, macOS 10.15), not an Observation `@Observable` class (iOS 17, macOS 14), so
    /// the challenge UI runs from iOS 16 and macOS 13: a view that shows it holds it as an `@ObservedObject`; the
    /// presenter owns it.
    @MainActor
    public final class ChallengeViewModel: ObservableObject {
        /// What is on show.
        public enum Phase: Equatable {
            /// Nothing yet.
            case idle
            /// The processing indicator, with the directory server's name while the 3DS Server is asked.
            case processing(directoryServerName: String?)
            /// A challenge screen.
            case screen
            /// The challenge ended; the presenter dismisses its UI.
            case finished(ChallengeOutcome)
        }

        /// What is on show.
        @Published public private(set) var phase: Phase = .idle
        /// The current screen's form state.
        @Published public private(set) var form: ChallengeFormState?
        /// The presenter's own look, overriding what `initialize` got (`nil`: the SDK's).
        public let customization: UiCustomization?
        /// The presenter's own texts (`nil`: those of the locale `initialize` got).
        private let fixedStrings: SDKStrings?
        /// The appearance the app pinned; `nil` follows the system (``systemAppearance``).
        public let pinnedAppearance: ImageAppearance?
        /// The system's appearance, reported by ``ChallengeView`` from its colour scheme.
        @Published public private(set) var systemAppearance: ImageAppearance = .default
        /// What the SDK handed over with the latest screen (look per appearance, texts, image loader).
        @Published public private(set) var settings = PresentationSettings()
        /// Called once the challenge ends, whatever the outcome.
        public var onFinish: ((ChallengeOutcome) -> Void)?

        private var pending: CheckedContinuation<ChallengeAnswer, Never>?
        private let opener: (any OOBAppOpener)?

        /// The appearance in use: the pinned one, else the system's.
        public var appearance: ImageAppearance { pinnedAppearance ?? systemAppearance }
        /// The SDK's texts in use.
        public var strings: SDKStrings { fixedStrings ?? settings.strings }
        /// The look of the current appearance, resolved (the processing indicator draws its `progress`).
        public var style: ResolvedStyle { effectiveSettings.style(for: appearance) }

        /// Creates a model.
        ///
        /// - Parameters:
        ///   - customization: A look for this presenter only; `nil` draws what `initialize` got.
        ///   - strings: Texts for this presenter only; `nil` uses those of the locale `initialize` got.
        ///   - appearance: The appearance to pin; `nil` follows the system's colour scheme.
        ///   - opener: How the bank's app is opened.
        public init(
            customization: UiCustomization?, strings: SDKStrings?, appearance: ImageAppearance?,
            opener: (any OOBAppOpener)?
        ) {
            self.customization = customization
            self.fixedStrings = strings
            self.pinnedAppearance = appearance
            self.opener = opener
        }

        /// The settings with the presenter's own look and texts applied.
        private var effectiveSettings: PresentationSettings {
            var effective = settings
            if let fixedStrings { effective.strings = fixedStrings }
            if let customization { effective.uiCustomizations = [.default: customization] }
            return effective
        }

        /// Follows the system's colour scheme (unless the app pinned an appearance): the next screen draws the dark
        /// customization and dark images; the screen on show is drawn again when nothing has been entered on it.
        ///
        /// - Parameter dark: Whether the system is in dark mode.
        public func systemColorSchemeChanged(dark: Bool) {
            let next: ImageAppearance = dark ? .dark : .default
            guard next != systemAppearance else { return }
            systemAppearance = next
            if let current = form, current.entries.allSatisfy(\.isEmpty), current.chosen.isEmpty,
                pinnedAppearance == nil
            {
                form = effectiveSettings.formState(for: current.screen, appearance: appearance)
            }
        }

        /// Shows a screen with what `initialize` got and waits for the cardholder's answer; a cancelled task answers
        /// with a cancel.
        func present(_ screen: ChallengeScreen, settings: PresentationSettings) async -> ChallengeAnswer {
            pending?.resume(returning: ChallengeAnswer(.cancel))
            self.settings = settings
            form = effectiveSettings.formState(for: screen, appearance: appearance)
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

        /// Applies a cardholder action; an answer goes to the SDK, a request to open the bank's app goes to the
        /// opener.
        ///
        /// - Parameter action: The action.
        public func perform(_ action: FormAction) {
            guard var current = form else { return }
            switch current.perform(action) {
            case .send(let answer)?:
                form = current
                self.answer(answer)
            case .openApp?:
                form = current
                openApp()
            case .showNote?, nil:
                form = current
            }
        }

        /// The cardholder came back to the app: an HTML screen shows its refresh page; a screen that opened the bank's
        /// app continues on its own.
        public func returnedToForeground() {
            perform(.returnedFromApp)
            if form?.screen.htmlRefresh != nil { perform(.refresh) }
        }

        func showProcessing(_ directoryServerName: String?) {
            if case .screen = phase { return }
            phase = .processing(directoryServerName: directoryServerName)
        }

        func hideProcessing() {
            if case .processing = phase { phase = .idle }
        }

        func finish(_ outcome: ChallengeOutcome) {
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
#endif
