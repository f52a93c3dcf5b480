import Foundation
import ThreeDS2SDK

/// Runs a user's command through `/bin/sh -c`, bounded in time: at the deadline the shell's children are stopped
/// first (they may hold the output pipe open), then the shell. Used by `--requestor-exec` and `--oob-app-command`.
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
                    let children = Process()
                    children.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
                    children.arguments = ["-TERM", "-P", "\(process.processIdentifier)"]
                    try? children.run()
                    children.waitUntilExit()
                    process.terminate()
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
}
