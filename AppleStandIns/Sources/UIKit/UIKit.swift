// Stand-in: the UIKit declarations the SDK's Apple-only sources use. Not Apple's code.
// UIKit re-exports Foundation, as Apple's does.
@_exported public import Foundation

/// Read: developer.apple.com/documentation/uikit/uiview — `@MainActor` (iOS 2).
@MainActor
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
@MainActor
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
}

/// Read: developer.apple.com/documentation/uikit/uidevice — `@MainActor` (iOS 2).
@MainActor
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
    /// Read: …/uifont/labelfontsize (a class property, `CGFloat`).
    open class var labelFontSize: CGFloat { 17 }
}

/// Read: developer.apple.com/documentation/uikit/uiapplication — `@MainActor` (iOS 2).
@MainActor
open class UIApplication: NSObject {
    /// The app's instance (unavailable in app extensions).
    public static var shared: UIApplication { UIApplication() }

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
@MainActor
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
