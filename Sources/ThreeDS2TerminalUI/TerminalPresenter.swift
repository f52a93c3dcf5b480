public import Foundation
import Synchronization
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
    private let customization: UiCustomization
    private let strings: SDKStrings
    private let depth: ColorDepth
    private let inlineImages: Bool
    private let imageLoader: ChallengeImageLoader?
    private let io = Mutex<TerminalIO?>(nil)

    /// Creates a presenter.
    ///
    /// - Parameters:
    ///   - mode: The mode; plain is forced when `TERM` is `dumb`.
    ///   - customization: The look.
    ///   - strings: The SDK texts in the app's language.
    ///   - environment: The environment (for `TERM`, `COLORTERM`, `NO_COLOR`, `TERM_PROGRAM`).
    ///   - imageLoader: Fetches the issuer and payment-system images; alternative text only when `nil`.
    public init(
        mode: Mode, customization: UiCustomization, strings: SDKStrings,
        environment: [String: String] = ProcessInfo.processInfo.environment, imageLoader: ChallengeImageLoader? = nil
    ) {
        let dumb = (environment["TERM"] ?? "dumb") == "dumb"
        self.mode = dumb ? .plain : mode
        self.customization = customization
        self.strings = strings
        self.depth = self.mode == .plain ? .none : ColorDepth.detect(environment)
        self.inlineImages = environment["TERM_PROGRAM"] == "iTerm.app"
        self.imageLoader = imageLoader
    }

    /// Shows a screen and returns the cardholder's answer.
    public func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        let layout = ChallengeLayout(screen: screen, customization: customization, strings: strings)
        switch mode {
        case .fullScreen: return await fullScreen(layout)
        case .line, .plain: return await lineMode(layout)
        }
    }

    /// Leaves the full screen and restores the terminal.
    public func dismiss(outcome: ChallengeOutcome) async {
        if let active = io.withLock({ current -> TerminalIO? in
            defer { current = nil }
            return current
        }) {
            active.stop()
            TerminalIO.write("\u{1B}[?25h\u{1B}[?1049l")
        }
    }

    /// Shows the processing line (with the directory server's name during the AReq).
    public func show(directoryServerName: String?) {
        let name = directoryServerName.map { " — \($0)" } ?? ""
        TerminalIO.write("\(strings[.processing])\(name)\n")
    }

    /// Ends the processing line.
    public func hide() {}

    private func fullScreen(_ layout: ChallengeLayout) async -> ChallengeAnswer {
        let terminal = io.withLock { current -> TerminalIO in
            if let current { return current }
            let created = TerminalIO()
            created.start()
            TerminalIO.write("\u{1B}[?1049h\u{1B}[?25l")
            current = created
            return created
        }
        var state = ScreenState(layout: layout)
        state.images = await loadImages(layout)
        draw(state)
        for await event in terminal.events {
            switch event {
            case .resize:
                draw(state)
            case .key(let key):
                if let answer = state.handle(key) {
                    TerminalIO.write("\u{1B}[H\u{1B}[2J\(strings[.processing])\r\n")
                    return answer
                }
                draw(state)
            }
        }
        return ChallengeAnswer(.cancel)
    }

    private func loadImages(_ layout: ChallengeLayout) async -> [String: [UInt8]] {
        guard let imageLoader, inlineImages else { return [:] }
        var images: [String: [UInt8]] = [:]
        for case .images(let issuer, let paymentSystem) in layout.elements {
            for reference in [issuer, paymentSystem].compactMap({ $0 }) {
                if let bytes = await imageLoader.image(for: reference) { images[reference.url] = bytes }
            }
        }
        return images
    }

    private func draw(_ state: ScreenState) {
        let size = TerminalIO.size
        let lines = LayoutRenderer(width: size.columns, style: TerminalStyle(depth: depth), inlineImages: inlineImages)
            .lines(state)
        TerminalIO.write("\u{1B}[H\u{1B}[2J" + lines.prefix(max(1, size.rows - 1)).joined(separator: "\r\n"))
    }

    private func lineMode(_ layout: ChallengeLayout) async -> ChallengeAnswer {
        let state = ScreenState(layout: layout)
        let renderer = LayoutRenderer(
            width: TerminalIO.size.columns, style: TerminalStyle(depth: depth), plain: mode == .plain)
        print(renderer.lines(state).joined(separator: "\n"))
        var trust: Bool?
        if let question = layout.screen.whitelistingText {
            trust = await prompt("\(question) [\(strings[.yes])/\(strings[.no])]: ").map {
                ["y", "j", "o", "s", "は"].contains($0.lowercased().prefix(1))
            }
        }
        let cancelWord = "'\(strings[.cancel].lowercased())'"
        let answer: ChallengeAnswer
        switch layout.screen.uiType {
        case .text:
            let resend = layout.screen.resendLabel.map { ", 'resend' (\($0))" } ?? ""
            guard
                let line = await prompt(
                    "\(layout.screen.infoLabel ?? strings[.codeField])\(resend), or \(cancelWord): ", masked: true),
                !isCancel(line)
            else {
                return ChallengeAnswer(.cancel)
            }
            if line == "resend", layout.screen.resendLabel != nil { return ChallengeAnswer(.resend) }
            answer = ChallengeAnswer(line.isEmpty ? .submitEmpty : .submitText(line))
        case .singleSelect, .multiSelect:
            for (number, option) in layout.screen.options.enumerated() { print("  \(number + 1). \(option.label)") }
            guard
                let line = await prompt(
                    "Number\(layout.screen.uiType == .multiSelect ? "s (comma-separated)" : ""), or \(cancelWord): "),
                !isCancel(line)
            else {
                return ChallengeAnswer(.cancel)
            }
            let picked = Set(line.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            answer = ChallengeAnswer(
                .submitSelection(
                    layout.screen.options.enumerated().filter { picked.contains($0.offset + 1) }.map(\.element.key)))
        case .outOfBand, .information:
            if let url = layout.screen.oobAppURL { print("\(layout.screen.oobAppLabel ?? strings[.openApp]): \(url)") }
            guard
                let line = await prompt(
                    "Enter: \(layout.screen.oobContinueLabel ?? layout.screen.infoContinueLabel ?? strings[.continueButton]), or \(cancelWord): "
                ), !isCancel(line)
            else {
                return ChallengeAnswer(.cancel)
            }
            if layout.screen.uiType == .outOfBand, let info = layout.screen.additionalInfo { print(info) }
            answer = ChallengeAnswer(layout.screen.uiType == .information ? .informationContinue : .oobContinue)
        case .html, .htmlOutOfBand:
            guard
                let line = await prompt("field=value&… then the button (e.g. 'otp=123456 Verify'), or \(cancelWord): "),
                !isCancel(line)
            else {
                return ChallengeAnswer(.cancel)
            }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            var fields: [String: String] = [:]
            for pair in (parts.first ?? "").split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { fields[kv[0]] = kv[1] }
            }
            do {
                answer = ChallengeAnswer(
                    .submitHTML(
                        try (state.form ?? HTMLForm(html: "")).submission(
                            fields: fields, button: parts.count > 1 ? parts[1] : nil)))
            } catch {
                print("(!) \(error)")
                return ChallengeAnswer(.cancel)
            }
        }
        return ChallengeAnswer(answer.action, whitelisting: trust)
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
