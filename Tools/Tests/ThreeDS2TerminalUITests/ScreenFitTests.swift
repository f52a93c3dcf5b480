import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TerminalUI

@Suite("Screens that fit and behave")
struct ScreenFitTests {
    let long: [String: JSONValue] = native.merging(
        [
            "acsUiType": .string("01"),
            "challengeInfoText": .string(
                "We sent a one-time code to the phone number registered with your bank. Enter it below to confirm "
                    + "the payment to the merchant."),
            "resendInformationLabel": .string("Send a new code"), "whyInfoLabel": .string("Why am I asked this?"),
            "whyInfoText": .string("Your bank checks it is you."), "expandInfoLabel": .string("Need help?"),
            "expandInfoText": .string("Call your bank."), "whitelistingInfoText": .string("Trust this merchant?"),
        ]) { $1 }

    @Test("at 40×12 the focused element scrolls into view; no line is wider than the terminal; words stay whole")
    func smallTerminal() throws {
        var form = state(try screen(long))
        let renderer = LayoutRenderer(width: 40, style: TerminalStyle(depth: .none))
        let all = renderer.lines(form)
        #expect(all.count > 11, "the screen is taller than the window")
        #expect(
            all.allSatisfy { LayoutRenderer.displayWidth($0) <= 40 },
            "\(all.filter { LayoutRenderer.displayWidth($0) > 40 })")
        let words = (long["challengeInfoText"]?.stringValue ?? "").split(separator: " ")
        let shown = all.flatMap { $0.split(separator: " ") }
        for word in words { #expect(shown.contains(word), "\(word) was split") }
        #expect(renderer.window(form, rows: 11).first?.hasPrefix("Secure checkout") == true, "the top while focus is")
        for _ in 0..<(form.focusOrder.count - 1) { _ = form.perform(.focusNext) }
        let window = renderer.window(form, rows: 11)
        #expect(window.count == 11)
        #expect(window.contains { $0.hasPrefix("› ▸ Need help?") }, "the last element is in view: \(window)")
    }

    @Test("the key help offers y/n only while a consent row has the focus: elsewhere y is typed into the code box")
    func answerKeysOnlyOnConsent() throws {
        var form = state(try screen(long))
        let renderer = LayoutRenderer(width: 100, style: TerminalStyle(depth: .none))
        let answer = TerminalStrings(for: form.layout.strings).format(.keysAnswer, "y", "n")
        #expect(!renderer.lines(form).joined(separator: "\n").contains(answer), "the code box has the focus")
        #expect(form.action(for: .character("y")) == .type("y"))
        for _ in form.focusOrder {
            if case .consent = form.focusedElement { break }
            _ = form.perform(.focusNext)
        }
        #expect(renderer.lines(form).joined(separator: "\n").contains(answer), "the consent row has the focus")
        #expect(form.action(for: .character("y")) == .setTrust(true))
    }

    @Test("in a small window the title stays on top wherever the focus is, and the focused line is in view")
    func titleStaysInSmallWindows() throws {
        for (columns, rows) in [(30, 10), (20, 12), (50, 20), (40, 8)] {
            var form = state(try screen(long))
            let renderer = LayoutRenderer(width: columns, style: TerminalStyle(depth: .none))
            for position in form.focusOrder.indices {
                let window = renderer.window(form, rows: rows)
                #expect(window.count <= rows)
                #expect(window.first?.hasPrefix("Secure") == true, "\(columns)×\(rows), focus \(position): \(window)")
                #expect(window.contains { $0.hasPrefix("›") }, "\(columns)×\(rows), focus \(position): \(window)")
                _ = form.perform(.focusNext)
            }
        }
    }

    @Test("CJK text is measured in display columns and broken between characters")
    func wideText() throws {
        let japanese = String(repeating: "認証コードを入力してください", count: 3)
        let form = state(
            try screen(native.merging(["acsUiType": .string("01"), "challengeInfoText": .string(japanese)]) { $1 }))
        let lines = LayoutRenderer(width: 30, style: TerminalStyle(depth: .none)).lines(form)
        #expect(
            lines.allSatisfy { LayoutRenderer.displayWidth($0) <= 30 },
            "\(lines.filter { LayoutRenderer.displayWidth($0) > 30 })")
        #expect(lines.joined().contains(String(repeating: "認証コードを入力してください", count: 1)) || lines.count > 3)
        #expect(lines.joined().filter { $0 != " " }.contains("ください認証"), "every character is kept, in order")
        #expect(LayoutRenderer.displayWidth("認証") == 4 && LayoutRenderer.displayWidth("é") == 1)
    }

    @Test("line modes show no key hints, no focus marker and no consent row (their prompts ask)")
    func lineModeHints() throws {
        let form = state(try screen(long, version: "2.2.0"))
        for plain in [false, true] {
            let lines = LayoutRenderer(width: 80, style: TerminalStyle(depth: .none), plain: plain, interactive: false)
                .lines(form).joined(separator: "\n")
            #expect(!lines.contains("Tab") && !lines.contains("›") && !lines.contains("[focus]"), "\(lines)")
            #expect(!lines.contains("Trust this merchant?"), "asked by the prompt, once")
        }
        let full = render(form)
        #expect(full.contains("Tab/↑↓ move") && full.contains("Trust this merchant?"))
    }

    @Test("HTML fields are shown by their label; code and password fields are masked")
    func htmlLabels() throws {
        let page =
            "<form action='https://emv3ds/challenge'><label for=o>One-time code</label><input id=o name=otp>"
            + "<label for=n>Nickname</label><input id=n name=nick><button name=a value=v>Verify</button></form>"
        var form = state(
            try screen(["acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8)))]))
        _ = form.perform(.type("4711"))
        _ = form.perform(.focusNext)
        _ = form.perform(.type("Jo"))
        let text = render(form)
        #expect(text.contains("One-time code: [••••]") && !text.contains("4711"), "\(text)")
        #expect(text.contains("Nickname: [Jo]"), "\(text)")
    }
}

@Suite("Small terminals keep the key hints and whole words")
struct SmallTerminalHintTests {
    @Test("at 40×12, scrolled to the last element, the key hints still show on the last rows; no line is wider")
    func hintsAtFortyByTwelve() throws {
        let fit = ScreenFitTests()
        var form = state(try screen(fit.long))
        let renderer = LayoutRenderer(width: 40, style: TerminalStyle(depth: .none))
        for _ in 0..<(form.focusOrder.count - 1) { _ = form.perform(.focusNext) }
        let window = renderer.window(form, rows: 11)
        #expect(window.count <= 11)
        #expect(window.contains { $0.contains("Esc cancel") }, "the hint bar shows: \(window)")
        #expect(window.contains { $0.hasPrefix("› ▸ Need help?") }, "the focused element too: \(window)")
        #expect(window.allSatisfy { LayoutRenderer.displayWidth($0) <= 40 }, "\(window)")
        let top = renderer.window(state(try screen(fit.long)), rows: 11)
        #expect(top.contains { $0.contains("Esc cancel") }, "at the top as well: \(top)")
    }

    @Test("a title too long for the toolbar keeps its words whole; a note is wrapped at the width")
    func narrowToolbarAndNote() throws {
        let fit = ScreenFitTests()
        var form = state(try screen(fit.long))
        _ = form.perform(.select(["no-such-option-at-all"]))
        let lines = LayoutRenderer(width: 24, style: TerminalStyle(depth: .none)).lines(form)
        #expect(LayoutRenderer.displayWidth(lines[0]) <= 24 && lines[0].hasPrefix("Secure checkout"), "\(lines[0])")
        let note = lines.drop { !$0.hasPrefix("(!) This screen") }.prefix(2)
        #expect(note.count == 2, "the note wraps: \(lines)")
        #expect(note.allSatisfy { LayoutRenderer.displayWidth($0) <= 24 }, "\(note)")
    }
}
