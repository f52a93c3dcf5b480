import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    public import Darwin
#endif

/// A `chromedriver` child process listening on a free loopback port that it chose itself (`--port=0`).
///
/// It runs in a process group of its own, and the browsers it starts join that group: ``stop()`` kills the whole group
/// and reaps the driver, so a test leaves no `chromedriver` or `chromium` process behind (the tests check with
/// `pgrep`). Its output (standard output and error) is drained all the time, so it never blocks on a full pipe, and
/// is kept for error messages.
public final class ChromeDriverProcess: Sendable {
    /// The driver's process ID, also its process group's.
    public let pid: pid_t
    /// The loopback port the driver listens on.
    public let port: Int
    private let output: OutputDrain
    private let stopped = NIOLockedValueBox(false)

    /// The driver's base URL.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// What the driver printed so far.
    public var printed: String { output.text }

    private init(pid: pid_t, port: Int, output: OutputDrain) {
        self.pid = pid
        self.port = port
        self.output = output
    }

    /// Starts `chromedriver` and returns once it says on which port it listens.
    ///
    /// - Parameters:
    ///   - installation: Where the driver is.
    ///   - startLimit: How long the driver may take to say it listens.
    /// - Returns: The running driver.
    public static func start(_ installation: BrowserInstallation, startLimit: Duration = .seconds(60)) async throws
        -> ChromeDriverProcess
    {
        // Asked for port 0, the driver takes a free port for one address family and then binds the other family to the
        // same number, which another process may hold (seen with parallel tests: "bind() failed: Address already in
        // use … IPv4 port not available"). That is a lost race, not a broken driver: start again, a few times.
        var attempt = 1
        while true {
            do {
                return try await startOnce(installation, startLimit: startLimit)
            } catch BrowserError.driverDidNotStart(let printed) where attempt < 5 && isPortRace(printed) {
                attempt += 1
            }
        }
    }

    /// Whether the driver's output says that it lost the race for the port it chose.
    ///
    /// - Parameter printed: What the driver printed before it exited.
    /// - Returns: True for a lost race (start again), false for any other failure.
    public static func isPortRace(_ printed: String) -> Bool {
        printed.contains("port not available") || printed.contains("Address already in use")
    }

    private static func startOnce(_ installation: BrowserInstallation, startLimit: Duration) async throws
        -> ChromeDriverProcess
    {
        let (pid, readEnd) = try spawn(installation.chromedriver, arguments: ["--port=0", "--log-level=WARNING"])
        let drain = OutputDrain(fd: readEnd)
        let port: Int
        do {
            port = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await drain.port() }
                group.addTask {
                    try await Task.sleep(for: startLimit)
                    throw BrowserError.driverDidNotStart("no port within \(startLimit): \(drain.text)")
                }
                defer { group.cancelAll() }
                guard let port = try await group.next() else { throw CancellationError() }
                return port
            }
        } catch {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw error
        }
        return ChromeDriverProcess(pid: pid, port: port, output: drain)
    }

    /// Kills the driver's process group (the driver and every browser it started) and reaps the driver. Safe to
    /// call more than once.
    public func stop() {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // SIGKILL takes effect asynchronously: wait (at most 5 s) until no process of the group is still alive.
        for _ in 0..<250 where !Self.liveProcesses(inGroup: pid).isEmpty {
            usleep(20_000)
        }
    }

    /// The IDs of the live processes (zombies aside: init reaps the browser's) in a process group, from `/proc`;
    /// empty where there is no `/proc`.
    ///
    /// - Parameter group: The process group's ID.
    /// - Returns: The processes' IDs.
    public static func liveProcesses(inGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (name) ": state, parent, process group.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group else { return nil }
            return pid
        }
    }

    deinit { stop() }

    /// Starts the program in a new process group, its standard output and error on a pipe; returns its ID and the
    /// pipe's read end.
    private static func spawn(_ path: String, arguments: [String]) throws -> (pid_t, Int32) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BrowserError.driverDidNotStart("pipe: errno \(errno)") }
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw BrowserError.driverDidNotStart("cannot start \(path): errno \(result)")
        }
        return (pid, pipeEnds[0])
    }
}

/// Reads a child's output on a thread of its own until the pipe closes, keeping the text and telling the port once
/// the driver prints it.
private final class OutputDrain: Sendable {
    private struct State {
        var text = ""
        var port: Int?
        var ended = false
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }
    private let state = NIOLockedValueBox(State())

    /// Everything read so far (the first 64 KiB).
    var text: String { state.withLockedValue { $0.text } }

    init(fd: Int32) {
        let thread = Thread { [self] in read(fd) }
        thread.name = "chromedriver output"
        thread.start()
    }

    /// The port, once printed; throws when the output ends first.
    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let answer: Result<Int, BrowserError>? = state.withLockedValue { state in
                if let port = state.port { return .success(port) }
                if state.ended { return .failure(.driverDidNotStart(state.text)) }
                state.waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(with: answer) }
        }
    }

    private func read(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            #if canImport(Glibc)
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            #else
                let count = buffer.withUnsafeMutableBytes { Darwin.read(fd, $0.baseAddress, $0.count) }
            #endif
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        close(fd)
        let (waiters, text) = state.withLockedValue { state in
            state.ended = true
            defer { state.waiters = [] }
            return (state.waiters, state.text)
        }
        waiters.forEach { $0.resume(throwing: BrowserError.driverDidNotStart(text)) }
    }

    private func append(_ chunk: String) {
        let (waiters, port) = state.withLockedValue { state in
            if state.text.utf8.count < 65_536 { state.text += chunk }
            guard state.port == nil, let port = Self.port(in: state.text) else {
                return ([CheckedContinuation<Int, any Error>](), 0)
            }
            state.port = port
            defer { state.waiters = [] }
            return (state.waiters, port)
        }
        waiters.forEach { $0.resume(returning: port) }
    }

    /// The port in "ChromeDriver was started successfully on port 36203."
    static func port(in text: String) -> Int? {
        let marker = "started successfully on port "
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard text[range.upperBound...].dropFirst(digits.count).first == "." else { return nil }
        return Int(digits)
    }
}
