import Crypto
import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK
import X509

/// The server's clock, as every timer of the server reads it: the core's challenge timers, the long-poll, the
/// sessions' expiry (a test clock in tests).
struct ServerClock: Sendable {
    /// The clock itself, for the core's session.
    let base: any Clock<Duration>
    /// Time since the server started, on this clock.
    let elapsed: @Sendable () -> Duration
    /// Sleeps on this clock.
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        base = clock
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }

    /// The operation's value, or `nil` when `bound` passes first (the operation is then cancelled).
    func first<T: Sendable>(within bound: Duration, _ operation: @escaping @Sendable () async -> T?) async -> T? {
        let sleep = self.sleep
        return await withTaskGroup(of: T?.self) { group in
            group.addTask { await operation() }
            group.addTask {
                try? await sleep(bound)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// A directory server the server serves, checked at startup.
struct ServedDirectoryServer: Sendable {
    let directoryServer: SplitDirectoryServer
    let entry: SplitServerConfiguration.DirectoryServerEntry
}

/// What every session of the server shares.
struct ServerContext: Sendable {
    let configuration: SplitServerConfiguration
    let directoryServers: [String: ServedDirectoryServer]
    let clock: ServerClock
    let transport: any ChallengeTransport
    let logger: Logger

    /// How long a client call waits for its next step.
    static let longPoll: Duration = .seconds(25)
}
