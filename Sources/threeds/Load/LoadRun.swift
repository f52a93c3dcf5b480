import Foundation
import Histogram
import ThreeDS2Messages
import ThreeDS2SDK

/// How a load run is paced and bounded.
struct LoadPlan: Sendable {
    /// Payments to run.
    var count: Int
    /// The most payments in flight.
    var concurrency: Int
    /// Payments started per second, when paced; latency is then measured from each payment's intended start, so a
    /// slow server cannot hide its queueing (no coordinated omission).
    var rate: Double?
    /// No payment starts after this; payments still running then are cancelled.
    var maxDuration: Duration
}

extension PaymentResult {
    /// The outcome kind a load report counts: `completed Y`, `frictionless N`, `protocolError 203`, `cancelled`, …
    var kind: String {
        switch outcome {
        case "frictionless", "completed": "\(outcome) \(transStatus ?? "?")"
        case "protocolError": "protocolError \(error?.errorCode ?? "?")"
        default: outcome
        }
    }

    /// The error a load report groups, when the payment failed: its one-line summary, as `pay` prints it.
    var errorText: String? { exitCode == 0 ? nil : summary }
}

/// What a load run counted and measured. Thread-safe: payments record into it as they end.
final class LoadRecorder: PhaseObserver {
    struct State {
        var histograms: [Phase: LatencyHistogram] = Dictionary(
            uniqueKeysWithValues: Phase.allCases.map { ($0, LatencyHistogram.latencies()) })
        var outcomes: [String: Int] = [:]
        var errors: [String: Int] = [:]
        var finished = 0
        var failed = 0
        /// Values beyond an hour, which no histogram holds.
        var overflow = 0
    }

    private let state = Locked(State())

    func observe(_ phase: Phase, _ duration: Duration) {
        let micros = max(1, duration.microseconds)
        state.withLock { state in
            if state.histograms[phase]?.record(UInt64(micros)) != true { state.overflow += 1 }
        }
    }

    /// Records how a payment ended and how long it took.
    func finish(_ result: PaymentResult, duration: Duration) {
        observe(.payment, duration)
        state.withLock { state in
            state.finished += 1
            state.outcomes[result.kind, default: 0] += 1
            if let text = result.errorText {
                state.failed += 1
                // Bounded: a run with many distinct messages keeps the first 100.
                if state.errors[text] != nil || state.errors.count < 100 { state.errors[text, default: 0] += 1 }
            }
        }
    }

    var snapshot: State { state.withLock { $0 } }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}

/// Runs a plan: at most `concurrency` payments at a time, paced by `rate` when given, none started after
/// `maxDuration`. Returns how many were started and how long the run took.
func runLoad(
    _ plan: LoadPlan, recorder: LoadRecorder, payment: @escaping @Sendable (Int) async -> PaymentResult
) async -> (started: Int, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: plan.maxDuration)
    var started = 0
    await withTaskGroup(of: Bool.self) { group in
        // The watchdog: at the deadline the payments still running are cancelled. Children return whether they
        // are the watchdog firing.
        group.addTask {
            do {
                try await Task.sleep(until: deadline, clock: clock)
                return true
            } catch {
                return false
            }
        }
        var inFlight = 0
        var expired = false
        func collect() async {
            guard let fired = await group.next() else { return }
            if fired {
                expired = true
                group.cancelAll()
            } else {
                inFlight -= 1
            }
        }
        while started < plan.count, !expired, clock.now < deadline {
            if inFlight >= plan.concurrency {
                await collect()
                continue
            }
            var intended = clock.now
            if let rate = plan.rate {
                intended = start.advanced(by: .seconds(Double(started) / rate))
                if intended > clock.now {
                    guard intended < deadline else { break }
                    try? await Task.sleep(until: intended, clock: clock)
                }
            }
            let index = started
            started += 1
            inFlight += 1
            let measuredFrom = intended
            group.addTask {
                let result = await payment(index)
                recorder.finish(result, duration: measuredFrom.duration(to: clock.now))
                return false
            }
        }
        while inFlight > 0, !expired { await collect() }
        // Stops the watchdog (or, past the deadline, the payments still running); the group then waits for all.
        group.cancelAll()
    }
    return (started, start.duration(to: clock.now))
}
