import ArgumentParser
import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TerminalUI
import ThreeDS2TestLab

@main
struct Threeds: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "threeds",
        abstract: "EMV 3-D Secure SDK command-line tool: pay through a 3DS Server, run the TestLab, or a demo.",
        discussion: """
            Examples:
              threeds demo                  pay through an in-process TestLab
              threeds testlab --port 8443   run the TestLab for other clients
              echo 4000000000002000 | threeds pay --server https://127.0.0.1:8443 \\
                --ds-id F055545342 --ds-cert testlab-pki/ds-encryption-rsa.pem \\
                --ds-root testlab-pki/ds-root.pem --tls-root testlab-pki/tls-root.pem \\
                --card-file - --amount 1999 --currency 978

            \(ExitStatus.help(success: "frictionless, completed or cancelled", failure: "timed out, protocol or runtime error"))
            """,
        version: ThreeDS2Service.version,
        subcommands: [
            Pay.self, Load.self, TestLabCommand.self, Demo.self, Inspect.self, DirectoryServerCommand.self,
            Conform.self, ResultCommand.self,
        ])

    /// Usage errors exit 2, as documented; everything else keeps ArgumentParser's behaviour.
    static func main() async {
        // Writing to a command that stopped reading (--requestor-exec, --oob-app-command) must not end the process.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error as CLIError {
            complain("threeds: \(error.description)")
            Foundation.exit(error.exitStatus)
        } catch {
            // An error of the package's shape reads as its code and message; the source location is for logs.
            let error = (error as? any CodedError).map { ReadableError(description: readable($0)) } ?? error
            let code = exitCode(for: error)
            if code == .success || code.rawValue == 0 {
                say(TerminalWidth.wrap(fullMessage(for: error), indent: "      "))
                Foundation.exit(0)
            }
            var message = fullMessage(for: error)
            let arguments = Array(CommandLine.arguments.dropFirst())
            let typos = OptionHints.unknownOptions(in: arguments, root: Self.self)
            for typo in typos {
                complain("threeds: unknown option \(typo.given)" + (typo.meant.map { "; did you mean \($0)?" } ?? ""))
            }
            if let command = OptionHints.unknownCommand(in: arguments, root: Self.self) {
                let commands = Self.configuration.subcommands.map { $0._commandName }.joined(separator: ", ")
                complain(
                    "threeds: unknown command \(command.given)"
                        + (command.meant.map { "; did you mean \($0)?" } ?? "; the commands are \(commands)"))
                // Named above: ArgumentParser's own line for the same word would say it twice.
                message = message.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("Error: Unexpected argument '\(command.given)'") }.joined(separator: "\n")
            }
            // The line above named each unknown option already: ArgumentParser's own line for it would say it twice.
            if !typos.isEmpty {
                message = message.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("Error: Unknown option") }.joined(separator: "\n")
            }
            // ArgumentParser's usage line runs as long as the options: broken at spaces to fit the terminal.
            warn(
                TerminalWidth.wrap(
                    message, width: TerminalWidth.errorColumns ?? TerminalWidth.columns, indent: "      "))
            Foundation.exit(2)
        }
    }
}

enum UIChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, terminal
}

/// The appearance option: `default`, `dark` or `monochrome`.
enum AppearanceChoice: String, ExpressibleByArgument, CaseIterable {
    case `default`, dark, monochrome

    var type: UiCustomizationType {
        switch self {
        case .default: .default
        case .dark: .dark
        case .monochrome: .monochrome
        }
    }

    var imageAppearance: ImageAppearance {
        switch self {
        case .default: .default
        case .dark: .dark
        case .monochrome: .monochrome
        }
    }
}

/// The CLI's look in each appearance (EMVCo 2.3: default, dark, monochrome).
let demoCustomizations: [UiCustomizationType: UiCustomization] = {
    func make(toolbar: String, toolbarText: String, heading: String, text: String, button: String, buttonText: String)
        -> UiCustomization
    {
        var ui = UiCustomization()
        try? ui.toolbar.setBackgroundColor(toolbar)
        try? ui.toolbar.text.setColor(toolbarText)
        try? ui.label.heading.setColor(heading)
        try? ui.label.text.setColor(text)
        var submit = ButtonCustomization()
        try? submit.setBackgroundColor(button)
        try? submit.text.setColor(buttonText)
        ui.setButtonCustomization(submit, for: .submit)
        return ui
    }
    return [
        .default: demoCustomization,
        .dark: make(
            toolbar: "#1E1E2E", toolbarText: "#F5F5F5", heading: "#89B4FA", text: "#E0E0E0", button: "#A6E3A1",
            buttonText: "#11111B"),
        .monochrome: make(
            toolbar: "#000000", toolbarText: "#FFFFFF", heading: "#000000", text: "#000000", button: "#000000",
            buttonText: "#FFFFFF"),
    ]
}()

/// The look the CLI uses: a dark-blue toolbar, a green submit button.
let demoCustomization: UiCustomization = {
    var ui = UiCustomization()
    try? ui.toolbar.setBackgroundColor("#0B3D91")
    try? ui.toolbar.text.setColor("#FFFFFF")
    try? ui.label.heading.setColor("#0B3D91")
    var submit = ButtonCustomization()
    try? submit.setBackgroundColor("#1B7F3B")
    try? submit.text.setColor("#FFFFFF")
    ui.setButtonCustomization(submit, for: .submit)
    return ui
}()

func emit(_ result: PaymentResult, json: Bool) -> Int32 {
    say(TerminalWidth.wrap(result.summary))
    for line in result.resultLines { say(TerminalWidth.wrap(line)) }
    if json { say(result.json.serialized) }
    return result.exitCode
}

/// Card data stays on TLS: plain http is refused for every URL the CLI contacts, except loopback when
/// `--allow-http` says so.
enum PlainHTTPPolicy {
    static func check(_ text: String, option: String, allowHTTP: Bool) throws {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            throw ValidationError("\(option) must be an absolute URL, got \"\(text)\"")
        }
        switch scheme {
        case "https":
            return
        case "http" where url.hasLoopbackHost:
            guard allowHTTP else {
                throw ValidationError(
                    "\(option) uses plain http; add --allow-http to allow it on loopback (testing only)")
            }
        case "http":
            throw ValidationError(
                "\(option) uses plain http to \(host); card data is only ever sent over https (plain http is allowed on loopback only, with --allow-http)"
            )
        default:
            throw ValidationError("\(option) must be an https URL, got \(scheme)")
        }
    }
}
