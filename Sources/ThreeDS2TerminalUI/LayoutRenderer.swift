import Foundation
import ThreeDS2Messages
public import ThreeDS2SDK

/// Draws a ``ChallengeFormState`` as terminal lines: text wrapped to the width, every control labelled in words, focus
/// shown by a `›` marker (and reverse video when colour is on), masked code entry, colours from the customization.
public struct LayoutRenderer: Sendable {
    /// The terminal width.
    public var width: Int
    /// Colour escapes (or none).
    public var style: TerminalStyle
    /// Plain mode: no decoration, words instead of symbols, for screen readers.
    public var plain: Bool
    /// Whether the terminal draws inline images (the iTerm2 image protocol); otherwise the alternative text is shown.
    public var inlineImages: Bool

    /// Creates a renderer.
    public init(width: Int, style: TerminalStyle, plain: Bool = false, inlineImages: Bool = false) {
        self.width = max(20, width)
        self.style = style
        self.plain = plain
        self.inlineImages = inlineImages
    }

    /// The lines for a state.
    public func lines(_ state: ChallengeFormState) -> [String] {
        let layout = state.layout
        let ui = layout.customization
        let strings = layout.strings
        var lines: [String] = []
        for (index, element) in layout.elements.enumerated() {
            let focused = index == state.focus
            let marker = focused ? (plain ? "[focus] " : "› ") : (plain ? "" : "  ")
            switch element {
            case .toolbar(let title, let cancelLabel):
                let right = plain ? "Button: \(cancelLabel) (Escape)" : "[\(cancelLabel): Esc]"
                let gap = max(1, width - title.count - right.count)
                let colours = style.foreground(ui.toolbar.text.color) + style.background(ui.toolbar.backgroundColor)
                lines.append(colours + style.bold + title + String(repeating: " ", count: gap) + right + style.reset)
                lines.append(plain ? "" : String(repeating: "─", count: width))
            case .images(let issuer, let paymentSystem):
                lines.append(
                    [issuer, paymentSystem].compactMap { $0.map { image($0, state) } }.joined(separator: "  "))
            case .heading(let text):
                lines.append(style.foreground(ui.label.heading.color) + style.bold + text + style.reset)
            case .text(let text, let warning):
                let afterApp = state.returnedFromApp && layout.screen.additionalInfo != nil
                let shown =
                    layout.screen.uiType == .outOfBand && afterApp
                    ? StyledText(plain: layout.screen.additionalInfo ?? "") : text
                let prefix = warning && !afterApp ? "(!) \(strings[.warning]): " : ""
                let colour = style.foreground(ui.label.text.color)
                for line in wrap(StyledText(plain: prefix).runs + shown.runs, colour: colour) {
                    lines.append(colour + line + style.reset)
                }
            case .textField(let box, let settings):
                let text = state.entries.indices.contains(box) ? state.entries[box] : ""
                let masked = state.isMasked(box: box)
                let shown = masked ? String(repeating: "•", count: text.count) : text
                let toggle = settings.offersRevealToggle ? (plain ? ", Control-T shows or hides it" : " (Ctrl-T)") : ""
                let field =
                    plain
                    ? "Text field: \(settings.label), \(text.count) characters entered"
                        + (masked ? " (hidden)" : ": \(text)") + toggle
                    : "\(settings.label): [\(shown)\(focused ? "_" : "")]\(toggle)"
                let labelColour = style.foreground(
                    ui.label.textStyle(for: box == 0 ? .dataEntryLabel : .dataEntryLabel2).color)
                lines.append(
                    focused || plain ? highlight(marker + field, focused) : labelColour + marker + field + style.reset)
            case .option(let key, let label, let multiple):
                let on = state.chosen.contains(key)
                let box =
                    plain
                    ? (multiple ? "Checkbox" : "Radio button")
                        + " \(label), \(on ? strings[.selected] : strings[.notSelected])"
                    : (multiple ? (on ? "[x] " : "[ ] ") : (on ? "(•) " : "( ) ")) + label
                lines.append(highlight(marker + box, focused))
            case .button(let type, let label):
                let colours =
                    style.foreground(ui.buttonCustomization(for: type).text.color)
                    + style.background(ui.buttonCustomization(for: type).backgroundColor)
                lines.append(
                    highlight(marker + (plain ? "Button: \(label)" : colours + "< \(label) >" + style.reset), focused))
                // A terminal cannot open the bank's app: once handed on, the link is shown to open on the phone.
                if type == .openOOBApp, state.openedApp, let link = layout.screen.oobAppURL {
                    lines.append("    " + (plain ? "Link: " : "") + link)
                }
            case .consent(let kind, let question):
                let answer = state.consent(kind).map { $0 ? strings[.yes] : strings[.no] } ?? "—"
                lines.append(
                    highlight(
                        marker + (plain ? "Choice: \(question) \(answer) (y or n)" : "\(question) [\(answer)] (y/n)"),
                        focused))
            case .section(let label, let text):
                let open = state.expanded.contains(index)
                lines.append(
                    highlight(
                        marker
                            + (plain
                                ? "Section: \(label), \(open ? "open" : "closed")" : "\(open ? "▾" : "▸") \(label)"),
                        focused))
                if open { lines += wrap(text.runs, colour: "").map { "    " + $0 } }
            case .htmlText(let text):
                let current = state.form?.text ?? text
                lines += wrap(current)
            case .htmlControl(let controlIndex):
                guard let controls = state.form?.controls, controls.indices.contains(controlIndex) else { continue }
                let control = controls[controlIndex]
                lines.append(highlight(marker + describe(control, plain: plain, strings: strings), focused))
            case .htmlLink(let linkIndex):
                guard let links = state.form?.links, links.indices.contains(linkIndex) else { continue }
                let link = links[linkIndex]
                lines.append(highlight(marker + (plain ? "Link: \(link.label)" : "<\(link.label)>"), focused))
            }
        }
        if let note = state.note { lines.append("(!) \(note)") }
        let keys =
            plain
            ? "Keys: Tab next, Shift-Tab back, Space toggle, Enter activate, Escape cancel."
            : "Tab/↑↓ move · Space toggle · Enter submit · Esc cancel"
                + (layout.elements.contains { if case .consent = $0 { true } else { false } } ? " · y/n answer" : "")
        lines.append("")
        lines.append(
            keys
                + (state.layout.screen.htmlRefresh != nil
                    ? (plain ? " Control-R reloads the page." : " · Ctrl-R reload") : ""))
        for warning in layout.customizationWarnings { lines.append("(customization) \(warning.message)") }
        return lines
    }

    private func describe(_ control: HTMLForm.Control, plain: Bool, strings: SDKStrings) -> String {
        let name = control.name ?? ""
        switch control.kind {
        case "input/checkbox":
            return plain
                ? "Checkbox \(name), \(control.checked ? strings[.selected] : strings[.notSelected])"
                : "[\(control.checked ? "x" : " ")] \(name)"
        case "input/radio":
            return plain
                ? "Radio button \(name) \(control.value), \(control.checked ? strings[.selected] : strings[.notSelected])"
                : "(\(control.checked ? "•" : " ")) \(name)=\(control.value)"
        case "input/submit", "input/image", "button/submit":
            return plain
                ? "Button: \(control.label.isEmpty ? name : control.label)"
                : "< \(control.label.isEmpty ? name : control.label) >"
        case "select", "select/multiple":
            let chosen = control.options.first(where: \.selected)?.label ?? control.options.first?.label ?? ""
            return plain ? "List \(name): \(chosen)" : "\(name): [\(chosen) ▾]"
        case "input/password":
            return plain
                ? "Password field \(name), \(control.value.count) characters entered"
                : "\(name): [\(String(repeating: "•", count: control.value.count))]"
        default:
            return plain ? "Text field \(name): \(control.value)" : "\(name): [\(control.value)]"
        }
    }

    /// An image inline (iTerm2 protocol) when the terminal draws images and it was loaded; its alternative text
    /// otherwise.
    private func image(_ reference: ImageReference, _ state: ChallengeFormState) -> String {
        if inlineImages, !plain, let bytes = state.images[reference.url] {
            return "\u{1B}]1337;File=inline=1;height=2;preserveAspectRatio=1:\(Data(bytes).base64EncodedString())\u{07}"
        }
        return "[\(reference.alternativeText)]"
    }

    private func highlight(_ text: String, _ focused: Bool) -> String {
        focused && !plain && style.depth != .none ? style.reverse + text + style.reset : text
    }

    /// Wraps styled runs at the width, keeping the ACS's `\n` line breaks; bold words are drawn bold (then the
    /// line's colour resumes) when the terminal has colour, plain otherwise.
    func wrap(_ runs: [StyledText.Run], colour: String) -> [String] {
        var lines: [String] = []
        var line = ""
        var visible = 0
        // The word being read: its pieces (a word may change weight inside, as in "**1234**.") and its length.
        var word: [(text: String, bold: Bool)] = []
        var wordLength = 0
        func flushWord() {
            guard wordLength > 0 else { return }
            if visible > 0 && visible + 1 + wordLength > width {
                lines.append(line)
                line = ""
                visible = 0
            }
            if visible > 0 {
                line += " "
                visible += 1
            }
            for piece in word {
                line += piece.bold && !style.bold.isEmpty ? style.bold + piece.text + style.reset + colour : piece.text
            }
            visible += wordLength
            word = []
            wordLength = 0
        }
        for run in runs {
            var piece = ""
            for character in run.text {
                if character == " " || character == "\n" {
                    if !piece.isEmpty { word.append((piece, run.isBold)) }
                    wordLength += piece.count
                    piece = ""
                    flushWord()
                    if character == "\n" {
                        lines.append(line)
                        line = ""
                        visible = 0
                    }
                } else {
                    piece.append(character)
                }
            }
            if !piece.isEmpty {
                word.append((piece, run.isBold))
                wordLength += piece.count
            }
        }
        flushWord()
        lines.append(line)
        return lines
    }

    /// Wraps text at the width, keeping the ACS's `\n` line breaks.
    func wrap(_ text: String) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }
}
