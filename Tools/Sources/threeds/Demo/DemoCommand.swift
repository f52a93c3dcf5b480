import ArgumentParser
import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TerminalUI
import ThreeDS2TestLab

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start an in-process TestLab on loopback and pay through it.",
        usage: "threeds demo [<options>]",
        discussion: """
            Examples:
              threeds demo                the text-code challenge (the code is 123456)
              threeds demo --card html    another scenario, by name or card number
              threeds demo --auto --all   every scenario, answered from a script
              threeds demo --split        the Split-SDK: pay in a browser

            \(ExitStatus.help(
            success: "frictionless, completed or cancelled",
            failure: "timed out, protocol or runtime error, or standard input ended before an answer"))
            """)

    @Flag(help: "Answer the challenge from a script instead of the keyboard.") var auto = false
    @Flag(help: "With --auto: run every TestLab scenario and print the table.") var all = false
    @Option(
        help: ArgumentHelp(
            "The card number, or a scenario name (default: the text-code challenge).",
            discussion: "Scenarios (name, card number):\n"
                + Scenario.allCases.map { "  \($0.rawValue) \($0.cardNumber)" }.joined(separator: "\n")))
    var card: String = Scenario.text.cardNumber

    /// `--card` as given: a scenario's name, or a card number as people write it (spaces and dashes between the digits
    /// are fine, as for `pay`), reduced to its digits.
    private var typedCard: String { Scenario(rawValue: card) != nil ? card : InputCheck.normalizedCard(card) }
    @Option(
        name: .customLong("message-version"),
        help: "2.1.0, 2.2.0 or 2.3.1 (default: 2.3.1; scenarios that need 2.3.1 show their older screens otherwise).")
    var messageVersion: String?
    @OptionGroup var screen: ScreenOptions
    @Flag(help: "Log what the SDK and the TestLab do.") var verbose = false
    @Flag(
        help: ArgumentHelp(
            "The Split-SDK in a browser: run the Split-SDK Server and a shop page beside the TestLab, print the shop's address.",
            discussion:
                "Open the address in a browser and press Pay; the web client draws the text-code challenge (2.3.1)."))
    var split = false
    @Flag(help: "With --split: stop after the first payment, with its outcome.") var once = false

    func validate() throws {
        if Scenario(cardNumber: typedCard) == nil, Scenario(rawValue: card) == nil {
            // A card number is held to the rule `pay` holds it to: 12–19 digits.
            guard typedCard.allSatisfy(\.isNumber), (try? InputCheck.card(typedCard)) != nil else {
                throw ValidationError(
                    "--card must be a card number of 12–19 digits or a scenario name: "
                        + Scenario.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        if all, !auto { throw ValidationError("--all runs every scenario from a script: add --auto") }
        if once, !split { throw ValidationError("--once goes with --split") }
        if split, auto { throw ValidationError("--split is answered in a browser, not from a script: drop --auto") }
        if split, let messageVersion, messageVersion != "2.3.1" {
            throw ValidationError(
                "--split runs 2.3.1 (the Split-SDK's fields exist in 2.3.1 only), not \(messageVersion)")
        }
        if let messageVersion, MessageVersion(messageVersion)?.isSupported != true {
            throw ValidationError("--message-version must be 2.1.0, 2.2.0 or 2.3.1, got \(messageVersion)")
        }
    }

    func run() async throws {
        var labLogger = Logger(label: "threeds2.testlab")
        labLogger.logLevel = verbose ? .info : .warning
        screen.warnAboutLocale()
        let lab = try await TestLab.start(logger: labLogger)
        if !screen.json {
            print(TerminalWidth.wrap("TestLab running on \(lab.baseURL) (its own PKI; HTTPS on loopback)"))
        }
        let exit: Int32
        do {
            if split {
                let chosen = Scenario(cardNumber: typedCard) ?? Scenario(rawValue: card)
                exit = try await SplitDemo(lab: lab, card: chosen?.cardNumber ?? typedCard, once: once).run()
            } else if all {
                exit = try await payEveryScenario(lab: lab)
            } else if let chosen = Scenario(cardNumber: typedCard) ?? Scenario(rawValue: card) {
                // A scenario that waits for the SDK's timer says so, rather than staying silent for 10 s.
                if chosen.expectedOutcome == .timedOut, !screen.json { print(Self.waitingNote) }
                exit = try await pay(
                    lab: lab, card: chosen.cardNumber,
                    answers: Self.happyPath(chosen, messageVersion: messageVersion), scenario: chosen
                ).code
            } else {
                exit = try await pay(lab: lab, card: typedCard, answers: []).code
            }
        } catch {
            await lab.stop()
            throw error
        }
        await lab.stop()
        throw ExitCode(exit)
    }

    /// `--all`: pays every scenario, saying for each whether it ended as the TestLab means it to (faults included),
    /// then how many did.
    ///
    /// - Returns: The exit status: 0 when every scenario ended as expected, else 1.
    private func payEveryScenario(lab: TestLab) async throws -> Int32 {
        if !screen.json {
            // The security findings once, before the scenarios, rather than with one of them.
            let service = try PayFlow.initializedService(
                try Self.configuration(lab), verbose: verbose, uiCustomizations: try screen.uiCustomizations(),
                locale: screen.sdkLocale)
            defer { try? service.cleanup() }
            try PayFlow.showFindings(of: service, verbose: verbose) { say(TerminalWidth.wrap($0)) }
        }
        let scenarios = Scenario.allCases
        var unexpected: [Scenario] = []
        for scenario in scenarios {
            print("")
            print(TerminalWidth.wrap("\(scenario.cardNumber)  \(scenario.summary)", indent: "                  "))
            if scenario.expectedOutcome == .timedOut { print(Self.waitingNote) }
            let (_, result) = try await pay(
                lab: lab, card: scenario.cardNumber,
                answers: Self.happyPath(scenario, messageVersion: messageVersion), scenario: scenario)
            // The SDK's default version, as the happy path takes it, when --message-version is not given.
            let expected = scenario.expectedOutcome(in: messageVersion.flatMap { MessageVersion($0) } ?? .v2_3_1)
            if result.matches(expected) {
                print("  as expected (\(expected))")
            } else {
                print("  NOT as expected: expected \(expected)")
                unexpected.append(scenario)
            }
        }
        print("\n\(scenarios.count - unexpected.count) of \(scenarios.count) scenarios ended as expected.")
        return unexpected.isEmpty ? 0 : 1
    }

    private func pay(lab: TestLab, card: String, answers: [ScriptedAnswer], scenario: Scenario? = nil) async throws
        -> (code: Int32, result: PaymentResult)
    {
        let transport = try lab.makeTransport()
        defer { Task { try? await transport.shutdown() } }
        let version = messageVersion ?? (scenario == .information ? "2.3.1" : nil)
        let flow = PayFlow(
            configuration: try Self.configuration(lab),
            requestor: .server(lab.baseURL), directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: version,
            purchase: Purchase(cardNumber: card, amount: "1999", currency: "978"),
            requestorAppURL: "https://shop.testlab.example/return",
            timeout: .seconds(300),
            presenter: auto
                ? ScriptedPresenter(answers: answers, htmlReader: LibXML2FormReader())
                : screen.presenter(
                    images: transport,
                    hint: Self.hint(for: Scenario(cardNumber: card)), verbose: verbose),
            transport: transport,
            verbose: verbose, uiCustomizations: try screen.uiCustomizations(),
            locale: screen.sdkLocale)
        let result = try await flow.run { if !screen.json && !all { say(TerminalWidth.wrap($0)) } }
        let code = emit(result, json: screen.json)
        try? await transport.shutdown()
        return (code, result)
    }

    /// What a scenario whose ACS answers too late shows while the SDK's CRes timer runs.
    static let waitingNote = "  (waiting for the SDK's 10-second CRes timer…)"

    /// The SDK's configuration for the demo's payments: the lab's directory servers, a data folder of the demo's own.
    private static func configuration(_ lab: TestLab) throws -> ConfigParameters {
        try lab.sdkConfiguration(
            dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("threeds-demo").path)
    }

    /// What to do on the scenario's screens, for someone at the keyboard, in the words the screens use; `nil` when no
    /// screen will show (frictionless cards, other card numbers, a faulty ACS that never shows one).
    static func hint(for scenario: Scenario?) -> String? {
        switch scenario {
        case .text?, .information?, .consents?, .decoupled?:
            "The one-time code is 123456 (a wrong one shows the screen again). Esc cancels."
        case .twoEntryBoxes?: "The code is 123456, then the year of birth 1990 in the second box."
        case .singleSelect?: "Choose either option and submit."
        case .multiSelect?: "Choose Train ticket and Groceries (Space toggles), then submit."
        case .outOfBand?, .bridging?: "Press “I have approved” (or open the bank's app link, then come back)."
        case .additionalCode?: "The code is 123456; the additional-code button leads to an approval screen."
        case .html?: "Type 123456 in the code field and press Verify."
        case .htmlOutOfBand?: "Press “I have approved”."
        default: nil
        }
    }

    /// The scripted answers that walk each scenario's happy path (``Scenario/happyPathAnswers(in:)``).
    static func happyPath(_ scenario: Scenario, messageVersion: String?) -> [ScriptedAnswer] {
        scenario.happyPathAnswers(in: messageVersion.flatMap { MessageVersion($0) } ?? .v2_3_1)
    }
}
