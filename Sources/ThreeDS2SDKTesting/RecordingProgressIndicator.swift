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
    private let shownWith = Locked<[PresentationSettings]>([])
    /// Fires the first time the indicator is shown.
    public let shown = AsyncSignal()

    /// Creates an indicator that has been told nothing.
    public init() {}

    /// What it was told so far, in order.
    public var events: [Event] { recorded.withLock { $0 } }

    /// The presentations it was shown with, in order: the app's texts and colours the indicator would draw.
    public var presentations: [PresentationSettings] { shownWith.withLock { $0 } }

    /// The names it was shown with, in order.
    public var directoryServerNames: [String?] {
        events.compactMap { event -> String?? in
            guard case .show(let name) = event else { return nil }
            return .some(name)
        }
    }

    /// Records ``Event/show(directoryServerName:)`` and the presentation.
    ///
    /// - Parameters:
    ///   - directoryServerName: The name shown.
    ///   - presentation: The transaction's presentation, with the presenter's overrides applied.
    public func show(directoryServerName: String?, presentation: PresentationSettings) {
        shownWith.withLock { $0.append(presentation) }
        recorded.withLock { $0.append(.show(directoryServerName: directoryServerName)) }
        shown.fire()
    }

    /// Records ``Event/hide``.
    public func hide() { recorded.withLock { $0.append(.hide) } }
}
