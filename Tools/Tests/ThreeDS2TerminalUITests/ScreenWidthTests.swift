import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

@testable import ThreeDS2TerminalUI

/// Every kind of challenge screen, in every terminal mode, drawn at 80 and 50 columns: no line wider than the
/// terminal in display columns, no word broken, the hint whole (issue 36, point 8).
@Suite("Screens at 80 and 50 columns: within the width, words whole, hints whole")
struct ScreenWidthTests {
    static let longText =
        "We sent a one-time code to the phone number registered with your bank. Enter it below to confirm the "
        + "payment of 19.99 EUR to Example Merchant."
    static let options: JSONValue = .array([
        .object(["sms": .string("Send the code by text message to phone 1234")]),
        .object(["mail": .string("Send the code by email to the address on file")]),
    ])
    static let page =
        "<form action='https://emv3ds/challenge'><p>\(longText)</p><label for=o>One-time code from your text "
        + "message</label><input id=o name=otp><input type=checkbox name=keep value=y id=k><label for=k>Remember "
        + "this device for the next payments at this merchant</label><button name=a value=v>Verify the payment "
        + "now</button></form>"

    /// One screen of each kind, with long texts and labels.
    static func screens() throws -> [(name: String, screen: ChallengeScreen)] {
        let common: [String: JSONValue] = [
            "challengeInfoHeader": .string("Confirm your payment at Example Merchant"),
            "challengeInfoLabel": .string("Enter the one-time code you received"),
            "challengeInfoText": .string(longText),
            "submitAuthenticationLabel": .string("Verify the code"),
            "whyInfoLabel": .string("Why am I being asked to confirm this payment?"),
            "whyInfoText": .string("Your bank checks that it is really you who makes this payment, for your safety."),
            "expandInfoLabel": .string("Need help with the code?"),
            "expandInfoText": .string("Call the number on the back of your card."),
        ]
        func make(_ fields: [String: JSONValue], _ version: String = "2.2.0") throws -> ChallengeScreen {
            try screen(common.merging(fields) { $1 }, version: version)
        }
        return [
            (
                "text",
                try make([
                    "acsUiType": .string("01"), "resendInformationLabel": .string("Send me a new code"),
                    "whitelistingInfoText": .string(
                        "Trust Example Merchant so you are not asked again next time?"),
                ])
            ),
            (
                "text 2.3.1",
                try make(
                    [
                        "acsUiType": .string("01"),
                        "challengeEntryBox": .object([
                            "challengeDataEntryLabel": .string("The code from the text message we sent")
                        ]),
                        "deviceBindingInfoText": .string("Remember this device for future payments?"),
                    ], "2.3.1")
            ),
            ("single select", try make(["acsUiType": .string("02"), "challengeSelectInfo": options])),
            ("multi select", try make(["acsUiType": .string("03"), "challengeSelectInfo": options])),
            (
                "out of band",
                try make(
                    [
                        "acsUiType": .string("04"), "oobContinueLabel": .string("I have approved it in the app"),
                        "oobAppURL": .string("https://bank.example/app"),
                        "oobAppLabel": .string("Open the bank's app to approve"),
                    ], "2.3.1")
            ),
            (
                "HTML",
                try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8)))])
            ),
            (
                "information",
                try make(
                    ["acsUiType": .string("07"), "infoContinueLabel": .string("Continue to the payment")], "2.3.1")
            ),
        ]
    }

    static let hint = "The one-time code is 123456 (a wrong one shows the screen again). Esc cancels."

    /// The words of lines, without the toolbar's rule and cancel key (shortened to `[Esc]` on a narrow terminal).
    static func words(_ lines: [String]) -> [Substring] {
        lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).filter { word in
            !word.allSatisfy { $0 == "─" } && !["[Esc]", "[Cancel:", "Esc]"].contains(word)
        }
    }

    /// What each mode draws of a screen at a width: full screen (the frame and the hint below it), line and plain
    /// (the screen, the numbered options, the question and the consent questions, as asked).
    static func drawn(_ screen: ChallengeScreen, mode: TerminalPresenter.Mode, width: Int) -> [String] {
        let presenter = TerminalPresenter(
            mode: mode, environment: ["TERM": "xterm"], outputIsTerminal: false, hint: hint)
        var form = state(screen)
        if mode == .fullScreen {
            // Every help section opened, so that its text is drawn too.
            for _ in form.focusOrder {
                if case .section = form.focusedElement { _ = form.handle(.space) }
                _ = form.perform(.focusNext)
            }
            let (lines, hint) = presenter.frame(form, columns: width, rows: 500)
            return lines + hint
        }
        let (options, question) = presenter.lineQuestion(form, width: width)
        return presenter.lineScreen(form, width: width) + options
            + TerminalPresenter.promptLines(question, width: width)
            + presenter.consentPrompts(screen).flatMap { TerminalPresenter.promptLines($0.prompt, width: width) }
    }

    @Test("every screen kind in every mode fits 80 and 50 columns with its words whole", arguments: [80, 50])
    func fits(width: Int) throws {
        for (name, screen) in try Self.screens() {
            for mode in TerminalPresenter.Mode.allCases {
                let lines = Self.drawn(screen, mode: mode, width: width)
                let wide = Self.drawn(screen, mode: mode, width: 1000)
                let over = lines.filter { LayoutRenderer.displayWidth($0) > width }
                #expect(over.isEmpty, "\(name), \(mode) at \(width): \(over)")
                #expect(
                    Self.words(lines) == Self.words(wide),
                    "\(name), \(mode) at \(width): a word was broken or lost:\n\(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test("the consent's answer and keys stay together: `[—] (y/n)` is never broken")
    func consentTogether() throws {
        let text = try #require(try Self.screens().first?.screen)
        for width in 20...80 {
            let lines = Self.drawn(text, mode: .fullScreen, width: width)
            #expect(lines.contains { $0.contains("[—] (y/n)") }, "\(width): \(lines)")
        }
    }

    @Test("the full screen's hint is shown whole below the screen, within the width, even on a short terminal")
    func hintWhole() throws {
        let text = try #require(try Self.screens().first?.screen)
        let presenter = TerminalPresenter(
            mode: .fullScreen, environment: ["TERM": "xterm"], outputIsTerminal: false, hint: Self.hint)
        for width in [80, 50, 30] {
            let (lines, hint) = presenter.frame(state(text), columns: width, rows: 24)
            #expect(Self.words(hint) == Self.words([Self.hint]), "\(width): \(hint)")
            #expect(hint.allSatisfy { LayoutRenderer.displayWidth($0) <= width }, "\(hint)")
            #expect(lines.count + hint.count <= 23, "the last row stays free")
            let shown = lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(shown.contains("Esc cancel"), "the key hints stay too: \(lines)")
        }
    }

    @Test("wide characters count two columns: a Japanese screen fits 50 columns in every mode")
    func wideCharacters() throws {
        let japanese = "認証コードを入力してください。ご登録の電話番号にワンタイムパスワードを送信しました。"
        let options: JSONValue = .array([
            .object(["a": .string("ショートメッセージで認証コードを受け取る（携帯電話）")]),
            .object(["b": .string("メールで認証コードを受け取る")]),
        ])
        let select = try screen(
            native.merging([
                "acsUiType": .string("02"), "challengeSelectInfo": options,
                "challengeInfoText": .string(japanese), "challengeInfoHeader": .string(japanese),
                "submitAuthenticationLabel": .string("認証コードを確認して支払いを完了する"),
            ]) { $1 })
        for mode in TerminalPresenter.Mode.allCases {
            let lines = Self.drawn(select, mode: mode, width: 50)
            let over = lines.filter { LayoutRenderer.displayWidth($0) > 50 }
            #expect(over.isEmpty, "\(mode): \(over)")
            #expect(
                lines.joined().filter { !$0.isWhitespace }.contains("ショートメッセージで認証コードを"), "kept in order")
        }
    }
}
