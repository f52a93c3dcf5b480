// Stand-in: the UIKit declarations the SDK's Apple-only sources use. Not Apple's code.
// UIKit re-exports Foundation, as Apple's does. Apple's UIKit is Objective-C: `NS_SWIFT_UI_ACTOR` classes import as
// `@MainActor` with `@preconcurrency` semantics, spelled out here (the stand-ins build in the Swift 5 mode).
@_exported public import Foundation

/// Read: developer.apple.com/documentation/uikit/uiview — `@MainActor` (iOS 2).
@MainActor @preconcurrency
open class UIView: NSObject {
    /// Creates a view.
    public init(frame: CGRect) { super.init() }
    /// Read: …/uiview/frame.
    open var frame = CGRect.zero
    /// Read: …/uiview/bounds.
    open var bounds = CGRect.zero
    /// Read: …/uiview/ishidden.
    open var isHidden = false
    /// Read: …/uiview/subviews (read-only).
    open var subviews: [UIView] { [] }
    /// Read: …/uiview/intrinsiccontentsize.
    open var intrinsicContentSize: CGSize { .zero }
    /// Read: …/uiview/addsubview(_:).
    open func addSubview(_ view: UIView) {}
    /// Read: …/uiview/setneedslayout().
    open func setNeedsLayout() {}
    /// Read: …/uiview/layoutifneeded().
    open func layoutIfNeeded() {}
}

/// Read: developer.apple.com/documentation/uikit/uiwindow — a `UIView`, `@MainActor` (iOS 2); `init(frame:)` is
/// UIView's.
@MainActor @preconcurrency
open class UIWindow: UIView {
    /// Read: …/uiwindow/rootviewcontroller.
    open var rootViewController: UIViewController?
}

/// Read: developer.apple.com/documentation/uikit/uiuserinterfaceidiom — an `Int` enum (iOS 3.2).
public enum UIUserInterfaceIdiom: Int, Sendable {
    /// Read: …/unspecified (-1).
    case unspecified = -1
    /// Read: …/phone (0).
    case phone = 0
    /// Read: …/pad (1).
    case pad = 1
    /// Read: …/tv (2, iOS 9).
    case tv = 2
    /// Read: …/carplay (3, iOS 9).
    case carPlay = 3
    /// Read: …/mac (5, iOS 14: Mac Catalyst with the Mac idiom; an iPhone or iPad app on a Mac reports `pad`).
    case mac = 5
    /// Read: …/vision (6, iOS 17).
    case vision = 6
}

/// Read: developer.apple.com/documentation/uikit/uidevice — `@MainActor` (iOS 2).
@MainActor @preconcurrency
open class UIDevice: NSObject {
    /// Read: …/uidevice/current (a class property).
    open class var current: UIDevice { UIDevice() }
    /// Read: …/uidevice/systemname.
    open var systemName: String { "" }
    /// Read: …/uidevice/userinterfaceidiom (iOS 3.2).
    open var userInterfaceIdiom: UIUserInterfaceIdiom { .unspecified }
}

/// Read: developer.apple.com/documentation/uikit/uifont (iOS 2); unverified: its actor isolation (none here).
open class UIFont: NSObject {
    /// Read: …/uifont/labelfontsize (a class property, `CGFloat`); `UIFont.h`: `API_UNAVAILABLE(tvos)`.
    @available(tvOS, unavailable)
    open class var labelFontSize: CGFloat { 17 }
}

/// Read: developer.apple.com/documentation/uikit/uitextcontenttype (iOS 10), a string-backed struct
/// (`UITextInputTraits.h`, `NS_TYPED_ENUM`).
public struct UITextContentType: Hashable, Sendable, RawRepresentable {
    /// The raw value.
    public var rawValue: String
    /// A content type from its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Read: …/uitextcontenttype/onetimecode (iOS 12).
    @available(iOS 12.0, *)
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    /// Read: …/uitextcontenttype/password (iOS 11).
    @available(iOS 11.0, *)
    public static let password = UITextContentType(rawValue: "password")
}

/// Read: developer.apple.com/documentation/uikit/uikeyboardtype (iOS 2), an `Int` enum (`UITextInputTraits.h`).
public enum UIKeyboardType: Int, Sendable {
    /// Read: …/default (0).
    case `default` = 0
    /// Read: …/asciicapable (1).
    case asciiCapable = 1
    /// Read: …/numbersandpunctuation (2).
    case numbersAndPunctuation = 2
    /// Read: …/url (3).
    case URL = 3
    /// Read: …/numberpad (4).
    case numberPad = 4
}

/// Read: developer.apple.com/documentation/uikit/uiapplication — `@MainActor` (iOS 2).
@MainActor @preconcurrency
open class UIApplication: NSObject {
    /// Read: developer.apple.com/documentation/uikit/uiapplication/shared; `UIApplication.h`:
    /// `NS_EXTENSION_UNAVAILABLE_IOS`, so unavailable in app extensions (an extension built with extension-only APIs
    /// cannot name it). A class property.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    open class var shared: UIApplication { UIApplication() }

    /// Keys of `open(_:options:completionHandler:)`.
    public struct OpenExternalURLOptionsKey: Hashable, Sendable, RawRepresentable {
        /// The key.
        public var rawValue: String
        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Read: developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey/universallinksonly
        /// (iOS 10).
        public static let universalLinksOnly = OpenExternalURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    /// Read: developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:) (iOS 10); its
    /// async form returns whether the URL was opened (unverified: the exact async spelling).
    public func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:]) async -> Bool { false }
}

/// Read: developer.apple.com/documentation/uikit/uiviewcontroller — `@MainActor` (iOS 2).
@MainActor @preconcurrency
open class UIViewController: NSObject {
    /// Creates a controller.
    public override init() { super.init() }
    /// Read: …/uiviewcontroller/ismodalinpresentation (iOS 13).
    open var isModalInPresentation = false
    /// Read: …/uiviewcontroller/init(coder:).
    public required init?(coder: NSCoder) { nil }
    /// Read: …/uiviewcontroller/view (an implicitly unwrapped `UIView!`).
    open var view: UIView! = UIView(frame: .zero)
    /// Read: …/uiviewcontroller/title.
    open var title: String?
    /// Read: …/uiviewcontroller/present(_:animated:completion:) (iOS 5).
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) {}
    /// Read: …/uiviewcontroller/dismiss(animated:completion:) (iOS 5).
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {}
}
