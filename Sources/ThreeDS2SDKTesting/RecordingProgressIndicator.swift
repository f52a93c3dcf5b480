@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A `ProgressIndicator` that keeps what it was told, for tests of when the processing indicator shows and hides.
/// ``shown`` fires the first time it is shown.
public final class RecordingProgressIndicator: ProgressIndicator {
    /// One thing the indicator was told.
    public enum Event: Sendable, Hashable {
        /// Shown, with the directory server's name.
        case show(directoryServerName: String?)
        /// Hidden.
        case hide
    }

    private let recorded = Locked<[Event]>([])
    /// Fires the first time the indicator is shown.
    public let shown = AsyncSignal()

    /// Creates an indicator that has been told nothing.
    public init() {}

    /// What it was told so far, in order.
    public var events: [Event] { recorded.withLock { $0 } }

    /// The names it was shown with, in order.
    public var directoryServerNames: [String?] {
        events.compactMap { event -> String?? in
            guard case .show(let name) = event else { return nil }
            return .some(name)
        }
    }

    /// Records ``Event/show(directoryServerName:)``.
    ///
    /// - Parameter directoryServerName: The name shown.
    public func show(directoryServerName: String?) {
        recorded.withLock { $0.append(.show(directoryServerName: directoryServerName)) }
        shown.fire()
    }

    /// Records ``Event/hide``.
    public func hide() { recorded.withLock { $0.append(.hide) } }
}
