import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `threeds` with the arguments in a new session without a controlling terminal (`setsid`), standard input a
/// pipe holding `input`; returns the exit status and what it printed.
func runThreedsWithoutTerminal(_ arguments: [String], input: String) async throws -> (status: Int32, output: String) {
    try await OneShotSlots.shared.run {
        try await ThreedsRun(arguments, input: input, launcher: .withoutTerminal).exit()
    }
}

extension MachineLoadingCLITests {
    @Suite("Cancel, empty Enter and the keyboard in every terminal mode (tmux)", .serialized)
    struct CancelAndInputTests {
        /// The modes besides full screen: line (`--line`) and plain (`TERM=dumb`).
        static let lineModes: [(name: String, environment: String, extra: String)] = [
            ("line", "TERM=xterm-256color", "--line"), ("plain", "TERM=dumb", ""),
        ]

        @Test("line and plain mode: Esc (then Enter) cancels with challengeCancel 01 and exit 0, using no attempt")
        func escapeInLineModes() async throws {
            for mode in Self.lineModes {
                let run = try await terminalRun(.text, environment: mode.environment, extra: mode.extra, lab: .cancel) {
                    session in
                    _ = try await session.wait(for: "to cancel):")
                    try await session.keys("Escape", "Enter")
                }
                #expect(run.screen.contains(#""outcome":"cancelled""#) && run.screen.contains("EXIT=0"), "\(mode.name)")
                #expect(run.requests.last?["challengeCancel"] == .string("01"), "\(mode.name)")
                #expect(run.requests.allSatisfy { $0["challengeDataEntry"] == nil }, "\(mode.name): no code was sent")
            }
        }

        @Test("line and plain mode: a code typed into an HTML form's code or password field is not echoed")
        func htmlCodeNotEchoed() async throws {
            for mode in Self.lineModes {
                let run = try await terminalRun(.html, environment: mode.environment, extra: mode.extra, lab: .cancel) {
                    session in
                    _ = try await session.wait(for: "to cancel):")
                    try await session.keys("123456", "Enter")
                }
                // Line mode never clears the screen: an echoed code would still be on it.
                #expect(run.screen.contains(#""outcome":"completed""#), "\(mode.name): \(run.screen)")
                #expect(!run.screen.contains("123456"), "\(mode.name): the code stayed on the screen")
            }
        }

        @Test("line and plain mode: Ctrl-C cancels with challengeCancel 01 and exit 0, never 130")
        func controlCInLineModes() async throws {
            for mode in Self.lineModes {
                let run = try await terminalRun(.text, environment: mode.environment, extra: mode.extra, lab: .cancel) {
                    session in
                    _ = try await session.wait(for: "to cancel):")
                    try await session.keys("C-c")
                }
                #expect(run.screen.contains(#""outcome":"cancelled""#) && run.screen.contains("EXIT=0"), "\(mode.name)")
                #expect(run.requests.last?["challengeCancel"] == .string("01"), "\(mode.name)")
            }
        }

        @Test("line mode: Ctrl-C on the consent question cancels as well")
        func controlCOnConsent() async throws {
            let run = try await terminalRun(.consents, version: "2.3.1", extra: "--line", lab: .cancel) { session in
                _ = try await session.wait(for: "to cancel):")
                try await session.keys("123456", "Enter")
                _ = try await session.wait(for: "[y/n]")
                try await session.keys("C-c")
            }
            #expect(run.screen.contains(#""outcome":"cancelled""#) && run.screen.contains("EXIT=0"))
            #expect(run.requests.last?["challengeCancel"] == .string("01"))
        }

        @Test("an empty Enter asks again in line, plain and full-screen mode: no CReq is spent on it")
        func emptyEnterAsksAgain() async throws {
            for mode in Self.lineModes {
                let run = try await terminalRun(
                    .text, version: "2.2.0", environment: mode.environment, extra: mode.extra, lab: .cancel
                ) { session in
                    _ = try await session.wait(for: "to cancel):")
                    try await session.keys("Enter")
                    // Asked again: the code goes to the second question, not to the first.
                    _ = try await session.wait(for: "to cancel):", count: 2)
                    try await session.keys("123456", "Enter")
                    // 2.2.0 asks the whitelisting question after the code; Enter leaves it unanswered (N).
                    _ = try await session.wait(for: "[y/n]")
                    try await session.keys("Enter")
                }
                #expect(run.screen.contains(#""transStatus":"Y""#), "\(mode.name): \(run.screen)")
                #expect(run.screen.components(separatedBy: "to cancel):").count == 3, "asked twice: \(run.screen)")
                #expect(run.requests.count == 2, "\(mode.name): the first CReq and the one with the code")
                #expect(run.requests.allSatisfy { $0["challengeNoEntry"] == nil }, "\(mode.name)")
            }
            let full = try await terminalRun(.text, version: "2.2.0", lab: .cancel) { session in
                _ = try await session.wait(for: "One-time code: [_]")
                try await session.keys("Enter")
                _ = try await session.wait(for: "(!) Code entry")
                try await session.keys("123456", "Enter")
            }
            #expect(full.screen.contains(#""transStatus":"Y""#))
            #expect(full.requests.count == 2 && full.requests.allSatisfy { $0["challengeNoEntry"] == nil })
        }

        @Test("the card on standard input: the challenge reads the keyboard from /dev/tty, full screen")
        func cardOnStandardInput() async throws {
            let (lab, pki) = try await SharedLab.cancel.get()
            let before = lab.authentications.count
            let session = TmuxSession()
            defer { session.stop() }
            try await session.start(
                "echo \(Scenario.text.cardNumber) | \(TmuxSession.binary) pay --server \(lab.baseURL) "
                    + "--ds-id \(TestLab.rsaDirectoryServerID) --ds-cert \(pki)/ds-encryption-rsa.pem "
                    + "--ds-root \(pki)/ds-root.pem --tls-root \(pki)/tls-root.pem --card-file - --amount 1999 "
                    + "--currency 978 --message-version 2.1.0 --json")
            _ = try await session.wait(for: "One-time code: [_]")
            try await session.keys("123456", "Enter")
            let screen = try await session.wait(for: "EXIT=")
            #expect(screen.contains(#""outcome":"completed""#) && screen.contains("EXIT=0"), "\(screen)")
            #expect(!screen.contains("cancelled by the cardholder"))
            let record = lab.authentications.dropFirst(before).last {
                $0.request["acctNumber"] == .string(Scenario.text.cardNumber)
            }
            let requests = await lab.acsRecord(acsTransID: record?.response["acsTransID"]?.stringValue ?? "")?.requests
            #expect(requests?.last?["challengeDataEntry"] == .string("123456"))
        }

        @Test("the card typed at the terminal: a prompt, no echo, nothing in the scrollback; spaces are fine")
        func cardTypedAtTheTerminal() async throws {
            let (lab, pki) = try await SharedLab.cancel.get()
            let card = Scenario.frictionlessY.cardNumber
            let before = lab.authentications.count
            let session = TmuxSession()
            defer { session.stop() }
            try await session.start(
                "\(TmuxSession.binary) pay --server \(lab.baseURL) --ds-id \(TestLab.rsaDirectoryServerID) "
                    + "--ds-cert \(pki)/ds-encryption-rsa.pem --ds-root \(pki)/ds-root.pem "
                    + "--tls-root \(pki)/tls-root.pem --card-file - --amount 1999 --currency 978 --json")
            _ = try await session.wait(for: "Card number (not shown as you type it):")
            let written = stride(from: 0, to: card.count, by: 4).map {
                String(card.dropFirst($0).prefix(4))
            }.joined(separator: " ")
            try await session.keys(written, "Enter")
            let screen = try await session.wait(for: "EXIT=")
            #expect(screen.contains(#""outcome":"frictionless""#) && screen.contains("EXIT=0"), "\(screen)")
            let scrollback = try await session.tmux(["capture-pane", "-p", "-S", "-", "-t", "0"])
            #expect(
                !scrollback.contains(written) && !scrollback.contains(card), "the number was echoed:\n\(scrollback)")
            #expect(
                lab.authentications.dropFirst(before).contains { $0.request["acctNumber"] == .string(card) },
                "the AReq carried the number without its spaces")
        }

        @Test("the card on standard input and no terminal at all: a usage error asking for --answers or a card file")
        func cardOnStandardInputWithoutTerminal() async throws {
            let (lab, pki) = try await SharedLab.cli.get()
            // The lab is shared with tests paying beside this one: an amount of its own tells this run's AReq apart.
            let amount = "1987"
            let (status, output) = try await runThreedsWithoutTerminal(
                [
                    "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
                    "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
                    "--tls-root", "\(pki)/tls-root.pem", "--card-file", "-", "--amount", amount, "--currency", "978",
                ], input: Scenario.text.cardNumber + "\n")
            #expect(status == 2, "\(output)")
            #expect(output.contains("--ui auto --answers FILE") && output.contains("--card-file FILE"), "\(output)")
            #expect(!output.contains("cancelled by the cardholder"))
            #expect(
                !lab.authentications.contains { $0.request["purchaseAmount"] == .string(amount) }, "nothing was sent")
        }

        @Test("--oob-app-command gets the link as $1 and nothing else: xdg-open \"$1\" opens it once")
        func oobAppCommandArguments() async throws {
            let file = scratchDirectory("oob") + "/arguments.txt"
            // Prints the number of arguments, then each one: what `xdg-open "$1"` or `open "$1"` would receive.
            let command = "--oob-app-command 'printf \"%s\\n\" \"$#\" \"$@\" > \(file)'"
            let run = try await terminalRun(.outOfBand, version: "2.3.1", extra: command, lab: .cancel) { session in
                _ = try await session.wait(for: "< Open banking app >")
                try await session.keys("Enter")
            }
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines.first == "1", "one argument: \(lines)")
            #expect(lines.last?.hasPrefix("https://bank.testlab.example/approve") == true, "\(lines)")
            #expect(run.requests.last?["oobContinue"] == .string("02"), "the command returned 0: back from the app")
            #expect(run.screen.contains(#""transStatus":"Y""#))
            // `sleep 1` as the README's example of a slow opener: it must not get the link as a second argument.
            let sleeping = try await terminalRun(
                .outOfBand, version: "2.3.1", extra: "--oob-app-command 'sleep 1'", lab: .cancel
            ) { session in
                _ = try await session.wait(for: "< Open banking app >")
                try await session.keys("Enter")
            }
            #expect(sleeping.requests.last?["oobContinue"] == .string("02"), "\(sleeping.screen)")
            #expect(!sleeping.screen.contains("could not be opened"))
        }
    }
}

/// A selection or a consent is sent only when it is valid (issue 36, points 2 and 3): a slip is asked again.
extension MachineLoadingCLITests {
    @Suite("Slips are asked again, never sent (tmux and piped line mode)", .serialized)
    struct SlipTests {
        @Test("line mode, multi select: an option number out of range or a word is named and asked again")
        func multiSelectSlips() async throws {
            let (status, output) = try await runThreeds(
                ["demo", "--card", "multiSelect", "--line"], input: "5\nabc\n1,3\n")
            #expect(status == 0 && output.contains("Challenge completed: transStatus Y"), "\(output)")
            #expect(flattened(output).contains("This screen has no option “5”"), "\(output)")
            #expect(flattened(output).contains("This screen has no option “abc”"), "\(output)")
        }

        @Test("line mode, consent: 'maybe' asks the question again; the next answers are the consents, not a code")
        func consentSlip() async throws {
            let run = try await terminalRun(.consents, version: "2.3.1", extra: "--line") { session in
                _ = try await session.wait(for: "to cancel):")
                try await session.keys("123456", "Enter")
                _ = try await session.wait(for: "[y/n]")
                try await session.keys("maybe", "Enter")
                // The same question again, not the next one.
                let screen = try await session.wait(for: "maybe")
                #expect(screen.components(separatedBy: "[y/n]").count >= 3, "\(screen)")
                try await session.keys("y", "Enter")
                // The next question (device binding) is on screen before it is answered.
                _ = try await session.wait(for: "[y/n]", count: screen.components(separatedBy: "[y/n]").count)
                try await session.keys("n", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(run.requests.last?["trustListDataEntry"] == .string("Y"), "\(run.screen)")
            #expect(run.requests.last?["deviceBindingDataEntry"] == .string("N"), "\(run.screen)")
        }
    }
}
