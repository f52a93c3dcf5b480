/// What draws the processing indicator (a terminal line, a native spinner).
///
/// Both requirements are main-actor isolated: the SDK always calls them on the main actor, so a `@MainActor` view
/// model conforms as written, and a nonisolated type (a terminal line) conforms with plain methods.
public protocol ProgressIndicator: Sendable {
    /// Shows the indicator, with the directory server's name while the app talks to the 3DS Server.
    @MainActor func show(directoryServerName: String?)
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
    private let directoryServerName: String?
    private let shownAt = Locked<C.Instant?>(nil)

    /// Creates a dialog.
    ///
    /// - Parameters:
    ///   - indicator: What draws it.
    ///   - clock: The clock.
    ///   - directoryServerName: The DS name to show (only while talking to the 3DS Server, not during CReq/CRes).
    public init(indicator: any ProgressIndicator, clock: C, directoryServerName: String?) {
        self.indicator = indicator
        self.clock = clock
        self.directoryServerName = directoryServerName
    }

    /// Shows the indicator (on the main actor).
    public func start() async {
        let first = shownAt.withLock { shown -> Bool in
            guard shown == nil else { return false }
            shown = clock.now
            return true
        }
        if first { await indicator.show(directoryServerName: directoryServerName) }
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
    /// The processing indicator for this transaction (EMVCo `getProgressView`), showing the directory server's
    /// display name.
    ///
    /// - Parameters:
    ///   - indicator: What draws it.
    ///   - clock: The clock its minimum display time runs on.
    /// - Returns: The dialog.
    public func getProgressView<C: Clock>(indicator: any ProgressIndicator, clock: C) -> ProgressDialog<C>
    where C.Duration == Duration {
        ProgressDialog(
            indicator: indicator, clock: clock,
            directoryServerName: directoryServer.displayName ?? directoryServer.id.rawValue)
    }

    /// What `initialize` got for the challenge screens (the customization per appearance and the strings for the
    /// locale); the SDK hands it to the presenter with every screen.
    public var presentationSettings: PresentationSettings {
        PresentationSettings(uiCustomizations: context.uiCustomizations, strings: strings)
    }

    /// The SDK's strings for the locale the service was initialised with, with the app's own texts
    /// (``ConfigParameters/textsGroup``) over them.
    public var strings: SDKStrings {
        SDKStrings(locale: context.locale, overrides: context.configuration.texts)
    }

    /// The customization for an appearance, falling back to the default one.
    public func uiCustomization(for type: UiCustomizationType) -> UiCustomization {
        context.uiCustomizations[type] ?? context.uiCustomizations[.default] ?? UiCustomization()
    }
}
