import Foundation
import ThreeDS2HTML
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

// Line and plain mode (`--line`, `TERM=dumb`, no full-screen terminal): each screen is printed and answered one
// line at a time.
extension TerminalPresenter {
    /// Line mode: the screen printed once, then questions line by line, each turned into form actions. When the
    /// form state refuses an answer, its note is printed and the question asked again.
    func lineMode(_ initial: ChallengeFormState) async -> ChallengeAnswer {
        var state = initial
        let width = lineColumns
        print(lineScreen(state, width: width).joined(separator: "\n"))
        // The consent questions come after the screen's own question, once, just before the answer that carries
        // them: the code typed (or piped) first is the code, and the end of the input leaves a consent unanswered
        // (sent as N).
        var consentsAsked = false
        while true {
            let (options, question) = lineQuestion(state, width: width)
            if !options.isEmpty { print(options.joined(separator: "\n")) }
            let typed = await prompt(question, masked: Self.masksLine(state))
            if typed == .end { ended.withLock { $0 = true } }
            guard case .line(let line) = typed else { return ChallengeAnswer(.cancel) }
            switch await lineStep(line, state: &state, consentsAsked: &consentsAsked) {
            case .answer(let answer): return answer
            case .cancel: return ChallengeAnswer(.cancel)
            case .askAgain: continue
            case .refused: printWrapped("(!) \(state.note ?? strings[.genericError])", width: width)
            }
        }
    }

    /// The width line mode prints its screens in: ``output``'s when it is a terminal, else `COLUMNS`, else 80.
    var lineColumns: Int { OutputGeometry.columns(of: output, environment: environment) }

    /// What the line mode prints before its first question: the screen (without its consent rows, which the
    /// prompts ask) and the hint, each line within `width` columns.
    func lineScreen(_ state: ChallengeFormState, width: Int) -> [String] {
        let renderer = LayoutRenderer(
            width: width, style: TerminalStyle(depth: lineDepth), plain: mode == .plain, interactive: false)
        return renderer.lines(state) + (hint.map { renderer.wrap(LayoutRenderer.safe("(\($0))")) } ?? [])
    }

    /// The terminal's texts in the language of the screen's SDK texts.
    var texts: TerminalStrings { TerminalStrings(for: strings) }

    /// The screen's question, and the lines printed before it: for a select screen its numbered options (wrapped
    /// within `width`, each option's further lines under its label), then one line per command the screen offers.
    /// Each line and the question is one sentence of the terminal's table, the words to type filled in from it. The
    /// question is wrapped when asked (``promptLines(_:width:)``).
    func lineQuestion(_ state: ChallengeFormState, width: Int) -> (options: [String], question: String) {
        let screen = state.screen
        let texts = texts
        let additional = screen.additionalCodeLabel.map { texts.format(.lineCommand, texts.word(.additional), $0) }
        let asked: String
        var commands: [String] = []
        var options: [String] = []
        switch screen.uiType {
        case .text:
            commands = [screen.resendLabel.map { texts.format(.lineCommand, texts.word(.resend), $0) }, additional]
                .compactMap { $0 }
            asked = state.entryBox(0).label
        case .singleSelect, .multiSelect:
            let renderer = LayoutRenderer(width: width, style: TerminalStyle(depth: .none))
            options = screen.options.enumerated().flatMap { number, option in
                let lead = "  \(number + 1). "
                let indent = String(repeating: " ", count: lead.count)
                return renderer.wrap(LayoutRenderer.safe(option.label), width: width - lead.count).enumerated().map {
                    ($0.offset == 0 ? lead : indent) + $0.element
                }
            }
            asked = texts[screen.uiType == .multiSelect ? .optionNumbers : .optionNumber]
        case .outOfBand, .information:
            let open = screen.oobAppURL.map {
                texts.format(.lineCommand, texts.word(.open), "\(screen.oobAppLabel ?? strings[.openApp]) \($0)")
            }
            let label = screen.oobContinueLabel ?? screen.infoContinueLabel
            if screen.offersContinueButton {
                commands = [open, additional].compactMap { $0 }
                asked = texts.format(.lineContinue, label ?? strings[.continueButton])
            } else {
                // No continue button (an app link without a continue label): the open command is the question.
                commands = [additional].compactMap { $0 }
                asked = open ?? ""
            }
        case .html, .htmlOutOfBand:
            (commands, asked) = htmlQuestion(state)
        }
        let lines = commands.flatMap { LayoutRenderer(width: width, style: TerminalStyle(depth: .none)).wrap($0) }
        return (options + lines, texts.format(.question, asked, texts.word(.cancel)))
    }

    /// The lines and the question of an HTML screen: its one field by label, or every field by name, and its buttons.
    private func htmlQuestion(_ state: ChallengeFormState) -> (lines: [String], asked: String) {
        let texts = texts
        let open =
            state.screen.oobAppURL != nil ? texts.format(.lineCommand, texts.word(.open), strings[.openApp]) : nil
        let buttons = Self.submitButtons(state).joined(separator: texts[.listSeparator])
        if let field = Self.onlyEntry(state) {
            let pressing = buttons.isEmpty ? nil : texts.format(.htmlOtherButton, buttons)
            return ([pressing, open].compactMap { $0 }, field.label.isEmpty ? (field.name ?? "") : field.label)
        }
        let names =
            state.form?.controls.compactMap { control -> String? in
                guard Self.isEntry(control), let name = control.name else { return nil }
                return control.label.isEmpty ? name : texts.format(.htmlFieldName, name, control.label)
            }.joined(separator: texts[.listSeparator]) ?? ""
        return ([open].compactMap { $0 }, texts.format(.htmlFields, names, buttons))
    }

    /// What one typed line led to.
    private enum LineStep {
        /// The answer to send.
        case answer(ChallengeAnswer)
        /// The cardholder cancelled.
        case cancel
        /// Ask the question again, saying nothing.
        case askAgain
        /// The form state refused the line: its note is shown and the question asked again.
        case refused
    }

    /// Turns one typed line into form actions: the additional-code and open commands (the table's words or the
    /// English ones, ``TerminalStrings/command(_:)``), the two entry boxes of 2.3.1, or
    /// the screen's own answer (after the consent questions).
    private func lineStep(_ line: String, state: inout ChallengeFormState, consentsAsked: inout Bool) async
        -> LineStep
    {
        let screen = state.screen
        let word = line.trimmingCharacters(in: .whitespaces)
        if word.isEmpty, !screen.offersContinueButton {
            // An empty Enter asks again: sent, it would spend an attempt, send no choice, or (an app link without a
            // continue button) continue before the approval.
            return .askAgain
        }
        let command = texts.command(word)
        switch command {
        case .additional where screen.additionalCodeLabel != nil:
            return Self.step(state.perform(.additionalCode)?.answer)
        case .open where screen.oobAppURL != nil:
            switch await perform(.openApp, on: &state) {
            case .send(let sent): return .answer(sent)
            case .showNote(let note):
                printWrapped("(!) \(note)", width: lineColumns)
                return .askAgain
            case .openApp, nil: return .askAgain
            }
        case _
        where screen.uiType == .text && state.entries.count > 1 && !(command == .resend && screen.resendLabel != nil):
            return await twoBoxes(line, state: &state, consentsAsked: &consentsAsked)
        default:
            guard await askConsents(&state, asked: &consentsAsked) else { return .cancel }
            return Self.step(lineAnswer(line, state: &state))
        }
    }

    /// An answer to send, or a refusal when the form state gave none.
    private static func step(_ answer: ChallengeAnswer?) -> LineStep {
        answer.map(LineStep.answer) ?? .refused
    }

    /// Two entry boxes (2.3.1): the first line fills the first box, then the second box is asked for.
    private func twoBoxes(_ line: String, state: inout ChallengeFormState, consentsAsked: inout Bool) async
        -> LineStep
    {
        guard state.perform(.setEntry(line))?.answer == nil, state.note == nil else { return .refused }
        let second: String
        switch await prompt(texts.format(.answer, state.entryBox(1).label), masked: state.isMasked(box: 1)) {
        case .cancel: return .cancel
        case .end: second = ""
        case .line(let line): second = line
        }
        guard state.perform(.setEntry(second, box: 1))?.answer == nil, state.note == nil else { return .refused }
        guard await askConsents(&state, asked: &consentsAsked) else { return .cancel }
        return Self.step(state.perform(.submit())?.answer)
    }

    /// The consent questions a screen asks, in order, each as its prompt.
    func consentPrompts(_ screen: ChallengeScreen) -> [(kind: ConsentKind, prompt: String)] {
        let texts = texts
        let (yes, no) = texts.answerKeys
        return [(ConsentKind.trust, screen.whitelistingText), (.deviceBinding, screen.deviceBindingText)].compactMap {
            kind, question in
            question.map { (kind, texts.format(.consentPrompt, $0, yes, no)) }
        }
    }

    /// Asks the consent questions once; `false` when the cardholder cancelled on one (Esc, Ctrl-C, the word).
    private func askConsents(_ state: inout ChallengeFormState, asked: inout Bool) async -> Bool {
        guard !asked else { return true }
        asked = true
        for (kind, question) in consentPrompts(state.screen) {
            // Only yes or no is taken: the terminal table's keys (as full screen takes them) and y/n, or the form
            // state's words (the language's yes and no, their first letters); any other word asks again, so a stray
            // line is never read as no, nor the next code as an answer.
            asking: while true {
                switch await prompt(question) {
                case .end:
                    break asking
                case .cancel:
                    return false
                case .line(let line):
                    // An empty Enter leaves the question unanswered (sent as N, as the screen left untouched).
                    if line.trimmingCharacters(in: .whitespaces).isEmpty { break asking }
                    guard let yes = texts.consentKey(line) ?? state.consentAnswer(line) else { continue asking }
                    _ = state.perform(kind == .trust ? .setTrust(yes) : .setDeviceBinding(yes))
                    break asking
                }
            }
        }
        return true
    }

    /// Prints text made safe and wrapped within `width` columns.
    private func printWrapped(_ text: String, width: Int) {
        print(
            LayoutRenderer(width: width, style: TerminalStyle(depth: .none)).wrap(LayoutRenderer.safe(text))
                .joined(separator: "\n"))
    }

    /// A question as it is written before the cursor: made safe and wrapped between words within `width` columns,
    /// with a column left for the cursor; the last line keeps the space after the question.
    static func promptLines(_ text: String, width: Int) -> [String] {
        var lines = LayoutRenderer(width: width, style: TerminalStyle(depth: .none))
            .wrap(LayoutRenderer.safe(text), width: max(1, width - 1))
        if text.hasSuffix(" "), let last = lines.indices.last { lines[last] += " " }
        return lines
    }

    /// The form actions one typed line stands for.
    private func lineAnswer(_ line: String, state: inout ChallengeFormState) -> ChallengeAnswer? {
        let screen = state.screen
        switch screen.uiType {
        case .text:
            if texts.command(line) == .resend, screen.resendLabel != nil { return state.perform(.resend)?.answer }
            _ = state.perform(.setEntry(line))
            return state.perform(.submit())?.answer
        case .singleSelect, .multiSelect:
            // The form state refuses a number out of range or a word, naming it: asked again, never sent.
            _ = state.perform(.selectNumbered(line))
            if state.note != nil { return nil }
            return state.perform(.submit())?.answer
        case .outOfBand, .information:
            // Without a continue button, a line that is no command continues nothing: it is asked again.
            guard screen.offersContinueButton else { return nil }
            if screen.uiType == .outOfBand, let info = screen.additionalInfo {
                let renderer = LayoutRenderer(width: lineColumns, style: TerminalStyle(depth: .none))
                print(renderer.wrap(PeerText.escapedForTerminal(info, keepingLineBreaks: true)).joined(separator: "\n"))
            }
            return state.perform(.continueChallenge)?.answer
        case .html, .htmlOutOfBand:
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            var fields: [String: String] = [:]
            if let only = Self.onlyEntry(state), let name = only.name, !(parts.first ?? "").contains("=") {
                // One field to fill: the line is its value, as a person types a code.
                fields[name] = parts.first ?? ""
            }
            for pair in (parts.first ?? "").split(separator: "&") where fields.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { fields[kv[0]] = kv[1] }
            }
            _ = state.perform(.setHTMLFields(fields))
            if state.note != nil { return nil }
            return state.perform(.submit(button: parts.count > 1 ? parts[1] : nil))?.answer
        }
    }

    /// Whether the line answering a screen is typed without echo: a masked entry box, or an HTML form with a
    /// password field or a field that holds a code by its name or label (issue 43: one was echoed in plain mode).
    static func masksLine(_ state: ChallengeFormState) -> Bool {
        switch state.screen.uiType {
        case .text: return state.isMasked(box: 0)
        case .html, .htmlOutOfBand:
            return (state.form?.controls ?? []).contains {
                isEntry($0) && ($0.kind == .input("password") || LayoutRenderer.looksSecret($0))
            }
        default: return false
        }
    }

    /// Whether an HTML control takes typed text (not hidden, not a button, box or list).
    static func isEntry(_ control: HTMLForm.Control) -> Bool {
        guard !control.disabled, control.name != nil else { return false }
        let typed = ["text", "password", "tel", "number", "email", "search", "url"]
        return control.kind == .textarea || typed.contains { control.kind == .input($0) }
    }

    /// The one field of an HTML form that takes typed text, when there is exactly one.
    static func onlyEntry(_ state: ChallengeFormState) -> HTMLForm.Control? {
        let entries = state.form?.controls.filter(isEntry) ?? []
        return entries.count == 1 ? entries[0] : nil
    }

    /// The labels of an HTML form's submit buttons, in page order.
    static func submitButtons(_ state: ChallengeFormState) -> [String] {
        (state.form?.controls ?? []).filter { $0.isSubmitButton && !$0.disabled }.map {
            $0.label.isEmpty ? $0.value : $0.label
        }
    }

    /// Whether a line is the cancel command: the table's word, the English one, or the SDK's cancel button's text.
    private func isCancel(_ line: String) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        return texts.command(word) == .cancel || word == strings[.cancel].lowercased()
    }

    /// What one question got: a line, the end of the input, or a cancel (Esc, Ctrl-C or the cancel word).
    private enum Typed: Equatable {
        case line(String)
        case end
        case cancel
    }

    /// Reads a line on a dedicated thread (never blocking the cooperative pool), with echo off when masked. Ctrl-C
    /// and a line holding Esc cancel; arrow keys typed into the line are dropped.
    private func prompt(_ text: String, masked: Bool = false) async -> Typed {
        // The question holds the ACS's labels: no control character of theirs reaches the terminal. It
        // is wrapped between words: a terminal's own wrap would break inside one.
        TerminalIO.write(Self.promptLines(text, width: TerminalIO.size.columns).joined(separator: "\n"))
        let input = input
        let read = await withCheckedContinuation { continuation in
            let thread = Thread {
                var settings = termios()
                let isTerminal = isatty(input) == 1 && tcgetattr(input, &settings) == 0
                if masked && isTerminal {
                    var silent = settings
                    silent.c_lflag &= ~tcflag_t(ECHO)
                    tcsetattr(input, TCSANOW, &silent)
                }
                let line = PromptInput.typed(from: input)
                if masked && isTerminal {
                    tcsetattr(input, TCSANOW, &settings)
                }
                if masked && isTerminal || line == .interrupted { TerminalIO.write("\n") }
                continuation.resume(returning: line)
            }
            thread.start()
        }
        switch read {
        case .end: return .end
        case .interrupted: return .cancel
        case .line(let line):
            if PromptInput.holdsEscape(line) { return .cancel }
            let typed = line.contains("\u{1B}") ? PromptInput.withoutEscapeSequences(line) : line
            return isCancel(typed) ? .cancel : .line(typed)
        }
    }
}
