public import Foundation
import ThreeDS2JOSE

/// What an app's web view decides when it hosts the Split-SDK's web client (the Shell variant, docs/split-sdk.md,
/// "Web-view hosts"): which loads it lets through, what the merchant's page tells it, and what it tells the page
/// back. A platform web view (WebKit's `WKWebView`, Android's `WebView`) calls these functions and does nothing else,
/// so every decision runs in the SDK's tests on any platform.
///
/// The web view loads the merchant's host page, which opens the challenge frame with `merchant.js` (`appHost: true`):
/// the page posts each frame event to the app as JSON text, and the app answers an `openApp` event through
/// ``appResultScript(_:)``.
public struct SplitShellHost: Sendable, Hashable {
    /// The name of WebKit's script message handler the page posts to: `window.webkit.messageHandlers.threedsHost`.
    public static let messageHandlerName = "threedsHost"
    /// The name of Android's JavaScript interface the page posts to: `window.ThreeDSHost.postMessage(text)`.
    public static let androidInterfaceName = "ThreeDSHost"

    /// The merchant's page the web view loads.
    public let pageURL: URL
    /// The Split-SDK Server (the challenge frame's origin).
    public let serverURL: URL

    /// A host for one page and one Split-SDK Server.
    ///
    /// - Parameters:
    ///   - pageURL: The merchant's host page: https (plain http on a loopback address only, for tests).
    ///   - serverURL: The Split-SDK Server's address, under the same rule.
    /// - Throws: ``ThreeDS2Error`` with the code `invalidInput` for any other address.
    public init(pageURL: URL, serverURL: URL) throws(ThreeDS2Error) {
        for (name, url) in [("pageURL", pageURL), ("serverURL", serverURL)] where Self.origin(of: url) == nil {
            throw ThreeDS2Error(
                .invalidInput, "\(name) must be an https address (plain http only on a loopback address)")
        }
        self.pageURL = pageURL
        self.serverURL = serverURL
    }

    /// What to do with one load in the web view.
    public enum Navigation: Sendable, Hashable {
        /// Let it load.
        case allow
        /// Cancel it.
        case refuse
    }

    /// Decides one load: the top document may only be a page of the host page's origin; a frame may be of that origin
    /// or the Split-SDK Server's (the challenge frame, and the HTML pages it loads from its own origin), or the
    /// `about:blank` / `about:srcdoc` documents a frame starts with.
    /// Everything else (another site, a download, a scheme that opens another app) is refused: the bank's app is
    /// opened by ``Message/openApp(_:)`` only.
    ///
    /// - Parameters:
    ///   - url: The address to load (`nil` when the platform gives none).
    ///   - isMainFrame: Whether it replaces the top document.
    /// - Returns: The decision.
    public func decide(url: URL?, isMainFrame: Bool) -> Navigation {
        guard let url else { return .refuse }
        if !isMainFrame, url.scheme?.lowercased() == "about",
            ["srcdoc", "blank"].contains(url.absoluteString.lowercased().dropFirst("about:".count))
        {
            return .allow
        }
        guard let origin = Self.origin(of: url) else { return .refuse }
        if origin == Self.origin(of: pageURL) { return .allow }
        return !isMainFrame && origin == Self.origin(of: serverURL) ? .allow : .refuse
    }

    /// What the page told the app.
    public enum Message: Sendable, Hashable {
        /// The frame is ready or started: nothing to do.
        case progress(String)
        /// The frame shows a challenge screen.
        case challengeShown
        /// Open the bank's app at this https link, then answer with ``appResultScript(_:)``.
        case openApp(URL)
        /// The challenge ended (informational: the merchant's backend has the result from the results leg): the
        /// outcome's kind (`completed`, `cancelled`, `timedOut`, `protocolError`, `runtimeError`) and `transStatus`.
        case finished(kind: String, transStatus: String?)
        /// The frame could not go on, with its reason.
        case failed(String)
    }

    /// The longest message read, in bytes.
    public static let maxMessageBytes = 4_096

    /// Reads a message the page posted (the frame event as JSON text). A message that is not one of the frame's
    /// events, or an `openApp` without an https link, is `nil` and is ignored.
    ///
    /// - Parameter text: What the page posted.
    /// - Returns: The message, or `nil`.
    public static func message(fromJSON text: String) -> Message? {
        guard text.utf8.count <= maxMessageBytes,
            case .object(let event)? = try? JSONParser(limits: .init(maxBytes: maxMessageBytes, maxDepth: 4)).parse(
                Array(text.utf8)),
            let name = event["event"]?.stringValue
        else { return nil }
        switch name {
        case "ready", "started": return .progress(name)
        case "challengeShown": return .challengeShown
        case "openApp":
            guard let link = event["url"]?.stringValue, let url = URL(string: link),
                url.scheme?.lowercased() == "https",
                url.host?.isEmpty == false
            else { return nil }
            return .openApp(url)
        case "finished":
            guard case .object(let outcome)? = event["outcome"], let kind = outcome["kind"]?.stringValue else {
                return nil
            }
            return .finished(kind: kind, transStatus: outcome["transStatus"]?.stringValue)
        case "failed": return .failed(String((event["reason"]?.stringValue ?? "").prefix(200)))
        default: return nil
        }
    }

    /// The script that tells the page what became of opening the bank's app: it calls the page's
    /// `window.threedsHost.appResult` with `returned`, `opened` or `failed` (a constant the SDK writes, never text
    /// from the page).
    ///
    /// - Parameter result: What became of it.
    /// - Returns: The script, for the web view's page world.
    public static func appResultScript(_ result: OOBAppOpenResult) -> String {
        let name =
            switch result {
            case .returned: "returned"
            case .opened: "opened"
            case .failed: "failed"
            }
        return "window.threedsHost && window.threedsHost.appResult('\(name)')"
    }

    /// The scheme, host and port of an https address (or plain http on loopback), `nil` for any other.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
            url.user == nil, url.password == nil
        else { return nil }
        guard scheme == "https" || (scheme == "http" && url.hasLoopbackHost) else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// The bank's app as the host sees it: opened on the page's request, then the cardholder's return. A system opener
    /// (``OOBAppOpener``) says whether the app opened; the return is the app coming back from the background, as the
    /// Default-SDK's screens see it (``ChallengeScreenModel/appPhaseChanged(_:)``).
    public struct AppSwitch: Sendable, Hashable {
        /// Whether the bank's app was opened and the cardholder has not come back yet.
        public private(set) var awaitingReturn = false
        private var leftForBackground = false

        /// A switch with nothing opened.
        public init() {}

        /// What the opener reported: `returned` and `failed` are told to the page at once; `opened` waits for the
        /// cardholder's return (``phaseChanged(_:)``).
        ///
        /// - Parameter result: What the opener reported.
        /// - Returns: What to tell the page now, or `nil` to wait.
        public mutating func opened(_ result: OOBAppOpenResult) -> OOBAppOpenResult? {
            switch result {
            case .opened:
                awaitingReturn = true
                leftForBackground = false
                return nil
            case .returned, .failed:
                awaitingReturn = false
                return result
            }
        }

        /// The app's lifecycle: back in front after the background, with the bank's app opened, is the return. A
        /// system sheet over the app (inactive, never background) is not.
        ///
        /// - Parameter phase: The app's new phase.
        /// - Returns: ``OOBAppOpenResult/returned`` when the cardholder came back, else `nil`.
        public mutating func phaseChanged(_ phase: ChallengeScreenModel.AppPhase) -> OOBAppOpenResult? {
            guard awaitingReturn else { return nil }
            switch phase {
            case .background:
                leftForBackground = true
                return nil
            case .inactive:
                return nil
            case .active:
                guard leftForBackground else { return nil }
                awaitingReturn = false
                leftForBackground = false
                return .returned
            }
        }
    }
}
