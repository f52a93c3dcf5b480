/// An operation against a deadline, for every bound in the SDK: the challenge's timers and each transport
/// request's whole-response deadline.
enum Race {
    /// How a race ended.
    enum Result<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
        case cancelled
    }

    /// Runs `operation` against a timer on `clock` that ends at `deadline`. Whichever ends first wins; the other is
    /// cancelled and **not awaited**, so an operation that ignores cancellation (a presenter that never returns, a
    /// transport that trickles) cannot hold the challenge past its deadline. The deadline is absolute, so time spent
    /// before the timer starts is never added to it. Cancelling the calling task ends the race as `cancelled`.
    static func first<C: Clock, T: Sendable>(
        clock: C, until deadline: C.Instant, _ operation: @escaping @Sendable () async -> T
    ) async -> Result<T> {
        if Task.isCancelled { return .cancelled }
        guard clock.now < deadline else { return .timedOut }
        let first = FirstResult<Result<T>>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                first.install(continuation)
                let work = Task { first.resume(.finished(await operation())) }
                let timer = Task {
                    guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                    first.resume(.timedOut)
                }
                first.onResume {
                    work.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            first.resume(.cancelled)
        }
    }
}

/// A continuation resumed once, by whichever of several racers gets there first; later results are dropped.
private final class FirstResult<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Never>?
        var early: T?
        var cleanup: (@Sendable () -> Void)?
        var done = false
    }

    private let state = Locked(State())

    func install(_ continuation: CheckedContinuation<T, Never>) {
        let early: T? = state.withLock { state in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.done { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func resume(_ value: T) {
        let (continuation, cleanup): (CheckedContinuation<T, Never>?, (@Sendable () -> Void)?) = state.withLock {
            state in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.early = value }
            defer {
                state.continuation = nil
                state.cleanup = nil
            }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(returning: value)
        cleanup?()
    }
}
