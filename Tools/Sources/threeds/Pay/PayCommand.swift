import ArgumentParser
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TerminalUI
import ThreeDS2TestLab

/// What `pay` and `load` share: the 3DS Server and directory server (``ServerConnectionOptions``, which `conform`
/// shares too), the purchase and the limits.
struct PaymentOptions: ParsableArguments {
    @OptionGroup var connection: ServerConnectionOptions
    @Option(name: .customLong("message-version"), help: "2.1.0, 2.2.0 or 2.3.1 (default: the highest).")
    var messageVersion: String?
    @Option(help: "The card number (visible to other users in the process list; prefer --card-file).") var card: String?
    @Option(name: .customLong("card-file"), help: "A file holding the card number, or - for standard input.")
    var cardFile: String?
    @Option(parsing: .unconditional, help: "The amount in minor units, digits only (1999 for 19.99).")
    var amount: String
    @Option(help: "The ISO 4217 numeric currency code (978 EUR, 840 USD, 826 GBP).") var currency: String
    @Option(parsing: .unconditional, help: "The challenge timeout in minutes (5 to 60).") var timeout: Int = 5
    @Option(
        name: .customLong("requestor-app-url"),
        help: ArgumentHelp(
            "The app's URL for the bank's app to return to (threeDSRequestorAppURL).",
            discussion:
                "2.3.1: an https universal or app link, at most 2048 characters; 2.2.0: https or the app's own scheme (myapp://…), at most 256; 2.1.0 has none. Checked before anything is sent."
        ))
    var requestorAppURL: String?

    func validate() throws {
        guard (5...60).contains(timeout) else { throw ValidationError("--timeout must be 5 to 60 minutes") }
        try connection.validate()
        if let messageVersion, MessageVersion(messageVersion)?.isSupported != true {
            throw ValidationError("--message-version must be 2.1.0, 2.2.0 or 2.3.1, got \(messageVersion)")
        }
        try RequestorAppURLOption.check(requestorAppURL, messageVersion: messageVersion)
        try InputCheck.amount(amount)
        try InputCheck.currency(currency)
        guard (card == nil) != (cardFile == nil) else {
            throw ValidationError("give the card number with exactly one of --card-file or --card")
        }
        if let card { try InputCheck.card(InputCheck.normalizedCard(card)) }
    }

    var server: String? { connection.server }
    var dsID: String { connection.dsID }
    var directoryServerID: DirectoryServerID { connection.directoryServerID }
    var verbose: Bool { connection.verbose }
    func describe(_ error: any Error) -> String { connection.describe(error) }
    func explain(_ result: PaymentResult) -> PaymentResult { connection.explain(result) }
    func configuration(opensOOBApps: Bool) throws -> ConfigParameters {
        try connection.configuration(opensOOBApps: opensOOBApps)
    }
    func tlsRoots() throws -> [String] { try connection.tlsRoots() }
    func requestor() throws -> Requestor { try connection.requestor() }

    /// The card number from --card or --card-file (a file, or - for standard input), with spaces and dashes
    /// removed (``InputCheck/normalizedCard(_:)``); warns when it fails the Luhn check and is not one of the TestLab's
    /// scenario cards. Standard input at a terminal is asked for with a prompt and read without echo: the number never
    /// shows on the screen nor stays in the scrollback.
    func cardNumber() throws -> String {
        let number: String
        if let card {
            number = InputCheck.normalizedCard(card)
        } else {
            let path = cardFile ?? "-"
            let text: String
            if path == "-" {
                switch HiddenLine.read(prompt: "Card number (not shown as you type it): ") {
                case .line(let line): text = line
                case .end: throw CLIError("--card-file -: standard input ended before a card number")
                case .interrupted: throw CLIError("--card-file -: cancelled (Ctrl-C) before a card number")
                }
            } else {
                text = try readInputFile(path, option: "--card-file", maxBytes: 1024)
            }
            number = InputCheck.normalizedCard(text)
            do {
                try InputCheck.card(number)
            } catch {
                throw CLIError(
                    "--card-file \(path): the card number must be 12–19 digits (spaces and dashes between them are "
                        + "fine)")
            }
        }
        // The TestLab's scenario cards are test numbers by design: no warning on every payment against the lab.
        if !Luhn.isValid(number), Scenario(cardNumber: number) == nil {
            warn("warning: the card number fails the Luhn check (fine for test cards, not for real ones)")
        }
        return number
    }

    /// The scripted answers from a file (`--answers`).
    static func script(_ path: String) throws -> [ScriptedAnswer] {
        do {
            return try ScriptedAnswer.list(json: Array(try readInputFile(path, option: "--answers").utf8))
        } catch let error as TestLabError {
            throw CLIError("--answers \(path): \(error.message)")
        }
    }
}

struct Pay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Authenticate a payment through a 3DS Server, running the challenge if asked.",
        usage: "threeds pay --ds-id <id> --amount <n> --currency <code> [<options>]",
        discussion: """
            Example (against `threeds testlab`; the card number on standard input):
              echo 4000000000002000 | threeds pay --server https://127.0.0.1:8443 \\
                --ds-id F055545342 --ds-cert testlab-pki/ds-encryption-rsa.pem \\
                --ds-root testlab-pki/ds-root.pem --tls-root testlab-pki/tls-root.pem \\
                --card-file - --amount 1999 --currency 978
            or with the TestLab's trust bundle instead of --ds-cert and --ds-root:
              echo 4000000000002000 | threeds pay --server https://127.0.0.1:8443 \\
                --ds-id F055545342 --trust-bundle testlab-pki \\
                --tls-root testlab-pki/tls-root.pem \\
                --card-file - --amount 1999 --currency 978

            Without --ui auto the challenge is answered at the keyboard; when
            standard input holds the card, keys are read from the terminal itself
            (/dev/tty). Esc or Ctrl-C cancels (challengeCancel 01).

            \(ExitStatus.help(
            success: "frictionless, completed or cancelled (Ctrl-C on a challenge screen cancels)",
            failure: "timed out, protocol or runtime error, standard input ended before an answer, or a file that could not be saved"))
            """)

    @OptionGroup var payment: PaymentOptions
    @Option(help: "auto (scripted from --answers) or terminal (interactive).") var ui: UIChoice = .terminal
    @Option(help: "JSON answers file for --ui auto.") var answers: String?
    @Option(
        name: .customLong("oob-app-command"),
        help: ArgumentHelp(
            "A command that opens the bank's app link (2.3.1 oobAppURL), given as $1.",
            discussion:
                "Exit status 0 means the cardholder came back (the SDK continues on its own, oobContinue 02); anything else, or running past 5 minutes, means opening failed (oobAppStatus 01). Without it the link is shown to open by hand."
        ))
    var oobAppCommand: String?
    @Flag(
        name: .customLong("no-oob-app"),
        help: "Say the app does not open the bank's app (2.3.1 CReqs send oobAppURLInd 03).")
    var noOOBApp = false
    @Option(
        name: .customLong("save-transaction-keys"),
        help: ArgumentHelp(
            "Save the challenge's channel key to this file (mode 0600) for `threeds inspect creq|cres`.",
            discussion:
                "Test systems only: anyone with the file can read this transaction's CReqs and CRes. Refused with a --server, or an ACS URL, that is not on loopback."
        ))
    var saveTransactionKeys: String?
    @Option(
        name: .customLong("save-messages"),
        help: ArgumentHelp(
            "Save the AReq parameters, the ARes and each CReq and CRes to this directory for `threeds inspect`.",
            discussion:
                "Writes areq.json (without the card number), ares.json, creq-1.jwe, cres-1.jwe, creq-2.jwe, … (mode 0600). Test systems only: with the transaction keys, anyone with the files can read the challenge. Refused with a --server that is not on loopback."
        ))
    var saveMessages: String?
    @OptionGroup var screen: ScreenOptions

    func validate() throws {
        try payment.connection.validateDirectoryServer()
        if ui == .auto, answers == nil { throw ValidationError("--ui auto needs --answers FILE") }
        if ui != .auto, answers != nil { throw ValidationError("--answers is read only with --ui auto") }
        if noOOBApp, oobAppCommand != nil {
            throw ValidationError("--no-oob-app and --oob-app-command exclude each other")
        }
        for (option, value) in [("--save-transaction-keys", saveTransactionKeys), ("--save-messages", saveMessages)]
        where value != nil {
            if let server = payment.server, URL(string: server)?.hasLoopbackHost != true {
                throw ValidationError(
                    "\(option) is for test systems on loopback; --server \(server) is not on loopback")
            }
        }
    }

    func run() async throws {
        let config = try payment.configuration(opensOOBApps: !noOOBApp)
        let tlsRoots = try payment.tlsRoots()
        screen.warnAboutLocale()
        let script = try answers.map(PaymentOptions.script)
        let input = try challengeInput()
        // Everything that can fail on the user's input fails before the HTTP client exists.
        let number = try payment.cardNumber()
        let requestor = try payment.requestor()
        let keyFile = try saveTransactionKeys.map { try TransactionKeyFile(checking: $0) }
        let capture = try saveMessages.map { try MessageCapture(directory: $0) }
        warnAboutSavedSecrets()
        let transport = try HTTPClientTransport(additionalTrustRootsPEM: tlsRoots)
        let presenter = challengePresenter(script: script, images: transport, input: input)
        let flow = PayFlow(
            configuration: config, requestor: requestor, directoryServerID: payment.directoryServerID,
            messageVersion: payment.messageVersion,
            purchase: Purchase(cardNumber: number, amount: payment.amount, currency: payment.currency),
            requestorAppURL: payment.requestorAppURL,
            timeout: .seconds(payment.timeout * 60), presenter: presenter, transport: transport,
            verbose: payment.verbose, keyLog: keyFile, capture: capture,
            uiCustomizations: try screen.uiCustomizations(),
            locale: screen.sdkLocale, resultExec: payment.connection.resultExec)
        var code: Int32
        do {
            code = emit(
                payment.explain(try await flow.run { if !screen.json { say(TerminalWidth.wrap($0)) } }),
                json: screen.json)
        } catch {
            let result = PaymentResult(
                flow: .none, outcome: .runtimeError, sdkTransID: "",
                runtimeError: ("setup", payment.describe(error)))
            code = emit(result, json: screen.json)
        }
        try? await transport.shutdown()
        // What was asked to be saved and could not be is a failed run, whatever the payment's outcome.
        for path in (keyFile?.failed ?? []) + (capture?.failed ?? []) {
            complain("threeds: \(path): cannot be written")
            code = 1
        }
        throw ExitCode(code)
    }

    /// Where the challenge's answers are read: standard input, or the controlling terminal when the card number
    /// comes on standard input (that leaves the keyboard to the terminal itself, as password prompts do).
    ///
    /// - Throws: ``CLIError`` when the card comes on standard input and there is no terminal to answer at.
    private func challengeInput() throws -> Int32 {
        guard ui == .terminal, payment.cardFile == "-" else { return STDIN_FILENO }
        guard let terminal = TerminalPresenter.openControllingTerminal() else {
            throw CLIError(
                "the card number came from standard input and there is no terminal to answer the challenge at: "
                    + "give the answers with --ui auto --answers FILE, or the card with --card-file FILE and "
                    + "the answers on standard input")
        }
        return terminal
    }

    /// Warns, on standard error, that `--save-messages` and `--save-transaction-keys` write what lets anyone read the
    /// challenge.
    private func warnAboutSavedSecrets() {
        if let saveMessages {
            warn(
                "warning: --save-messages writes this payment's messages to \(saveMessages): with the channel key, "
                    + "anyone with them can read its challenge. Use it on test systems only; delete them after.")
        }
        if let saveTransactionKeys {
            warn(
                "warning: --save-transaction-keys writes this challenge's channel key to \(saveTransactionKeys): "
                    + "anyone with the file can decrypt its CReqs and CRes. Use it on test systems only; delete it after."
            )
        }
    }

    /// What shows the challenge: the answers file with `--ui auto`, else the screen `--ui` names, opening OOB apps
    /// through `--oob-app-command` or by handing over to the user.
    private func challengePresenter(
        script: [ScriptedAnswer]?, images: HTTPClientTransport, input: Int32
    ) -> any ChallengePresenter {
        if ui == .auto, let script {
            return ScriptedPresenter(answers: script, opensApps: !noOOBApp, htmlReader: LibXML2FormReader())
        }
        let opener: any OOBAppOpener =
            oobAppCommand.map { CommandOOBAppOpener(command: $0, timeLimit: .seconds(300)) }
            ?? HandOverOOBAppOpener()
        return screen.presenter(images: images, oobAppOpener: opener, input: input, verbose: payment.verbose)
    }
}
