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
    public init(
        mode: Mode, customization: UiCustomization? = nil, strings: SDKStrings? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, imageLoader: ChallengeImageLoader? = nil,
        oobAppOpener: (any OOBAppOpener)? = nil, appearance: ImageAppearance = .default,
        outputIsTerminal: Bool? = nil
    ) {
        let outputIsTerminal = outputIsTerminal ?? (TerminalIO.screen >= 0)
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
            defer { current = io.withLock { $0 } == nil ? QuietInput() : nil }
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
            let created = TerminalIO()
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
        let lines = LayoutRenderer(width: size.columns, style: TerminalStyle(depth: depth), inlineImages: inlineImages)
            .window(state, rows: size.rows - 1)
        TerminalIO.write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"))
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
        // The consent questions come after the screen's own question, once, just before the answer that carries
        // them: the code typed (or piped) first is the code, and the end of the input leaves a consent unanswered
        // (sent as N).
        var consentsAsked = false
        func askConsents() async {
            guard !consentsAsked else { return }
            consentsAsked = true
            for (kind, question) in [
                (ConsentKind.trust, screen.whitelistingText), (.deviceBinding, screen.deviceBindingText),
            ] {
                guard let question, let line = await prompt("\(question) [\(strings[.yes])/\(strings[.no])]: ")
                else { continue }
                let yes = ["y", "j", "o", "s", "は"].contains(line.lowercased().prefix(1))
                _ = state.apply(kind == .trust ? .setTrust(yes) : .setDeviceBinding(yes))
            }
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
                question = "field=value&… then the button (e.g. 'otp=123456 Verify'), \(open)or \(cancelWord): "
            }
            let masked = screen.uiType == .text && state.isMasked(box: 0)
            guard let line = await prompt(question, masked: masked), !isCancel(line) else {
                return ChallengeAnswer(.cancel)
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
                let second = await prompt("\(state.entryBox(1).label): ", masked: state.isMasked(box: 1)) ?? ""
                if state.apply(.setEntry(second, box: 1)) == nil, state.note == nil {
                    await askConsents()
                    answer = state.apply(.submit())
                }
            default:
                await askConsents()
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
            for pair in (parts.first ?? "").split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { fields[kv[0]] = kv[1] }
            }
            _ = state.apply(.setHTMLFields(fields))
            if state.note != nil { return nil }
            return state.apply(.submit(button: parts.count > 1 ? parts[1] : nil))
        }
    }

    private func isCancel(_ line: String) -> Bool {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        return word == "cancel" || word == strings[.cancel].lowercased()
    }

    /// Reads a line on a dedicated thread (never blocking the cooperative pool), with echo off when masked.
    private func prompt(_ text: String, masked: Bool = false) async -> String? {
        TerminalIO.write(text)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var settings = termios()
                let isTerminal = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &settings) == 0
                if masked && isTerminal {
                    var silent = settings
                    silent.c_lflag &= ~tcflag_t(ECHO)
                    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
                }
                let line = readLine()
                if masked && isTerminal {
                    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
                    TerminalIO.write("\n")
                }
                continuation.resume(returning: line)
            }
            thread.start()
        }
    }
}
