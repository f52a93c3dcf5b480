import Foundation
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

    func authenticate(_ body: JSONObject, messageVersion: MessageVersion, requestorAppURL: String?) async throws
        -> AuthenticationResponse
    {
        let option = "--requestor-exec"
        guard
            let outcome = await ShellCommand.run(
                command, input: body.serializedBytes, capturingOutput: true, maxOutputBytes: Self.maxOutputBytes,
                timeLimit: timeLimit)
        else { throw CLIError("\(option): /bin/sh could not be started", exitStatus: 1) }
        if outcome.timedOut {
            throw CLIError(
                "\(option): the command ran past \(timeLimit.components.seconds) s (--requestor-timeout) and was stopped",
                exitStatus: 1)
        }
        guard outcome.status == 0 else {
            throw CLIError("\(option): the command exited with status \(outcome.status)", exitStatus: 1)
        }
        let output = outcome.output
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
            return try ThreeDSServerClient.response(
                from: object, messageVersion: messageVersion, requestorAppURL: requestorAppURL)
        } catch {
            throw CLIError(
                "\(option): "
                    + error.message.replacingOccurrences(of: "the 3DS Server's answer", with: "the command's output")
                    .replacingOccurrences(of: "the 3DS Server", with: "the command"),
                exitStatus: 1)
        }
    }
}
