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
        // The toolbar (the title, with Cancel) stays on top while the rest scrolls, as long as three rows of the screen
        // remain under it: in a small window it was the first line to go (issue 43).
        let pinned = toolbarLineCount(state)
        let header = rows - pinned >= 3 && focused >= pinned ? Array(all.prefix(pinned)) : []
        let body = Array(all.dropFirst(header.count))
        let (bodyRows, bodyFocus) = (rows - header.count, focused - header.count)
        guard body.count > bodyRows, bodyFocus >= bodyRows - 1 else {
            return header + Array(body.prefix(bodyRows)) + (keepsFooter ? footer : [])
        }
        let start = min(body.count - bodyRows, bodyFocus - bodyRows + 2)
        return header + Array(body[start..<(start + bodyRows)]) + (keepsFooter ? footer : [])
    }

    /// How many lines the screen's toolbar takes at the top (none when it has none).
    private func toolbarLineCount(_ state: ChallengeFormState) -> Int {
        guard case .toolbar(let title, let cancel)? = state.layout.elements.first else { return 0 }
        return toolbarLines(title: Self.safe(title), cancel: Self.safe(cancel), state).count
    }

    /// How many of the last lines ``render(_:)`` draws are the key hints (none in line modes).
    private func footerCount(_ state: ChallengeFormState) -> Int {
        guard interactive else { return 0 }
        return keyHints(state).count + warningLines(state).count
    }

    /// The customization's warnings (a poor contrast), wrapped at the width.
    private func warningLines(_ state: ChallengeFormState) -> [String] {
        state.layout.customizationWarnings.flatMap { wrap(Self.safe("(customization) \($0.message)")) }
    }

    /// The key hints in the layout's language, wrapped at the width.
    private func keyHints(_ state: ChallengeFormState) -> [String] {
        let layout = state.layout
        let strings = layout.strings
        let texts = TerminalStrings(for: strings)
        // y and n answer the consent row that has the focus; elsewhere they are typed into the code box, so the help
        // offers them only there (issue 43).
        let asks: Bool = if case .consent = state.focusedElement { true } else { false }
        let reloads = layout.screen.htmlRefresh != nil
        let keys =
            plain
            ? texts[.keysHelpPlain] + (reloads ? " " + texts[.keysReloadPlain] : "")
            : texts[.keysHelp] + (asks ? " · " + texts.format(.keysAnswer, texts[.keyYes], texts[.keyNo]) : "")
                + (reloads ? " · " + texts[.keysReload] : "")
        return wrap(keys)
    }

    /// The lines for a state, and the index of the focused element's first line. Every line fits the width, in
    /// display columns, broken only between words (a word wider than the whole line aside); a control's wrapped
    /// lines are indented under its text.
    public func render(_ state: ChallengeFormState) -> (lines: [String], focusedLine: Int?) {
        var focusedLine: Int?
        var lines: [String] = []
        for (index, element) in state.layout.elements.enumerated() {
            if !interactive, case .consent = element { continue }
            let focused = interactive && index == state.focus
            if focused { focusedLine = lines.count }
            lines += elementLines(element, index: index, focused: focused, state)
        }
        if let note = state.note { lines += wrap("(!) \(note)") }
        let warnings = warningLines(state)
        guard interactive else { return (lines + warnings, focusedLine) }
        return (lines + [""] + keyHints(state) + warnings, focusedLine)
    }

    /// The lines of one element of the screen.
    private func elementLines(_ element: LayoutElement, index: Int, focused: Bool, _ state: ChallengeFormState)
        -> [String]
    {
        let strings = state.layout.strings
        let texts = TerminalStrings(for: strings)
        let marker = !interactive ? "" : focused ? (plain ? texts[.plainFocus] + " " : "› ") : (plain ? "" : "  ")
        switch element {
        case .toolbar(let title, let cancel):
            return toolbarLines(title: Self.safe(title), cancel: Self.safe(cancel), state)
        case .images(let issuer, let paymentSystem):
            let line = [issuer, paymentSystem].compactMap { $0.map { image($0, state) } }.joined(separator: "  ")
            return line.contains("\u{1B}") || Self.displayWidth(line) <= width ? [line] : wrap(line)
        case .heading(let text):
            return headingLines(Self.safe(text), state)
        case .text(let text, let warning):
            return textLines(text, warning: warning, state)
        case .textField(let box, let settings):
            return fieldLines(box: box, settings, marker: marker, focused: focused, state)
        case .option(let key, let label, let multiple):
            return optionLines(key: key, label: Self.safe(label), multiple: multiple, marker: marker, focused, state)
        case .button(let type, let label):
            return buttonLines(type, label: Self.safe(label), marker: marker, focused: focused, state)
        case .consent(let kind, let question):
            let answer = state.consent(kind).map { $0 ? strings[.yes] : strings[.no] } ?? "—"
            let (yes, no) = texts.answerKeys
            let text =
                plain
                ? texts.format(.plainConsent, Self.safe(question), answer, yes, no)
                // The answer and the keys stay together on one line: `[Yes] (y/n)` is never broken.
                : "\(Self.safe(question)) [\(answer)]\(Self.glue)"
                    + texts.format(.consentKeys, yes, no).replacingOccurrences(of: " ", with: String(Self.glue))
            return item(marker, text, focused: focused)
        case .section(let label, let text):
            let open = state.expanded.contains(index)
            let shown =
                plain
                ? texts.format(open ? .plainSectionOpen : .plainSectionClosed, Self.safe(label))
                : "\(open ? "▾" : "▸")\(Self.glue)\(Self.safe(label))"
            let body = open ? wrap(text.runs, colour: "", width: width - 4).map { "    " + $0 } : []
            return item(marker, shown, focused: focused) + body
        case .htmlText(let text):
            return wrap(state.form?.text ?? text)
        case .htmlControl(let controlIndex):
            guard let controls = state.form?.controls, controls.indices.contains(controlIndex) else { return [] }
            let control = controls[controlIndex]
            return item(marker, Self.safe(describe(control, plain: plain, strings: strings)), focused: focused)
        case .htmlLink(let linkIndex):
            guard let links = state.form?.links, links.indices.contains(linkIndex) else { return [] }
            let label = Self.safe(links[linkIndex].label)
            return item(marker, plain ? texts.format(.plainLink, label) : "<\(label)>", focused: focused)
        }
    }

    /// The toolbar: the title on the left, the cancel key on the right, then a rule. A narrow terminal keeps the
    /// title's words whole and the cancel key in view (`[Esc]`), wrapping a title too long for one line.
    private func toolbarLines(title: String, cancel: String, _ state: ChallengeFormState) -> [String] {
        let strings = state.layout.strings
        let texts = TerminalStrings(for: strings)
        let look = state.layout.style
        var right = plain ? texts.format(.plainCancelButton, cancel) : "[\(cancel): Esc]"
        if Self.displayWidth(title) + 1 + Self.displayWidth(right) > width, !plain { right = "[Esc]" }
        let rightWidth = Self.displayWidth(right)
        // The title beside the cancel key when at least a word or two fits there; otherwise above it.
        let beside = width - rightWidth - 1 >= 12
        var titles = wrap(title, width: beside ? width - rightWidth - 1 : width)
        if !beside { titles += [String(repeating: " ", count: max(0, width - rightWidth)) + right] }
        let colours = style.foreground(look.toolbar.text.color) + style.background(look.toolbar.backgroundColor)
        var lines = titles.map { colours + style.bold + $0 + style.reset }
        if beside {
            let gap = max(1, width - Self.displayWidth(titles[0]) - rightWidth)
            lines[0] = colours + style.bold + titles[0] + String(repeating: " ", count: gap) + right + style.reset
        }
        return lines + [plain ? "" : String(repeating: "─", count: width)]
    }

    /// The challenge information header, wrapped, each line aligned as the customization says.
    private func headingLines(_ text: String, _ state: ChallengeFormState) -> [String] {
        let heading = state.layout.style.label(.infoHeader)
        let colour = style.foreground(heading.color) + (heading.isBold ? style.bold : "")
        return wrap(text).map { aligned(colour + $0 + style.reset, columns: Self.displayWidth($0), heading.alignment) }
    }

    /// The information text with its bold runs (and the warning indicator), wrapped and aligned.
    private func textLines(_ text: StyledText, warning: Bool, _ state: ChallengeFormState) -> [String] {
        let (shown, warns) = state.shownText(text, warning: warning)
        let prefix =
            warns ? TerminalStrings(for: state.layout.strings).format(.warningLead, state.layout.strings[.warning]) : ""
        let label = state.layout.style.label(.infoText)
        let colour = style.foreground(label.color)
        return wrap(StyledText(plain: prefix).runs + shown.runs, colour: colour).map { line in
            aligned(colour + line + style.reset, columns: visibleWidth(line), label.alignment)
        }
    }

    /// An entry box: its label and the contents (masked as the form state says), the reveal key when offered.
    private func fieldLines(
        box: Int, _ settings: EntryBox, marker: String, focused: Bool, _ state: ChallengeFormState
    ) -> [String] {
        let strings = state.layout.strings
        let texts = TerminalStrings(for: strings)
        let text = state.entries.indices.contains(box) ? state.entries[box] : ""
        let masked = state.isMasked(box: box)
        let shown = masked ? String(repeating: "•", count: text.count) : text
        let toggle = settings.offersRevealToggle
        let field = Self.safe(
            plain
                ? Self.entryDescription(label: settings.label, text: text, masked: masked, toggle: toggle, texts)
                : "\(settings.label): [\(shown)\(focused ? "_" : "")]\(toggle ? " (Ctrl-T)" : "")")
        let colour = style.foreground(state.layout.style.label(box == 0 ? .dataEntryLabel : .dataEntryLabel2).color)
        return item(marker, field, focused: focused, colour: focused || plain ? nil : colour)
    }

    /// A choice of a select screen: its box (or its state in words) and its label.
    private func optionLines(
        key: String, label: String, multiple: Bool, marker: String, _ focused: Bool, _ state: ChallengeFormState
    ) -> [String] {
        let texts = TerminalStrings(for: state.layout.strings)
        let on = state.chosen.contains(key)
        let box =
            plain
            ? texts.format(Self.choiceKey(checkbox: multiple, on: on), label)
            : (multiple ? (on ? "[x]" : "[\(Self.glue)]") : (on ? "(•)" : "(\(Self.glue))")) + "\(Self.glue)" + label
        let colour = style.foreground(state.layout.style.label(.selectionList).color)
        return item(marker, box, focused: focused, colour: focused || plain || colour.isEmpty ? nil : colour)
    }

    /// A button in its colours, and the bank app's link once the app was handed on (a terminal cannot open it).
    private func buttonLines(
        _ type: ButtonType, label: String, marker: String, focused: Bool, _ state: ChallengeFormState
    ) -> [String] {
        let button = state.layout.style.button(type)
        let colours = style.foreground(button.text.color) + style.background(button.backgroundColor)
        let indent = String(repeating: " ", count: Self.displayWidth(marker))
        let text =
            plain
            ? TerminalStrings(for: state.layout.strings).format(.plainButton, label)
            : "<\(Self.glue)\(label)\(Self.glue)>"
        var lines = wrap(text, width: width - indent.count).enumerated().map { offset, line in
            let shown = Self.unglued(line)
            return highlight(
                (offset == 0 ? marker : indent) + (plain ? shown : colours + shown + style.reset), focused)
        }
        if type == .openOOBApp, state.openedApp, let link = state.layout.screen.oobAppURL {
            let shown = Self.safe(link)
            lines.append(
                "    " + (plain ? TerminalStrings(for: state.layout.strings).format(.plainLink, shown) : shown))
        }
        return lines
    }

    /// A focusable row: `text` wrapped after `marker`, its further lines indented under the text; highlighted when
    /// focused, otherwise drawn in `colour` when one is given.
    private func item(_ marker: String, _ text: String, focused: Bool, colour: String? = nil) -> [String] {
        let indent = String(repeating: " ", count: Self.displayWidth(marker))
        return wrap(text, width: width - indent.count).enumerated().map { offset, line in
            let row = (offset == 0 ? marker : indent) + Self.unglued(line)
            guard let colour else { return highlight(row, focused) }
            return colour + row + style.reset
        }
    }

    /// A space the wrapping never breaks at (a figure space, drawn as a space): it keeps a control's parts
    /// together, such as `[Yes] (y/n)` or `< Verify >`. It is not the no-break space, which a translation writes
    /// where its language asks for one (French before `:`) and which reaches the terminal as written.
    static let glue: Character = "\u{2007}"

    /// A line with its glue drawn as plain spaces.
    static func unglued(_ line: String) -> String {
        line.contains(glue) ? String(line.map { $0 == glue ? " " : $0 }) : line
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
        let texts = TerminalStrings(for: strings)
        // The field's label as the page shows it (a reader falls back to the value, which is no label); its name
        // only when it has none.
        let labelled = !control.label.isEmpty && control.label != control.value
        let name = labelled ? control.label : (control.name ?? "")
        switch control.kind {
        case .checkbox:
            return plain
                ? texts.format(Self.choiceKey(checkbox: true, on: control.checked), name)
                : "[\(control.checked ? "x" : " ")] \(name)"
        case .radio:
            // An option with no label of its own is named as the page's form names it, `name=value`.
            return plain
                ? texts.format(
                    Self.choiceKey(checkbox: false, on: control.checked), labelled ? name : "\(name)=\(control.value)")
                : "(\(control.checked ? "•" : " ")) \(name)=\(control.value)"
        case .submitInput, .imageInput, .submitButton:
            let label = control.label.isEmpty ? name : control.label
            return plain ? texts.format(.plainButton, label) : "< \(label) >"
        case .select, .multipleSelect:
            let chosen = control.options.first(where: \.selected)?.label ?? control.options.first?.label ?? ""
            return plain ? texts.format(.plainList, name, chosen) : "\(name): [\(chosen) ▾]"
        case .password,
            _ where Self.looksSecret(control):
            return plain
                ? texts.format(.plainPasswordField, name, texts.format(.charactersEntered, control.value.count))
                : "\(name): [\(String(repeating: "•", count: control.value.count))]"
        default:
            return plain ? texts.format(.plainTextField, name, control.value) : "\(name): [\(control.value)]"
        }
    }

    /// The plain description of a check box or radio button in its state: one sentence of the table.
    static func choiceKey(checkbox: Bool, on: Bool) -> TerminalStrings.Key {
        switch (checkbox, on) {
        case (true, true): .plainCheckboxOn
        case (true, false): .plainCheckboxOff
        case (false, true): .plainRadioOn
        case (false, false): .plainRadioOff
        }
    }

    /// The plain description of an entry box: its label, how much was typed, the text (or that it is hidden), and
    /// the reveal key when offered, as one sentence of the table.
    static func entryDescription(
        label: String, text: String, masked: Bool, toggle: Bool, _ texts: TerminalStrings
    ) -> String {
        let count = texts.format(.charactersEntered, text.count)
        switch (masked, toggle) {
        case (true, false): return texts.format(.plainEntryHidden, label, count)
        case (true, true): return texts.format(.plainEntryHiddenToggle, label, count)
        case (false, false): return texts.format(.plainEntry, label, count, text)
        case (false, true): return texts.format(.plainEntryToggle, label, count, text)
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
        var wrapper = LineWrapper(width: width, boldOn: style.bold, boldOff: style.reset + colour)
        for run in runs {
            for character in run.text {
                if character == " " || character == "\n" || character == "\r\n" {
                    wrapper.flushWord()
                    if character != " " { wrapper.endLine() }
                } else if character.unicodeScalars.contains(where: PeerText.isControlOrBidi) {
                    // Whatever a screen carries, no control character reaches the terminal: each is written as a
                    // visible escape.
                    for shown in Self.safe(String(character)) { wrapper.word.append((shown, run.isBold)) }
                } else {
                    wrapper.word.append((character, run.isBold))
                }
            }
        }
        wrapper.flushWord()
        wrapper.endLine()
        return wrapper.lines
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

    /// Wraps text at another width (at least one column).
    func wrap(_ text: String, width: Int) -> [String] {
        wrap(StyledText(plain: text).runs, colour: "", width: width)
    }

    /// Wraps styled runs at another width (at least one column).
    func wrap(_ runs: [StyledText.Run], colour: String, width: Int) -> [String] {
        var narrower = self
        narrower.width = max(1, width)
        return narrower.wrap(runs, colour: colour)
    }

    /// The columns a text takes on a terminal.
    ///
    /// - Parameter text: The text (without escape codes).
    /// - Returns: Its width in columns.
    public static func displayWidth(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + displayWidth($1) }
    }
}

/// The lines ``LayoutRenderer/wrap(_:colour:)`` is filling: the finished ones, the one being written with its display
/// width, and the word being read.
private struct LineWrapper {
    /// The width in display columns.
    let width: Int
    /// Starts bold text; empty when the terminal has no colour (bold words are then written plain).
    let boldOn: String
    /// Ends bold text and resumes the line's colour.
    let boldOff: String
    /// The finished lines.
    var lines: [String] = []
    /// The line being written.
    var line = ""
    /// Its width in display columns.
    var visible = 0
    /// The word being read: its characters with their weight.
    var word: [(character: Character, bold: Bool)] = []

    /// Finishes the line being written and starts an empty one.
    mutating func endLine() {
        lines.append(line)
        line = ""
        visible = 0
    }

    /// Writes the word read so far on the line (after a space), or on the next line when it does not fit; a word
    /// wider than a whole line fills lines character by character.
    mutating func flushWord() {
        guard !word.isEmpty else { return }
        let wordWidth = word.reduce(0) { $0 + LayoutRenderer.displayWidth($1.character) }
        if visible > 0 && visible + 1 + wordWidth > width { endLine() }
        if visible > 0 {
            line += " "
            visible += 1
        }
        if wordWidth <= width - visible {
            emit(word[...])
            visible += wordWidth
        } else {
            breakWord()
        }
        word = []
    }

    /// Writes a word wider than a whole line, breaking it between characters wherever the line is full.
    private mutating func breakWord() {
        var start = 0
        var used = visible
        for (offset, piece) in word.enumerated() {
            let characterWidth = LayoutRenderer.displayWidth(piece.character)
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

    /// Appends characters to the line, each stretch of bold ones between ``boldOn`` and ``boldOff``.
    private mutating func emit(_ pieces: ArraySlice<(character: Character, bold: Bool)>) {
        var index = pieces.startIndex
        while index < pieces.endIndex {
            let bold = pieces[index].bold
            var text = ""
            while index < pieces.endIndex, pieces[index].bold == bold {
                text.append(pieces[index].character)
                index += 1
            }
            line += bold && !boldOn.isEmpty ? boldOn + text + boldOff : text
        }
    }
}
