import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// One `threeds pay` run inside tmux against an in-process TestLab: keys typed, the screen read back.
struct TmuxSession {
    let socket = "threeds-test-\(UUID().uuidString.prefix(8))"

    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("threeds")
            .path
    }

    /// Runs a tmux client command through `system()`, which waits for the client itself (tmux's server forks away
    /// from it, and Foundation's Process has been seen to miss that exit). Output goes through a temporary file.
    ///
    /// The call runs on a thread of its own, never on a cooperative thread (a blocked one starves the timers every
    /// test's backstop needs: the 2-core machine has two), and `timeout` ends a client that does not finish in
    /// 30 seconds, so a hung tmux fails the test instead of holding the whole run.
    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) async throws -> String {
        let socket = socket
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try Self.tmuxBlocking(socket, arguments, capture: capture) })
            }
            thread.name = "tmux client"
            thread.start()
        }
    }

    private static func tmuxBlocking(_ socket: String, _ arguments: [String], capture: Bool) throws -> String {
        let quoted = (["timeout", "-k", "5", "30", "tmux", "-L", socket] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let output = scratchDirectory("tmux") + "/output.txt"
        let status = system(
            quoted.joined(separator: " ") + (capture ? " > '\(output)'" : " > /dev/null") + " 2>/dev/null < /dev/null")
        guard status == 0 else {
            // timeout's own status (124, or 137 after its kill) says the client hung rather than failed.
            let hung = status != -1 && [124, 137].contains((status >> 8) & 0xFF)
            throw TestLabError(
                .failed,
                "tmux \(arguments.first ?? "") " + (hung ? "did not finish in 30 s" : "failed with status \(status)"))
        }
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        guard capture else { return "" }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    func start(_ command: String, environment: String = "TERM=xterm-256color") async throws {
        try await tmux(
            ["new-session", "-d", "-x", "100", "-y", "40", "env \(environment) \(command); echo EXIT=$?; sleep 120"],
            capture: false)
    }

    func keys(_ keys: String...) async throws { try await tmux(["send-keys", "-t", "0"] + keys, capture: false) }

    func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-t", "0"]) }

    /// A tmux format value of the pane (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`).
    func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen contains `text`, or until the run ends without it (`EXIT=` on the screen); the time given
    /// (five minutes unless told: a loaded 2-core machine once took over two to reach a screen) is only a backstop for a
    /// run that hangs.
    func wait(for text: String, seconds: Int = 300) async throws -> String {
        try await wait(until: "\"\(text)\"", seconds: seconds) { $0.contains(text) }
    }

    /// Waits until the screen contains `text` at least `count` times (a question asked again, the next one), or until
    /// the run ends without; the time is a backstop.
    func wait(for text: String, count: Int, seconds: Int = 300) async throws -> String {
        try await wait(until: "\(count) times \"\(text)\"", seconds: seconds) {
            $0.components(separatedBy: text).count > count
        }
    }

    /// Looks at the screen every 50 ms until `shown` holds for it, or the run ended without it (the session's command
    /// is followed by `echo EXIT=$?`), or `seconds` passed: a backstop, never what a test waits for.
    private func wait(until what: String, seconds: Int, _ shown: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            let current = try await screen()
            if shown(current) { return current }
            if current.contains("EXIT=") {
                throw TestLabError(.failed, "the run ended before \(what); the screen shows:\n\(current)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let last = try await screen()
        throw TestLabError(.failed, "timed out waiting for \(what); the screen shows:\n\(last)")
    }

    /// Ends the session's tmux server (a `defer` calls it, so it blocks, at most 35 s).
    func stop() { _ = try? Self.tmuxBlocking(socket, ["kill-server"], capture: false) }
}

/// A lab shared by the tests of one kind, and the directory of its PEM files.
actor SharedLab {
    /// The lab of the tmux tests (which find their transaction by card number, so nothing else pays there).
    static let terminal = SharedLab(name: "tmux-lab")
    /// The lab of the CLI process tests.
    static let cli = SharedLab(name: "cli-lab")
    /// The lab of the cancel and input tests through tmux (their suite runs beside the renderer's, with the same
    /// cards).
    static let cancel = SharedLab(name: "tmux-cancel-lab")
    /// The lab of the README and banner commands through tmux.
    static let readme = SharedLab(name: "tmux-readme-lab")

    private let name: String
    private var lab: (TestLab, String)?

    init(name: String) {
        self.name = name
    }

    /// The running lab and the directory of its PEM files, started on first use.
    func get() async throws -> (TestLab, String) {
        if let lab { return lab }
        let directory = URL(fileURLWithPath: scratchDirectory(name))
        let started = try await TestLab.start(options: TestLabOptions(pkiDirectory: directory))
        lab = (started, directory.path)
        return (started, directory.path)
    }
}

/// The card goes in a file (`--card-file`), never on the command line where the process list shows it.
func payCommand(lab: TestLab, pki: String, card: String, version: String, extra: String = "") throws -> String {
    let cardFile = "\(pki)/card-\(card)"
    try Data(card.utf8).write(to: URL(fileURLWithPath: cardFile))
    return "\(TmuxSession.binary) pay --server \(lab.baseURL) --ds-id \(TestLab.rsaDirectoryServerID) "
        + "--ds-cert \(pki)/ds-encryption-rsa.pem --ds-root \(pki)/ds-root.pem --tls-root \(pki)/tls-root.pem "
        + "--card-file \(cardFile) --amount 1999 --currency 978 --message-version \(version) --json \(extra)"
}

/// Runs one terminal session, returns the final screen and what the ACS received.
func terminalRun(
    _ scenario: Scenario, version: String = "2.1.0", environment: String = "TERM=xterm-256color", extra: String = "",
    lab shared: SharedLab = .terminal, _ interact: (TmuxSession) async throws -> Void
) async throws
    -> (screen: String, requests: [JSONObject])
{
    #expect(FileManager.default.isExecutableFile(atPath: TmuxSession.binary), "threeds must be built next to the tests")
    let (lab, pki) = try await shared.get()
    let before = lab.authentications.count
    let session = TmuxSession()
    defer { session.stop() }
    try await session.start(
        try payCommand(lab: lab, pki: pki, card: scenario.cardNumber, version: version, extra: extra),
        environment: environment)
    try await interact(session)
    let final = try await session.wait(for: "EXIT=")
    let record = lab.authentications.dropFirst(before).last { $0.request["acctNumber"] == .string(scenario.cardNumber) }
    let acsTransID = record?.response["acsTransID"]?.stringValue ?? ""
    return (final, await lab.acsRecord(acsTransID: acsTransID)?.requests ?? [])
}

extension MachineLoadingCLITests {
    @Suite("The terminal renderer driven through tmux", .serialized)
    struct TerminalEndToEndTests {
        @Test("text code: typed (masked), Enter → completed; the ACS got the code")
        func text() async throws {
            let run = try await terminalRun(.text) { session in
                _ = try await session.wait(for: "One-time code: [_]")
                try await session.keys("123456")
                let masked = try await session.wait(for: "[••••••_]")
                #expect(!masked.contains("123456"))
                try await session.keys("Enter")
            }
            #expect(run.screen.contains("\"outcome\":\"completed\"") && run.screen.contains("EXIT=0"))
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
        }

        @Test("output redirected to a file: the screens still draw on the terminal, the file gets no escape codes")
        func redirectedOutput() async throws {
            let file = scratchDirectory("redirect") + "/out.txt"
            let run = try await terminalRun(.text, extra: "> \(file)") { session in
                _ = try await session.wait(for: "One-time code: [_]")
                try await session.keys("123456", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            let written = try String(contentsOfFile: file, encoding: .utf8)
            #expect(written.contains(#""outcome":"completed""#), "\(written)")
            #expect(!written.contains("\u{1B}"), "no escape code in the file")
        }

        @Test("SIGTERM or SIGHUP during a screen restores the main screen and the cursor, and ends as the signal does")
        func signalsRestoreTheTerminal() async throws {
            for (name, number) in [("TERM", 15), ("HUP", 1)] {
                _ = try await terminalRun(.text) { session in
                    _ = try await session.wait(for: "One-time code: [_]")
                    #expect(
                        try await session.format("#{alternate_on}") == "1", "the challenge is on the alternate screen")
                    let pid = try await session.format("#{pane_pid}")
                    // The pane runs a shell; threeds is its child.
                    let kill = Process()
                    kill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
                    kill.arguments = ["-\(name)", "-P", pid, "-f", "threeds"]
                    try kill.run()
                    kill.waitUntilExit()
                    _ = try await session.wait(for: "EXIT=\(128 + number)")
                    #expect(try await session.format("#{alternate_on}") == "0", "SIG\(name): back on the main screen")
                    #expect(try await session.format("#{cursor_flag}") == "1", "SIG\(name): the cursor is visible")
                }
            }
        }

        @Test("keys typed while processing are not echoed and do not reach the first screen")
        func typeAheadDuringProcessing() async throws {
            let run = try await terminalRun(.text) { session in
                _ = try await session.wait(for: "Processing…")
                try await session.keys("zq9")
                let screen = try await session.wait(for: "One-time code: [_]")
                #expect(!screen.contains("zq9"))
                try await session.keys("123456", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(!run.screen.contains("zq9"), "nothing was echoed on the main screen")
        }

        @Test("resend from the keyboard, then the code")
        func resend() async throws {
            let run = try await terminalRun(.text) { session in
                _ = try await session.wait(for: "One-time code: [_]")
                try await session.keys("Tab", "Tab", "Enter")
                _ = try await session.wait(for: "A new code was sent")
                try await session.keys("123456", "Enter")
            }
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
            #expect(run.requests.map { $0["resendChallenge"]?.stringValue } == [nil, "Y", nil])
        }

        @Test("Esc cancels: the ACS gets challengeCancel 01, the outcome is cancelled")
        func cancel() async throws {
            let run = try await terminalRun(.text) { session in
                _ = try await session.wait(for: "One-time code")
                try await session.keys("Escape")
            }
            #expect(run.screen.contains("\"outcome\":\"cancelled\"") && run.screen.contains("EXIT=0"))
            #expect(run.requests.last?["challengeCancel"] == .string("01"))
        }

        @Test("Ctrl-C cancels too")
        func controlC() async throws {
            let run = try await terminalRun(.text) { session in
                _ = try await session.wait(for: "One-time code")
                try await session.keys("C-c")
            }
            #expect(run.requests.last?["challengeCancel"] == .string("01"))
        }

        @Test("single select with the arrows")
        func singleSelect() async throws {
            let run = try await terminalRun(.singleSelect) { session in
                _ = try await session.wait(for: "( ) Email")
                try await session.keys("Down", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("mail"))
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("multi select with Space")
        func multiSelect() async throws {
            let run = try await terminalRun(.multiSelect) { session in
                _ = try await session.wait(for: "[ ] Groceries")
                try await session.keys("Space", "Down", "Down", "Space")
                _ = try await session.wait(for: "[x] Groceries")
                try await session.keys("Tab", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("q1,q3"))
        }

        @Test("out of band (2.3.1): the app link handed over and shown, then continue (oobContinue 01)")
        func outOfBand() async throws {
            let run = try await terminalRun(.outOfBand, version: "2.3.1") { session in
                _ = try await session.wait(for: "< Open banking app >")
                try await session.keys("Enter")
                _ = try await session.wait(for: "https://bank.testlab.example/approve")
                try await session.keys("Tab", "Enter")
            }
            #expect(run.requests.first?["oobAppURLInd"] == .string("01"))
            #expect(run.requests.last?["oobContinue"] == .string("01") && run.requests.last?["oobAppStatus"] == nil)
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("out of band (2.3.1): --oob-app-command that returns continues on its own (oobContinue 02)")
        func outOfBandAppReturns() async throws {
            let run = try await terminalRun(.outOfBand, version: "2.3.1", extra: "--oob-app-command true") { session in
                _ = try await session.wait(for: "< Open banking app >")
                try await session.keys("Enter")
            }
            #expect(run.requests.last?["oobContinue"] == .string("02"))
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("out of band (2.3.1): an app that fails to open keeps the screen; the next CReq says oobAppStatus 01")
        func outOfBandAppFails() async throws {
            let run = try await terminalRun(.outOfBand, version: "2.3.1", extra: "--oob-app-command false") { session in
                _ = try await session.wait(for: "< Open banking app >")
                try await session.keys("Enter")
                _ = try await session.wait(for: "could not be opened")
                try await session.keys("Tab", "Enter")
            }
            #expect(run.requests.last?["oobContinue"] == .string("01"))
            #expect(run.requests.last?["oobAppStatus"] == .string("01"))
        }

        @Test("out of band (2.3.1) with --no-oob-app: oobAppURLInd 03 and no app link")
        func outOfBandNoApp() async throws {
            let run = try await terminalRun(.outOfBand, version: "2.3.1", extra: "--no-oob-app") { session in
                let screen = try await session.wait(for: "< I have approved >")
                #expect(!screen.contains("Open banking app"))
                try await session.keys("Enter")
            }
            #expect(run.requests.allSatisfy { $0["oobAppURLInd"] == .string("03") })
            #expect(run.requests.last?["oobContinue"] == .string("01"))
        }

        @Test("2.3.1 two entry boxes: the first masked with a reveal toggle, the second plain; both sent")
        func twoEntryBoxes() async throws {
            let run = try await terminalRun(.twoEntryBoxes, version: "2.3.1") { session in
                _ = try await session.wait(for: "Year of birth")
                try await session.keys("123456")
                let masked = try await session.wait(for: "[••••••_]")
                #expect(!masked.contains("123456"))
                try await session.keys("C-t")
                _ = try await session.wait(for: "[123456_]")
                try await session.keys("Tab", "1990", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(run.requests.last?["challengeDataEntryTwo"] == .string("1990"))
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("2.3.1 two entry boxes in line mode: the first box's line, the second box's, then the consent")
        func twoEntryBoxesLine() async throws {
            let run = try await terminalRun(.twoEntryBoxes, version: "2.3.1", extra: "--line") { session in
                _ = try await session.wait(for: "to cancel):")
                try await session.keys("123456", "Enter")
                // The prompt, unindented (the drawn box above reads "  Year of birth: []").
                _ = try await session.wait(for: "\nYear of birth:")
                try await session.keys("1990", "Enter")
                _ = try await session.wait(for: "[y/n]:")
                try await session.keys("n", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(run.requests.last?["challengeDataEntryTwo"] == .string("1990"))
            #expect(run.requests.last?["trustListDataEntry"] == .string("N"))
        }

        @Test("2.3.1 consents above the buttons, answered from the keyboard; the additional-code button")
        func consentsAndAdditional() async throws {
            let consents = try await terminalRun(.consents, version: "2.3.1") { session in
                let screen = try await session.wait(for: "Remember this device")
                let trust = try #require(screen.range(of: "Trust this merchant"))
                let verify = try #require(screen.range(of: "< Verify >"))
                #expect(
                    trust.lowerBound < verify.lowerBound, "togglePositionInd 01 puts the consents above the buttons")
                try await session.keys("123456", "Tab", "y", "Tab", "n", "Tab", "Enter")
            }
            #expect(consents.requests.last?["trustListDataEntry"] == .string("Y"))
            #expect(consents.requests.last?["deviceBindingDataEntry"] == .string("N"))
            let additional = try await terminalRun(.additionalCode, version: "2.3.1") { session in
                _ = try await session.wait(for: "< Use my banking app instead >")
                try await session.keys("Tab", "Tab", "Tab", "Enter")
                _ = try await session.wait(for: "< I have approved >")
                try await session.keys("Tab", "Enter")
            }
            #expect(additional.requests.map { $0["challengeAddCode"]?.stringValue } == [nil, "Y", nil])
            #expect(additional.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("HTML: the form's field, checkbox and button from the keyboard; no script text")
        func html() async throws {
            let run = try await terminalRun(.html) { session in
                let page = try await session.wait(for: "< Verify >")
                #expect(!page.contains("scripts never run"))
                try await session.keys("123456", "Tab", "Space", "Tab", "Enter")
            }
            let data = run.requests.last?["challengeHTMLDataEntry"]?.stringValue ?? ""
            #expect(data.hasSuffix("&otp=123456&remember=yes&action=verify"))
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("2.3.1 information screen, then the code")
        func information() async throws {
            let run = try await terminalRun(.information, version: "2.3.1") { session in
                _ = try await session.wait(for: "Before you continue")
                try await session.keys("Enter")
                _ = try await session.wait(for: "One-time code: [_]")
                try await session.keys("123456", "Enter")
            }
            #expect(run.requests.map { $0["infoContinueIndicator"] } == [nil, .bool(true), nil])
            #expect(run.screen.contains("\"transStatus\":\"Y\""))
        }

        @Test("plain mode (TERM=dumb): every control in words, answered line by line")
        func plain() async throws {
            let run = try await terminalRun(.text, environment: "TERM=dumb") { session in
                let screen = try await session.wait(for: "to cancel):")
                #expect(
                    screen.contains("Text field: One-time code") && screen.contains("Button: Verify")
                        && !screen.contains("\u{1B}["))
                try await session.keys("123456", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(run.screen.contains("EXIT=0"))
        }

        @Test("a terminal resize redraws at the new width")
        func resize() async throws {
            let run = try await terminalRun(.text) { session in
                let wide = try await session.wait(for: "One-time code: [_]")
                #expect(wide.split(separator: "\n").first.map { $0.count > 90 } == true)
                try await session.tmux(["resize-window", "-t", "0", "-x", "50", "-y", "30"], capture: false)
                let narrow = try await session.wait(for: "──────────────────────────────────────────────────\n")
                #expect(narrow.split(separator: "\n").first.map { $0.count <= 50 } == true)
                try await session.keys("123456", "Enter")
            }
            #expect(run.screen.contains("Challenge completed: transStatus Y"))
        }

        @Test("dark appearance colours in truecolor; NO_COLOR drops every colour")
        func appearance() async throws {
            let dark = try await terminalRun(
                .text, environment: "-u NO_COLOR TERM=xterm-256color COLORTERM=truecolor", extra: "--appearance dark"
            ) { session in
                _ = try await session.wait(for: "One-time code")
                let colored = try await session.tmux(["capture-pane", "-p", "-e", "-t", "0"])
                #expect(colored.contains("48;2;30;30;46"), "\(colored.prefix(300).debugDescription)")
                try await session.keys("Escape")
            }
            #expect(dark.screen.contains("cancelled"))
            let plain = try await terminalRun(.text, environment: "TERM=xterm-256color NO_COLOR=1") { session in
                _ = try await session.wait(for: "One-time code")
                let colored = try await session.tmux(["capture-pane", "-p", "-e", "-t", "0"])
                #expect(!colored.contains("48;2;") && !colored.contains("38;5;"))
                try await session.keys("Escape")
            }
            #expect(plain.screen.contains("cancelled"))
        }

        @Test("German texts from --locale")
        func german() async throws {
            let run = try await terminalRun(.text, extra: "--locale de_DE") { session in
                _ = try await session.wait(for: "[Abbrechen: Esc]")
                try await session.keys("Escape")
            }
            #expect(run.screen.contains("\"outcome\":\"cancelled\""))
        }
    }
}
