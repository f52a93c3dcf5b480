/// What draws the processing indicator (a terminal line, a native spinner).
///
/// Both requirements are main-actor isolated: the SDK always calls them on the main actor, so a `@MainActor` view
/// model conforms as written, and a nonisolated type (a terminal line) conforms with plain methods.
public protocol ProgressIndicator: Sendable {
    /// Shows the indicator, before the first network call, drawn with the transaction's presentation: the app's
    /// texts (``SDKStrings/Key/processing``) and colours (``PresentationSettings/style``'s `progress`).
    ///
    /// - Parameters:
    ///   - scheme: The transaction's payment system (its directory server ID, name and the app's logo for it), so the
    ///     indicator can show the scheme's mark; `nil` when the dialog was made without one.
    ///   - presentation: The transaction's presentation, with the presenter's overrides applied.
    @MainActor func show(scheme: ProcessingScheme?, presentation: PresentationSettings)
    /// Hides it.
    @MainActor func hide()
}

/// The processing indicator (EMVCo `ProgressDialog`): once shown, it stays at least ``minimumVisible`` so it
/// never flickers. The clock is injected so tests need not wait.
public final class ProgressDialog<C: Clock>: Sendable where C.Duration == Duration {
    /// The least time the indicator stays visible once shown.
    public static var minimumVisible: Duration { .seconds(2) }

    private let indicator: any ProgressIndicator
    private let clock: C
    private let scheme: ProcessingScheme?
    private let presentation: PresentationSettings
    private let shownAt = Locked<C.Instant?>(nil)

    /// Creates a dialog.
    ///
    /// - Parameters:
    ///   - indicator: What draws it.
    ///   - clock: The clock.
    ///   - scheme: The payment system to show (``Transaction/getProgressView(indicator:clock:)`` passes the
    ///     transaction's).
    ///   - presentation: What the indicator is drawn with (the transaction's, with the presenter's overrides).
    public init(
        indicator: any ProgressIndicator, clock: C, scheme: ProcessingScheme?,
        presentation: PresentationSettings = PresentationSettings()
    ) {
        self.indicator = indicator
        self.clock = clock
        self.scheme = scheme
        self.presentation = presentation
    }

    /// Shows the indicator (on the main actor).
    public func start() async {
        let first = shownAt.withLock { shown -> Bool in
            guard shown == nil else { return false }
            shown = clock.now
            return true
        }
        if first { await indicator.show(scheme: scheme, presentation: presentation) }
    }

    /// Hides the indicator (on the main actor) once it has been visible for at least ``minimumVisible``, or at once
    /// when `keepingMinimum` is `false` (nothing follows it, as after a frictionless answer: no screen to flicker into).
    ///
    /// - Parameter keepingMinimum: Whether to keep it visible for ``minimumVisible`` first.
    public func stop(keepingMinimum: Bool = true) async {
        guard let shown = shownAt.withLock({ $0 }) else { return }
        // Sleep to an absolute deadline: the time between reading the clock and sleeping can't stretch the wait.
        let deadline = shown.advanced(by: Self.minimumVisible)
        if keepingMinimum, clock.now < deadline { try? await clock.sleep(until: deadline, tolerance: nil) }
        shownAt.withLock { $0 = nil }
        await indicator.hide()
    }
}

extension Transaction {
    /// The processing indicator for this transaction (EMVCo `getProgressView`), showing the payment system
    /// (``ProcessingScheme``: the directory server's ID, display name and configured logo), drawn with the transaction's presentation (and the overrides of the indicator, when it is also
    /// the challenge presenter).
    ///
    /// - Parameters:
    ///   - indicator: What draws it.
    ///   - clock: The clock its minimum display time runs on.
    /// - Returns: The dialog.
    public func getProgressView<C: Clock>(indicator: any ProgressIndicator, clock: C) -> ProgressDialog<C>
    where C.Duration == Duration {
        let overrides = (indicator as? any ChallengePresenter)?.presentationOverrides ?? .none
        return ProgressDialog(
            indicator: indicator, clock: clock, scheme: processingScheme,
            presentation: presentationSettings.applying(overrides))
    }

    /// The SDK's strings for the locale the service was initialised with, with the app's own texts
    /// (``ConfigParameters/textsGroup``) over them.
    public var strings: SDKStrings { presentationSettings.strings }

    /// The customization for an appearance, falling back to the default one.
    public func uiCustomization(for type: UiCustomizationType) -> UiCustomization {
        presentationSettings.uiCustomizations[type] ?? UiCustomization()
    }
}
