@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A `ChallengeStatusReceiver` that keeps every callback it gets, for tests of what an app's receiver is told.
/// ``received`` fires on the first callback, so a test awaits it instead of polling.
public final class RecordingStatusReceiver: ChallengeStatusReceiver {
    /// One callback, with its event.
    public enum Call: Sendable, Hashable {
        /// `ChallengeStatusReceiver/completed(_:)`.
        case completed(CompletionEvent)
        /// `ChallengeStatusReceiver/cancelled()`.
        case cancelled
        /// `ChallengeStatusReceiver/timedout()`.
        case timedout
        /// `ChallengeStatusReceiver/protocolError(_:)`.
        case protocolError(ProtocolErrorEvent)
        /// `ChallengeStatusReceiver/runtimeError(_:)`.
        case runtimeError(RuntimeErrorEvent)

        /// The outcome this callback reports.
        public var outcome: ChallengeOutcome {
            switch self {
            case .completed(let event): .completed(transStatus: event.transactionStatus)
            case .cancelled: .cancelled
            case .timedout: .timedOut
            case .protocolError(let event): .protocolError(event.errorMessage)
            case .runtimeError(let event): .runtimeError(event.failure)
            }
        }
    }

    private let recorded = Locked<[Call]>([])
    /// Fires on the first callback.
    public let received = AsyncSignal()

    /// Creates a receiver that has been told nothing.
    public init() {}

    /// The callbacks so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The outcomes the callbacks reported, in order (one for a challenge that behaves).
    public var outcomes: [ChallengeOutcome] { calls.map(\.outcome) }

    private func record(_ call: Call) {
        recorded.withLock { $0.append(call) }
        received.fire()
    }

    /// Records ``Call/completed(_:)``.
    ///
    /// - Parameter event: The event.
    public func completed(_ event: CompletionEvent) { record(.completed(event)) }
    /// Records ``Call/cancelled``.
    public func cancelled() { record(.cancelled) }
    /// Records ``Call/timedout``.
    public func timedout() { record(.timedout) }
    /// Records ``Call/protocolError(_:)``.
    ///
    /// - Parameter event: The event.
    public func protocolError(_ event: ProtocolErrorEvent) { record(.protocolError(event)) }
    /// Records ``Call/runtimeError(_:)``.
    ///
    /// - Parameter event: The event.
    public func runtimeError(_ event: RuntimeErrorEvent) { record(.runtimeError(event)) }
}
