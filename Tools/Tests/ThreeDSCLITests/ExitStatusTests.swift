import Foundation
import Testing
import ThreeDS2SDKTesting

/// One exit-status table and one time syntax for every subcommand (issue 36, point 7).
@Suite("Exit statuses and --at, the same everywhere")
struct ExitStatusTests {
    @Test("every help states the one table: 2 for usage errors and unreadable input files, the signals' statuses")
    func helpStatesTheTable() async throws {
        for subcommand in threedsCommands {
            let help = try await runThreeds(subcommand + ["--help"], environment: ["COLUMNS": "300"]).output
            let paragraph = help.replacingOccurrences(of: "\n", with: " ")
            #expect(paragraph.contains("Exit status: 0 "), "\(subcommand)")
            #expect(
                paragraph.contains("2 usage error (a bad option, or an input file that is missing or unreadable)"),
                "\(subcommand):\n\(help)")
            #expect(paragraph.contains("130 after Ctrl-C") || subcommand == ["testlab"], "\(subcommand)")
        }
    }

    @Test("an input file that does not exist is a usage error (2) for every command that reads one")
    func missingFilesExitTwo() async throws {
        let missing = scratchDirectory("missing") + "/nothing-here"
        let commands: [[String]] = [
            ["ds", "check", missing], ["load", "merge", missing], ["inspect", "creq", missing],
            ["inspect", "cres", missing], ["inspect", "signed-content", missing, "--ds-root", missing],
            ["inspect", "device-data", missing, "--ds-key", missing], ["inspect", "audit", missing],
            ["inspect", "signed-content", missing, "--ds-root", missing, "--areq", missing],
            [
                "pay", "--server", "https://127.0.0.1:1", "--ds-id", "F055545342", "--ds-cert", missing, "--ds-root",
                missing, "--card", "4000000000001000", "--amount", "1", "--currency", "978",
            ],
        ]
        for command in commands {
            let (status, output) = try await runThreeds(command)
            #expect(status == 2, "\(command): \(status)\n\(output)")
        }
    }

    @Test("--at takes a day or a full ISO 8601 time in ds check and inspect signed-content alike")
    func oneTimeSyntax() async throws {
        let missing = scratchDirectory("at") + "/nothing"
        for at in ["2030-01-01", "2030-01-01T12:00:00Z"] {
            for command in [["ds", "check", missing], ["inspect", "signed-content", missing, "--ds-root", missing]] {
                let (_, output) = try await runThreeds(command + ["--at", at])
                #expect(!output.contains("--at must be"), "\(command) --at \(at):\n\(output)")
            }
        }
        for command in [["ds", "check", missing], ["inspect", "signed-content", missing, "--ds-root", missing]] {
            let (status, output) = try await runThreeds(command + ["--at", "next tuesday"])
            #expect(status == 2 && output.contains("--at must be YYYY-MM-DD or an ISO 8601 time"), "\(output)")
        }
    }
}

/// The smaller first-use messages of issue 36, point 10, each as it was reproduced.
@Suite("Inputs that are the wrong kind of file say what they are")
struct WrongFileTests {
    @Test("ds check on a PEM file or a folder without a bundle, --transaction-keys given an AReq: named, exit 2")
    func wrongKinds() async throws {
        let (_, pki) = try await SharedLab.cli.get()
        let pem = try await runThreeds(["ds", "check", "\(pki)/ds-root.pem"])
        #expect(pem.status == 2 && pem.output.contains("is a PEM file, not a trust bundle"), "\(pem.output)")
        #expect(!pem.output.contains("invalid number at offset"), "\(pem.output)")
        let folder = scratchDirectory("nobundle")
        let empty = try await runThreeds(["ds", "check", folder])
        #expect(empty.status == 2 && empty.output.contains("holds no trust-bundle.json"), "\(empty.output)")
        let areq = folder + "/areq.json"
        try Data(#"{"messageVersion":"2.2.0","sdkTransID":"x"}"#.utf8).write(to: URL(fileURLWithPath: areq))
        let keys = try await runThreeds(["inspect", "creq", areq, "--transaction-keys", areq])
        #expect(keys.output.contains("not a transaction-keys file"), "\(keys.output)")
        #expect(!keys.output.contains("32 bytes"), "\(keys.output)")
    }
}
