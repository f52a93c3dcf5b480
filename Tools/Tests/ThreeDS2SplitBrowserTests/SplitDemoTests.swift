import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// `threeds demo --split --once` as the README says to use it: a person opens the printed address in a browser and
/// pays. The command runs as a process of its own (its output to a pipe, as from a script); the person is headless
/// Chromium.
@Suite("threeds demo --split: the shop's address, opened in a browser, pays through the Split-SDK")
struct SplitDemoTests {
    /// The `threeds` built beside the tests.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("threeds")
            .path
    }

    /// Reads the process's output on a thread of its own until it ends.
    final class Output: Sendable {
        private let text = Locked("")

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            let text = self.text
            Thread {
                while case let data = handle.availableData, !data.isEmpty {
                    text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }.start()
        }

        var printed: String { text.withLock { $0 } }

        /// Waits (a backstop of five minutes) until the output holds a match of `pattern`; returns the match.
        func wait(for pattern: String) async throws -> String {
            let regex = try NSRegularExpression(pattern: pattern)
            let deadline = ContinuousClock.now.advanced(by: .seconds(300))
            while ContinuousClock.now < deadline {
                let current = printed
                if let match = regex.firstMatch(in: current, range: NSRange(current.startIndex..., in: current)),
                    let range = Range(match.range, in: current)
                {
                    return String(current[range])
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw BrowserTestError("threeds demo --split never printed /\(pattern)/; it printed: \(printed)")
        }
    }

    /// Starts `threeds` with these arguments, standard input empty, its output and errors read together.
    static func launch(_ arguments: [String], columns: Int? = nil) throws -> (Process, Output) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let columns {
            process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "\(columns)"]) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = Output(pipe)
        try process.run()
        return (process, output)
    }

    /// Waits until the process has exited, at most two minutes (a backstop: the caller checks `isRunning`).
    static func awaitExit(_ process: Process) async throws {
        let ended = ContinuousClock.now.advanced(by: .seconds(120))
        while process.isRunning, ContinuousClock.now < ended { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test("--once without --split, --split with --auto, --split in 2.2.0: usage errors (exit 2) that say why")
    func usageErrors() async throws {
        for (arguments, said) in [
            (["--once"], "--once goes with --split"),
            (["--split", "--auto"], "--split is answered in a browser"),
            (["--split", "--message-version", "2.2.0"], "--split runs 2.3.1"),
        ] {
            try await Self.expectRefused(["demo"] + arguments, saying: said)
        }
    }

    /// Runs `threeds` with options it must refuse: exit 2, saying `said`; a run that starts instead is stopped.
    static func expectRefused(_ arguments: [String], saying said: String) async throws {
        let (process, output) = try launch(arguments)
        try await awaitExit(process)
        if process.isRunning {
            // It started instead of refusing: stop it (it would run until interrupted).
            process.terminate()
            process.waitUntilExit()
            Issue.record("threeds \(arguments) did not refuse its options: \(output.printed)")
            return
        }
        _ = try await output.wait(for: NSRegularExpression.escapedPattern(for: said))
        #expect(process.terminationStatus == 2, "\(arguments): \(output.printed)")
    }

    @Test("the printed address, Pay, the code 123456: the challenge completes with Y and the command says so, exit 0")
    func paysInABrowser() async throws {
        // Wide lines: the address and "in a browser" stay on one line whatever COLUMNS the test run has.
        let (process, output) = try Self.launch(["demo", "--split", "--once"], columns: 200)
        defer { if process.isRunning { process.terminate() } }
        let address = try await output.wait(for: "http://127\\.0\\.0\\.1:[0-9]+/(?=\\s+in a browser)")
        // The shop's backend answers its own page only: no Origin, another origin, or another Host name is refused.
        let origin = String(address.dropLast())
        for headers in [[:], ["Origin": "http://127.0.0.1:1"], ["Origin": origin, "Host": "shop.example"]] {
            var request = HTTPClientRequest(url: address + "shop/session")
            request.method = .POST
            for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            #expect(response.status == .forbidden, "\(headers)")
        }
        try await Browser.run(windowSize: (480, 900)) { browser in
            try await browser.navigate(to: address)
            try await browser.waitUntil("document.getElementById('pay')")
            try await browser.click(browser.element("#pay"))
            let frame = ChallengeFrame(browser: browser, page: ChallengeBrowser(browser: browser))
            try await frame.waitForScreen()
            try await frame.enter("123456")
            try await frame.submit()
            try await ChallengeBrowser(browser: browser).event("finished")
        }
        _ = try await output.wait(for: "Split-SDK challenge completed: transStatus Y")
        try await Self.awaitExit(process)
        #expect(!process.isRunning, "\(output.printed)")
        if !process.isRunning { #expect(process.terminationStatus == 0, "\(output.printed)") }
    }
}
