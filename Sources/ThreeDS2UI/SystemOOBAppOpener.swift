#if canImport(UIKit)
    public import Foundation
    import UIKit
    public import ThreeDS2SDK

    /// Opens the bank's app through the system, as a universal or app link only (never a browser). The cardholder's
    /// return is seen by ``ChallengeView`` (the scene becoming active), which continues the screen on its own.
    public struct SystemOOBAppOpener: OOBAppOpener {
        /// Creates the opener.
        public init() {}

        /// Opens the link.
        @MainActor
        public func open(_ url: URL) async -> OOBAppOpenResult {
            await UIApplication.shared.open(url, options: [.universalLinksOnly: true]) ? .opened : .failed
        }
    }
#elseif canImport(AppKit)
    public import Foundation
    import AppKit
    public import ThreeDS2SDK

    /// Opens the bank's app through the system (on a Mac the cardholder usually approves on the phone and comes back
    /// to press continue).
    public struct SystemOOBAppOpener: OOBAppOpener {
        /// Creates the opener.
        public init() {}

        /// Opens the link.
        @MainActor
        public func open(_ url: URL) async -> OOBAppOpenResult {
            NSWorkspace.shared.open(url) ? .opened : .failed
        }
    }
#endif
