// Stand-in: the WebKit declarations the SDK's web view uses. Not Apple's code.
public import Foundation
public import UIKit

#if canImport(FoundationNetworking)
    // Linux keeps URLRequest in FoundationNetworking; on Apple platforms Foundation has it, as the real file expects.
    @_exported public import FoundationNetworking
#endif

/// Read: developer.apple.com/documentation/webkit/wkwebpagepreferences (iOS 13); `@MainActor` (unverified).
@MainActor
open class WKWebpagePreferences: NSObject {
    /// Read: …/wkwebpagepreferences/allowscontentjavascript (iOS 14, macOS 11).
    @available(iOS 14.0, macOS 11.0, *)
    open var allowsContentJavaScript = true
}

/// Read: developer.apple.com/documentation/webkit/wkwebsitedatastore (iOS 9); `@MainActor` (unverified).
@MainActor
open class WKWebsiteDataStore: NSObject {
    /// Read: …/wkwebsitedatastore/nonpersistent() (iOS 9).
    open class func nonPersistent() -> WKWebsiteDataStore { WKWebsiteDataStore() }
}

/// Read: developer.apple.com/documentation/webkit/wkwebviewconfiguration (iOS 8); `@MainActor` in the Swift 6 SDKs
/// (unverified).
@MainActor
open class WKWebViewConfiguration: NSObject {
    /// Read: …/defaultwebpagepreferences (iOS 13).
    @available(iOS 13.0, macOS 10.15, *)
    open var defaultWebpagePreferences = WKWebpagePreferences()
    /// Read: …/websitedatastore (iOS 9).
    open var websiteDataStore = WKWebsiteDataStore()
}

/// Read: developer.apple.com/documentation/webkit/wknavigationtype (iOS 8).
public enum WKNavigationType: Int, Sendable {
    /// A link.
    case linkActivated
    /// A form submission.
    case formSubmitted
    /// Back or forward.
    case backForward
    /// A reload.
    case reload
    /// A form submitted again.
    case formResubmitted
    /// Anything else, such as the app's own load.
    case other = -1
}

/// Read: developer.apple.com/documentation/webkit/wknavigationactionpolicy (iOS 8).
public enum WKNavigationActionPolicy: Int, Sendable {
    /// Cancel the navigation.
    case cancel
    /// Let it load.
    case allow
    /// Download the target.
    case download
}

/// Read: developer.apple.com/documentation/webkit/wknavigationaction (iOS 8); `@MainActor` (unverified).
@MainActor
open class WKNavigationAction: NSObject {
    /// The request; WebKit leaves a POST's `httpBody` empty here.
    open var request: URLRequest { URLRequest(url: URL(fileURLWithPath: "/")) }
    /// The navigation's type.
    open var navigationType: WKNavigationType { .other }
}

/// Read: developer.apple.com/documentation/webkit/wknavigation (iOS 8).
@MainActor
open class WKNavigation: NSObject {}

/// Read: developer.apple.com/documentation/webkit/wknavigationdelegate (iOS 8); `@MainActor` (unverified). Its
/// methods are optional in Objective-C; here each has a default.
@MainActor
public protocol WKNavigationDelegate: NSObjectProtocol {
    /// Read: …/webview(_:decidepolicyfor:decisionhandler:), async form (iOS 13 SDK and later).
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
}

extension WKNavigationDelegate {
    /// Allows, as WebKit does for a delegate without the method.
    public func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
    { .allow }
}

/// Read: developer.apple.com/documentation/webkit/wkwebview (iOS 8); `@MainActor`.
@MainActor
open class WKWebView: UIView {
    /// Read: …/init(frame:configuration:) (iOS 8).
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { super.init(frame: frame) }
    /// Read: …/allowslinkpreview (iOS 9).
    open var allowsLinkPreview = true
    /// Read: …/navigationdelegate (weak).
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    /// Read: …/loadhtmlstring(_:baseurl:) (iOS 8).
    @discardableResult
    open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? { nil }
    /// Read: …/callasyncjavascript(_:arguments:in:in:completionhandler:) (iOS 14), in its async form (unverified:
    /// the exact async spelling and the defaults of `arguments` and `in`).
    open func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo? = nil,
        contentWorld: WKContentWorld
    ) async throws -> Any? { nil }
}

/// Read: developer.apple.com/documentation/webkit/wkframeinfo (iOS 8); `@MainActor`.
@MainActor
open class WKFrameInfo: NSObject {}

/// Read: developer.apple.com/documentation/webkit/wkcontentworld (iOS 14); `@MainActor`.
@MainActor
open class WKContentWorld: NSObject {
    /// Read: …/wkcontentworld/defaultclient (a class property).
    open class var defaultClient: WKContentWorld { WKContentWorld() }
}
