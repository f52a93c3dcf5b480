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
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", script] + arguments
                let stdin = Pipe()
                let stdout = Pipe()
                process.standardInput = input == nil ? FileHandle.nullDevice : stdin
                process.standardOutput = capturingOutput ? stdout : FileHandle.standardError
                process.standardError = FileHandle.standardError
                // The command inherits standard input, output and error only (issue 34): every other descriptor
                // this process holds (a socket to the ACS or the 3DS Server, a key log, a lock) is closed at exec.
                markDescriptorsCloseOnExec()
                do {
                    try process.run()
                } catch {
                    continuation.resume(returning: nil)
                    return
                }
                let stopped = Locked(false)
                DispatchQueue.global().asyncAfter(deadline: .now() + Double(timeLimit.components.seconds)) {
                    guard process.isRunning else { return }
                    stopped.withLock { $0 = true }
                    stopTree(process.processIdentifier)
                    process.terminate()
                    // The shell itself may have SIGTERM blocked: it gets SIGKILL if still there after a grace.
                    usleep(300_000)
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
                if let input {
                    // A command that does not read its input closes the pipe: that is not an error (SIGPIPE is
                    // ignored).
                    try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
                    try? stdin.fileHandleForWriting.close()
                }
                let output =
                    capturingOutput ? (try? stdout.fileHandleForReading.read(upToCount: maxOutputBytes)) ?? nil : nil
                process.waitUntilExit()
                continuation.resume(
                    returning: Outcome(
                        status: process.terminationStatus, output: Array(output ?? Data()),
                        timedOut: stopped.withLock { $0 }))
            }.start()
        }
    }

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
