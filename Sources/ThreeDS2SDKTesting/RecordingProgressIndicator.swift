@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A `ProgressIndicator` that keeps what it was told, for tests of when the processing indicator shows and hides.
/// ``shown`` fires the first time it is shown.
public final class RecordingProgressIndicator: ProgressIndicator {
    /// One thing the indicator was told.
    public enum Event: Sendable, Hashable {
        /// Shown, with the payment system (directory server ID, name, logo).
        case show(ProcessingScheme?)
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

    /// The payment systems it was shown with, in order.
    public var schemes: [ProcessingScheme?] {
        events.compactMap { event -> ProcessingScheme?? in
            guard case .show(let scheme) = event else { return nil }
            return .some(scheme)
        }
    }

    /// The names it was shown with, in order.
    public var directoryServerNames: [String?] { schemes.map { $0?.name } }

    /// Records ``Event/show(_:)`` and the presentation.
    ///
    /// - Parameters:
    ///   - scheme: The payment system shown.
    ///   - presentation: The transaction's presentation, with the presenter's overrides applied.
    public func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
        shownWith.withLock { $0.append(presentation) }
        recorded.withLock { $0.append(.show(scheme)) }
        shown.fire()
    }

    /// Records ``Event/hide``.
    public func hide() { recorded.withLock { $0.append(.hide) } }
}
