import Foundation
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// Runs a user's command through `/bin/sh -c`, bounded in time: at the deadline every descendant of the shell is
/// stopped (children, grandchildren and further: any of them may hold the output pipe open), then the shell. Used by
/// `--requestor-exec` and `--oob-app-command`.
enum ShellCommand {
    /// How the command ended.
    struct Outcome {
        /// The exit status.
        var status: Int32
        /// What it printed on standard output, when captured (at most `maxOutputBytes`).
        var output: [UInt8]
        /// Whether it was stopped at the deadline.
        var timedOut: Bool
    }

    /// Runs the command.
    ///
    /// - Parameters:
    ///   - script: The shell command.
    ///   - arguments: `$0`, `$1`, … for the script.
    ///   - input: Written to its standard input (then closed); no input when `nil`.
    ///   - capturingOutput: Whether standard output is captured; otherwise it goes to standard error, as the
    ///     command's own standard error always does.
    ///   - maxOutputBytes: The most output read.
    ///   - timeLimit: How long it may run.
    /// - Returns: How it ended; `nil` when `/bin/sh` could not be started.
    static func run(
        _ script: String, arguments: [String] = [], input: [UInt8]? = nil, capturingOutput: Bool,
        maxOutputBytes: Int = 1 << 20, timeLimit: Duration
    ) async -> Outcome? {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: spawnAndWait(
                        script, arguments: arguments, input: input, capturingOutput: capturingOutput,
                        maxOutputBytes: maxOutputBytes, timeLimit: timeLimit))
            }.start()
        }
    }

    /// The blocking body of ``run(_:arguments:input:capturingOutput:maxOutputBytes:timeLimit:)``.
    ///
    /// The shell is started with `posix_spawn`, not `Process`, so that it inherits standard input, output and error
    /// only: every other descriptor is closed in the child (`posix_spawn_file_actions_addclosefrom_np`
    /// where the C library has it, else each descriptor open at the spawn, and `POSIX_SPAWN_CLOEXEC_DEFAULT` on
    /// Apple platforms); `Process` on Linux leaves its own monitoring socket and the other end of its pipes open in
    /// the child.
    private static func spawnAndWait(
        _ script: String, arguments: [String], input: [UInt8]?, capturingOutput: Bool, maxOutputBytes: Int,
        timeLimit: Duration
    ) -> Outcome? {
        // Descriptors opened by other threads meanwhile: close-on-exec too.
        markDescriptorsCloseOnExec()
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { return nil }
        guard pipe(&outputPipe) == 0 else {
            inputPipe.forEach { close($0) }
            return nil
        }
        for descriptor in inputPipe + outputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let nullDevice = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if nullDevice >= 0 { close(nullDevice) } }
        let pid = spawnShell(
            script, arguments: arguments, standardInput: input == nil ? nullDevice : inputPipe[0],
            standardOutput: capturingOutput ? outputPipe[1] : 2)
        close(inputPipe[0])
        close(outputPipe[1])
        guard let pid else {
            close(inputPipe[1])
            close(outputPipe[0])
            return nil
        }
        // `finished` is set once the shell has exited but before it is reaped, so a signal is never sent to a
        // process ID the system may have reused.
        let state = Locked((finished: false, stopped: false))
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(timeLimit.components.seconds)) {
            stopAtDeadline(pid, state: state)
        }
        if let input { writeAll(input, to: inputPipe[1]) }
        close(inputPipe[1])
        let output = capturingOutput ? readOutput(from: outputPipe[0], maxBytes: maxOutputBytes) : []
        close(outputPipe[0])
        let status = waitForExit(pid, state: state)
        return Outcome(status: status, output: output, timedOut: state.withLock { $0.stopped })
    }

    /// Starts `/bin/sh -c script arguments…` with the given standard input and output (standard error inherited)
    /// and no other descriptor from 3 up.
    ///
    /// - Returns: The shell's process ID; `nil` when `posix_spawn` failed.
    private static func spawnShell(
        _ script: String, arguments: [String], standardInput: Int32, standardOutput: Int32
    ) -> pid_t? {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        closeInheritedDescriptors(&actions, attributes: &attributes)
        let argv = (["/bin/sh", "-c", script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// Writes all of `input` to `descriptor`, or as much as the reader takes: a command that does not read its input
    /// closes the pipe, which is not an error (SIGPIPE is ignored).
    private static func writeAll(_ input: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < input.count {
            let written = input.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
    }

    /// Reads `descriptor` until its end or until `maxBytes` were read.
    private static func readOutput(from descriptor: Int32, maxBytes: Int) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while output.count < maxBytes {
            let wanted = min(buffer.count, maxBytes - output.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        return output
    }

    /// Waits for the shell to exit, sets `finished` before reaping it (so ``stopAtDeadline(_:state:)`` never signals
    /// a reused process ID), then reaps it.
    ///
    /// - Returns: As `Process.terminationStatus`: the exit status, or the signal that ended the shell.
    private static func waitForExit(_ pid: pid_t, state: Locked<(finished: Bool, stopped: Bool)>) -> Int32 {
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        state.withLock { $0.finished = true }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    /// Stops the shell and everything it started, unless it has finished: the shell is held still (SIGSTOP) while
    /// its descendants are stopped, since a shell that saw its command killed would print `Terminated` (dash, bash)
    /// on the user's standard error, as if the CLI had been; then SIGTERM ends it (a stopped shell at once, unless its
    /// script traps the signal, which SIGCONT then lets run), and SIGKILL after a grace if it is still there.
    private static func stopAtDeadline(_ shell: pid_t, state: Locked<(finished: Bool, stopped: Bool)>) {
        guard !state.withLock({ $0.finished }) else { return }
        state.withLock { $0.stopped = true }
        state.withLock { if !$0.finished { kill(shell, SIGSTOP) } }
        stopTree(shell)
        state.withLock {
            if !$0.finished {
                kill(shell, SIGTERM)
                kill(shell, SIGCONT)
            }
        }
        usleep(300_000)
        state.withLock { if !$0.finished { kill(shell, SIGKILL) } }
    }

    /// Makes the spawn close every descriptor from 3 up in the child.
    #if canImport(Darwin)
        private static func closeInheritedDescriptors(
            _ actions: inout posix_spawn_file_actions_t?, attributes: inout posix_spawnattr_t?
        ) {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        }
    #else
        private static func closeInheritedDescriptors(
            _ actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t
        ) {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let library = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np")
            {
                let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
                if closeFrom(&actions, 3) == 0 { return }
            }
            // An older C library: close each descriptor open now (the close-on-exec marks cover any opened later).
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in names.compactMap({ Int32($0) }) where descriptor > 2 {
                if fcntl(descriptor, F_GETFD) >= 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
            }
        }
    #endif

    /// Marks every open descriptor from 3 up close-on-exec, so a child started next inherits only 0, 1 and 2 (and the
    /// pipes `Process` places there). Descriptors are listed from `/proc/self/fd` (Linux) or `/dev/fd`, else tried up
    /// to the descriptor limit (at most 65,536).
    static func markDescriptorsCloseOnExec() {
        var descriptors: [Int32] = []
        for folder in ["/proc/self/fd", "/dev/fd"] {
            if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
                descriptors = names.compactMap { Int32($0) }
                break
            }
        }
        if descriptors.isEmpty { descriptors = Array(0..<Int32(min(Int(getdtablesize()), 65_536))) }
        for descriptor in descriptors where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Stops every descendant of `root` (children, grandchildren and further): SIGTERM to all of them, then, after
    /// a short grace, SIGKILL to any still there (a signal may be blocked in what the command started). The root is
    /// left to the caller.
    static func stopTree(_ root: Int32) {
        for signal in [SIGTERM, SIGKILL] {
            for pid in descendants(of: root) { kill(pid, signal) }
            if signal == SIGTERM { usleep(300_000) }
        }
    }

    /// Every descendant of a process, found level by level (at most 4,096).
    static func descendants(of root: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = children(of: root)
        while let pid = queue.first, found.count < 4096 {
            queue.removeFirst()
            guard !found.contains(pid) else { continue }
            found.append(pid)
            queue += children(of: pid)
        }
        return found
    }

    /// The direct children of a process (`pgrep -P`).
    static func children(of pid: Int32) -> [Int32] {
        let lister = Process()
        lister.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        lister.arguments = ["-P", "\(pid)"]
        let output = Pipe()
        lister.standardOutput = output
        lister.standardError = FileHandle.nullDevice
        guard (try? lister.run()) != nil else { return [] }
        let data = (try? output.fileHandleForReading.readToEnd()) ?? nil
        lister.waitUntilExit()
        return String(decoding: data ?? Data(), as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            Int32($0)
        }
    }
}
