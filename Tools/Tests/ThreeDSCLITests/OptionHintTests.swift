import Foundation
import Testing

/// Usage hints name only options the command does not know (issue 36, point 1).
@Suite("Usage hints never call a valid option unknown")
struct OptionHintTests {
    /// Every command that takes options: all but the root and the two groups.
    static let commands = threedsCommands.filter { ![[], ["load"], ["inspect"]].contains($0) }

    /// The long options a help text documents.
    static func documentedOptions(_ help: String) -> Set<String> {
        Set(
            help.split(whereSeparator: { " \n,[]()|'\"`;:.".contains($0) }).filter {
                $0.hasPrefix("--") && $0.count > 2
            }
            .map { String($0.prefix { $0 != "=" && $0 != "<" }) })
    }

    @Test(
        "each command's documented options, all typed correctly in a failing command line, draw no hint",
        arguments: commands)
    func documentedOptionsAreKnown(command: [String]) async throws {
        let options = Self.documentedOptions(try await runThreeds(command + ["--help"]).output)
            .subtracting(["--help", "--version"])
        #expect(options.count >= 2, "\(command): \(options)")
        // Every option at once, each with a value that makes the line a usage error.
        let (status, output) = try await runThreeds(command + options.sorted().map { "\($0)=" })
        #expect(status != 0)
        for option in options {
            #expect(!output.contains("unknown option \(option)"), "\(command) \(option):\n\(output)")
        }
        #expect(!output.contains("threeds: unknown option"), "\(command):\n\(output)")
    }

    @Test("the cases that misled: --tls-root without a DS certificate, load's --amount, and a real typo still hinted")
    func reproducedCases() async throws {
        let pay = try await runThreeds([
            "pay", "--server", "https://127.0.0.1:1", "--ds-id", "X", "--tls-root", "x", "--card", "4000000000002000",
            "--amount", "1", "--currency", "978",
        ])
        #expect(pay.status == 2 && !pay.output.contains("unknown option"), "\(pay.output)")
        let load = try await runThreeds(["load", "--amount", "5", "--count", "2"])
        #expect(load.status == 2 && !load.output.contains("unknown option"), "\(load.output)")
        let typo = try await runThreeds(["load", "--amount", "5", "--cuont", "2"])
        #expect(typo.output.contains("unknown option --cuont; did you mean --count?"), "\(typo.output)")
        let unknown = try await runThreeds(["inspect", "creq", "--frobnicate"])
        #expect(unknown.output.contains("unknown option --frobnicate\n"), "\(unknown.output)")
    }

    @Test("a mistyped command gets a suggestion; a mistyped option is named once, not twice (issue 43)")
    func commandTypoAndOneLine() async throws {
        let command = try await runThreeds(["pya"])
        #expect(
            command.status == 2 && command.output.contains("unknown command pya; did you mean pay?"),
            "\(command.output)")
        #expect(!command.output.contains("Unexpected argument"), "one error line for the word: \(command.output)")
        let version = try await runThreeds(["--versoin"])
        #expect(version.status == 2, "\(version.output)")
        #expect(version.output.contains("unknown option --versoin; did you mean --version?"), "\(version.output)")
        let errorLines = version.output.split(separator: "\n").filter {
            $0.lowercased().contains("unknown option") || $0.hasPrefix("Error:")
        }
        #expect(errorLines.count == 1, "one error line: \(version.output)")
    }
}
