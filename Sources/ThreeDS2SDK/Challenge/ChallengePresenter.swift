public import ThreeDS2Messages

/// Where challenge screens are shown: a terminal renderer, a native UI, or a script. The SDK hands over each
/// validated screen and waits for the cardholder's answer.
public protocol ChallengePresenter: Sendable {
    /// Shows a screen and returns the cardholder's answer.
    ///
    /// - Parameter screen: The screen.
    /// - Returns: The answer.
    func present(_ screen: ChallengeScreen) async -> ChallengeAnswer

    /// Called once when the challenge ends, whatever the outcome, so the presenter can close its UI.
    func dismiss(outcome: ChallengeOutcome) async

    /// How the presenter opens the bank's app, or `nil` when it cannot (then 2.3.1 CReqs say `oobAppURLInd` `02`).
    var oobAppOpener: (any OOBAppOpener)? { get }
}

extension ChallengePresenter {
    /// No opener by default.
    public var oobAppOpener: (any OOBAppOpener)? { nil }

    /// Does nothing by default.
    public func dismiss(outcome: ChallengeOutcome) async {}
}
