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

            Exit status: 0 frictionless, completed or cancelled; 1 timed out, protocol
            or runtime error; 2 usage error.
            """,
        version: ThreeDS2Service.version,
        subcommands: [Pay.self, Load.self, TestLabCommand.self, Demo.self, Inspect.self, DirectoryServerCommand.self])

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
            warn("threeds: \(error.description)")
            Foundation.exit(error.exitStatus)
        } catch {
            // An error of the package's shape reads as its code and message; the source location is for logs.
            let error = (error as? any CodedError).map { ReadableError(description: readable($0)) } ?? error
            let code = exitCode(for: error)
            if code == .success || code.rawValue == 0 {
                say(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = fullMessage(for: error)
            if let typo = Self.misspeltOption(message: message, arguments: Array(CommandLine.arguments.dropFirst())) {
                warn("threeds: unknown option \(typo.given); did you mean \(typo.meant)?")
            }
            warn(message)
            Foundation.exit(2)
        }
    }
}

extension Threeds {
    /// An option the user gave that is a near miss of one the parser reports missing (`--ds-crt` for `--ds-cert`):
    /// ArgumentParser reports the missing option first, which hides the typo.
    static func misspeltOption(message: String, arguments: [String]) -> (given: String, meant: String)? {
        // Every option the message names, quoted ('--ds-cert <ds-cert>') or in prose (give --ds-cert FILE).
        let missing = message.split(whereSeparator: { $0 == " " || $0 == "'" || $0 == "\n" }).filter {
            $0.hasPrefix("--")
        }.map { String($0.prefix { $0 != " " && $0 != "<" && $0 != "," && $0 != ")" && $0 != "=" }) }
        for argument in arguments where argument.hasPrefix("--") {
            let given = String(argument.prefix { $0 != "=" })
            for meant in missing where given != meant && editDistance(given, meant) <= 2 {
                return (given, meant)
            }
        }
        return nil
    }

    /// The Levenshtein distance between two short strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

enum UIChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, terminal
}

/// The terminal presenter for the options given: full screen on a terminal, line mode otherwise, plain when asked
/// (or when TERM is dumb). It draws the look and texts the SDK was initialised with, for the appearance chosen.
func terminalPresenter(
    plain: Bool, line: Bool, appearance: AppearanceChoice, images: HTTPClientTransport,
    oobAppOpener: (any OOBAppOpener)? = HandOverOOBAppOpener(), input: Int32 = STDIN_FILENO, hint: String? = nil
)
    -> TerminalPresenter
{
    let mode: TerminalPresenter.Mode = plain ? .plain : (line || isatty(input) == 0 ? .line : .fullScreen)
    return TerminalPresenter(
        mode: mode, imageLoader: ChallengeImageLoader(transport: images), oobAppOpener: oobAppOpener,
        appearance: appearance.imageAppearance, input: input, hint: hint)
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
    say(result.summary)
    if json { say(result.json.serialized) }
    return result.exitCode
}

struct TestLabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testlab", abstract: "Run the TestLab (DS, 3DS Server, ACS) on loopback.",
        discussion: """
            Example:
              threeds testlab --port 8443 --pki-dir testlab-pki

            The PEM files a client needs are written once the port is bound.
            Directory server IDs: F055545342 (RSA key), F155545342 (EC key).

            Ctrl-C (SIGINT) or SIGTERM stops the TestLab: requests in flight get
            5 seconds to finish, then the listener closes, also when the signal
            was inherited as ignored (a script's background job).

            Exit status: 0 after such a stop; 1 when the port is in use or cannot
            be bound, the PKI directory is in use by another TestLab, or the lab
            did not stop within 5 seconds; 2 for usage errors.
            """)

    @Option(parsing: .unconditional, help: "The port, 1–65535 (0 picks a free one).") var port: Int = 8443
    @Option(name: .customLong("pki-dir"), help: "Where to write the PEM files a client needs.") var pkiDir: String =
        "testlab-pki"
    @Flag(help: "Serve plain HTTP instead of HTTPS.") var http = false
    @Flag(help: "Log every request the TestLab handles.") var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: pkiDir)
        var logger = Logger(label: "threeds2.testlab")
        logger.logLevel = verbose ? .info : .notice
        let lab: TestLab
        do {
            lab = try await TestLab.start(
                options: TestLabOptions(port: port, useTLS: !http, pkiDirectory: directory, logsRequests: verbose),
                logger: logger)
        } catch let error as TestLabError {
            throw CLIError(error.message, exitStatus: 1)
        }
        // Taken before the banner says Ctrl-C stops the lab.
        let interruption = Interruption()
        let handlers = interruption.install()
        print("TestLab listening on \(lab.baseURL)")
        print(
            "Client PEM files in \(directory.path): ds-root.pem, ds-encryption-rsa.pem, ds-encryption-ec.pem, tls-root.pem"
        )
        print(
            "Trust bundle of both directory servers: \(directory.appendingPathComponent(TrustBundle.fileName).path) "
                + "(threeds pay --trust-bundle \(pkiDir); threeds ds check \(pkiDir))")
        print("Try:")
        print(
            "  echo \(Scenario.text.cardNumber) | swift run threeds pay --server \(lab.baseURL) --ds-id \(TestLab.rsaDirectoryServerID) "
                + "--ds-cert \(pkiDir)/ds-encryption-rsa.pem --ds-root \(pkiDir)/ds-root.pem "
                + "\(http ? "--allow-http" : "--tls-root \(pkiDir)/tls-root.pem") --card-file - --amount 1999 --currency 978"
        )
        print("Scenarios by card number:")
        for scenario in Scenario.allCases { print("  \(scenario.cardNumber)  \(scenario.summary)") }
        print("Press Ctrl-C to stop.")
        // Seen at once even when standard output is a pipe or a file.
        fflush(nil)
        // The dispatch sources live until the lab has stopped.
        defer { withExtendedLifetime(handlers) {} }
        var signals = interruption.signals.makeAsyncIterator()
        guard let number = await signals.next() else { return }
        print("\(Interruption.name(number)): stopping the TestLab")
        fflush(nil)
        // Requests in flight get a bounded time to finish; a lab that cannot close by then exits anyway (not a task
        // group: that would wait for a stop that does not end).
        let (ends, end) = AsyncStream.makeStream(of: Bool.self)
        Task {
            await lab.stop()
            end.yield(true)
        }
        let timer = Task {
            try await Task.sleep(for: Self.stopGrace)
            end.yield(false)
        }
        var first = ends.makeAsyncIterator()
        let stopped = await first.next() ?? false
        timer.cancel()
        guard stopped else {
            throw CLIError("the TestLab did not stop within \(Self.stopGrace); exiting", exitStatus: 1)
        }
    }

    /// How long requests in flight get to finish after SIGINT or SIGTERM.
    static let stopGrace = Duration.seconds(5)
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start an in-process TestLab on loopback and pay through it.",
        discussion: """
            Examples:
              threeds demo                the text-code challenge (the code is 123456)
              threeds demo --card html    another scenario, by name or card number
              threeds demo --auto --all   every scenario, answered from a script

            Exit status: 0 frictionless, completed or cancelled; 1 timed out, protocol
            or runtime error; 2 usage error.
            """)

    @Flag(help: "Answer the challenge from a script instead of the keyboard.") var auto = false
    @Flag(help: "With --auto: run every TestLab scenario and print the table.") var all = false
    @Option(
        help: ArgumentHelp(
            "The card number, or a scenario name (default: the text-code challenge).",
            discussion: "Scenarios (name, card number):\n"
                + Scenario.allCases.map { "  \($0.rawValue) \($0.cardNumber)" }.joined(separator: "\n")))
    var card: String = Scenario.text.cardNumber
    @Option(
        name: .customLong("message-version"),
        help: "2.1.0, 2.2.0 or 2.3.1 (default: 2.3.1; scenarios that need 2.3.1 show their older screens otherwise).")
    var messageVersion: String?
    @Flag(help: "Print the outcome as one JSON object on the last line.") var json = false
    @Flag(help: "Log what the SDK and the TestLab do.") var verbose = false
    @Flag(help: "Plain screens for screen readers: no colour, every control in words.") var plain = false
    @Flag(help: "Line-by-line screens instead of full screen.") var line = false
    @Option(help: "The locale for the SDK's own texts, e.g. de_DE.") var locale: String?
    @Option(help: "The appearance: default, dark or monochrome.") var appearance: AppearanceChoice = .default
    @Option(name: .customLong("ui-customization"), help: UiCustomizationOption.help) var uiCustomization: String?

    func validate() throws {
        _ = try UiCustomizationOption.load(uiCustomization)
        if Scenario(cardNumber: card) == nil, Scenario(rawValue: card) == nil, !card.allSatisfy(\.isNumber) {
            throw ValidationError(
                "--card must be a card number or a scenario name: "
                    + Scenario.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if all, !auto { throw ValidationError("--all runs every scenario from a script: add --auto") }
        if let messageVersion, MessageVersion(messageVersion)?.isSupported != true {
            throw ValidationError("--message-version must be 2.1.0, 2.2.0 or 2.3.1, got \(messageVersion)")
        }
    }

    func run() async throws {
        var labLogger = Logger(label: "threeds2.testlab")
        labLogger.logLevel = verbose ? .info : .warning
        if let warning = InputCheck.localeWarning(locale) { warn(warning) }
        let lab = try await TestLab.start(logger: labLogger)
        if !json { print("TestLab running on \(lab.baseURL) (its own PKI; HTTPS on loopback)") }
        let chosen = Scenario(cardNumber: card) ?? Scenario(rawValue: card)
        let scenarios = all ? Scenario.allCases : [chosen].compactMap { $0 }
        var exit: Int32 = 0
        do {
            if scenarios.isEmpty {
                exit = try await pay(lab: lab, card: card, answers: [])
            }
            for scenario in scenarios {
                if all { print("\n\(scenario.cardNumber)  \(scenario.summary)") }
                let code = try await pay(
                    lab: lab, card: scenario.cardNumber,
                    answers: Self.happyPath(scenario, messageVersion: messageVersion),
                    scenario: scenario)
                if !all { exit = code }
            }
        } catch {
            await lab.stop()
            throw error
        }
        await lab.stop()
        throw ExitCode(exit)
    }

    private func pay(lab: TestLab, card: String, answers: [ScriptedAnswer], scenario: Scenario? = nil) async throws
        -> Int32
    {
        let transport = try lab.makeTransport()
        defer { Task { try? await transport.shutdown() } }
        let version = messageVersion ?? (scenario == .information ? "2.3.1" : nil)
        let flow = PayFlow(
            configuration: try lab.sdkConfiguration(
                dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("threeds-demo").path),
            requestor: .server(lab.baseURL), directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: version,
            purchase: Purchase(cardNumber: card, amount: "1999", currency: "978"),
            requestorAppURL: "https://shop.testlab.example/return",
            timeout: .seconds(300),
            presenter: auto
                ? ScriptedPresenter(answers: answers)
                : terminalPresenter(
                    plain: plain, line: line, appearance: appearance, images: transport,
                    hint: Self.hint(for: Scenario(cardNumber: card))),
            transport: transport,
            verbose: verbose, uiCustomizations: try UiCustomizationOption.load(uiCustomization),
            locale: Locale(identifier: locale ?? "en_US"))
        let result = try await flow.run { if !json && !all { say($0) } }
        let code = emit(result, json: json)
        try? await transport.shutdown()
        return code
    }

    /// What to do on the scenario's screens, for someone at the keyboard, in the words the screens use; `nil` when no
    /// screen will show (frictionless cards, other card numbers, a faulty ACS that never shows one).
    static func hint(for scenario: Scenario?) -> String? {
        switch scenario {
        case .text?, .information?, .consents?:
            "The one-time code is 123456 (a wrong one shows the screen again). Esc cancels."
        case .twoEntryBoxes?: "The code is 123456 and the year of birth 1990 (Tab moves to the second box)."
        case .singleSelect?: "Choose either option and submit."
        case .multiSelect?: "Choose Train ticket and Groceries (Space toggles), then submit."
        case .outOfBand?, .bridging?: "Press “I have approved” (or open the bank's app link, then come back)."
        case .additionalCode?: "The code is 123456; the additional-code button leads to an approval screen."
        case .html?: "Type 123456 in the code field and press Verify."
        case .htmlOutOfBand?: "Press “I have approved”."
        default: nil
        }
    }

    /// The scripted answers that walk each scenario's happy path.
    static func happyPath(_ scenario: Scenario, messageVersion: String?) -> [ScriptedAnswer] {
        // Older versions show these 2.3.1 scenarios as their plain text-code or HTML screens.
        let v231 = (messageVersion.flatMap { MessageVersion($0) } ?? .v2_3_1) == .v2_3_1
        let answers: [ScriptedAnswer] =
            switch scenario {
            case .singleSelect: [.select(["mobile"])]
            case .multiSelect: [.select(["q1", "q3"])]
            case .outOfBand, .bridging: [.continue()]
            case .html: [.html(fields: ["otp": "123456"], button: "Verify")]
            case .information where v231: [.continue(), .text("123456")]
            case .twoEntryBoxes where v231: [.text("123456", second: "1990")]
            case .additionalCode where v231: [.additional(), .continue()]
            case .consents: [.text("123456", whitelist: true, deviceBinding: true)]
            case .htmlOutOfBand where v231: [.openApp()]
            case .htmlOutOfBand: [.html(fields: ["otp": "123456"], button: "Verify")]
            default: [.text("123456", whitelist: false)]
            }
        return answers
    }
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
