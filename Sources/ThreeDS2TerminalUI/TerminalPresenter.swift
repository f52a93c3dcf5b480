public import Foundation
import ThreeDS2HTML
public import ThreeDS2Messages
public import ThreeDS2SDK

/// The interactive terminal renderer of challenge screens.
///
/// - Full-screen mode draws each screen on the alternate screen and takes keys: Tab and the arrows move, Space
///   toggles, Enter submits, Esc or Ctrl-C cancels (a CReq with `challengeCancel` 01), Ctrl-R reloads an HTML
///   screen with `acsHTMLRefresh`. Code entry is masked. A resize redraws.
/// - Line mode prints each screen and asks line by line (masked code entry on a terminal).
/// - Plain mode is line mode without colour or symbols, every control named in words: it reads well through a
///   screen reader, and is used automatically when `TERM` is `dumb`.
public final class TerminalPresenter: ChallengePresenter, ProgressIndicator {
    /// How screens are drawn.
    public enum Mode: String, Sendable, CaseIterable {
        /// Full screen, keyboard driven.
        case fullScreen
        /// Line by line.
        case line
        /// Line by line, no colour, everything in words.
        case plain
    }

    /// The mode in use.
    public let mode: Mode
    /// The presenter's own look and texts, overriding what `initialize` got (`nil`: the SDK's).
    private let customization: UiCustomization?
    private let fixedStrings: SDKStrings?
    /// The texts of the latest settings the SDK handed over.
    private let sdkStrings = Locked<SDKStrings?>(nil)
    private var strings: SDKStrings { fixedStrings ?? sdkStrings.withLock { $0 } ?? .english }
    /// The transaction's image loader, from the latest settings (used when the presenter was given none).
    private let sdkImageLoader = Locked<ChallengeImageLoader?>(nil)
    private let depth: ColorDepth
    private let inlineImages: Bool
    private let imageLoader: ChallengeImageLoader?
    private let io = Locked<TerminalIO?>(nil)
    private let quiet = Locked<QuietInput?>(nil)
    /// How the open-app button opens the bank's app; `nil` when the terminal cannot.
    public let oobAppOpener: (any OOBAppOpener)?
    private let appearance: ImageAppearance
    /// Where keys and lines are read.
    private let input: Int32
    private let ended = Locked(false)

    /// Whether a question met the end of the input (line mode: a pipe or file that ran out) rather than an answer;
    /// the challenge was then cancelled, though not by a person.
    public var inputEnded: Bool { ended.withLock { $0 } }
    /// A line of help for the person at the keyboard (the demo's "the code is 123456"), shown on every screen: on
    /// the last row in full screen, before the question in line mode.
    public let hint: String?

    /// Creates a presenter.
    ///
    /// - Parameters:
    ///   - mode: The mode; plain is forced when `TERM` is `dumb`.
    ///   - customization: A look for this presenter only; `nil` (the default) draws what `initialize` got, resolved
    ///     for `appearance`.
    ///   - strings: The SDK texts for this presenter only; `nil` uses those of the locale `initialize` got.
    ///   - environment: The environment (for `TERM`, `COLORTERM`, `NO_COLOR`, `TERM_PROGRAM`).
    ///   - imageLoader: Fetches the issuer and payment-system images; alternative text only when `nil`.
    ///   - oobAppOpener: Opens the bank's app from an out-of-band screen (2.3.1 `oobAppURL`); `nil` when it cannot.
    ///   - appearance: The appearance in use, for choosing 2.3.1 issuer and payment-system images.
    ///   - outputIsTerminal: Whether screens can be drawn on a terminal (standard output, or `/dev/tty` when the
    ///     output is redirected; found out when `nil`); without one, full screen falls back to line mode and nothing
    ///     is coloured, so no escape codes reach a pipe or a file.
    ///   - input: The file descriptor keys and lines are read from: standard input by default, or the controlling
    ///     terminal (see ``openControllingTerminal()``) when standard input held something else, such as the card.
    ///   - hint: A line of help shown on every screen (the last row in full screen); none when `nil`.
    public init(
        mode: Mode, customization: UiCustomization? = nil, strings: SDKStrings? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, imageLoader: ChallengeImageLoader? = nil,
        oobAppOpener: (any OOBAppOpener)? = nil, appearance: ImageAppearance = .default,
        outputIsTerminal: Bool? = nil, input: Int32 = STDIN_FILENO, hint: String? = nil
    ) {
        let outputIsTerminal = outputIsTerminal ?? (TerminalIO.screen >= 0)
        self.input = input
        self.hint = hint
        self.oobAppOpener = oobAppOpener
        self.appearance = appearance
        let dumb = (environment["TERM"] ?? "dumb") == "dumb"
        self.mode = dumb ? .plain : (mode == .fullScreen && !outputIsTerminal ? .line : mode)
        self.customization = customization
        self.fixedStrings = strings
        self.depth = self.mode == .plain || !outputIsTerminal ? .none : ColorDepth.detect(environment)
        self.inlineImages = environment["TERM_PROGRAM"] == "iTerm.app"
        self.imageLoader = imageLoader
    }

    /// Opens the controlling terminal (`/dev/tty`) for reading, as password prompts do when standard input is taken.
    ///
    /// - Returns: The file descriptor, or `nil` when the process has no terminal.
    public static func openControllingTerminal() -> Int32? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard isatty(descriptor) == 1 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Shows a screen, with the presenter's own look or the defaults, and returns the cardholder's answer.
    public func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        await present(screen, settings: PresentationSettings())
    }

    /// Shows a screen with what `initialize` got (unless the presenter has its own look or texts) and returns the
    /// cardholder's answer.
    public func present(_ screen: ChallengeScreen, settings: PresentationSettings) async -> ChallengeAnswer {
        sdkStrings.withLock { $0 = settings.strings }
        sdkImageLoader.withLock { $0 = settings.imageLoader }
        var settings = settings
        if let fixedStrings { settings.strings = fixedStrings }
        if let customization { settings.uiCustomizations = [.default: customization] }
        let state = settings.formState(for: screen, appearance: appearance, htmlReader: LibXML2FormReader())
        switch mode {
        case .fullScreen: return await fullScreen(state)
        case .line, .plain: return await lineMode(state)
        }
    }

    /// Leaves the full screen and restores the terminal.
    public func dismiss(outcome: ChallengeOutcome) async {
        if let active = io.withLock({ current -> TerminalIO? in
            defer { current = nil }
            return current
        }) {
            active.stop()
        }
    }

    /// Shows the processing line (with the directory server's name during the AReq).
    public func show(directoryServerName: String?) {
        let name = directoryServerName.map { " — \($0)" } ?? ""
        // Keys typed meanwhile are neither shown nor taken as the first screen's input.
        let previous = quiet.withLock { current in
            defer { current = io.withLock { $0 } == nil ? QuietInput(input: input) : nil }
            return current
        }
        previous?.end()
        TerminalIO.write("\(strings[.processing])\(name)\n")
    }

    /// Ends the processing line: what was typed meanwhile is discarded and echo is back.
    public func hide() {
        quiet.withLock { current in
            defer { current = nil }
            return current
        }?.end()
    }

    private func fullScreen(_ initial: ChallengeFormState) async -> ChallengeAnswer {
        let terminal = io.withLock { current -> TerminalIO in
            if let current { return current }
            let created = TerminalIO(input: input)
            created.start()
            current = created
            return created
        }
        var state = initial
        state.images = await loadImages(state.layout)
        draw(state)
        for await event in terminal.events {
            switch event {
            case .resize:
                draw(state)
            case .key(let key):
                if key == .enter, Self.wouldSendNoEntry(state) {
                    // An empty Enter is a slip, not an answer: the ACS would count it as a wrong code.
                    draw(state)
                    TerminalIO.write("\r\n(!) \(strings[.codeField])")
                    continue
                }
                var effect: FormEffect?
                if let action = state.action(for: key) { effect = await state.perform(action, opener: oobAppOpener) }
                if case .send(let answer)? = effect {
                    TerminalIO.write("\u{1B}[H\u{1B}[2J\(strings[.processing])\r\n")
                    return answer
                }
                draw(state)
            }
        }
        return ChallengeAnswer(.cancel)
    }

    /// Whether Enter would submit a text screen with every entry box empty (which 2.2.0 and later send as
    /// `challengeNoEntry`, spending an attempt).
    static func wouldSendNoEntry(_ state: ChallengeFormState) -> Bool {
        guard state.screen.uiType == .text, state.entries.allSatisfy(\.isEmpty) else { return false }
        switch state.focusedElement {
        case .textField, .button(.submit, _): return true
        default: return false
        }
    }

    private func loadImages(_ layout: ChallengeLayout) async -> [String: [UInt8]] {
        guard let imageLoader = imageLoader ?? sdkImageLoader.withLock({ $0 }), inlineImages else { return [:] }
        var images: [String: [UInt8]] = [:]
        for case .images(let issuer, let paymentSystem) in layout.elements {
            for reference in [issuer, paymentSystem].compactMap({ $0 }) {
                if let bytes = await imageLoader.image(for: reference) { images[reference.url] = bytes }
            }
        }
        return images
    }

    private func draw(_ state: ChallengeFormState) {
        let size = TerminalIO.size
        // The focused element is kept in view on small terminals (the last row stays free).
        // The last row stays free; the hint, when there is one, takes the row above it.
        let hintRows = hint == nil ? 0 : 1
        let lines = LayoutRenderer(width: size.columns, style: TerminalStyle(depth: depth), inlineImages: inlineImages)
            .window(state, rows: size.rows - 1 - hintRows)
        var text = "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n")
        if let hint {
            let fitted =
                LayoutRenderer(width: size.columns, style: TerminalStyle(depth: .none)).wrap(hint).first ?? ""
            text += "\u{1B}[\(max(1, size.rows - 1));1H" + fitted
        }
        TerminalIO.write(text)
    }

    /// Line mode: the screen printed once, then questions line by line, each turned into form actions. When the
    /// form state refuses an answer, its note is printed and the question asked again.
    private func lineMode(_ initial: ChallengeFormState) async -> ChallengeAnswer {
        var state = initial
        let screen = state.screen
        let renderer = LayoutRenderer(
            width: TerminalIO.size.columns, style: TerminalStyle(depth: depth), plain: mode == .plain,
            interactive: false)
        print(renderer.lines(state).joined(separator: "\n"))
        if let hint { print("(\(hint))") }
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
                switch await prompt("\(question) [\(strings[.yes])/\(strings[.no])]: ") {
                case .end:
                    continue
                case .cancel:
                    return false
                case .line(let line):
                    let yes = ["y", "j", "o", "s", "は"].contains(line.lowercased().prefix(1))
                    _ = state.apply(kind == .trust ? .setTrust(yes) : .setDeviceBinding(yes))
                }
            }
            return true
        }
        let cancelWord = "'\(strings[.cancel].lowercased())'"
        let additional = screen.additionalCodeLabel.map { ", 'additional' (\($0))" } ?? ""
        while true {
            let question: String
            switch screen.uiType {
            case .text:
                let resend = screen.resendLabel.map { ", 'resend' (\($0))" } ?? ""
                question = "\(state.entryBox(0).label)\(resend)\(additional), or \(cancelWord): "
            case .singleSelect, .multiSelect:
                for (number, option) in screen.options.enumerated() { print("  \(number + 1). \(option.label)") }
                question = "Number\(screen.uiType == .multiSelect ? "s (comma-separated)" : ""), or \(cancelWord): "
            case .outOfBand, .information:
                let open = screen.oobAppURL.map { "'open' (\(screen.oobAppLabel ?? strings[.openApp]): \($0)), " } ?? ""
                let label = screen.oobContinueLabel ?? screen.infoContinueLabel
                let enter =
                    label != nil || screen.oobAppURL == nil ? "Enter: \(label ?? strings[.continueButton]), " : ""
                question =
                    "\(open)\(enter)\(additional.dropFirst(2))\(additional.isEmpty ? "" : ", ")or \(cancelWord): "
            case .html, .htmlOutOfBand:
                let open = screen.oobAppURL != nil ? "'open' (\(strings[.openApp])), " : ""
                let buttons = Self.submitButtons(state).joined(separator: ", ")
                let pressing = buttons.isEmpty ? "" : " (to press another button, add it after a space: \(buttons))"
                if let field = Self.onlyEntry(state) {
                    question =
                        "\(field.label.isEmpty ? (field.name ?? "") : field.label)\(pressing), \(open)or \(cancelWord): "
                } else {
                    let names =
                        state.form?.controls.compactMap { control -> String? in
                            guard Self.isEntry(control), let name = control.name else { return nil }
                            return control.label.isEmpty ? name : "\(name) (\(control.label))"
                        }.joined(separator: ", ") ?? ""
                    question = "field=value&… (fields: \(names)) then a button (\(buttons)), \(open)or \(cancelWord): "
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
                answer = state.apply(.additionalCode)
            case "open" where screen.oobAppURL != nil:
                switch await state.perform(.openApp, opener: oobAppOpener) {
                case .send(let sent): answer = sent
                case .showNote(let note):
                    print("(!) \(note)")
                    continue
                case .openApp, nil: continue
                }
            case _
            where screen.uiType == .text && state.entries.count > 1 && !(line == "resend" && screen.resendLabel != nil):
                // Two entry boxes (2.3.1): the first line fills the first box, then the second box is asked for.
                guard state.apply(.setEntry(line)) == nil, state.note == nil else { break }
                let second: String
                switch await prompt("\(state.entryBox(1).label): ", masked: state.isMasked(box: 1)) {
                case .cancel: return ChallengeAnswer(.cancel)
                case .end: second = ""
                case .line(let line): second = line
                }
                if state.apply(.setEntry(second, box: 1)) == nil, state.note == nil {
                    guard await askConsents() else { return ChallengeAnswer(.cancel) }
                    answer = state.apply(.submit())
                }
            default:
                guard await askConsents() else { return ChallengeAnswer(.cancel) }
                answer = lineAnswer(line, state: &state)
            }
            if let answer { return answer }
            print("(!) \(state.note ?? strings[.genericError])")
        }
    }

    /// The form actions one typed line stands for.
    private func lineAnswer(_ line: String, state: inout ChallengeFormState) -> ChallengeAnswer? {
        let screen = state.screen
        switch screen.uiType {
        case .text:
            if line == "resend", screen.resendLabel != nil { return state.apply(.resend) }
            _ = state.apply(.setEntry(line))
            return state.apply(.submit())
        case .singleSelect, .multiSelect:
            let picked = Set(line.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            let keys = screen.options.enumerated().filter { picked.contains($0.offset + 1) }.map(\.element.key)
            _ = state.apply(.select(keys))
            return state.apply(.submit())
        case .outOfBand, .information:
            if screen.uiType == .outOfBand, let info = screen.additionalInfo { print(info) }
            return state.apply(.continueChallenge)
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
            _ = state.apply(.setHTMLFields(fields))
            if state.note != nil { return nil }
            return state.apply(.submit(button: parts.count > 1 ? parts[1] : nil))
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
        TerminalIO.write(text)
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
