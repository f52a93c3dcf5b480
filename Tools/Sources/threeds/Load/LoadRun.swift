import Foundation
import Histogram
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

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
        case "frictionless", "completed": "\(outcome) \(transStatus?.rawValue ?? "?")"
        case "protocolError": "protocolError \(error?.errorCode.rawValue ?? "?")"
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
/// `maxDuration` or after an interruption; payments in flight at an interruption get `stopGrace` to end, then are
/// cancelled (as they are at `maxDuration`). Returns how many were started and how long the run took.
func runLoad(
    _ plan: LoadPlan, recorder: LoadRecorder, interruption: Interruption? = nil,
    stopGrace: Duration = .seconds(10), payment: @escaping @Sendable (Int) async -> PaymentResult
) async -> (started: Int, elapsed: Duration) {
    /// What a child task of the run reports when it ends.
    enum Event: Sendable {
        case finished, deadline, interrupted, graceOver, idle
    }
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: plan.maxDuration)
    var started = 0
    await withTaskGroup(of: Event.self) { group in
        // The watchdog: at the deadline the payments still running are cancelled.
        group.addTask {
            do {
                try await Task.sleep(until: deadline, clock: clock)
                return .deadline
            } catch {
                return .idle
            }
        }
        if let interruption {
            group.addTask {
                for await _ in interruption.signals { return .interrupted }
                return .idle
            }
        }
        var inFlight = 0
        var expired = false
        var stopping = false
        func handle(_ event: Event) {
            switch event {
            case .finished:
                inFlight -= 1
            case .deadline, .graceOver:
                expired = true
                group.cancelAll()
            case .interrupted:
                stopping = true
                let graceEnd = clock.now.advanced(by: stopGrace)
                // In-flight payments get until graceEnd; a second signal ends the wait at once.
                group.addTask {
                    await withTaskGroup(of: Void.self) { race in
                        race.addTask { try? await Task.sleep(until: graceEnd, clock: clock) }
                        if let interruption {
                            race.addTask {
                                for await _ in interruption.signals { return }
                            }
                        }
                        await race.next()
                        race.cancelAll()
                    }
                    return Task.isCancelled ? .idle : .graceOver
                }
            case .idle:
                break
            }
        }
        func collect() async {
            guard let event = await group.next() else { return }
            handle(event)
        }
        while started < plan.count, !expired, !stopping, interruption?.received == nil, clock.now < deadline {
            if inFlight >= plan.concurrency {
                await collect()
                continue
            }
            var intended = clock.now
            if let rate = plan.rate {
                intended = start.advanced(by: .seconds(Double(started) / rate))
                guard intended < deadline else { break }
                // Paced in steps of at most 100 ms, so an interruption is seen while waiting for the next start.
                while intended > clock.now, interruption?.received == nil {
                    try? await Task.sleep(
                        until: min(intended, clock.now.advanced(by: .milliseconds(100))), clock: clock)
                }
                if interruption?.received != nil { break }
            }
            let index = started
            started += 1
            inFlight += 1
            let measuredFrom = intended
            group.addTask {
                let result = await payment(index)
                recorder.finish(result, duration: measuredFrom.duration(to: clock.now))
                return .finished
            }
        }
        // Interrupted: the watcher reports it too; collect until it has, so that the grace period runs.
        if interruption?.received != nil { while !stopping, !expired { await collect() } }
        while inFlight > 0, !expired { await collect() }
        // Stops the watchdog and the watcher (or, past the deadline, the payments still running); the group then
        // waits for all.
        group.cancelAll()
    }
    return (started, start.duration(to: clock.now))
}
