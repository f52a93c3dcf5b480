import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TerminalUI

/// Bytes a terminal acts on: C0 (but the line feed), DEL, C1, and the bidi embeddings, overrides and isolates.
private func actionable(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter {
        $0 != "\n"
            && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value))
    }
}

@Suite("Issue 34: the terminal presenter escapes every control character it would write")
struct TerminalEscape34Tests {
    @Test("text that skipped the display-text rule (here the entry box's contents) never reaches the terminal raw")
    func entryEscaped() throws {
        // A 2.3.1 entry box shows what was typed (masking not asked for).
        var form = state(
            try screen(
                [
                    "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm"),
                    "challengeInfoText": .string("Enter the code"), "submitAuthenticationLabel": .string("Verify"),
                    "challengeEntryBox": .object(["challengeDataEntryLabel": .string("Code")]),
                ], version: "2.3.1"))
        _ = form.perform(.setEntry("12\u{1B}]52;c;eA==\u{07}\u{1B}[2J\u{202E}34"))
        for plain in [false, true] {
            let shown = render(form, plain: plain)
            #expect(actionable(shown).isEmpty, "\(shown)")
            #expect(shown.contains("\\u{1B}]52;c;eA==\\u{7}"), "\(shown)")
        }
    }

    @Test("LayoutRenderer.safe escapes C0, C1, DEL and bidi controls, and keeps Arabic, Hebrew, LRM and RLM")
    func safe() {
        #expect(
            LayoutRenderer.safe("a\u{1B}[2Jb\u{9B}c\u{7F}\u{202E}\u{2066}")
                == "a\\u{1B}[2Jb\\u{9B}c\\u{7F}\\u{202E}\\u{2066}")
        for text in ["افتح تطبيق البنك", "פתח את אפליקציית הבנק", "\u{200F}פתח\u{200E} app"] {
            #expect(LayoutRenderer.safe(text) == text)
        }
    }

    @Test("Arabic and Hebrew screens, with RLM and LRM, are shown as sent")
    func rightToLeft() throws {
        let form = state(
            try screen([
                "acsUiType": .string("01"), "challengeInfoHeader": .string("تأكيد الدفع"),
                "challengeInfoLabel": .string("קוד"), "challengeInfoText": .string("\u{200F}הזן את הקוד\u{200E} 3DS"),
                "submitAuthenticationLabel": .string("אישור"),
            ]))
        let shown = render(form, width: 60)
        for text in ["تأكيد الدفع", "קוד", "\u{200F}הזן", "\u{200E}", "אישור"] {
            #expect(shown.contains(text), "\(text) in \(shown)")
        }
    }
}
