import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// `threeds load` against TestLabs in this process, over HTTPS on 127.0.0.1.
@Suite("threeds load")
struct LoadTests {
    static let answers: String = {
        let path = scratchDirectory("load") + "/answers.json"
        try? Data(#"[{"action":"submit","text":"123456"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    func load(_ lab: TestLab, _ pki: String, card: Scenario, _ extra: [String]) -> [String] {
        [
            "load", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", card.cardNumber, "--amount", "1999", "--currency", "978",
            "--answers", Self.answers,
        ] + extra
    }

    /// The last line of the output, parsed as the JSON report.
    func report(_ output: String) throws -> JSONObject {
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
        return try #require(try JSONParser().parse(String(line)).objectValue)
    }

    func number(_ value: JSONValue?) -> String? {
        guard case .number(let text)? = value else { return nil }
        return text
    }

    func int(_ value: JSONValue?) -> Int? { number(value).flatMap { Int($0) } }

    static let commentsOnly: String = {
        let path = scratchDirectory("load") + "/empty.hlog"
        try? Data("#[Histogram log format version 1.3]\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    @Test("challenges: every payment completes, counted once; per-phase percentiles in milliseconds")
    func challenges() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(
            load(lab, pki, card: .text, ["--count", "30", "--concurrency", "6", "--json"]))
        #expect(result.status == 0, "\(result.output)")
        let json = try report(result.output)
        #expect(int(json["total"]) == 30 && int(json["finished"]) == 30 && int(json["notStarted"]) == 0)
        #expect(json["outcomes"] == .object(["completed Y": .number("30")]))
        let phases = try #require(json["phases"]?.objectValue)
        #expect(int(phases["payment"]?.objectValue?["count"]) == 30)
        #expect(int(phases["server"]?.objectValue?["count"]) == 30)
        #expect(int(phases["challenge"]?.objectValue?["count"]) == 30)
        #expect(int(phases["exchange"]?.objectValue?["count"]) == 60, "two CReq/CRes exchanges per text challenge")
        // The results leg: each challenge's RReq at the lab's 3DS Server, timed and counted, none disagreeing.
        #expect(int(phases["results"]?.objectValue?["count"]) == 30)
        #expect(json["results"] == .object(["RReq Y": .number("30")]) && int(json["resultDisagreements"]) == 0)
        for phase in ["payment", "server", "exchange", "challenge", "results"] {
            let entry = try #require(phases[phase]?.objectValue)
            let values = try ["p50", "p90", "p99", "p99.9", "max"].map { name in
                try #require(number(entry[name]).flatMap(Double.init), "\(phase) \(name)")
            }
            #expect(values.first! > 0 && values == values.sorted(), "\(phase): \(values)")
        }
        #expect(json["errors"] == .object([:]))
        // The client's CPU: positive, and per payment the total over the 30 finished payments (both printed to three
        // decimals, so they agree within the total's rounding, 0.5 ms / 30).
        let cpu = try #require(number(json["clientCPUSeconds"]).flatMap(Double.init))
        let perPayment = try #require(number(json["clientCPUMillisecondsPerPayment"]).flatMap(Double.init))
        #expect(cpu > 0 && abs(perPayment - cpu * 1000 / 30) <= 0.5 / 30 + 0.001, "\(cpu) s, \(perPayment) ms")
    }

    @Test("the security findings are said once for the run, on standard error, however many payments it makes")
    func findingsOnce() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(
            load(lab, pki, card: .frictionlessN, ["--count", "6", "--concurrency", "3", "--json"]))
        #expect(result.status == 0, "\(result.output)")
        let findings = result.output.components(separatedBy: "security checks:").count - 1
        // As root (SW01) they are raised: once; elsewhere at most once.
        #expect(findings == (getuid() == 0 ? 1 : findings) && findings <= 1, "\(result.output)")
        #expect(!result.output.contains("security warning SW"), "no details without --verbose")
        _ = try report(result.output)
    }

    @Test("paced by --rate: frictionless payments, latency counted from the intended start")
    func rate() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(
            load(lab, pki, card: .frictionlessN, ["--count", "12", "--rate", "40", "--concurrency", "4", "--json"]))
        #expect(result.status == 0, "\(result.output)")
        let json = try report(result.output)
        #expect(json["outcomes"] == .object(["frictionless N": .number("12")]))
        let seconds = try #require(number(json["durationSeconds"]).flatMap(Double.init))
        #expect(seconds >= 11.0 / 40, "12 payments at 40 per second take at least 0.275 s, took \(seconds)")
        #expect(int(json["phases"]?.objectValue?["challenge"]?.objectValue?["count"]) == 0)
    }

    @Test("failed payments: counted by kind with the protocol error code, errors grouped by message, exit 1")
    func failures() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(
            load(lab, pki, card: .faultErro, ["--count", "5", "--concurrency", "5", "--json"]))
        #expect(result.status == 1, "\(result.output)")
        let json = try report(result.output)
        #expect(json["outcomes"] == .object(["protocolError 305": .number("5")]))
        let errors = try #require(json["errors"]?.objectValue)
        #expect(errors.count == 1 && int(errors.members.first?.value) == 5, "\(errors)")
        #expect(errors.names.first?.contains("305") == true)
    }

    @Test("the table for people: outcomes, the latency rows and no errors")
    func table() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(load(lab, pki, card: .text, ["--count", "4", "--concurrency", "2"]))
        #expect(result.status == 0, "\(result.output)")
        for line in [
            "4 payments (4 started), at most 2 at a time", "completed Y", "whole payment", "3DS Server round trip",
            "CReq/CRes exchange", "whole challenge", "Errors: none", "Peak resident memory",
            "ms per finished payment)",
        ] {
            #expect(result.output.contains(line), "missing \(line)")
        }
        #expect(!result.output.contains("\u{1B}"), "no live progress line when not on a terminal")
    }

    @Test("--max-duration bounds the run: later payments are not started and the run fails")
    func maxDuration() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let result = try await runThreeds(
            load(lab, pki, card: .frictionlessY, ["--count", "50", "--rate", "2", "--max-duration", "1", "--json"]))
        #expect(result.status == 1, "\(result.output)")
        let json = try report(result.output)
        let started = try #require(int(json["started"]))
        #expect((1...3).contains(started), "started \(started)")
        #expect(int(json["notStarted"]) == 50 - started)
    }

    @Test("the histogram log round-trips through load merge: one log twice doubles the counts, same percentiles")
    func histogramLog() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let log = scratchDirectory("load") + "/run.hlog"
        let result = try await runThreeds(
            load(lab, pki, card: .text, ["--count", "10", "--concurrency", "5", "--json", "--histogram-log", log]))
        #expect(result.status == 0, "\(result.output)")
        let phases = try #require(report(result.output)["phases"]?.objectValue)
        let merged = try await runThreeds(["load", "merge", log, log, "--json"])
        #expect(merged.status == 0, "\(merged.output)")
        let mergedPhases = try #require(report(merged.output)["phases"]?.objectValue)
        #expect(mergedPhases.names == ["payment", "server", "exchange", "challenge", "results"])
        for (name, value) in phases.members {
            let single = try #require(value.objectValue)
            let double = try #require(mergedPhases[name]?.objectValue)
            #expect(int(double["count"]) == 2 * int(single["count"])!, "\(name)")
            for key in ["p50", "p90", "p99", "max"] { #expect(double[key] == single[key], "\(name) \(key)") }
        }
        let text = try await runThreeds(["load", "merge", log])
        #expect(text.status == 0 && text.output.contains("Merged 1 log") && text.output.contains("whole challenge"))
        // The merge's own log (--histogram-log) reads back as the merged histograms.
        let mergedLog = scratchDirectory("load") + "/merged.hlog"
        let written = try await runThreeds(["load", "merge", log, log, "--histogram-log", mergedLog])
        #expect(written.status == 0, "\(written.output)")
        let reread = try await runThreeds(["load", "merge", mergedLog, "--json"])
        #expect(try report(reread.output)["phases"] == .object(mergedPhases))
    }

    @Test(
        "bad input is refused with a reason",
        arguments: [
            (["load", "merge"], Int32(2), "Missing expected argument"),
            (["load", "merge", "/nonexistent.hlog"], 2, "no such file"),
            (["load", "merge", commentsOnly], 1, "holds no histogram"),
            (["load", "merge", #filePath], 1, "LoadTests.swift line 1: not an interval histogram line"),
        ])
    func badInput(arguments: [String], status: Int32, message: String) async throws {
        let result = try await runThreeds(arguments)
        #expect(result.status == status, "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test(
        "bad load options exit 2 before any payment",
        arguments: [
            (["--count", "0"], "--count must be 1 to 1000000"),
            (["--concurrency", "0"], "--concurrency must be 1 to 5000"),
            (["--rate", "0"], "--rate must be 0.01 to 100000"),
            (["--histogram-log", "/nonexistent/dir/x.hlog"], "the directory does not exist"),
        ])
    func badOptions(extra: [String], message: String) async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        // An amount of this case's own (``sent(_:amount:)``).
        let amount = ["--count": "1971", "--concurrency": "1972", "--rate": "1973"][extra[0]] ?? "1974"
        let result = try await runThreeds(load(lab, pki, card: .text, extra).map { $0 == "1999" ? amount : $0 })
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
        #expect(!sent(lab, amount: amount), "nothing reached the 3DS Server")
    }
}
