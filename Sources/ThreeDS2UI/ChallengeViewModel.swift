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
        /// The look, the texts and the appearance in use.
        public let customization: UiCustomization
        /// The SDK's texts in the app's language.
        public let strings: SDKStrings
        /// The appearance in use (2.3.1 images).
        public let appearance: ImageAppearance
        /// Called once the challenge ends, whatever the outcome.
        public var onFinish: ((ChallengeOutcome) -> Void)?

        private var pending: CheckedContinuation<ChallengeAnswer, Never>?
        private let opener: (any OOBAppOpener)?

        /// Creates a model.
        ///
        /// - Parameters:
        ///   - customization: The look for the appearance in use.
        ///   - strings: The SDK's texts.
        ///   - appearance: The appearance in use.
        ///   - opener: How the bank's app is opened.
        public init(
            customization: UiCustomization, strings: SDKStrings, appearance: ImageAppearance,
            opener: (any OOBAppOpener)?
        ) {
            self.customization = customization
            self.strings = strings
            self.appearance = appearance
            self.opener = opener
        }

        /// Shows a screen and waits for the cardholder's answer; a cancelled task answers with a cancel.
        func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
            pending?.resume(returning: ChallengeAnswer(.cancel))
            form = ChallengeFormState(
                screen: screen, customization: customization, strings: strings, appearance: appearance)
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
            let answer = current.apply(action)
            form = current
            if let answer {
                self.answer(answer)
            } else if current.appToOpen != nil {
                openApp()
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
