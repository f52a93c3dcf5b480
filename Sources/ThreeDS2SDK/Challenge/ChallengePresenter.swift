public import ThreeDS2Messages

/// Where challenge screens are shown: a terminal renderer, a native UI, or a script. The SDK hands over each
/// validated screen and waits for the cardholder's answer.
///
/// A `@MainActor` type conforms as written: ``present(_:)`` and ``dismiss(outcome:)`` are `async`, so main-actor
/// methods satisfy them, and ``oobAppOpener`` is read with `await`.
public protocol ChallengePresenter: Sendable {
    /// Shows a screen and returns the cardholder's answer.
    ///
    /// - Parameter screen: The screen.
    /// - Returns: The answer.
    func present(_ screen: ChallengeScreen) async -> ChallengeAnswer

    /// Shows a screen with what `initialize` got (the customization per appearance, the strings for the locale) and
    /// returns the cardholder's answer: the SDK calls this one. By default it calls ``present(_:)``; a presenter
    /// that draws the app's customization builds its form state with
    /// ``PresentationSettings/formState(for:appearance:density:htmlReader:)``.
    ///
    /// - Parameters:
    ///   - screen: The screen.
    ///   - settings: The presentation settings from `initialize`.
    /// - Returns: The answer.
    func present(_ screen: ChallengeScreen, settings: PresentationSettings) async -> ChallengeAnswer

    /// Called once when the challenge ends, whatever the outcome, so the presenter can close its UI.
    func dismiss(outcome: ChallengeOutcome) async

    /// How the presenter opens the bank's app, or `nil` when it cannot (then 2.3.1 CReqs say `oobAppURLInd` `02`).
    /// Read with `await`, so a main-actor property satisfies it.
    var oobAppOpener: (any OOBAppOpener)? { get async }

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

    /// Calls ``present(_:)``: the settings are not used.
    public func present(_ screen: ChallengeScreen, settings: PresentationSettings) async -> ChallengeAnswer {
        await present(screen)
    }

    /// Both interfaces and every UI type of the version.
    public func renderOptions(for version: MessageVersion) -> DeviceRenderOptions { .all(for: version) }
}
