import Foundation
import Testing
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The command blocks of the README and of the tools manual (Tools/README.md), and the examples of `--help` and of the
/// TestLab's banner, as a person runs them: one by one in a shell in a terminal (tmux), typing the code where the
/// challenge asks for it.
enum ReadmeCommands {
    /// The documents whose command blocks run as written, in the order a reader meets them.
    static let documents = ["README.md", "Tools/README.md"]

    /// The commands of every ```sh block of the README and the tools manual, and the usage lines of the requestor
    /// script's header (the indented `#   ` lines).
    static func documentedCommands() throws -> [String] {
        let script = try String(
            contentsOf: root.appendingPathComponent("Tools/scripts/testlab-requestor.sh"), encoding: .utf8)
        let usage = script.split(separator: "\n").filter { $0.hasPrefix("#   ") }.map { $0.dropFirst(2) }
        return try documents.flatMap {
            commands(inMarkdown: try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        } + commands(inMarkdown: "```sh\n" + usage.joined(separator: "\n") + "\n```")
    }

    /// The repository's root directory (this file is in `Tools/Tests/ThreeDSCLITests/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The commands of every ```sh block: continuation lines joined, comment lines dropped.
    static func commands(inMarkdown text: String) -> [String] {
        var commands: [String] = []
        var inBlock = false
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```sh"
                continue
            }
            guard inBlock else { continue }
            // A trailing comment (`swift test   # unit, …`) is the shell's to drop; dropped here so that the test can
            // add its end marker to the line.
            let code = line.range(of: "  # ").map { String(line[..<$0.lowerBound]) } ?? line
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasSuffix("\\") {
                pending += String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) + " "
            } else {
                commands.append(pending + trimmed)
                pending = ""
            }
        }
        return commands
    }

    /// The example commands of a `--help` text: the lines after an `Example` heading that start with `threeds` or
    /// `echo`, continuation lines joined.
    static func examples(inHelp text: String) -> [String] {
        var commands: [String] = []
        var pending = ""
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let starts = line.hasPrefix("threeds ") || line.hasPrefix("echo ")
            guard !pending.isEmpty || starts else { continue }
            // The overview's two-column lines (`threeds demo    pay through …`) are not commands to copy.
            let command = pending.isEmpty ? line.components(separatedBy: "   ").first ?? line : line
            if command.hasSuffix("\\") {
                pending += String(command.dropLast()).trimmingCharacters(in: .whitespaces) + " "
            } else {
                commands.append(pending + command)
                pending = ""
            }
        }
        return commands
    }

    /// Whether a person answers a challenge at the keyboard while the command runs.
    static func isInteractive(_ command: String) -> Bool {
        (command.contains(" pay ") && !command.contains("--ui auto"))
            || (command.contains("threeds demo") && !command.contains("--auto"))
    }
}

extension MachineLoadingCLITests {
    @Suite(
        "Every command in the README, --help and the banner runs as written (tmux)", .serialized)
    struct ReadmeCommandsTests {
        @Test(
            "the README's and the manual's command blocks are read whole: continuation lines joined, comments dropped")
        func readsTheBlocks() throws {
            let commands = try ReadmeCommands.documentedCommands()
            #expect(commands.contains("swift run --package-path Tools threeds demo"))
            #expect(commands.contains("scripts/test.sh"))
            #expect(commands.contains { $0.hasPrefix("echo 4000000000002000 | threeds pay --requestor-exec") })
            #expect(commands.contains { $0.hasPrefix("threeds testlab --port 8443 &") })
            #expect(commands.contains { $0.hasPrefix("threeds inspect creq messages/creq-1.jwe") })
            #expect(commands.filter { $0.contains("threeds pay") }.count >= 2)
            #expect(
                commands.allSatisfy { !$0.contains("\\ ") && !$0.hasPrefix("#") && !$0.contains("[--") }, "\(commands)")
            let help = """
                Example (against `threeds testlab`):
                  echo 4000000000002000 | threeds pay --server https://127.0.0.1:8443 \\
                    --amount 1999 --currency 978
                  threeds demo                      pay through an in-process TestLab
                """
            #expect(
                ReadmeCommands.examples(inHelp: help) == [
                    "echo 4000000000002000 | threeds pay --server https://127.0.0.1:8443 --amount 1999 --currency 978",
                    "threeds demo",
                ])
        }

        /// Every subcommand with a help text.
        static let subcommands: [[String]] = [
            [], ["pay"], ["load"], ["load", "run"], ["load", "merge"], ["testlab"], ["demo"], ["inspect"],
            ["inspect", "signed-content"],
            ["inspect", "device-data"], ["inspect", "creq"], ["inspect", "cres"], ["conform"],
        ]

        /// The discussion of a help text: after the overview's paragraph, up to the usage line.
        static func discussion(_ help: String) -> String {
            let lines = help.components(separatedBy: "\n")
            let start = (lines.firstIndex(of: "") ?? 0) + 1
            let end = lines.firstIndex { $0.hasPrefix("USAGE:") } ?? lines.count
            return start < end ? lines[start..<end].joined(separator: "\n") : ""
        }

        @Test("help texts are never re-wrapped at 80 or 100 columns, so no example breaks mid-command")
        func helpFitsTheWidth() async throws {
            for subcommand in Self.subcommands {
                let wide = try await runThreeds(subcommand + ["--help"], environment: ["COLUMNS": "300"])
                #expect(wide.status == 0)
                for columns in [80, 100] {
                    let narrow = try await runThreeds(subcommand + ["--help"], environment: ["COLUMNS": "\(columns)"])
                    #expect(
                        Self.discussion(narrow.output) == Self.discussion(wide.output),
                        "threeds \(subcommand) --help at \(columns) columns:\n\(Self.discussion(narrow.output))")
                }
                if subcommand != ["inspect"] {
                    #expect(wide.output.contains("Example") && wide.output.contains("Exit status"), "\(subcommand)")
                }
            }
        }

        @Test("README, help and banner commands run against `threeds testlab` in a shell in a terminal")
        func runAsWritten() async throws {
            var commands = try ReadmeCommands.documentedCommands()
            for subcommand in Self.subcommands where subcommand != ["testlab"] && subcommand != ["demo"] {
                commands += ReadmeCommands.examples(inHelp: try await runThreeds(subcommand + ["--help"]).output)
            }
            // A port of its own instead of the README's 8443, so that runs in parallel (CI, other checkouts) cannot
            // collide; every other character is as written.
            let probe = try await TestLab.start(options: TestLabOptions(port: 0))
            let port = probe.baseURL.port ?? 0
            await probe.stop()
            let directory = scratchDirectory("readme")
            let bin = directory + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: bin + "/threeds", withDestinationPath: TmuxSession.binary)
            try FileManager.default.copyItem(
                atPath: ReadmeCommands.root.appendingPathComponent("Tools/scripts").path,
                toPath: directory + "/Tools/scripts")
            let session = TmuxSession()
            defer { session.stop() }
            // `swift run --package-path Tools threeds …` as the README writes it runs the built tool; `scripts/test.sh`
            // is this test suite itself.
            try await session.tmux(
                [
                    "new-session", "-d", "-x", "120", "-y", "50", "-c", directory,
                    "env PATH=\(bin):$PATH TERM=xterm-256color PS1='$ ' bash --norc --noprofile",
                ], capture: false)
            try await session.keys(
                "-l",
                "swift() { if [ \"$1 $2 $3 $4\" = 'run --package-path Tools threeds' ]; then shift 4; threeds \"$@\"; fi; }"
            )
            try await session.keys("Enter")
            var ran: [String] = []
            var seen: Set<String> = []
            for (index, written) in commands.enumerated() where seen.insert(written).inserted {
                // `scripts/test.sh` runs this suite; the build and PATH lines are what `bin` above already gives the
                // shell; a TestLab in the foreground is the one already running in the background.
                if written.hasPrefix("scripts/test.sh") || written.hasPrefix("swift build --package-path Tools")
                    || written.hasPrefix("export PATH=")
                    || (written.hasPrefix("threeds testlab") && !written.hasSuffix("&"))
                {
                    continue
                }
                let command = written.replacingOccurrences(of: "8443", with: "\(port)")
                try await session.tmux(["clear-history", "-t", "0"], capture: false)
                try await session.keys("C-l")
                let separator = command.hasSuffix("&") ? " " : "; "
                try await session.keys("-l", command + separator + "echo \"DO\"\"NE-\(index) status=$?\"")
                try await session.keys("Enter")
                if command.contains("threeds testlab") && command.hasSuffix("&") {
                    _ = try await session.wait(for: "Press Ctrl-C to stop.", seconds: 120)
                    ran.append(written)
                    continue
                }
                if ReadmeCommands.isInteractive(command) {
                    _ = try await session.wait(for: "One-time code", seconds: 120)
                    try await session.keys("123456", "Enter")
                }
                let screen = try await session.wait(for: "DONE-\(index) status=", seconds: 300)
                #expect(screen.contains("DONE-\(index) status=0"), "\(written)\n\(screen)")
                #expect(!screen.contains("cancelled by the cardholder"), "\(written)")
                if ReadmeCommands.isInteractive(command) || command.contains("--answers") {
                    #expect(screen.contains("transStatus Y") || screen.contains("completed Y"), "\(written)\n\(screen)")
                }
                if command.contains("threeds inspect audit") {
                    // The offline audit's verdict: the saved ARes and its signed content break no rule.
                    #expect(screen.contains(": CONFORMS"), "\(written)\n\(screen)")
                } else if command.contains("threeds inspect") {
                    #expect(screen.contains("Verdict: VALID"), "\(written)\n\(screen)")
                }
                ran.append(written)
            }
            try await session.keys("-l", "kill %1")
            try await session.keys("Enter")
            // The README's demo, its testlab, pay (terminal and --requestor-exec), load and the four inspect commands,
            // with the help examples.
            #expect(ran.count >= 12, "\(ran)")
            #expect(ran.filter { $0.contains("threeds inspect") }.count >= 5, "\(ran)")
        }

        @Test("the TestLab banner's Try: line runs as written")
        func bannerCommand() async throws {
            let directory = scratchDirectory("banner")
            let output = try await firstOutput(
                ["testlab", "--port", "0", "--pki-dir", directory + "/testlab-pki"], waitingFor: "Press Ctrl-C to stop."
            )
            // The command after "Try:", its ` \` continuation lines joined as a shell joins them.
            let tryBlock = try #require(
                output.components(separatedBy: "Try:\n").dropFirst().first?.components(
                    separatedBy: "Scenarios by card number:"
                ).first)
            let line = tryBlock.replacingOccurrences(of: " \\\n", with: " ").split(separator: " ").joined(
                separator: " ")
            // The binary by its absolute path and the PEM files by theirs: runnable from any folder (issue 43; `swift run
            // --package-path Tools` ran only from the repository's root).
            #expect(line.contains("| \(TmuxSession.binary) pay"), "\(tryBlock)")
            #expect(line.contains("--ds-cert \(directory)/testlab-pki/ds-encryption-rsa.pem"), "\(tryBlock)")
            #expect(WidthTests.overflowing(output, columns: 80).isEmpty, "a banner line is wider than 80 columns")
            // That TestLab stopped when its banner was read, so the command runs against one of ours, its URL and PEM
            // directory put in; every option is as the banner wrote it.
            let (lab, pki) = try await SharedLab.readme.get()
            var command = line.trimmingCharacters(in: .whitespacesAndNewlines)
            let bannerURL = try #require(command.split(separator: " ").first { $0.hasPrefix("https://127.0.0.1:") })
            command = command.replacingOccurrences(of: String(bannerURL), with: lab.baseURL.absoluteString)
                .replacingOccurrences(of: "\(directory)/testlab-pki", with: pki)
                .replacingOccurrences(of: "testlab-pki/", with: "\(pki)/")
            let session = TmuxSession()
            defer { session.stop() }
            try await session.start(command)
            _ = try await session.wait(for: "One-time code")
            try await session.keys("123456", "Enter")
            let screen = try await session.wait(for: "EXIT=")
            #expect(screen.contains("Challenge completed: transStatus Y") && screen.contains("EXIT=0"), "\(screen)")
        }
    }
}
