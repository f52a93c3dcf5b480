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
    /// Whether the screen is driven by keys (full screen): focus marker and key hints. Line modes ask in prompts,
    /// so they show neither, nor the consent rows their prompts ask.
    public var interactive: Bool

    /// Whether the renderer lays right-to-left languages (Arabic, Hebrew) out right to left: it does not. Their
    /// texts are written in logical order, left-aligned, with no bidirectional controls added, as for any language.
    /// Most terminals do no bidirectional reordering or Arabic shaping, and those that do (VTE, Konsole, mlterm)
    /// reorder each line themselves: a renderer that reordered or mirrored the screen would draw it backwards on
    /// one kind or the other. An app that shows right-to-left texts uses the SwiftUI view, which mirrors the layout.
    public static let mirrorsRightToLeft = false

    /// Creates a renderer.
    public init(
        width: Int, style: TerminalStyle, plain: Bool = false, inlineImages: Bool = false, interactive: Bool = true
    ) {
        self.width = max(20, width)
        self.style = style
        self.plain = plain
        self.inlineImages = inlineImages
        self.interactive = interactive
    }

    /// The lines for a state.
    public func lines(_ state: ChallengeFormState) -> [String] { render(state).lines }

    /// The lines that fit a window of `rows` lines with the focused element in view: the top of the screen while
    /// the focus is there, otherwise scrolled so the focused line sits with a line of context below it.
    /// The key hints stay on the last rows whatever is scrolled, as long as two rows of the screen remain above them.
    public func window(_ state: ChallengeFormState, rows: Int) -> [String] {
        let (lines, focused) = render(state)
        let footer = Array(lines.suffix(footerCount(state)))
        var all = Array(lines.dropLast(footer.count))
        var rows = max(1, rows)
        let keepsFooter = all.count + footer.count > rows && rows - footer.count >= 2
        if keepsFooter { rows -= footer.count } else { all = lines }
        guard all.count > rows, let focused, focused >= rows - 1 else {
            return Array(all.prefix(rows)) + (keepsFooter ? footer : [])
        }
        let start = min(all.count - rows, focused - rows + 2)
        return Array(all[start..<(start + rows)]) + (keepsFooter ? footer : [])
    }

    /// How many of the last lines ``render(_:)`` draws are the key hints (none in line modes).
    private func footerCount(_ state: ChallengeFormState) -> Int {
        guard interactive else { return 0 }
        return keyHints(state).count + state.layout.customizationWarnings.count
    }

    /// The key hints in the layout's language, wrapped at the width.
    private func keyHints(_ state: ChallengeFormState) -> [String] {
        let layout = state.layout
        let strings = layout.strings
        let asks = layout.elements.contains { if case .consent = $0 { true } else { false } }
        let reloads = layout.screen.htmlRefresh != nil
        let keys =
            plain
            ? strings[.keysHelpPlain] + (reloads ? " " + strings[.keysReloadPlain] : "")
            : strings[.keysHelp] + (asks ? " · " + strings[.keysAnswer] : "")
                + (reloads ? " · " + strings[.keysReload] : "")
        return wrap(keys)
    }

    /// The lines for a state, and the index of the focused element's first line.
    public func render(_ state: ChallengeFormState) -> (lines: [String], focusedLine: Int?) {
        var focusedLine: Int?
        let layout = state.layout
        // The look resolved for the appearance in use (from initialize, through the form state).
        let look = layout.style
        let strings = layout.strings
        var lines: [String] = []
        for (index, element) in layout.elements.enumerated() {
            let focused = interactive && index == state.focus
            if focused { focusedLine = lines.count }
            let marker = !interactive ? "" : focused ? (plain ? "[focus] " : "› ") : (plain ? "" : "  ")
            if !interactive, case .consent = element { continue }
            switch element {
            case .toolbar(let rawTitle, let rawCancel):
                let title = Self.safe(rawTitle)
                let cancelLabel = Self.safe(rawCancel)
                var right = plain ? "\(strings[.button]): \(cancelLabel) (Escape)" : "[\(cancelLabel): Esc]"
                // A narrow terminal keeps the title whole and the cancel key in view rather than wrapping mid-word.
                if Self.displayWidth(title) + 1 + Self.displayWidth(right) > width, !plain { right = "[Esc]" }
                let gap = max(1, width - Self.displayWidth(title) - Self.displayWidth(right))
                let colours = style.foreground(look.toolbar.text.color) + style.background(look.toolbar.backgroundColor)
                lines.append(colours + style.bold + title + String(repeating: " ", count: gap) + right + style.reset)
                lines.append(plain ? "" : String(repeating: "─", count: width))
            case .images(let issuer, let paymentSystem):
                lines.append(
                    [issuer, paymentSystem].compactMap { $0.map { image($0, state) } }.joined(separator: "  "))
            case .heading(let rawText):
                let text = Self.safe(rawText)
                let heading = look.label(.infoHeader)
                lines.append(
                    aligned(
                        style.foreground(heading.color) + (heading.isBold ? style.bold : "") + text + style.reset,
                        columns: Self.displayWidth(text), heading.alignment))
            case .text(let text, let warning):
                let (shown, warns) = state.shownText(text, warning: warning)
                let prefix = warns ? "(!) \(strings[.warning]): " : ""
                let label = look.label(.infoText)
                let colour = style.foreground(label.color)
                for line in wrap(StyledText(plain: prefix).runs + shown.runs, colour: colour) {
                    lines.append(aligned(colour + line + style.reset, columns: visibleWidth(line), label.alignment))
                }
            case .textField(let box, let settings):
                let text = state.entries.indices.contains(box) ? state.entries[box] : ""
                let masked = state.isMasked(box: box)
                let shown = masked ? String(repeating: "•", count: text.count) : text
                let toggle =
                    settings.offersRevealToggle ? (plain ? ", \(strings[.revealToggle])" : " (Ctrl-T)") : ""
                let field = Self.safe(
                    plain
                        ? "\(strings[.fieldText]): \(settings.label), \(strings.format(.charactersEntered, text.count))"
                            + (masked ? " (\(strings[.hidden]))" : ": \(text)") + toggle
                        : "\(settings.label): [\(shown)\(focused ? "_" : "")]\(toggle)")
                let labelColour = style.foreground(look.label(box == 0 ? .dataEntryLabel : .dataEntryLabel2).color)
                lines.append(
                    focused || plain ? highlight(marker + field, focused) : labelColour + marker + field + style.reset)
            case .option(let key, let rawLabel, let multiple):
                let label = Self.safe(rawLabel)
                let on = state.chosen.contains(key)
                let box =
                    plain
                    ? (multiple ? strings[.checkbox] : strings[.radioButton])
                        + " \(label), \(on ? strings[.selected] : strings[.notSelected])"
                    : (multiple ? (on ? "[x] " : "[ ] ") : (on ? "(•) " : "( ) ")) + label
                let colour = style.foreground(look.label(.selectionList).color)
                lines.append(
                    focused || plain || colour.isEmpty
                        ? highlight(marker + box, focused) : colour + marker + box + style.reset)
            case .button(let type, let rawLabel):
                let label = Self.safe(rawLabel)
                let button = look.button(type)
                let colours = style.foreground(button.text.color) + style.background(button.backgroundColor)
                lines.append(
                    highlight(
                        marker + (plain ? "\(strings[.button]): \(label)" : colours + "< \(label) >" + style.reset),
                        focused))
                // A terminal cannot open the bank's app: once handed on, the link is shown to open on the phone.
                if type == .openOOBApp, state.openedApp, let link = layout.screen.oobAppURL {
                    lines.append("    " + (plain ? "\(strings[.link]): " : "") + Self.safe(link))
                }
            case .consent(let kind, let rawQuestion):
                let question = Self.safe(rawQuestion)
                let answer = state.consent(kind).map { $0 ? strings[.yes] : strings[.no] } ?? "—"
                lines.append(
                    highlight(
                        marker
                            + (plain
                                ? "\(strings[.choice]): \(question) \(answer) (\(strings[.yesOrNo]))"
                                : "\(question) [\(answer)] (y/n)"),
                        focused))
            case .section(let rawLabel, let text):
                let label = Self.safe(rawLabel)
                let open = state.expanded.contains(index)
                lines.append(
                    highlight(
                        marker
                            + (plain
                                ? "\(strings[.section]): \(label), \(strings[open ? .sectionOpen : .sectionClosed])"
                                : "\(open ? "▾" : "▸") \(label)"),
                        focused))
                if open { lines += wrap(text.runs, colour: "").map { "    " + $0 } }
            case .htmlText(let text):
                let current = state.form?.text ?? text
                lines += wrap(current)
            case .htmlControl(let controlIndex):
                guard let controls = state.form?.controls, controls.indices.contains(controlIndex) else { continue }
                let control = controls[controlIndex]
                lines.append(highlight(marker + Self.safe(describe(control, plain: plain, strings: strings)), focused))
            case .htmlLink(let linkIndex):
                guard let links = state.form?.links, links.indices.contains(linkIndex) else { continue }
                let link = links[linkIndex]
                lines.append(
                    highlight(
                        marker + Self.safe(plain ? "\(strings[.link]): \(link.label)" : "<\(link.label)>"), focused))
            }
        }
        if let note = state.note { lines += wrap("(!) \(note)") }
        guard interactive else {
            for warning in layout.customizationWarnings {
                lines.append(Self.safe("(customization) \(warning.message)"))
            }
            return (lines, focusedLine)
        }
        lines.append("")
        lines += keyHints(state)
        for warning in layout.customizationWarnings { lines.append(Self.safe("(customization) \(warning.message)")) }
        return (lines, focusedLine)
    }

    /// A line moved to its alignment within the width (plain mode and left alignment leave it as it is).
    private func aligned(_ line: String, columns: Int, _ alignment: CustomizationAlignment) -> String {
        guard !plain, columns < width else { return line }
        switch alignment {
        case .left: return line
        case .center: return String(repeating: " ", count: (width - columns) / 2) + line
        case .right: return String(repeating: " ", count: width - columns) + line
        }
    }

    /// The columns of a line that may hold escape codes.
    private func visibleWidth(_ line: String) -> Int {
        var columns = 0
        var inEscape = false
        for character in line {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                columns += Self.displayWidth(character)
            }
        }
        return columns
    }

    private func describe(_ control: HTMLForm.Control, plain: Bool, strings: SDKStrings) -> String {
        // The field's label as the page shows it (a reader falls back to the value, which is no label); its name
        // only when it has none.
        let labelled = !control.label.isEmpty && control.label != control.value
        let name = labelled ? control.label : (control.name ?? "")
        switch control.kind {
        case .checkbox:
            return plain
                ? "\(strings[.checkbox]) \(name), \(control.checked ? strings[.selected] : strings[.notSelected])"
                : "[\(control.checked ? "x" : " ")] \(name)"
        case .radio:
            return plain
                ? "\(strings[.radioButton]) \(name) \(control.value), "
                    + (control.checked ? strings[.selected] : strings[.notSelected])
                : "(\(control.checked ? "•" : " ")) \(name)=\(control.value)"
        case .submitInput, .imageInput, .submitButton:
            return plain
                ? "\(strings[.button]): \(control.label.isEmpty ? name : control.label)"
                : "< \(control.label.isEmpty ? name : control.label) >"
        case .select, .multipleSelect:
            let chosen = control.options.first(where: \.selected)?.label ?? control.options.first?.label ?? ""
            return plain ? "\(strings[.list]) \(name): \(chosen)" : "\(name): [\(chosen) ▾]"
        case .password,
            _ where Self.looksSecret(control):
            return plain
                ? "\(strings[.fieldPassword]) \(name), \(strings.format(.charactersEntered, control.value.count))"
                : "\(name): [\(String(repeating: "•", count: control.value.count))]"
        default:
            return plain ? "\(strings[.fieldText]) \(name): \(control.value)" : "\(name): [\(control.value)]"
        }
    }

    /// Whether a text field holds a code or password by its name or label (`otp`, `pin`, `code`, `password`): it is
    /// masked like the native code entry.
    static func looksSecret(_ control: HTMLForm.Control) -> Bool {
        guard control.isTextLike else { return false }
        let words = "\(control.name ?? "") \(control.label)".lowercased()
        return ["otp", "pin", "code", "pass", "password", "tan"].contains { word in
            words.split(whereSeparator: { !$0.isLetter }).contains { $0 == word }
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
    /// line's colour resumes) when the terminal has colour, plain otherwise. Widths are display columns (a CJK
    /// character takes two); words are never split, except one wider than the whole line, which breaks between
    /// characters (as CJK text, written without spaces, must).
    func wrap(_ runs: [StyledText.Run], colour: String) -> [String] {
        var lines: [String] = []
        var line = ""
        var visible = 0
        // The word being read: its characters with their weight, and its display width.
        var word: [(character: Character, bold: Bool)] = []
        func emit(_ pieces: ArraySlice<(character: Character, bold: Bool)>) {
            var index = pieces.startIndex
            while index < pieces.endIndex {
                let bold = pieces[index].bold
                var text = ""
                while index < pieces.endIndex, pieces[index].bold == bold {
                    text.append(pieces[index].character)
                    index += 1
                }
                line += bold && !style.bold.isEmpty ? style.bold + text + style.reset + colour : text
            }
        }
        func flushWord() {
            guard !word.isEmpty else { return }
            let wordWidth = word.reduce(0) { $0 + Self.displayWidth($1.character) }
            if visible > 0 && visible + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                visible = 0
            }
            if visible > 0 {
                line += " "
                visible += 1
            }
            if wordWidth <= width - visible {
                emit(word[...])
                visible += wordWidth
            } else {
                // Wider than a whole line: fill lines character by character.
                var start = 0
                var used = visible
                for (offset, piece) in word.enumerated() {
                    let characterWidth = Self.displayWidth(piece.character)
                    if used + characterWidth > width, offset > start {
                        emit(word[start..<offset])
                        lines.append(line)
                        line = ""
                        start = offset
                        used = 0
                    }
                    used += characterWidth
                }
                emit(word[start...])
                visible = used
            }
            word = []
        }
        for run in runs {
            for character in run.text {
                if character == " " || character == "\n" || character == "\r\n" {
                    flushWord()
                    if character != " " {
                        lines.append(line)
                        line = ""
                        visible = 0
                    }
                } else if character.unicodeScalars.contains(where: PeerText.isControlOrBidi) {
                    // Whatever a screen carries, no control character reaches the terminal: each is written as a
                    // visible escape (issue 34).
                    for shown in Self.safe(String(character)) { word.append((shown, run.isBold)) }
                } else {
                    word.append((character, run.isBold))
                }
            }
        }
        flushWord()
        lines.append(line)
        return lines
    }

    /// Text made safe to write on a terminal: every C0 and C1 control, DEL and bidirectional embedding, override or
    /// isolate is shown as a visible `\u{…}` escape (``PeerText/escapedForTerminal(_:keepingLineBreaks:)``), so no
    /// string a peer or an app supplied can move the cursor, retitle the window, write the clipboard or reorder text.
    /// Right-to-left letters and the marks LRM and RLM pass unchanged.
    ///
    /// - Parameter text: A string the renderer is about to write.
    /// - Returns: The string with no character a terminal would act on.
    public static func safe(_ text: String) -> String { PeerText.escapedForTerminal(text) }

    /// Wraps text at the width, keeping the ACS's `\n` line breaks.
    func wrap(_ text: String) -> [String] {
        wrap(StyledText(plain: text).runs, colour: "")
    }

    /// The columns a character takes on a terminal: 2 for East Asian wide and full-width characters, 0 for
    /// combining marks and variation selectors, 1 otherwise.
    ///
    /// - Parameter character: The character.
    /// - Returns: Its width in columns.
    public static func displayWidth(_ character: Character) -> Int {
        SDKStrings.displayColumns(character)
    }

    /// The columns a text takes on a terminal.
    ///
    /// - Parameter text: The text (without escape codes).
    /// - Returns: Its width in columns.
    public static func displayWidth(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + displayWidth($1) }
    }
}
