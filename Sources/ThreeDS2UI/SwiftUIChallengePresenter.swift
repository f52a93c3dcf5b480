#if canImport(SwiftUI)
    public import ThreeDS2Messages
    public import ThreeDS2SDK

    /// A ``ChallengePresenter`` that shows each challenge screen in SwiftUI: put ``ChallengeView`` (or, from UIKit,
    /// `ChallengeHostingController`) on screen with this presenter's ``model``, then run the challenge with it. It is
    /// also the processing indicator (pass it to `Transaction.getProgressView(indicator:clock:)`).
    public final class SwiftUIChallengePresenter: ChallengePresenter, ProgressIndicator {
        /// What the views draw.
        public let model: ChallengeViewModel
        /// Opens the bank's app from out-of-band screens (the system's universal links).
        public let oobAppOpener: (any OOBAppOpener)?
        /// The presenter's own look, texts and pinned appearance, applied by the SDK to what `initialize` got.
        public let presentationOverrides: PresentationOverrides

        /// Creates a presenter that opens the bank's app with the system's universal links (``SystemOOBAppOpener``).
        /// Unavailable in app extensions, as that opener is: an extension passes its own opener, or `nil`, to
        /// ``init(customization:strings:appearance:oobAppOpener:)``.
        ///
        /// - Parameters:
        ///   - customization: A look for this presenter only; `nil` (the default) draws what `initialize` got, for
        ///     the appearance in use.
        ///   - strings: Texts for this presenter only; `nil` uses those of the locale `initialize` got.
        ///   - appearance: An appearance to pin; `nil` (the default) follows the system's colour scheme.
        @available(iOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        @available(macOSApplicationExtension, unavailable)
        @MainActor
        public convenience init(
            customization: UiCustomization? = nil, strings: SDKStrings? = nil, appearance: ImageAppearance? = nil
        ) {
            self.init(
                customization: customization, strings: strings, appearance: appearance,
                oobAppOpener: SystemOOBAppOpener())
        }

        /// Creates a presenter with the app's own way of opening the bank's app (required in app extensions).
        ///
        /// - Parameters:
        ///   - customization: A look for this presenter only; `nil` (the default) draws what `initialize` got, for
        ///     the appearance in use.
        ///   - strings: Texts for this presenter only; `nil` uses those of the locale `initialize` got.
        ///   - appearance: An appearance to pin; `nil` (the default) follows the system's colour scheme.
        ///   - oobAppOpener: How the bank's app is opened; `nil` when the app forbids it.
        @MainActor
        public init(
            customization: UiCustomization? = nil, strings: SDKStrings? = nil, appearance: ImageAppearance? = nil,
            oobAppOpener: (any OOBAppOpener)?
        ) {
            self.oobAppOpener = oobAppOpener
            presentationOverrides = PresentationOverrides(
                customization: customization, strings: strings, appearance: appearance)
            model = ChallengeViewModel(
                customization: customization, strings: strings, appearance: appearance, opener: oobAppOpener)
        }

        /// Shows a screen's form state, as the SDK built it with what `initialize` got and this presenter's
        /// overrides, and returns the cardholder's answer.
        public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
            await model.present(form)
        }

        /// Dismisses the challenge UI on every outcome.
        public func dismiss(outcome: ChallengeOutcome) async {
            await model.finish(outcome)
        }

        /// Shows the processing indicator in the app's language and progress colours (the SDK calls it on the main
        /// actor).
        @MainActor
        public func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
            model.showProcessing(scheme, presentation: presentation)
        }

        /// Hides the processing indicator (the SDK calls it on the main actor).
        @MainActor
        public func hide() {
            model.hideProcessing()
        }
    }
#endif
