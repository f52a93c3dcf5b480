// Stand-in: Combine's ObservableObject, as the SDK's Apple-only sources use it. Not Apple's code.

/// Read: developer.apple.com/documentation/combine/observableobjectpublisher (iOS 13, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
public final class ObservableObjectPublisher {
    /// Creates a publisher.
    public init() {}
    /// Sends the change notification.
    public func send() {}
}

/// Read: developer.apple.com/documentation/combine/observableobject (iOS 13, macOS 10.15); not actor-isolated.
@available(iOS 13.0, macOS 10.15, *)
public protocol ObservableObject: AnyObject {
    /// The publisher that fires before the object changes.
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
    /// The publisher.
    var objectWillChange: ObjectWillChangePublisher { get }
}

@available(iOS 13.0, macOS 10.15, *)
extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The synthesized publisher.
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}
