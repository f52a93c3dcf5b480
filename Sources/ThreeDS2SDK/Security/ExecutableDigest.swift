import Dispatch
import Foundation

/// The SHA-256 of the app's executable, computed once, on a background queue, for the SW02 comparison.
///
/// Hashing a whole executable takes long enough (tens of megabytes on iOS) that it must never run on the caller's
/// thread, and it cannot change while the process runs: a service starts it at the first initialize that asks for
/// it and keeps the result for every later check (initialize again, each transaction, each challenge start). Until
/// it is ready the checks compare nothing; the first check after it finishes raises SW02 on a mismatch (and the
/// security listener hears of the change).
final class ExecutableDigest: Sendable {
    /// Where the hash stands.
    enum State: Sendable, Equatable {
        /// Not asked for yet.
        case notStarted
        /// Being computed on a background queue.
        case pending
        /// Computed: the lower-case hex SHA-256, or `nil` when the executable could not be read.
        case done(String?)
    }

    private let state = Locked(State.notStarted)
    private let finished = DispatchGroup()

    /// The state now; starts the hash on a background queue the first time.
    ///
    /// - Parameter probe: Where the executable is found and read.
    /// - Returns: The state.
    func current(_ probe: any SystemProbe) -> State {
        let start: Bool = state.withLock { state in
            guard state == .notStarted else { return false }
            state = .pending
            return true
        }
        if start {
            finished.enter()
            DispatchQueue.global(qos: .utility).async { [self] in
                let hash = probe.executablePath.flatMap(probe.sha256OfFile)
                state.withLock { $0 = .done(hash) }
                finished.leave()
            }
            return .pending
        }
        return state.withLock { $0 }
    }

    /// Waits until a started hash is done, at most `timeout` (tests and tools).
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: Whether it is done.
    @discardableResult
    func waitUntilDone(timeout: DispatchTime) -> Bool {
        finished.wait(timeout: timeout) == .success
    }
}
