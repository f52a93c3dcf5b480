import Foundation
import ThreeDS2Messages
import ThreeDS2SDK

/// A plain line-by-line presenter: prints each screen and reads the cardholder's answer from standard input.
/// Every control is labelled in words; `cancel` (or end of input) cancels.
struct LinePresenter: ChallengePresenter {
    func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        var lines: [String] = ["", "── \(screen.header ?? "Authentication") ──"]
        if screen.showsWarningIndicator { lines.append("(!) Warning") }
        if let text = screen.infoText { lines.append(text) }
        if let info = screen.additionalInfo, screen.uiType == .outOfBand { lines.append("When you come back: \(info)") }
        if let why = screen.whyInfo { lines.append("[why] \(why.label ?? "Why"): \(why.text ?? "")") }
        if let expand = screen.expandInfo { lines.append("[help] \(expand.label ?? "More"): \(expand.text ?? "")") }
        if let html = screen.html {
            let form = HTMLForm(html: html)
            lines.append(form.text)
            lines.append(
                "Form fields: "
                    + form.controls.compactMap { control in control.name.map { "\($0) (\(control.kind))" } }.joined(
                        separator: ", "))
        }
        for (index, option) in screen.options.enumerated() { lines.append("  \(index + 1). \(option.label)") }
        if let whitelisting = screen.whitelistingText { lines.append("\(whitelisting) (answer later: trust yes/no)") }
        print(lines.joined(separator: "\n"))
        var whitelisting: Bool?
        if screen.whitelistingText != nil {
            print("Trust this merchant? [y/N] ", terminator: "")
            whitelisting = readLine()?.lowercased().hasPrefix("y") ?? false
        }
        switch screen.uiType {
        case .text:
            let resend = screen.resendLabel.map { ", or 'resend' (\($0))" } ?? ""
            print("\(screen.infoLabel ?? "Code")\(resend), or 'cancel': ", terminator: "")
            guard let line = readLine(), line != "cancel" else { return ChallengeAnswer(.cancel) }
            if line == "resend", screen.resendLabel != nil { return ChallengeAnswer(.resend) }
            return ChallengeAnswer(line.isEmpty ? .submitEmpty : .submitText(line), whitelisting: whitelisting)
        case .singleSelect, .multiSelect:
            print(
                "Choose \(screen.uiType == .multiSelect ? "numbers separated by commas" : "a number"), or 'cancel': ",
                terminator: "")
            guard let line = readLine(), line != "cancel" else { return ChallengeAnswer(.cancel) }
            let picked = line.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter {
                (1...screen.options.count).contains($0)
            }
            return ChallengeAnswer(
                .submitSelection(
                    screen.options.enumerated().filter { picked.contains($0.offset + 1) }.map(\.element.key)),
                whitelisting: whitelisting)
        case .outOfBand, .information:
            print(
                "Press Enter to \(screen.oobContinueLabel ?? screen.infoContinueLabel ?? "continue"), or type 'cancel': ",
                terminator: "")
            guard let line = readLine(), line != "cancel" else { return ChallengeAnswer(.cancel) }
            return ChallengeAnswer(
                screen.uiType == .information ? .informationContinue : .oobContinue, whitelisting: whitelisting)
        case .html, .htmlOutOfBand:
            print(
                "Enter field=value pairs separated by '&', then the button after a space (e.g. 'otp=123456 Verify'), or 'cancel': ",
                terminator: "")
            guard let line = readLine(), line != "cancel" else { return ChallengeAnswer(.cancel) }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            var fields: [String: String] = [:]
            for pair in (parts.first ?? "").split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { fields[kv[0]] = kv[1] }
            }
            do {
                return ChallengeAnswer(
                    .submitHTML(
                        try HTMLForm(html: screen.html ?? "").submission(
                            fields: fields, button: parts.count > 1 ? parts[1] : nil)), whitelisting: whitelisting)
            } catch {
                print("That did not fit the form (\(error)); cancelling.")
                return ChallengeAnswer(.cancel)
            }
        }
    }
}
