@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// Where a session's web client runs, as the merchant's backend says when it creates the session (`host`,
/// docs/split-sdk.md): it decides whether the bank's app can be opened from a challenge.
enum ClientHost: String, Sendable, CaseIterable {
    /// A browser (the Browser variant): no app can be opened; the CReqs say `oobAppURLInd` `02`.
    case browser
    /// An app's web view (the Shell variant): the app that hosts it opens the bank's app when the client asks; the
    /// CReqs say `oobAppURLInd` `01`.
    case shell

    /// Whether the host opens the bank's app.
    var opensApps: Bool { self == .shell }
}

/// What the client answers a screen with (`answer`'s `action`, docs/split-sdk.md): never a value, which stays in the
/// client; the last four only from a host that opens apps.
enum ClientAction: String, Sendable, CaseIterable {
    /// The screen's submit button (entries, choices, an HTML page's data filled by the client).
    case submit
    /// Submit with the entry left empty (`challengeNoEntry`).
    case submitEmpty
    /// Ask for a new code.
    case resend
    /// Cancel the challenge.
    case cancel
    /// Continue (out of band, information).
    case `continue`
    /// The additional-code button (2.3.1).
    case additionalCode
    /// Open the bank's app (Shell).
    case openApp
    /// The cardholder came back from the bank's app (Shell).
    case appReturned
    /// The bank's app opened; the cardholder has not come back yet (Shell).
    case appOpened
    /// The bank's app could not be opened (Shell).
    case appOpenFailed

    /// What became of opening the bank's app, for the last three.
    var appResult: OOBAppOpenResult? {
        switch self {
        case .appReturned: .returned
        case .appOpened: .opened
        case .appOpenFailed: .failed
        default: nil
        }
    }
}
