// Stand-in: the AppKit declarations the SDK's macOS branches use (the web view's representable, the app opener).
// Not Apple's code. AppKit re-exports Foundation, as Apple's does. Built only for the AppKit pass of
// scripts/check-apple-sources.sh (`THREEDS_STANDINS=appkit`), where no UIKit module exists.
@_exported public import Foundation

/// Read: developer.apple.com/documentation/appkit/nsview (macOS 10.0); `@MainActor` in the macOS 14 and later SDKs.
@MainActor @preconcurrency
open class NSView: NSObject {
    /// Read: …/nsview/init(frame:).
    public init(frame frameRect: CGRect) { super.init() }
    /// Read: …/nsview/frame.
    open var frame = CGRect.zero
}

/// Read: developer.apple.com/documentation/appkit/nsworkspace (macOS 10.0); unverified: its actor isolation (none
/// here; its `shared` and `open(_:)` are called on the main actor by the SDK either way).
open class NSWorkspace: NSObject, @unchecked Sendable {
    /// Read: …/nsworkspace/shared (a class property).
    open class var shared: NSWorkspace { NSWorkspace() }
    /// Read: …/nsworkspace/open(_:) — opens a URL with its default app; `true` when it did (macOS 10.0).
    open func open(_ url: URL) -> Bool { false }
}
