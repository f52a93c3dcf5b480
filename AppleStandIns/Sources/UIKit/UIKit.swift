// Stand-in: the UIKit declarations the SDK's Apple-only sources use. Not Apple's code.
// UIKit re-exports Foundation, as Apple's does.
@_exported public import Foundation

/// Read: developer.apple.com/documentation/uikit/uiview — `@MainActor` (iOS 2).
@MainActor
open class UIView: NSObject {
    /// Creates a view.
    public init(frame: CGRect) { super.init() }
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
}
