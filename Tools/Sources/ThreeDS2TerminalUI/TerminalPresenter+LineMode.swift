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
        let screen = state.screen
        let renderer = LayoutRenderer(
            width: TerminalIO.size.columns, style: TerminalStyle(depth: depth), plain: mode == .plain,
            interactive: false)
        print(renderer.lines(state).joined(separator: "\n"))
        if let hint { print(LayoutRenderer.safe("(\(hint))")) }
        // The consent questions come after the screen's own question, once, just before the answer that carries
        // them: the code typed (or piped) first is the code, and the end of the input leaves a consent unanswered
        // (sent as N).
        var consentsAsked = false
        /// Asks the consent questions once; `false` when the cardholder cancelled on one (Esc, Ctrl-C, the word).
        func askConsents() async -> Bool {
            guard !consentsAsked else { return true }
            consentsAsked = true
            for (kind, question) in [
                (ConsentKind.trust, screen.whitelistingText), (.deviceBinding, screen.deviceBindingText),
            ] {
                guard let question else { continue }
                // Only yes or no is taken (the form state's rule: the language's words or their first letters, and
                // y/n); any other word asks again, so a stray line is never read as no, nor the next code as an
                // answer.
                asking: while true {
                    switch await prompt("\(question) [\(strings[.yes])/\(strings[.no])]: ") {
                    case .end:
                        break asking
                    case .cancel:
                        return false
                    case .line(let line):
                        // An empty Enter leaves the question unanswered (sent as N, as the screen left untouched).
                        if line.trimmingCharacters(in: .whitespaces).isEmpty { break asking }
                        guard let yes = state.consentAnswer(line) else { continue asking }
                        _ = state.perform(kind == .trust ? .setTrust(yes) : .setDeviceBinding(yes))
                        break asking
                    }
                }
            }
            return true
        }
        let cancelWord = "\(strings[.or]) '\(strings[.cancel].lowercased())'"
        let additional = screen.additionalCodeLabel.map { ", 'additional' (\($0))" } ?? ""
        while true {
            let question: String
            switch screen.uiType {
            case .text:
                let resend = screen.resendLabel.map { ", 'resend' (\($0))" } ?? ""
                question = "\(state.entryBox(0).label)\(resend)\(additional), \(cancelWord): "
            case .singleSelect, .multiSelect:
                for (number, option) in screen.options.enumerated() {
                    print(LayoutRenderer.safe("  \(number + 1). \(option.label)"))
                }
                let number = strings[screen.uiType == .multiSelect ? .optionNumbers : .optionNumber]
                question = "\(number), \(cancelWord): "
            case .outOfBand, .information:
                let open = screen.oobAppURL.map { "'open' (\(screen.oobAppLabel ?? strings[.openApp]): \($0)), " } ?? ""
                let label = screen.oobContinueLabel ?? screen.infoContinueLabel
                let enter =
                    label != nil || screen.oobAppURL == nil
                    ? "\(strings[.enterKey]): \(label ?? strings[.continueButton]), " : ""
                question = "\(open)\(enter)\(additional.dropFirst(2))\(additional.isEmpty ? "" : ", ")\(cancelWord): "
            case .html, .htmlOutOfBand:
                let open = screen.oobAppURL != nil ? "'open' (\(strings[.openApp])), " : ""
                let buttons = Self.submitButtons(state).joined(separator: ", ")
                let pressing = buttons.isEmpty ? "" : " (\(strings.format(.htmlOtherButton, buttons)))"
                if let field = Self.onlyEntry(state) {
                    question =
                        "\(field.label.isEmpty ? (field.name ?? "") : field.label)\(pressing), \(open)\(cancelWord): "
                } else {
                    let names =
                        state.form?.controls.compactMap { control -> String? in
                            guard Self.isEntry(control), let name = control.name else { return nil }
                            return control.label.isEmpty ? name : "\(name) (\(control.label))"
                        }.joined(separator: ", ") ?? ""
                    question = "\(strings.format(.htmlFields, names, buttons)), \(open)\(cancelWord): "
                }
            }
            let masked = screen.uiType == .text && state.isMasked(box: 0)
            let typed = await prompt(question, masked: masked)
            if typed == .end { ended.withLock { $0 = true } }
            guard case .line(let line) = typed else { return ChallengeAnswer(.cancel) }
            if line.trimmingCharacters(in: .whitespaces).isEmpty, screen.uiType != .outOfBand,
                screen.uiType != .information
            {
                // An empty Enter asks again: sent, it would spend an attempt (or send no choice).
                continue
            }
            var answer: ChallengeAnswer?
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "additional" where screen.additionalCodeLabel != nil:
                answer = state.perform(.additionalCode)?.answer
            case "open" where screen.oobAppURL != nil:
                switch await perform(.openApp, on: &state) {
                case .send(let sent): answer = sent
                case .showNote(let note):
                    print(LayoutRenderer.safe("(!) \(note)"))
                    continue
                case .openApp, nil: continue
                }
            case _
            where screen.uiType == .text && state.entries.count > 1 && !(line == "resend" && screen.resendLabel != nil):
                // Two entry boxes (2.3.1): the first line fills the first box, then the second box is asked for.
                guard state.perform(.setEntry(line))?.answer == nil, state.note == nil else { break }
                let second: String
                switch await prompt("\(state.entryBox(1).label): ", masked: state.isMasked(box: 1)) {
                case .cancel: return ChallengeAnswer(.cancel)
                case .end: second = ""
                case .line(let line): second = line
                }
                if state.perform(.setEntry(second, box: 1))?.answer == nil, state.note == nil {
                    guard await askConsents() else { return ChallengeAnswer(.cancel) }
                    answer = state.perform(.submit())?.answer
                }
            default:
                guard await askConsents() else { return ChallengeAnswer(.cancel) }
                answer = lineAnswer(line, state: &state)
            }
            if let answer { return answer }
            print(LayoutRenderer.safe("(!) \(state.note ?? strings[.genericError])"))
        }
    }

    /// The form actions one typed line stands for.
    private func lineAnswer(_ line: String, state: inout ChallengeFormState) -> ChallengeAnswer? {
        let screen = state.screen
        switch screen.uiType {
        case .text:
            if line == "resend", screen.resendLabel != nil { return state.perform(.resend)?.answer }
            _ = state.perform(.setEntry(line))
            return state.perform(.submit())?.answer
        case .singleSelect, .multiSelect:
            // The form state refuses a number out of range or a word, naming it: asked again, never sent.
            _ = state.perform(.selectNumbered(line))
            if state.note != nil { return nil }
            return state.perform(.submit())?.answer
        case .outOfBand, .information:
            if screen.uiType == .outOfBand, let info = screen.additionalInfo {
                print(PeerText.escapedForTerminal(info, keepingLineBreaks: true))
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

    private func isCancel(_ line: String) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        return word == "cancel" || word == strings[.cancel].lowercased()
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
        // The question holds the ACS's labels: no control character of theirs reaches the terminal (issue 34).
        TerminalIO.write(LayoutRenderer.safe(text))
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
