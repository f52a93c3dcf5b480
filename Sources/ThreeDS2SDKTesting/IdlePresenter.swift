@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A one-shot signal: one side fires it, any number of tasks await it. A test waits on it for something to happen
/// (a screen shown, a callback made) instead of polling or sleeping.
public final class AsyncSignal: Sendable {
    private struct State {
        var fired = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Creates a signal that has not fired.
    public init() {}

    /// Fires the signal and wakes every waiting task; later calls do nothing more.
    public func fire() {
        let waiting = state.withLock { state in
            state.fired = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Whether the signal has fired.
    public var fired: Bool { state.withLock { $0.fired } }

    /// Returns once the signal has fired (at once if it already has).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.fired { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A presenter that shows the first screen and then does nothing until its task is cancelled, as a cardholder who
/// walked away: for tests of the challenge's timers and of cancellation. ``presented`` fires when a screen is on show.
public final class IdlePresenter: ChallengePresenter {
    /// Fires when the first screen is shown.
    public let presented = AsyncSignal()

    /// Creates the presenter.
    public init() {}

    /// Fires ``presented`` and waits until cancelled; then answers cancel.
    ///
    /// - Parameter form: The screen's form state.
    /// - Returns: A cancel, once the task is cancelled.
    public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        presented.fire()
        await ScriptedTransport.untilCancelled()
        return ChallengeAnswer(.cancel)
    }
}
