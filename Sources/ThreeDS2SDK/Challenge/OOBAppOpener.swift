public import Foundation

/// What became of an attempt to open the bank's app (`oobAppURL`).
public enum OOBAppOpenResult: Sendable, Hashable {
    /// The app opened and the cardholder came back to this app: the SDK continues on its own (`oobContinue` `02`).
    case returned
    /// The app opened (or the link was handed on); the cardholder will come back and press continue.
    case opened
    /// The app could not be opened: the screen stays and the next CReq says so (`oobAppStatus` `01`).
    case failed
}

/// Opens the bank's out-of-band app from a challenge screen: the seam between the SDK and the platform. Apple
/// presenters open the universal link through the system and report ``OOBAppOpenResult/returned`` when the app comes
/// back to the foreground; the CLI prints the link or runs a command. The SDK hands over only https links that came
/// in a validated CRes.
public protocol OOBAppOpener: Sendable {
    /// Opens the link and reports what happened.
    ///
    /// - Parameter url: The https universal or app link from `oobAppURL`.
    /// - Returns: Whether the cardholder came back, the app merely opened, or opening failed.
    func open(_ url: URL) async -> OOBAppOpenResult
}
