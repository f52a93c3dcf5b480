import Foundation
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// One `threeds` process of the CLI's process tests: the one runner they share. Its output is read on a thread of
/// its own as it comes, so a test waits for what the process prints (``output(containing:within:)``) or for its exit
/// (``exit()``), never for a fixed time; the bounds given are backstops that only a hung process reaches.
final class ThreedsRun: Sendable {
    /// How the binary is started.
    enum Launcher: Sendable {
        /// As it is.
        case direct
        /// In a new session without a controlling terminal (`setsid -w`).
        case withoutTerminal
        /// Through `sh -c SCRIPT`, in which `"$@"` is the binary and its arguments (`ulimit …; exec "$@"`).
        case shell(String)
    }

    /// Where the process's standard error goes.
    enum Errors: Sendable {
        /// Into the same pipe as its output.
        case merged
        /// Nowhere.
        case discarded
    }

    private struct State {
        var output = Data()
        var ended = false
        var nextWaiter = 0
        var waiting: [Int: (text: String, continuation: CheckedContinuation<String?, Never>)] = [:]
    }

    /// The process (for its identifier and termination status).
    let process: Process
    private let state = Locked(State())
    private let exited = AsyncSignal()
    private let outputEnded = AsyncSignal()

    /// Starts `threeds` with `arguments`.
    ///
    /// - Parameters:
    ///   - arguments: The command line after the binary.
    ///   - input: Standard input (then closed); `nil` for an empty one.
    ///   - environment: Added to this process's environment.
    ///   - launcher: How the binary is started.
    ///   - errors: Where standard error goes.
    init(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        launcher: Launcher = .direct, errors: Errors = .merged
    ) throws {
        let process = threedsProcess(arguments, environment: environment)
        switch launcher {
        case .direct: break
        case .withoutTerminal:
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["-w", TmuxSession.binary] + arguments
        case .shell(let script):
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, "sh", TmuxSession.binary] + arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors == .merged ? output : FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        self.process = process
        process.terminationHandler = { [exited] _ in exited.fire() }
        // A run that exits before it reads (a usage error) closes its end of the pipe: the write then fails with
        // EPIPE, which must not stop the test process with SIGPIPE. A shell in a terminal leaves SIGPIPE at its
        // default, which the suite run inside tmux met (signal 13); a pipeline had inherited it ignored.
        #if canImport(Glibc)
            _ = Glibc.signal(SIGPIPE, SIG_IGN)
        #endif
        try process.run()
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                received(chunk)
            }
            ended()
        }.start()
    }

    /// Everything printed so far.
    var text: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// Waits until the output holds `text` and returns the output so far; `nil` when the output ended, or `limit`
    /// passed, without it.
    ///
    /// - Parameters:
    ///   - text: What to wait for.
    ///   - limit: The backstop.
    /// - Returns: The output so far, or `nil`.
    func output(containing text: String, within limit: Duration = .seconds(120)) async -> String? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let backstop = Task { [self] in
            try? await Task.sleep(for: limit)
            resume(id, with: nil)
        }
        defer { backstop.cancel() }
        return await withCheckedContinuation { continuation in
            let now: String?? = state.withLock { state in
                let current = String(decoding: state.output, as: UTF8.self)
                if current.contains(text) { return .some(current) }
                if state.ended { return .some(nil) }
                state.waiting[id] = (text, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Sends a signal to the process.
    ///
    /// - Parameter number: The signal.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to exit and its output to end.
    ///
    /// - Returns: The exit status and everything it printed.
    func exit() async -> (status: Int32, output: String) {
        await exited.wait()
        await outputEnded.wait()
        return (process.terminationStatus, text)
    }

    /// Waits up to `limit` for the process to exit.
    ///
    /// - Parameter limit: The backstop.
    /// - Returns: Whether it exited.
    func exited(within limit: Duration) async -> Bool {
        let done = AsyncSignal()
        let waiter = Task { [exited] in
            await exited.wait()
            done.fire()
        }
        let backstop = Task {
            try? await Task.sleep(for: limit)
            done.fire()
        }
        await done.wait()
        backstop.cancel()
        _ = waiter
        return exited.fired
    }

    private func received(_ chunk: Data) {
        let ready = state.withLock { state -> [(CheckedContinuation<String?, Never>, String)] in
            state.output.append(chunk)
            let current = String(decoding: state.output, as: UTF8.self)
            let found = state.waiting.filter { current.contains($0.value.text) }
            for id in found.keys { state.waiting[id] = nil }
            return found.values.map { ($0.continuation, current) }
        }
        for (continuation, current) in ready { continuation.resume(returning: current) }
    }

    private func ended() {
        let waiting = state.withLock { state in
            state.ended = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
        outputEnded.fire()
    }

    private func resume(_ id: Int, with value: String?) {
        let waiter = state.withLock { state in
            defer { state.waiting[id] = nil }
            return state.waiting[id]
        }
        waiter?.continuation.resume(returning: value)
    }
}

/// Waits until `condition` holds, looking again every 20 ms, for something a process does that it does not print
/// (a payment reaching the lab); fails after `limit`.
///
/// - Parameters:
///   - what: What is awaited, for the failure's message.
///   - limit: The backstop.
///   - condition: The condition.
/// - Throws: `TestLabError` when `limit` passed first.
func waitUntil(
    _ what: String, within limit: Duration = .seconds(120), _ condition: () async -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !(await condition()) {
        guard clock.now < deadline else { throw TestLabError(.failed, "timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// How many one-shot `threeds` runs (``runThreeds(_:input:environment:)`` and its kin: started, then awaited to
/// their exit) the test process has going at once: twice the cores, at least 4. Swift Testing starts every test at
/// once; a hundred debug `threeds` processes on two busy cores made each one slow enough to meet its own real-time
/// limits (the protocol's 10 s CRes timer, the 3DS Server client's timeouts) against the in-process labs, which
/// starved with them (issue 43). A run waits for a slot before its process starts; it holds the slot only while its
/// process runs and never waits on another run meanwhile, so the slots cannot deadlock. Long-lived processes (a
/// `threeds testlab`, a run a test talks to) take none.
actor OneShotSlots {
    static let shared = OneShotSlots(limit: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` in a slot, waiting for one first.
    ///
    /// - Parameter body: The run: start a process and await its exit.
    /// - Returns: What `body` returns.
    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The slot passes to the first waiter: `running` stays.
            waiting.removeFirst().resume()
        }
    }
}

/// Whether an AReq for `amount` reached `lab`. The CLI labs are shared by tests paying beside each other: a test that
/// proves "nothing was sent" pays an amount no other test uses and looks for it, never at the lab's count (another
/// test's payment lands in between on a busy machine).
func sent(_ lab: TestLab, amount: String) -> Bool {
    lab.authentications.contains { $0.request["purchaseAmount"] == .string(amount) }
}
