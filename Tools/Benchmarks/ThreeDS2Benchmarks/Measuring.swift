import BenchmarkFixtures
import Foundation

/// One composite operation against its floor: the median time per call of each.
struct Measurement: Sendable {
    let name: String
    let composite: Duration
    let floor: Duration
    var ratio: Double { seconds(composite) / seconds(floor) }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func format(_ duration: Duration) -> String {
    let value = seconds(duration)
    return value >= 1e-3 ? String(format: "%8.3f ms", value * 1e3) : String(format: "%8.2f µs", value * 1e6)
}

/// Times `iterations` calls of `body`; returns the per-call time. Synchronous, so nothing but the body is timed.
func timePerCall(iterations: Int, _ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    return (clock.now - start) / iterations
}

/// The async form, for operations that are async themselves (certificate path validation). The bodies are
/// `@Sendable` and nonisolated, so each call runs on the caller's executor: no hop to the main thread and back (two
/// thread switches that an SDK call from a task does not pay, and which once took a third of the signed-content rows).
func timePerCall(iterations: Int, _ body: @Sendable () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try await body() }
    return (clock.now - start) / iterations
}

func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }

extension Options {
    /// Whether `--only` selects the measurement `name`; announces it on standard error when it does.
    func selected(_ name: String) -> Bool {
        if let only, !name.localizedCaseInsensitiveContains(only) { return false }
        FileHandle.standardError.write(Data("measuring \(name)\n".utf8))
        return true
    }

    /// Measures composite and floor alternately, round by round, so drift affects both alike; `nil` when `--only`
    /// leaves the measurement out.
    func compare(
        _ name: String, iterations: Int, composite: () throws -> Void, floor: () throws -> Void
    ) throws -> Measurement? {
        guard selected(name) else { return nil }
        let iterations = scaled(iterations)
        for _ in 0..<max(1, iterations / 4) {
            try composite()
            try floor()
        }
        var compositeSamples: [Duration] = []
        var floorSamples: [Duration] = []
        for _ in 0..<rounds {
            compositeSamples.append(try timePerCall(iterations: iterations, composite))
            floorSamples.append(try timePerCall(iterations: iterations, floor))
        }
        return Measurement(name: name, composite: median(compositeSamples), floor: median(floorSamples))
    }

    /// ``compare(_:iterations:composite:floor:)`` for async operations.
    func compareAsync(
        _ name: String, iterations: Int, composite: @Sendable () async throws -> Void,
        floor: @Sendable () async throws -> Void
    ) async throws -> Measurement? {
        guard selected(name) else { return nil }
        let iterations = scaled(iterations)
        for _ in 0..<max(1, iterations / 4) {
            try await composite()
            try await floor()
        }
        var compositeSamples: [Duration] = []
        var floorSamples: [Duration] = []
        for _ in 0..<rounds {
            compositeSamples.append(try await timePerCall(iterations: iterations, composite))
            floorSamples.append(try await timePerCall(iterations: iterations, floor))
        }
        return Measurement(name: name, composite: median(compositeSamples), floor: median(floorSamples))
    }

    /// The median per-call time of `body` alone over the benchmark's rounds (the peer comparison has no floor).
    func time(iterations: Int, _ body: @Sendable () async throws -> Void) async throws -> Duration {
        let iterations = scaled(iterations)
        for _ in 0..<max(1, iterations / 4) { try await body() }
        var samples: [Duration] = []
        for _ in 0..<rounds { samples.append(try await timePerCall(iterations: iterations, body)) }
        return median(samples)
    }
}
