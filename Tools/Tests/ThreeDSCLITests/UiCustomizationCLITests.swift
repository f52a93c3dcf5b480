import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("threeds --ui-customization", .serialized)
struct UiCustomizationCLITests {
    @Test("demo passes the file through initialize: line mode shows the toolbar header of the appearance in use")
    func demoShowsHeader() async throws {
        let file = scratchDirectory("ui-customization") + "/look.json"
        try Data(
            #"{"default": {"toolbar": {"headerText": "Acme Bank Secure"}}, "dark": {"toolbar": {"headerText": "Acme Bank Night"}}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: file))
        let light = try await runThreeds(["demo", "--ui-customization", file], input: "123456\n")
        #expect(light.status == 0 && light.output.contains("Acme Bank Secure"), "\(light.output)")
        #expect(light.output.contains("Challenge completed: transStatus Y"))
        let dark = try await runThreeds(
            ["demo", "--appearance", "dark", "--ui-customization", file], input: "123456\n")
        #expect(dark.output.contains("Acme Bank Night") && !dark.output.contains("Acme Bank Secure"), "\(dark.output)")
        let without = try await runThreeds(["demo"], input: "123456\n")
        #expect(!without.output.contains("Acme Bank"), "\(without.output)")
    }

    @Test("a poor contrast (a white label on white) is shown once per screen, never as a raw log line; --verbose too")
    func contrastWarnedOnce() async throws {
        let file = scratchDirectory("contrast") + "/look.json"
        try Data(##"{"default": {"background": "#FFFFFF", "label": {"textColor": "#FFFFFF"}}}"##.utf8)
            .write(to: URL(fileURLWithPath: file))
        for extra in [[], ["--verbose"]] {
            let run = try await runThreeds(["demo", "--ui-customization", file] + extra, input: "123456\n")
            #expect(run.status == 0, "\(run.output)")
            let warning = "label text #FFFFFF on #FFFFFF has contrast 1.00:1"
            // Line mode draws the code screen once: the warning appears with it, once.
            #expect(run.output.components(separatedBy: warning).count - 1 == 1, "\(extra):\n\(run.output)")
            #expect(!run.output.contains("warning=UI01"), "no raw logger line: \(run.output)")
        }
    }

    @Test("unknown keys, bad colours and unreadable files are usage errors naming the key")
    func usageErrors() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let pay = [
            "pay", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--ds-cert", "\(pki)/ds-encryption-rsa.pem", "--ds-root", "\(pki)/ds-root.pem",
            "--tls-root", "\(pki)/tls-root.pem", "--card", Scenario.text.cardNumber, "--amount", "1999",
            "--currency", "978",
        ]
        let directory = scratchDirectory("ui-customization")
        for (json, key) in [
            (
                ##"{"dark": {"buttons": {"SUBMIT": {"backgroundColor": "#12"}}}}"##,
                "dark.buttons.SUBMIT.backgroundColor"
            ),
            (##"{"default": {"toolbar": {"colour": "#FFFFFF"}}}"##, "default.toolbar.colour"),
        ] {
            let file = directory + "/bad.json"
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            for command in [["demo"], pay] {
                let run = try await runThreeds(command + ["--ui-customization", file])
                #expect(run.status == 2 && run.output.contains(key), "\(command[0]): \(run.output)")
            }
        }
        let missing = try await runThreeds(["demo", "--ui-customization", directory + "/none.json"])
        #expect(missing.status == 2 && flattened(missing.output).contains("does not exist"), "\(missing.output)")
        // The help names a section that exists (issue 43).
        let help = try await runThreeds(["demo", "--help"], environment: ["COLUMNS": "300"])
        #expect(flattened(help.output).contains(#"Tools/README.md, "The look""#), "\(help.output)")
        // A folder where the file belongs (issue 36, point 10): named as a folder, the option and a JSON file named.
        for command in [["demo"], pay] {
            let folder = try await runThreeds(command + ["--ui-customization", directory])
            #expect(folder.status == 2, "\(command[0]): \(folder.output)")
            #expect(
                flattened(folder.output).contains(
                    "--ui-customization \(directory) is a folder: a JSON file is expected"),
                "\(command[0]): \(folder.output)")
        }
    }
}
