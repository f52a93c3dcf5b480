public import Foundation
import ThreeDS2JOSE

/// What a web view showing an HTML challenge (UI 05, 06) may do, as a pure function a platform web view's navigation
/// delegate calls: the page is loaded once from the SDK; a form submission or a link to the SDK's reserved URL
/// `https://emv3ds/challenge` becomes `challengeHTMLDataEntry`; `https://emv3ds/openoobApp` opens the bank's app
/// (2.3.1 UI 06, EMVCo FAQ Q38); every other navigation is refused. Scripts are off and the page may load nothing
/// but https images (``lockedDownDocument(_:)``).
public enum WebViewPolicy {
    /// What to do with one navigation.
    public enum Decision: Sendable, Hashable {
        /// Let it load: only the SDK's own load of the challenge page.
        case allow
        /// Cancel it and answer the screen with this `challengeHTMLDataEntry`.
        case submit(String)
        /// Cancel it and open the bank's app (the screen's `oobAppURL`).
        case openApp
        /// Cancel it: nothing else may load.
        case refuse
    }

    /// Decides one navigation.
    ///
    /// - Parameters:
    ///   - url: The URL the page navigates to (`nil` when the platform gives none).
    ///   - method: The HTTP method (`GET` for links, the form's method for submissions). A page loaded through
    ///     ``lockedDownDocument(_:)`` submits every form with GET.
    ///   - body: The request body of a POST submission (`application/x-www-form-urlencoded`); a POST without one is
    ///     refused, as WebKit gives none to a navigation delegate.
    ///   - isInitialLoad: Whether this is the SDK's own load of the challenge page (`loadHTMLString`, about:blank).
    /// - Returns: The decision.
    public static func decide(url: URL?, method: String = "GET", body: [UInt8]? = nil, isInitialLoad: Bool)
        -> Decision
    {
        guard let url else { return .refuse }
        if isInitialLoad, url.scheme?.lowercased() == "about" { return .allow }
        guard let components = HTMLForm.reservedURL(url.absoluteString) else { return .refuse }
        switch components.path.lowercased() {
        case "/challenge":
            // A POST carries the form data in its body; a GET (a link, or a form with method get) in the query.
            let data: String
            if method.uppercased() == "POST" {
                guard let body, let text = String(utf8Validating: body) else { return .refuse }
                data = text
            } else {
                data = components.percentEncodedQuery ?? ""
            }
            guard data.utf8.count <= ChallengeFormState.maxHTMLDataLength else { return .refuse }
            return .submit(data)
        case "/openoobapp":
            return .openApp
        default:
            return .refuse
        }
    }

    /// The page as the web view loads it: a Content-Security-Policy first in the document allows no script, no
    /// frame, no form target but the reserved URL, and no network at all: images only as `data:` URLs inside the page
    /// (the specification's HTML carries no external reference; an image fetched from any https host would tell
    /// that host who is paying when), styles only inline. Every form submits with GET in the same frame
    /// (``formsSubmittingWithGET(_:)``), so its data reaches ``decide(url:method:body:isInitialLoad:)`` as the query.
    ///
    /// - Parameter html: The decoded `acsHTML` (or `acsHTMLRefresh`).
    /// - Returns: The document to load.
    public static func lockedDownDocument(_ html: String) -> String {
        "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">"
            + formsSubmittingWithGET(html)
    }

    /// The page with every form submitting with GET in the same frame: `method="get" target="_self"` first in each
    /// `form` tag, `formmethod="get" formtarget="_self"` first in each `button` and `input` tag. HTML keeps the first
    /// of two attributes with the same name, so a page's `method="post"` (or a button's `formmethod="post"`) no
    /// longer applies; nothing else changes. WebKit gives a navigation delegate no body for a POST
    /// (`WKNavigationAction.request.httpBody` is empty there), so a POST form would reach the policy without its data;
    /// with GET its urlencoded data is the query of the reserved URL.
    ///
    /// - Parameter html: The decoded `acsHTML`.
    /// - Returns: The page with its forms rewritten.
    public static func formsSubmittingWithGET(_ html: String) -> String { HTMLFormMethodRewrite.rewrite(html) }

    /// The Content-Security-Policy of ``lockedDownDocument(_:)``.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action https://emv3ds; "
        + "frame-src 'none'; script-src 'none'"
}
