import Foundation
import Synchronization
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2TestLab

/// Where the AReq parameters go and the ARes comes from: the built-in TestLab contract over HTTPS (`--server`), or
/// any command (`--requestor-exec`) that joins the CLI to a real 3DS Server's API.
enum Requestor {
    case server(URL)
    case exec(command: String, timeLimit: Duration)
}

/// Runs `--requestor-exec`'s command once per payment through `/bin/sh -c`: the request JSON (the TestLab contract's
/// body: the SDK's AReq parameters and the purchase) on its standard input, one JSON object in ARes field names
/// expected on its standard output; its standard error is passed through. Bounded in time and output size.
struct RequestorExec {
    let command: String
    let timeLimit: Duration

    /// The largest output read.
    static let maxOutputBytes = 1 << 20

    func authenticate(_ body: JSONObject, requestorAppURL: String?) async throws -> AuthenticationResponse {
        let (status, output, timedOut) = try await run(input: body.serializedBytes)
        let option = "--requestor-exec"
        if timedOut {
            throw CLIError(
                "\(option): the command ran past \(timeLimit.components.seconds) s and was stopped", exitStatus: 1)
        }
        guard status == 0 else {
            throw CLIError("\(option): the command exited with status \(status)", exitStatus: 1)
        }
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw CLIError("\(option): the command printed nothing", exitStatus: 1) }
        guard
            case .object(let object)? = try? JSONParser(limits: .init(maxBytes: Self.maxOutputBytes, maxDepth: 16))
                .parse(Array(text.utf8))
        else {
            throw CLIError(
                "\(option): the command's output is not one JSON object: \(text.prefix(120))", exitStatus: 1)
        }
        do {
            return try ThreeDSServerClient.response(from: object, requestorAppURL: requestorAppURL)
        } catch {
            throw CLIError(
                "\(option): \(error.message.replacingOccurrences(of: "the 3DS Server", with: "the command's answer"))",
                exitStatus: 1)
        }
    }

    /// Runs the command; returns its exit status, its standard output, and whether it was stopped at the time limit.
    private func run(input: [UInt8]) async throws -> (Int32, [UInt8], Bool) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { [command, timeLimit] in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", command]
                let stdin = Pipe()
                let stdout = Pipe()
                process.standardInput = stdin
                process.standardOutput = stdout
                process.standardError = FileHandle.standardError
                do {
                    try process.run()
                } catch {
                    continuation.resume(
                        throwing: CLIError("--requestor-exec: /bin/sh could not be started", exitStatus: 1))
                    return
                }
                let stopped = StopFlag()
                let seconds = Double(timeLimit.components.seconds)
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    guard process.isRunning else { return }
                    stopped.set()
                    // The shell's children first (they hold the output pipe open), then the shell.
                    let children = Process()
                    children.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
                    children.arguments = ["-TERM", "-P", "\(process.processIdentifier)"]
                    try? children.run()
                    children.waitUntilExit()
                    process.terminate()
                }
                // A command that does not read its input closes the pipe: that is not an error (SIGPIPE is ignored).
                try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
                try? stdin.fileHandleForWriting.close()
                let output = (try? stdout.fileHandleForReading.read(upToCount: Self.maxOutputBytes)) ?? nil
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, Array(output ?? Data()), stopped.isSet))
            }.start()
        }
    }
}

/// A flag set once from another thread.
private final class StopFlag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
