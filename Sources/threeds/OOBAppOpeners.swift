import Foundation
import ThreeDS2SDK

/// The CLI's default way to "open" the bank's app: a terminal cannot, so the link is handed to the cardholder (the
/// screen shows it) and they press continue once they have approved in the app.
struct HandOverOOBAppOpener: OOBAppOpener {
    func open(_ url: URL) async -> OOBAppOpenResult { .opened }
}

/// Opens the bank's app by running a command (`--oob-app-command`): `/bin/sh -c 'CMD "$1"'` with the link as `$1`.
/// Exit status 0 means the app was opened and the cardholder came back (the SDK then continues on its own, 2.3.1
/// `oobContinue` `02`); any other status, a failure to start or running past the time bound means opening failed
/// (`oobAppStatus` `01`, the screen stays).
struct CommandOOBAppOpener: OOBAppOpener {
    let command: String
    let timeLimit: Duration

    func open(_ url: URL) async -> OOBAppOpenResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$1\"", "threeds-oob-app", url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        let finished = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished.continuation.yield($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            return .failed
        }
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in finished.stream { return status }
                return nil
            }
            group.addTask { [timeLimit] in
                try? await Task.sleep(for: timeLimit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            finished.continuation.finish()
            return first
        }
        guard let status else {
            process.terminate()
            return .failed
        }
        return status == 0 ? .returned : .failed
    }
}
