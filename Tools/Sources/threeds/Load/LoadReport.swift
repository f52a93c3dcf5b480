import Foundation
import Histogram
import ThreeDS2JOSE

extension LatencyHistogram {
    /// The value at a percentile as reported: the highest value equivalent to it (HdrHistogram's convention for
    /// output), so a histogram read back from a log reports exactly what the run did.
    func reported(_ percentile: Double) -> UInt64 { highestEquivalentForValue(valueAtPercentile(percentile)) }
}

/// The results of a load run, as a table for people and as JSON for scripts.
struct LoadReport {
    let plan: LoadPlan
    var total: Int { plan.count }
    let started: Int
    let elapsed: Duration
    let state: LoadRecorder.State
    let peakRSSBytes: Int
    /// The CPU time this process spent during the run: the SDK, the HTTP client and TLS, everything the client
    /// side of the payments cost.
    let cpuSeconds: Double
    /// The signal that interrupted the run (SIGINT, SIGTERM), if one did.
    var interruptedBy: Int32?

    /// CPU milliseconds per finished payment; `nil` when none finished.
    var cpuMillisecondsPerPayment: Double? {
        state.finished > 0 ? cpuSeconds * 1000 / Double(state.finished) : nil
    }

    /// The percentiles reported, with their JSON names.
    static let percentiles: [(name: String, value: Double)] = [
        ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
    ]

    var seconds: Double { Double(elapsed.microseconds) / 1e6 }
    var throughput: Double { seconds > 0 ? Double(state.finished) / seconds : 0 }

    /// Whether every payment ended without an error and none was left unstarted.
    var allSucceeded: Bool { state.failed == 0 && started == total && state.finished == total }

    var phases: [(tag: String, histogram: LatencyHistogram)] {
        Phase.allCases.compactMap { phase in state.histograms[phase].map { (phase.rawValue, $0) } }
    }

    func taggedHistograms() -> [TaggedHistogram] {
        phases.map { TaggedHistogram(tag: $0.tag, start: 0, length: seconds, histogram: $0.histogram) }
    }

    var json: JSONObject {
        var object = JSONObject([
            ("total", .number(String(total))),
            ("started", .number(String(started))),
            ("finished", .number(String(state.finished))),
            ("notStarted", .number(String(total - started))),
            ("durationSeconds", .number(String(format: "%.3f", seconds))),
            ("throughputPerSecond", .number(String(format: "%.2f", throughput))),
            (
                "outcomes",
                .object(JSONObject(state.outcomes.sorted { $0.key < $1.key }.map { ($0.key, Self.int($0.value)) }))
            ),
            (
                "results",
                .object(JSONObject(state.results.sorted { $0.key < $1.key }.map { ($0.key, Self.int($0.value)) }))
            ),
            ("resultDisagreements", Self.int(state.disagreements)),
            ("phases", .object(Self.phasesJSON(phases))),
            (
                "errors",
                .object(JSONObject(state.errors.sorted { $0.value > $1.value }.map { ($0.key, Self.int($0.value)) }))
            ),
            ("peakRSSBytes", .number(String(peakRSSBytes))),
            ("clientCPUSeconds", .number(String(format: "%.3f", cpuSeconds))),
        ])
        if let perPayment = cpuMillisecondsPerPayment {
            object["clientCPUMillisecondsPerPayment"] = .number(String(format: "%.3f", perPayment))
        }
        if state.overflow > 0 { object["latenciesBeyondOneHour"] = Self.int(state.overflow) }
        if let interruptedBy { object["interruptedBy"] = .string(Interruption.name(interruptedBy)) }
        return object
    }

    var pacing: String {
        let limit = "at most \(plan.concurrency) at a time"
        return plan.rate.map { String(format: "%.2f started per second, ", $0) + limit } ?? limit
    }

    var text: String {
        var lines = [
            "\(total) payments (\(started) started), \(pacing), in "
                + String(format: "%.2f s: %.1f payments/s", seconds, throughput)
        ]
        if let interruptedBy {
            lines.append(
                "Interrupted by \(Interruption.name(interruptedBy)): no payment started after it; "
                    + "\(state.finished) finished")
        }
        lines.append("Outcomes:")
        for (kind, count) in state.outcomes.sorted(by: { $0.value > $1.value }) {
            lines.append("  " + kind.padding(toLength: 24, withPad: " ", startingAt: 0) + String(count))
        }
        if total > started {
            lines.append(
                "  " + "not started".padding(toLength: 24, withPad: " ", startingAt: 0) + String(total - started))
        }
        if !state.results.isEmpty {
            lines.append("Results at the 3DS Server (after challenges):")
            for (kind, count) in state.results.sorted(by: { $0.value > $1.value }) {
                lines.append("  " + kind.padding(toLength: 24, withPad: " ", startingAt: 0) + String(count))
            }
            if state.disagreements > 0 {
                lines.append("  DISAGREEING with the final CRes: \(state.disagreements)")
            }
        }
        var text = lines.joined(separator: "\n") + "\n" + Self.latencyTable(phases)
        if state.errors.isEmpty {
            text += "Errors: none\n"
        } else {
            text += "Errors:\n"
            for (message, count) in state.errors.sorted(by: { $0.value > $1.value }) {
                text += "  \(count) × \(message)\n"
            }
        }
        text += String(format: "Peak resident memory: %.1f MB\n", Double(peakRSSBytes) / 1_048_576)
        text += String(format: "Client CPU: %.2f s", cpuSeconds)
        if let perPayment = cpuMillisecondsPerPayment {
            text += String(format: " (%.2f ms per finished payment)", perPayment)
        }
        return text + "\n"
    }

    static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    static func milliseconds(_ micros: UInt64) -> String { String(format: "%.3f", Double(micros) / 1000) }

    /// Per phase: count and percentiles in milliseconds.
    static func phasesJSON(_ phases: [(tag: String, histogram: LatencyHistogram)]) -> JSONObject {
        JSONObject(
            phases.map { phase in
                var entry = JSONObject([("count", .number(String(phase.histogram.totalCount)))])
                if phase.histogram.totalCount > 0 {
                    for (name, value) in percentiles {
                        entry[name] = .number(milliseconds(phase.histogram.reported(value)))
                    }
                    entry["max"] = .number(milliseconds(phase.histogram.max))
                }
                return (phase.tag, JSONValue.object(entry))
            })
    }

    /// The latency table: one row per phase, milliseconds.
    static func latencyTable(_ phases: [(tag: String, histogram: LatencyHistogram)]) -> String {
        func cell(_ text: String, _ width: Int = 10) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var text =
            "Latency (ms)".padding(toLength: 24, withPad: " ", startingAt: 0) + cell("count")
            + percentiles.map { cell($0.name) }.joined() + cell("max") + "\n"
        for (tag, histogram) in phases {
            let title = Phase(rawValue: tag)?.title ?? tag
            text += "  " + title.padding(toLength: 22, withPad: " ", startingAt: 0) + cell(String(histogram.totalCount))
            if histogram.totalCount > 0 {
                text += percentiles.map { cell(milliseconds(histogram.reported($0.value))) }.joined()
                text += cell(milliseconds(histogram.max))
            }
            text += "\n"
        }
        return text
    }
}
