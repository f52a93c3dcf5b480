import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2TerminalUI
import ThreeDS2TestLab

/// `threeds demo --locale …`: every SDK text on the challenge screen is in the locale's language.
@Suite("threeds --locale")
struct LocaleCLITests {
    /// A line with its numbers and identifiers blanked (ports and transaction IDs differ between runs).
    static func normalized(_ line: String) -> String {
        line.replacingOccurrences(of: #"[0-9a-f]{4,}|[0-9]+"#, with: "#", options: .regularExpression)
    }

    /// Whether a text holds a phrase as whole words.
    static func holds(_ text: String, phrase: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: phrase)
        return text.range(of: #"(?<![\p{L}\p{N}])"# + escaped + #"(?![\p{L}\p{N}])"#, options: .regularExpression)
            != nil
    }

    @Test(
        "the demo in another language shows no English text that has a translation",
        arguments: ["de_DE", "ar_EG", "zh_TW", "fi_FI", "pt_BR"])
    func demoSpeaksTheLocale(locale: String) async throws {
        // The English run shows what is not the SDK's: the ACS's texts and the CLI's own lines.
        let english = try await runThreeds(["demo", "--plain", "--locale", "en_US"], input: "123456\n")
        #expect(english.status == 0 && english.output.contains("Secure checkout"), "\(english.output)")
        let others = Set(english.output.split(separator: "\n").map { Self.normalized(String($0)) })
        let run = try await runThreeds(["demo", "--plain", "--locale", locale], input: "123456\n")
        #expect(run.status == 0 && run.output.contains("Challenge completed: transStatus Y"), "\(run.output)")
        #expect(!run.output.contains("no SDK texts"), "\(run.output)")
        let strings = SDKStrings(locale: Locale(identifier: locale))
        for key in [SDKStrings.Key.secureCheckout, .cancel, .image, .issuer] {
            #expect(run.output.contains(strings[key]), "\(locale): \(key) \(strings[key]) missing: \(run.output)")
        }
        let texts = TerminalStrings(for: strings)
        // The plain descriptions: the cancel button whole, the entry box's and the section's sentences up to the label.
        let cancelButton = texts.format(.plainCancelButton, strings[.cancel])
        #expect(run.output.contains(cancelButton), "\(locale): \(cancelButton) missing: \(run.output)")
        for key in [TerminalStrings.Key.plainEntryHidden, .plainSectionClosed] {
            let lead = texts[key].components(separatedBy: "%1$@")[0]
            #expect(run.output.contains(lead), "\(locale): \(key) \(lead) missing: \(run.output)")
        }
        let sdkLines = run.output.split(separator: "\n").map(String.init).filter {
            !others.contains(Self.normalized($0))
        }
        #expect(!sdkLines.isEmpty)
        let shown = sdkLines.joined(separator: "\n")
        for key in SDKStrings.Key.allCases where strings[key] != SDKStrings.english[key] {
            let english = SDKStrings.english[key]
            let fragments = english.replacingOccurrences(
                of: #"%(\d+\$)?[@d]"#, with: "\u{0}", options: .regularExpression
            )
            .split(separator: "\u{0}").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count >= 2 && !strings[key].contains($0) }
            for fragment in fragments {
                #expect(!Self.holds(shown, phrase: fragment), "\(locale): English \"\(fragment)\" (\(key)) in \(shown)")
            }
        }
    }
}

extension MachineLoadingCLITests {
    @Suite("threeds --locale in a terminal (tmux)", .serialized)
    struct LocaleTerminalTests {
        @Test("line mode in German: the question and the consent in German; 'j' answers yes")
        func germanLineMode() async throws {
            let german = SDKStrings(locale: Locale(identifier: "de_DE"))
            let run = try await terminalRun(.consents, version: "2.3.1", extra: "--line --locale de_DE") { session in
                let screen = try await session.wait(for: "(zum Abbrechen „abbrechen“ eingeben):")
                #expect(screen.contains(german[.secureCheckout]) && !screen.contains("to cancel"), "\(screen)")
                try await session.keys("123456", "Enter")
                _ = try await session.wait(for: "[j/n]")
                try await session.keys("j", "Enter")
                _ = try await session.wait(for: "[j/n]:")
                try await session.keys("n", "Enter")
            }
            #expect(run.requests.last?["challengeDataEntry"] == .string("123456"))
            #expect(run.requests.last?["trustListDataEntry"] == .string("Y"), "'j' is yes in German")
        }

        @Test("full screen in Arabic: the key help and the toolbar in Arabic, in logical order; Esc cancels")
        func arabicFullScreen() async throws {
            let arabic = SDKStrings(locale: Locale(identifier: "ar"))
            let run = try await terminalRun(.text, extra: "--locale ar") { session in
                let screen = try await session.wait(for: String(TerminalStrings(for: arabic)[.keysHelp].prefix(12)))
                #expect(screen.contains(arabic[.secureCheckout]) && screen.contains("[\(arabic[.cancel]): Esc]"))
                #expect(!screen.contains("Secure checkout") && !screen.contains("Esc cancel"), "\(screen)")
                try await session.keys("Escape")
            }
            #expect(run.screen.contains(#""outcome":"cancelled""#), "\(run.screen)")
        }
    }
}
