#if canImport(UIKit) || canImport(AppKit)
    public import Foundation
    public import ThreeDS2SDK
    #if canImport(UIKit)
        import UIKit
    #else
        import AppKit
    #endif

    /// Opens the bank's app through the system. On iOS only as a universal or app link (never a browser); the
    /// cardholder's return is seen by ``ChallengeView`` (the scene becoming active), which continues the screen on its
    /// own. On a Mac (a macOS app, Mac Catalyst, an iPhone or iPad app on a Mac) the bank's app is usually not
    /// installed: the link then opens nothing and the result is `.failed` (the screen says so), and the cardholder
    /// approves on the phone and comes back to press continue.
    ///
    /// Unavailable in app extensions, where `UIApplication.shared` is: an extension passes its own ``OOBAppOpener``
    /// (one built on its `NSExtensionContext.open(_:completionHandler:)`, say) to
    /// ``SwiftUIChallengePresenter/init(customization:strings:appearance:oobAppOpener:)``, or `nil`.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(macOSApplicationExtension, unavailable)
    public struct SystemOOBAppOpener: OOBAppOpener {
        /// Creates the opener.
        public init() {}

        /// Opens the link.
        @MainActor
        public func open(_ url: URL) async -> OOBAppOpenResult {
            #if canImport(UIKit)
                let opened = await UIApplication.shared.open(url, options: [.universalLinksOnly: true])
            #else
                let opened = NSWorkspace.shared.open(url)
            #endif
            return opened ? .opened : .failed
        }
    }
#endif
