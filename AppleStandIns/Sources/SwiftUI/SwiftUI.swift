// Stand-in: the SwiftUI declarations the SDK's web view and hosting controller use. Not Apple's code.
// Read: the iOS 18.0 SDK's SwiftUI.swiftinterface re-exports UIKit (`@_exported import UIKit`) on iOS, and AppKit on
// macOS, as Apple's module does: a file that imports SwiftUI sees UIKit's (or AppKit's) declarations.
#if canImport(UIKit)
    @_exported public import UIKit
#else
    @_exported public import AppKit
#endif

/// Read: developer.apple.com/documentation/swiftui/view (iOS 13); `@MainActor @preconcurrency` in the iOS 18 SDK.
@MainActor @preconcurrency
public protocol View {
    /// The content.
    associatedtype Body: View
    /// The content.
    @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

extension Never: View {
    /// Never called.
    public var body: Never { return fatalError() }
}

#if canImport(UIKit)
    /// Read: developer.apple.com/documentation/swiftui/uiviewrepresentablecontext (iOS 13).
    @MainActor @preconcurrency
    public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {
        /// The coordinator `makeCoordinator()` made.
        public let coordinator: Representable.Coordinator
    }

    /// Read: developer.apple.com/documentation/swiftui/uiviewrepresentable (iOS 13); `@MainActor @preconcurrency`.
    @MainActor @preconcurrency
    public protocol UIViewRepresentable: View where Body == Never {
        /// The UIKit view.
        associatedtype UIViewType: UIView
        /// The coordinator.
        associatedtype Coordinator = Void
        /// The context.
        typealias Context = UIViewRepresentableContext<Self>
        /// Makes the view.
        @MainActor @preconcurrency func makeUIView(context: Context) -> UIViewType
        /// Updates the view.
        @MainActor @preconcurrency func updateUIView(_ uiView: UIViewType, context: Context)
        /// Makes the coordinator.
        @MainActor @preconcurrency func makeCoordinator() -> Coordinator
    }

    extension UIViewRepresentable where Coordinator == Void {
        /// No coordinator.
        public func makeCoordinator() {}
    }

    extension UIViewRepresentable {
        /// Never called: UIKit draws the view.
        public var body: Never { return fatalError() }
    }

    /// Read: developer.apple.com/documentation/swiftui/uihostingcontroller (iOS 13); `@MainActor @preconcurrency`.
    @MainActor @preconcurrency
    open class UIHostingController<Content: View>: UIViewController {
        /// Hosts the view.
        public init(rootView: Content) { super.init() }
        /// Read: …/uihostingcontroller/init(coder:rootview:) (the required coder initializer).
        @MainActor public required dynamic init?(coder aDecoder: NSCoder) { nil }
    }
#else
    /// Read: developer.apple.com/documentation/swiftui/nsviewrepresentablecontext (macOS 10.15).
    @MainActor @preconcurrency
    public struct NSViewRepresentableContext<Representable: NSViewRepresentable> {
        /// The coordinator `makeCoordinator()` made.
        public let coordinator: Representable.Coordinator
    }

    /// Read: developer.apple.com/documentation/swiftui/nsviewrepresentable (macOS 10.15); `@MainActor
    /// @preconcurrency` in the macOS 15 SDK.
    @MainActor @preconcurrency
    public protocol NSViewRepresentable: View where Body == Never {
        /// The AppKit view.
        associatedtype NSViewType: NSView
        /// The coordinator.
        associatedtype Coordinator = Void
        /// The context.
        typealias Context = NSViewRepresentableContext<Self>
        /// Makes the view.
        @MainActor @preconcurrency func makeNSView(context: Context) -> NSViewType
        /// Updates the view.
        @MainActor @preconcurrency func updateNSView(_ nsView: NSViewType, context: Context)
        /// Makes the coordinator.
        @MainActor @preconcurrency func makeCoordinator() -> Coordinator
    }

    extension NSViewRepresentable where Coordinator == Void {
        /// No coordinator.
        public func makeCoordinator() {}
    }

    extension NSViewRepresentable {
        /// Never called: AppKit draws the view.
        public var body: Never { return fatalError() }
    }
#endif

/// Read: developer.apple.com/documentation/swiftui/previewprovider (iOS 13); `@MainActor @preconcurrency`.
@MainActor @preconcurrency
public protocol PreviewProvider {
    /// The previews.
    associatedtype Previews: View
    /// The previews.
    @ViewBuilder @MainActor @preconcurrency static var previews: Previews { get }
}
