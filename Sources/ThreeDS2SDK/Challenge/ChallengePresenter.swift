public import ThreeDS2Messages

/// Where challenge screens are shown: a terminal renderer, a native UI, or a script. The SDK hands over each
/// validated screen as a ready ``ChallengeFormState`` — laid out with the app's customization for the appearance in
/// use and the SDK's texts for its locale — and waits for the cardholder's answer. A presenter only draws the form
/// state and maps the cardholder's input to ``FormAction``s (``ChallengeFormState/perform(_:)``).
///
/// A `@MainActor` type conforms as written: ``present(_:)`` and ``dismiss(outcome:)`` are `async`, so main-actor
/// methods satisfy them, and ``oobAppOpener`` is read with `await`.
public protocol ChallengePresenter: Sendable {
    /// Shows a screen and returns the cardholder's answer.
    ///
    /// - Parameter form: The screen's form state, built by the SDK from the transaction's presentation
    ///   (``PresentationSettings/formState(for:)``) with ``presentationOverrides`` applied.
    /// - Returns: The answer.
    func present(_ form: ChallengeFormState) async -> ChallengeAnswer

    /// Called once when the challenge ends, whatever the outcome, so the presenter can close its UI.
    func dismiss(outcome: ChallengeOutcome) async

    /// How the presenter opens the bank's app, or `nil` when it cannot (then 2.3.1 CReqs say `oobAppURLInd` `02`).
    /// Read with `await`, so a main-actor property satisfies it.
    var oobAppOpener: (any OOBAppOpener)? { get async }

    /// What this presenter changes over what `initialize` got (its own look or texts, a pinned appearance, an HTML
    /// reader), applied once by the SDK to the transaction's presentation before the processing indicator and the
    /// first screen: by default none.
    var presentationOverrides: PresentationOverrides { get }

    /// What the presenter draws, sent in the AReq's `deviceRenderOptions`
    /// (``Transaction/authenticationRequest(presenter:challengeTimeout:requestorAppURL:)``): by default both
    /// interfaces and every UI type of the version.
    ///
    /// - Parameter version: The transaction's message version.
    /// - Returns: The options.
    func renderOptions(for version: MessageVersion) -> DeviceRenderOptions
}

extension ChallengePresenter {
    /// No opener by default.
    public var oobAppOpener: (any OOBAppOpener)? { nil }

    /// Does nothing by default.
    public func dismiss(outcome: ChallengeOutcome) async {}

    /// No override by default: the screens are drawn with what `initialize` got.
    public var presentationOverrides: PresentationOverrides { .none }

    /// Both interfaces and every UI type of the version.
    public func renderOptions(for version: MessageVersion) -> DeviceRenderOptions { .all(for: version) }
}
