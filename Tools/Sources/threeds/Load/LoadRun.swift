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
        case .frictionless, .completed: "\(outcome.rawValue) \(transStatus?.rawValue ?? "?")"
        case .protocolError: "protocolError \((error?.errorCode ?? reportedErrorCode)?.rawValue ?? "?")"
        case .cancelled, .timedOut, .runtimeError: outcome.rawValue
        }
    }

    /// The result kind a load report counts after a challenge: `RReq Y`, `pending`, `not asked`; `nil` without a
    /// challenge.
    var resultKind: String? {
        guard hasResultsLeg, challengeOutcome != nil || transStatus == .decoupled else { return nil }
        if resultProblem != nil { return "not asked" }
        guard let authoritative else { return "unknown to the 3DS Server" }
        return authoritative.transStatus.map { "\(authoritative.source) \($0)" } ?? "pending"
    }

    /// Whether the result disagrees with the final CRes.
    var resultDisagrees: Bool {
        guard case .completed(let status)? = challengeOutcome, let authoritative else { return false }
        return authoritative.disagreement(withFinalCRes: status) != nil
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
        /// The 3DS Server's results after challenges, by kind (``PaymentResult/resultKind``).
        var results: [String: Int] = [:]
        /// Challenges whose result disagrees with their final CRes.
        var disagreements = 0
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
            if let kind = result.resultKind { state.results[kind, default: 0] += 1 }
            if result.resultDisagrees { state.disagreements += 1 }
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
    var schedule = LoadSchedule(plan: plan, interruption: interruption, stopGrace: stopGrace)
    await withTaskGroup(of: LoadEvent.self) { group in
        schedule.addWatchers(to: &group)
        while schedule.mayStartAnother {
            if schedule.inFlight >= plan.concurrency {
                await schedule.collect(from: &group)
                continue
            }
            guard let measuredFrom = await schedule.nextStart() else { break }
            let index = schedule.started
            schedule.started += 1
            schedule.inFlight += 1
            let clock = schedule.clock
            group.addTask {
                let result = await payment(index)
                recorder.finish(result, duration: measuredFrom.duration(to: clock.now))
                return .finished
            }
        }
        await schedule.drain(&group)
        // Stops the watchdog and the watcher (or, past the deadline, the payments still running); the group then
        // waits for all.
        group.cancelAll()
    }
    return (schedule.started, schedule.start.duration(to: schedule.clock.now))
}

/// What a child task of a load run reports when it ends.
private enum LoadEvent: Sendable {
    case finished, deadline, interrupted, graceOver, idle
}

/// Where a load run stands: its bounds, how many payments it started and has in flight, and whether it was stopped
/// (``expired`` at the deadline or the grace's end, ``stopping`` once an interruption was seen).
private struct LoadSchedule {
    let plan: LoadPlan
    let interruption: Interruption?
    let stopGrace: Duration
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    var started = 0
    var inFlight = 0
    var expired = false
    var stopping = false

    /// A schedule that starts now.
    init(plan: LoadPlan, interruption: Interruption?, stopGrace: Duration) {
        self.plan = plan
        self.interruption = interruption
        self.stopGrace = stopGrace
        start = ContinuousClock.now
        deadline = start.advanced(by: plan.maxDuration)
    }

    /// Whether another payment may start: fewer than `count` started, not stopped or interrupted, the deadline not
    /// reached.
    var mayStartAnother: Bool {
        started < plan.count && !expired && !stopping && interruption?.received == nil && clock.now < deadline
    }

    /// Adds the watchdog (at the deadline the payments still running are cancelled) and, when the run can be
    /// interrupted, the watcher that reports the first signal.
    func addWatchers(to group: inout TaskGroup<LoadEvent>) {
        let deadline = self.deadline
        let clock = self.clock
        group.addTask {
            do {
                try await Task.sleep(until: deadline, clock: clock)
                return .deadline
            } catch {
                return .idle
            }
        }
        if let interruption = self.interruption {
            group.addTask {
                for await _ in interruption.signals { return .interrupted }
                return .idle
            }
        }
    }

    /// When the next payment is meant to start: now, or, when paced, its slot in the rate's schedule once that slot
    /// has come (waited for in steps of at most 100 ms, so an interruption is seen meanwhile).
    ///
    /// - Returns: `nil` when no more payments start: the slot is past the deadline, or an interruption came.
    func nextStart() async -> ContinuousClock.Instant? {
        guard let rate = plan.rate else { return clock.now }
        let intended = start.advanced(by: .seconds(Double(started) / rate))
        guard intended < deadline else { return nil }
        while intended > clock.now, interruption?.received == nil {
            try? await Task.sleep(until: min(intended, clock.now.advanced(by: .milliseconds(100))), clock: clock)
        }
        return interruption?.received == nil ? intended : nil
    }

    /// Waits for the group's next event and handles it.
    mutating func collect(from group: inout TaskGroup<LoadEvent>) async {
        guard let event = await group.next() else { return }
        handle(event, in: &group)
    }

    /// After the last start: when interrupted, collects until the watcher has reported it too (so that the grace
    /// period runs), then until no payment is in flight or the run expired.
    mutating func drain(_ group: inout TaskGroup<LoadEvent>) async {
        if interruption?.received != nil { while !stopping, !expired { await collect(from: &group) } }
        while inFlight > 0, !expired { await collect(from: &group) }
    }

    /// Counts a finished payment; at the deadline or the grace's end cancels what runs; at an interruption starts the
    /// grace period.
    private mutating func handle(_ event: LoadEvent, in group: inout TaskGroup<LoadEvent>) {
        switch event {
        case .finished:
            inFlight -= 1
        case .deadline, .graceOver:
            expired = true
            group.cancelAll()
        case .interrupted:
            stopping = true
            let graceEnd = clock.now.advanced(by: stopGrace)
            let clock = self.clock
            let interruption = self.interruption
            group.addTask { await Self.waitOutGrace(until: graceEnd, clock: clock, interruption: interruption) }
        case .idle:
            break
        }
    }

    /// The grace period after an interruption: in-flight payments get until `graceEnd`; a second signal ends the
    /// wait at once.
    ///
    /// - Returns: `.graceOver`, or `.idle` when the run cancelled the wait (it ended first).
    private static func waitOutGrace(
        until graceEnd: ContinuousClock.Instant, clock: ContinuousClock, interruption: Interruption?
    ) async -> LoadEvent {
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
}
