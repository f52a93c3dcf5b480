import Foundation
import Testing
import ThreeDS2SDKTesting
import ThreeDS2TerminalUI
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// What the CLI prints for a person fits 80 columns, and a narrower terminal's width, broken only between words
/// (issue 36, point 7).
@Suite("Help, banners and usage errors fit the terminal")
struct WidthTests {
    /// The lines wider than `columns` display columns that are more than one token (a lone long token, URL or path
    /// is exempt, with a command's ` \` continuation after it).
    static func overflowing(_ output: String, columns: Int) -> [String] {
        output.split(separator: "\n").map(String.init).filter {
            LayoutRenderer.displayWidth($0) > columns && $0.split(separator: " ").filter { $0 != "\\" }.count > 1
        }
    }

    /// The words of an output, without the ` \` of continued commands: the same at any width when no word is split.
    static func words(_ output: String) -> [Substring] {
        output.split(whereSeparator: \.isWhitespace).filter { $0 != "\\" }
    }

    @Test("every --help fits 80 and 50 columns, with the same words at both widths")
    func helps() async throws {
        for command in threedsCommands {
            let wide = try await runThreeds(command + ["--help"], environment: ["COLUMNS": "80"]).output
            #expect(Self.overflowing(wide, columns: 80).isEmpty, "\(command): \(Self.overflowing(wide, columns: 80))")
            let narrow = try await runThreeds(command + ["--help"], environment: ["COLUMNS": "50"]).output
            #expect(
                Self.overflowing(narrow, columns: 50).isEmpty, "\(command): \(Self.overflowing(narrow, columns: 50))")
            #expect(Self.words(narrow) == Self.words(wide), "\(command): a word was split or lost at 50 columns")
        }
    }

    @Test("usage errors fit 80 and 50 columns, the usage line broken between options")
    func usageErrors() async throws {
        for arguments in [["demo", "--bogus"], ["pay"], ["load", "--count", "x"], ["inspect", "creq"]] {
            let wide = try await runThreeds(arguments, environment: ["COLUMNS": "80"])
            #expect(wide.status == 2)
            #expect(Self.overflowing(wide.output, columns: 80).isEmpty, "\(arguments):\n\(wide.output)")
            let narrow = try await runThreeds(arguments, environment: ["COLUMNS": "50"])
            #expect(Self.overflowing(narrow.output, columns: 50).isEmpty, "\(arguments):\n\(narrow.output)")
            #expect(Self.words(narrow.output) == Self.words(wide.output), "\(arguments)")
        }
    }

    @Test("the TestLab banner fits 80 and 50 columns, the same words at both, its command runnable as printed")
    func banner() async throws {
        var outputs: [Int: String] = [:]
        for columns in [80, 50] {
            let directory = scratchDirectory("width") + "/testlab-pki"
            let output = try await firstOutput(
                ["testlab", "--port", "0", "--pki-dir", directory], waitingFor: "Press Ctrl-C to stop.",
                environment: ["COLUMNS": "\(columns)"])
            #expect(Self.overflowing(output, columns: columns).isEmpty, "\(columns):\n\(output)")
            // Each run has its own port and folder: compare the words with those put back to one spelling.
            outputs[columns] = output.replacingOccurrences(of: directory, with: "PKI")
                .replacingOccurrences(of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
        }
        #expect(Self.words(outputs[50] ?? "") == Self.words(outputs[80] ?? ""))
    }
}

/// The challenge screens as line and plain mode print them, in a narrower terminal.
@Suite("Line and plain mode at 50 columns")
struct LineModeWidthTests {
    @Test("a piped demo's screens fit COLUMNS=50 in line and plain mode, with the same words as at 80")
    func pipedScreens() async throws {
        for mode in [["--line"], ["--plain"]] {
            var outputs: [Int: String] = [:]
            for columns in [80, 50] {
                let run = try await runThreeds(
                    ["demo"] + mode, input: "123456\n", environment: ["COLUMNS": "\(columns)"])
                #expect(run.status == 0, "\(run.output)")
                #expect(
                    WidthTests.overflowing(run.output, columns: columns).isEmpty, "\(mode) \(columns):\n\(run.output)")
                // The toolbar's rule is as wide as the terminal.
                outputs[columns] = run.output.split(separator: "\n").filter { !$0.hasPrefix("─") }
                    .joined(separator: "\n")
            }
            // The lab's URL and the transaction's identifier differ from run to run.
            func words(_ output: String?) -> [Substring] {
                WidthTests.words(output ?? "").filter {
                    !$0.hasPrefix("https://") && $0.filter { $0 == "-" }.count != 4
                }
            }
            #expect(words(outputs[50]) == words(outputs[80]), "\(mode): a word was split or lost at 50 columns")
        }
    }
}

/// `threeds demo --auto --all` says per scenario whether it ended as expected, shows that it waits on the slow one,
/// and fits the terminal (issue 36, points 7 and 8).
@Suite("demo --auto --all: every scenario marked, nothing silent, 80 columns")
struct DemoAllTests {
    @Test("every scenario ends as expected and says so; the slow one announces its wait; exit 0")
    func allScenarios() async throws {
        let (status, output) = try await runThreeds(["demo", "--auto", "--all"])
        #expect(status == 0, "\(output)")
        let count = Scenario.allCases.count
        #expect(output.contains("\(count) of \(count) scenarios ended as expected."), "\(output)")
        #expect(output.components(separatedBy: "  as expected (").count - 1 == count)
        #expect(output.contains("  as expected (protocol error 302)") && output.contains("  as expected (timed out)"))
        #expect(output.contains("waiting for the SDK's 10-second CRes timer"))
        #expect(WidthTests.overflowing(output, columns: 80).isEmpty, "\(WidthTests.overflowing(output, columns: 80))")
        // The security findings once for the whole run, before the first scenario (as root they are raised).
        let findings = output.components(separatedBy: "security checks:").count - 1
        #expect(findings == (getuid() == 0 ? 1 : findings) && findings <= 1, "\(output)")
        if findings == 1, let first = output.range(of: Scenario.allCases[0].cardNumber) {
            #expect(output.range(of: "security checks:")!.lowerBound < first.lowerBound, "\(output)")
        }
    }
}

/// Line and plain mode run from a terminal with their output redirected (issue 43): they measure where they write,
/// not the controlling terminal.
@Suite("Line and plain mode with the output in a file, run from a terminal")
struct RedirectedLineModeTests {
    /// Runs `threeds ARGUMENTS` under `script`, so that a pseudo terminal of 100 columns is its controlling
    /// terminal, with `echo 123456` as its input and its output in a file; returns the file's text.
    static func redirected(_ arguments: [String], environment: String) async throws -> (status: Int32, text: String) {
        let directory = scratchDirectory("line-to-file")
        let output = "\(directory)/out.txt"
        let inner = "\(directory)/inner.sh"
        let quoted = ([TmuxSession.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            stty cols 100 rows 30
            echo 123456 | env -u COLUMNS -u NO_COLOR TERM=xterm-256color COLORTERM=truecolor \(environment) \
            \(quoted) > '\(output)' 2>/dev/null
            echo "status $?" > '\(output).status'
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: inner))
        let run = try ThreedsRun([], launcher: .shell("exec /usr/bin/script -qec 'sh \(inner)' /dev/null"))
        _ = await run.exit()
        let status = try String(contentsOfFile: output + ".status", encoding: .utf8)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return (Int32(status.dropFirst(7).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, text)
    }

    @Test(
        "a 100-column controlling terminal, output in a file: lines of COLUMNS or 80 columns, no escape code",
        arguments: [
            (["demo", "--line"], "", 80), (["demo", "--line"], "COLUMNS=40", 40), (["demo", "--plain"], "", 80),
            (["demo"], "COLUMNS=50", 50),
        ])
    func measuresTheOutput(arguments: [String], environment: String, columns: Int) async throws {
        let (status, text) = try await Self.redirected(arguments, environment: environment)
        #expect(status == 0, "\(arguments) \(environment): \(text)")
        #expect(text.contains("123456"), "the screen reached the file: \(text)")
        #expect(!text.contains("\u{1B}"), "\(arguments) \(environment): an escape code in the file:\n\(text)")
        let overflowing = WidthTests.overflowing(text, columns: columns)
        #expect(overflowing.isEmpty, "\(arguments) \(environment): wider than \(columns):\n\(overflowing)")
        // A rule or a box border is as wide as the width measured: the terminal's 100 columns never reach the file.
        let widest = text.split(separator: "\n").map { LayoutRenderer.displayWidth(String($0)) }.max() ?? 0
        #expect(widest <= columns, "\(arguments) \(environment): a line of \(widest) columns")
    }

    @Test("in a 30-column terminal without COLUMNS exported, what the CLI prints fits 30 columns, words whole")
    func narrowTerminalWithoutColumns() async throws {
        let directory = scratchDirectory("narrow-terminal")
        let inner = "\(directory)/inner.sh"
        let script = """
            stty cols 30 rows 30
            env -u COLUMNS TERM=xterm-256color '\(TmuxSession.binary)' demo --card frictionlessY < /dev/null
            env -u COLUMNS '\(TmuxSession.binary)' demo --locale ''
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: inner))
        let run = try ThreedsRun([], launcher: .shell("exec /usr/bin/script -qec 'sh \(inner)' /dev/null"))
        let output = await run.exit().output.replacingOccurrences(of: "\r", with: "")
        #expect(output.contains("Frictionless") && flattened(output).contains("empty value"), "\(output)")
        let overflowing = WidthTests.overflowing(output, columns: 30)
        #expect(overflowing.isEmpty, "wider than the 30-column terminal:\n\(overflowing)")
    }

    @Test("output that is no terminal gets no colour, and COLUMNS or 80 columns")
    func colours() {
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer {
            close(pipe[0])
            close(pipe[1])
        }
        let colourful = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
        #expect(OutputGeometry.colorDepth(of: pipe[1], environment: colourful) == .none)
        #expect(OutputGeometry.columns(of: pipe[1], environment: ["COLUMNS": "40"]) == 40)
        #expect(OutputGeometry.columns(of: pipe[1], environment: [:]) == 80)
        #expect(OutputGeometry.columns(of: pipe[1], environment: ["COLUMNS": "wide"]) == 80)
    }
}
