import Foundation
import ThreeDS2SDK

/// The CLI's default way to "open" the bank's app: a terminal cannot, so the link is handed to the cardholder (the
/// screen shows it) and they press continue once they have approved in the app.
struct HandOverOOBAppOpener: OOBAppOpener {
    func open(_ url: URL) async -> OOBAppOpenResult { .opened }
}

/// Opens the bank's app by running a command (`--oob-app-command`): `/bin/sh -c CMD threeds-oob-app LINK`, so the
/// link is `$1` and nothing else is added to the command (`xdg-open "$1"` opens the link once).
/// Exit status 0 means the app was opened and the cardholder came back (the SDK then continues on its own, 2.3.1
/// `oobContinue` `02`); any other status, a failure to start or running past the time bound means opening failed
/// (`oobAppStatus` `01`, the screen stays).
struct CommandOOBAppOpener: OOBAppOpener {
    let command: String
    let timeLimit: Duration

    func open(_ url: URL) async -> OOBAppOpenResult {
        let outcome = await ShellCommand.run(
            command, arguments: ["threeds-oob-app", url.absoluteString], capturingOutput: false,
            timeLimit: timeLimit)
        guard let outcome, !outcome.timedOut else { return .failed }
        return outcome.status == 0 ? .returned : .failed
    }
}
