@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// A clock that moves only when a test moves it, for the SDK's timers (`authenticate(…, clock:)`,
/// `Transaction.challenge(…, clock:)`, the processing indicator's two seconds): time never passes on its own, so a
/// test of "the ACS never answers" or "the cardholder does nothing for five minutes" takes no real time. Written here,
/// with no package dependency, so an app's test target links the testing product alone.
///
/// A sleeper waits until ``advance(by:)`` or ``advance(to:)`` reaches its deadline, or until its task is cancelled
/// (then it throws `CancellationError`, as every clock does).
public final class ManualClock: Clock, Sendable {
    /// An instant on the clock: the time since it was made.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// The time since the clock was made.
        public let offset: Duration

        /// Creates an instant.
        ///
        /// - Parameter offset: The time since the clock was made.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        ///
        /// - Parameter duration: The duration.
        /// - Returns: The instant.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        ///
        /// - Parameter other: The other instant.
        /// - Returns: The duration.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders two instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
    }

    private let state = Locked(State())

    /// A clock at instant zero.
    public init() {}

    /// The current instant: where the test last moved the clock.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock tells apart.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock (a test may wait for a timer to start before it advances).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline`; at once when it has.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = state.withLock { state -> Bool in
                    if state.now >= deadline || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock forward by `duration`, waking every sleeper whose deadline it reaches, earliest first.
    ///
    /// - Parameter duration: How far to move.
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never back), waking every sleeper whose deadline it reaches, earliest first, and
    /// giving each woken task a chance to run before the next.
    ///
    /// - Parameter instant: Where to move.
    public func advance(to instant: Instant) async {
        while let woken = wakeNext(until: instant) {
            woken.resume()
            for _ in 0..<10 { await Task.yield() }
        }
        state.withLock { $0.now = max($0.now, instant) }
    }

    /// Moves the clock to the earliest sleeper due by `instant` and takes that sleeper out, or `nil` when none is due.
    private func wakeNext(until instant: Instant) -> CheckedContinuation<Void, any Error>? {
        state.withLock { state in
            guard
                let (id, sleeper) = state.sleepers.filter({ $0.value.deadline <= instant })
                    .min(by: { $0.value.deadline < $1.value.deadline })
            else { return nil }
            state.sleepers[id] = nil
            state.now = max(state.now, sleeper.deadline)
            return sleeper.continuation
        }
    }
}
