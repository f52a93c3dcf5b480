import Dispatch
import Foundation
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// What stops a long-running command from outside: SIGINT (Ctrl-C) or SIGTERM, taken as events instead of ending the
/// process. `threeds load` stops new payments at the first signal and gives those in flight a bounded time to end (a
/// second signal ends that time at once); `threeds testlab` closes its listener and exits.
///
/// Installing the handlers also takes a signal the process inherited as ignored: a lab or load run started as a
/// non-interactive shell's background job (`threeds testlab &` in a script or CI job) inherits SIGINT ignored, and
/// would otherwise never stop on it.
final class Interruption: Sendable {
    /// The signals delivered, in order.
    let signals: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private let first = Locked<Int32?>(nil)

    init() {
        (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
    }

    /// Records a signal.
    func deliver(_ number: Int32) {
        first.withLock { if $0 == nil { $0 = number } }
        continuation.yield(number)
    }

    /// The first signal delivered, if any.
    var received: Int32? { first.withLock { $0 } }

    /// Dispatch sources are thread-safe objects; they are kept only so they stay alive.
    private struct Sources: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
    }

    /// Takes SIGINT and SIGTERM instead of ending the process; returns what keeps the handlers alive.
    func install() -> some Sendable {
        Sources(
            sources: [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in deliver(number) }
                source.resume()
                return source
            })
    }

    /// How a shell names the signal.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
