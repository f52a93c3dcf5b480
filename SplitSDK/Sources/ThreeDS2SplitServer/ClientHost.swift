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
