// Stand-in: the SwiftUI declarations the SDK's web view uses. Not Apple's code.
public import UIKit

/// Read: developer.apple.com/documentation/swiftui/view (iOS 13); `@MainActor @preconcurrency` in the iOS 18 SDK.
@MainActor @preconcurrency
public protocol View {
    /// The content.
    associatedtype Body: View
    /// The content.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    /// Never called.
    public var body: Never { return fatalError() }
}

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
    func makeUIView(context: Context) -> UIViewType
    /// Updates the view.
    func updateUIView(_ uiView: UIViewType, context: Context)
    /// Makes the coordinator.
    func makeCoordinator() -> Coordinator
}

extension UIViewRepresentable where Coordinator == Void {
    /// No coordinator.
    public func makeCoordinator() {}
}

extension UIViewRepresentable {
    /// Never called: UIKit draws the view.
    public var body: Never { return fatalError() }
}

/// Read: developer.apple.com/documentation/swiftui/uihostingcontroller (iOS 13); `@MainActor`.
@MainActor @preconcurrency
open class UIHostingController<Content: View>: UIViewController {
    /// Hosts the view.
    public init(rootView: Content) { super.init() }
    /// Read: …/uihostingcontroller/init(coder:rootview:) (the required coder initializer).
    @MainActor public required dynamic init?(coder aDecoder: NSCoder) { nil }
}

/// Read: developer.apple.com/documentation/swiftui/previewprovider (iOS 13); `@MainActor @preconcurrency`.
@MainActor @preconcurrency
public protocol PreviewProvider {
    /// The previews.
    associatedtype Previews: View
    /// The previews.
    @ViewBuilder static var previews: Previews { get }
}
