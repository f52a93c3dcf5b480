// Stand-in: the WebKit declarations the SDK's web view uses. Not Apple's code. WebKit is Objective-C: its
// `NS_SWIFT_UI_ACTOR` classes import as `@MainActor` with `@preconcurrency` semantics, spelled out here.
public import Foundation

#if canImport(UIKit)
    public import UIKit
    /// What `WKWebView` subclasses: `UIView` on iOS.
    public typealias WKPlatformView = UIView
#else
    public import AppKit
    /// What `WKWebView` subclasses: `NSView` on macOS.
    public typealias WKPlatformView = NSView
#endif

#if canImport(FoundationNetworking)
    // Linux keeps URLRequest in FoundationNetworking; on Apple platforms Foundation has it, as the real file expects.
    @_exported public import FoundationNetworking
#endif

/// Read: developer.apple.com/documentation/webkit/wkwebpagepreferences (iOS 13); `@MainActor` (unverified).
@MainActor @preconcurrency
open class WKWebpagePreferences: NSObject {
    /// Read: …/wkwebpagepreferences/allowscontentjavascript (iOS 14, macOS 11).
    @available(iOS 14.0, macOS 11.0, *)
    open var allowsContentJavaScript = true
}

/// Read: developer.apple.com/documentation/webkit/wkwebsitedatastore (iOS 9); `@MainActor` (unverified).
@MainActor @preconcurrency
open class WKWebsiteDataStore: NSObject {
    /// Read: …/wkwebsitedatastore/nonpersistent() (iOS 9).
    open class func nonPersistent() -> WKWebsiteDataStore { WKWebsiteDataStore() }
}

/// Read: developer.apple.com/documentation/webkit/wkwebviewconfiguration (iOS 8); `@MainActor` in the Swift 6 SDKs
/// (unverified).
@MainActor @preconcurrency
open class WKWebViewConfiguration: NSObject {
    /// Read: …/defaultwebpagepreferences (iOS 13).
    @available(iOS 13.0, macOS 10.15, *)
    open var defaultWebpagePreferences = WKWebpagePreferences()
    /// Read: …/websitedatastore (iOS 9).
    open var websiteDataStore = WKWebsiteDataStore()
    /// Read: …/usercontentcontroller (iOS 8).
    open var userContentController = WKUserContentController()
}

/// Read: developer.apple.com/documentation/webkit/wkusercontentcontroller (iOS 8); `@MainActor` (unverified).
@MainActor @preconcurrency
open class WKUserContentController: NSObject {
    /// Read: …/add(_:name:) (iOS 8): the handler is kept (strongly) until removed.
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {}
    /// Read: …/removescriptmessagehandler(forname:) (iOS 8).
    open func removeScriptMessageHandler(forName name: String) {}
}

/// Read: developer.apple.com/documentation/webkit/wkscriptmessage (iOS 8); `@MainActor` (unverified).
@MainActor @preconcurrency
open class WKScriptMessage: NSObject {
    /// Read: …/body: an NSNumber, NSString, NSDate, NSArray, NSDictionary or NSNull.
    open var body: Any { "" }
    /// Read: …/frameinfo (iOS 9).
    open var frameInfo: WKFrameInfo { WKFrameInfo() }
    /// Read: …/name.
    open var name: String { "" }
}

/// Read: developer.apple.com/documentation/webkit/wkscriptmessagehandler (iOS 8); `WKScriptMessageHandler.h`:
/// `NS_SWIFT_UI_ACTOR`, its one method required.
@MainActor @preconcurrency
public protocol WKScriptMessageHandler: NSObjectProtocol {
    /// Read: …/usercontentcontroller(_:didreceive:).
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
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
@MainActor @preconcurrency
open class WKNavigationAction: NSObject {
    /// The request; WebKit leaves a POST's `httpBody` empty here.
    open var request: URLRequest { URLRequest(url: URL(fileURLWithPath: "/")) }
    /// The navigation's type.
    open var navigationType: WKNavigationType { .other }
    /// Read: …/targetframe: `nil` for a new window.
    open var targetFrame: WKFrameInfo? { nil }
}

/// Read: developer.apple.com/documentation/webkit/wknavigation (iOS 8).
@MainActor @preconcurrency
open class WKNavigation: NSObject {}

/// Read: developer.apple.com/documentation/webkit/wknavigationdelegate (iOS 8); `WKNavigationDelegate.h`:
/// `NS_SWIFT_UI_ACTOR`. Its methods are optional in Objective-C, so on Apple a method whose signature drifted from
/// the requirement compiles and is silently never called (at best a "nearly matches" warning). Here the one method the
/// SDK implements is required, without a default: a drifted signature fails this type-check instead.
@MainActor @preconcurrency
public protocol WKNavigationDelegate: NSObjectProtocol {
    /// Read: …/webview(_:decidepolicyfor:decisionhandler:), in its async form (the Swift import of the
    /// completion-handler method).
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
        -> WKNavigationActionPolicy
}

/// Read: developer.apple.com/documentation/webkit/wkwebview (iOS 8); `@MainActor`.
@MainActor @preconcurrency
open class WKWebView: WKPlatformView {
    /// Read: …/init(frame:configuration:) (iOS 8).
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { super.init(frame: frame) }
    /// Read: …/allowslinkpreview (iOS 9).
    open var allowsLinkPreview = true
    /// Read: …/navigationdelegate (weak).
    open weak var navigationDelegate: (any WKNavigationDelegate)?
    /// Read: …/configuration: a copy of the configuration; its user content controller is the view's.
    open var configuration: WKWebViewConfiguration { WKWebViewConfiguration() }
    /// Read: …/load(_:) (iOS 8).
    @discardableResult
    open func load(_ request: URLRequest) -> WKNavigation? { nil }
    /// Read: …/loadhtmlstring(_:baseurl:) (iOS 8).
    @discardableResult
    open func loadHTMLString(_ string: String, baseURL: URL?) -> WKNavigation? { nil }
    /// Read: …/callasyncjavascript(_:arguments:in:contentworld:) — the async form, iOS 15 and macOS 12 (the
    /// completion-handler form is iOS 14); unverified: the defaults of `arguments` and `in`.
    @available(iOS 15.0, macOS 12.0, *)
    open func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo? = nil,
        contentWorld: WKContentWorld
    ) async throws -> Any? { nil }
}

/// Read: developer.apple.com/documentation/webkit/wkframeinfo (iOS 8); `@MainActor`.
@MainActor @preconcurrency
open class WKFrameInfo: NSObject {
    /// Read: …/ismainframe (iOS 8).
    open var isMainFrame: Bool { true }
}

/// Read: developer.apple.com/documentation/webkit/wkcontentworld (iOS 14); `@MainActor`.
@MainActor @preconcurrency
open class WKContentWorld: NSObject {
    /// Read: …/wkcontentworld/defaultclient (a class property).
    open class var defaultClient: WKContentWorld { WKContentWorld() }
    /// Read: …/wkcontentworld/page: the page's own scripts' world.
    open class var page: WKContentWorld { WKContentWorld() }
}
