#if canImport(SwiftUI)
    public import Combine
    public import ThreeDS2Messages
    public import ThreeDS2SDK

    /// What the SwiftUI challenge views draw: a thin `ObservableObject` around the platform-neutral
    /// ``ChallengeScreenModel`` (in the core, driven by Linux tests), which holds the processing indicator or the
    /// current screen's form state. Views read it and send ``perform(_:)`` actions; every decision stays in the core.
    ///
    /// An `ObservableObject` (iOS 13, macOS 10.15), not an Observation `@Observable` class (iOS 17, macOS 14), so
    /// the challenge UI runs from iOS 16 and macOS 13: a view that shows it holds it as an `@ObservedObject`; the
    /// presenter owns it.
    @MainActor
    public final class ChallengeViewModel: ObservableObject {
        /// The platform-neutral model.
        public let core: ChallengeScreenModel

        /// What is on show.
        public var phase: ChallengeScreenModel.Phase { core.phase }
        /// The current screen's form state.
        public var form: ChallengeFormState? { core.form }
        /// The transaction's presentation, as the SDK handed it over with the indicator or the latest screen.
        public var settings: PresentationSettings { core.settings }
        /// The SDK's texts in use.
        public var strings: SDKStrings { core.strings }
        /// The look of the appearance in use.
        public var style: ResolvedStyle { core.style }
        /// The appearance in use.
        public var appearance: ImageAppearance { core.appearance }
        /// Called once the challenge ends, whatever the outcome.
        public var onFinish: ((ChallengeOutcome) -> Void)? {
            didSet {
                let handler = onFinish
                core.onFinish = { handler?($0) }
            }
        }

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
            core = ChallengeScreenModel(
                customization: customization, strings: strings, appearance: appearance, opener: opener)
            core.onChange = { [weak self] in self?.objectWillChange.send() }
        }

        /// Shows a screen's form state, as the SDK built it, and waits for the cardholder's answer.
        func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
            await core.present(form)
        }

        /// Applies a cardholder action.
        ///
        /// - Parameter action: The action.
        public func perform(_ action: FormAction) { core.perform(action) }

        /// The cardholder came back to the app.
        public func returnedToForeground() { core.returnedToForeground() }

        /// The app's lifecycle: back in front after the background counts as back from the bank's app.
        ///
        /// - Parameter phase: The phase the app is in now.
        public func appPhaseChanged(_ phase: ChallengeScreenModel.AppPhase) { core.appPhaseChanged(phase) }

        /// Follows the system's colour scheme unless the app pinned an appearance.
        ///
        /// - Parameter dark: Whether the system is in dark mode.
        public func systemColorSchemeChanged(dark: Bool) { core.systemColorSchemeChanged(dark: dark) }

        func showProcessing(_ scheme: ProcessingScheme?, presentation: PresentationSettings) {
            core.showProcessing(scheme, presentation: presentation)
        }

        func hideProcessing() { core.hideProcessing() }

        func finish(_ outcome: ChallengeOutcome) { core.finish(outcome) }
    }
#endif
