public import Foundation
public import Logging
import ThreeDS2HTML
public import ThreeDS2Messages
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The interactive terminal renderer of challenge screens.
///
/// - Full-screen mode draws each screen on the alternate screen and takes keys: Tab and the arrows move, Space
///   toggles, Enter submits, Esc or Ctrl-C cancels (a CReq with `challengeCancel` 01), Ctrl-R reloads an HTML
///   screen with `acsHTMLRefresh`. Code entry is masked. A resize redraws.
/// - Line mode prints each screen and asks line by line (masked code entry on a terminal).
/// - Plain mode is line mode without colour or symbols, every control named in words: it reads well through a
///   screen reader, and is used automatically when `TERM` is `dumb`.
///
/// Every word it shows itself (the key help, the plain mode's names of controls, the line mode's questions) and every
/// word or key a person types (the commands, yes and no) is one of its own texts (``TerminalStrings``, its own
/// resource folder), in the language of the SDK's texts for the locale `initialize` got. Arabic and Hebrew are drawn in logical order,
/// left-aligned: see ``LayoutRenderer/mirrorsRightToLeft`` for why.
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
    /// The presenter's own look, texts, appearance, image loader and HTML reader over what `initialize` got: the SDK
    /// applies them once, to the processing line and to every screen's form state.
    public let presentationOverrides: PresentationOverrides
    /// The transaction's presentation, as the SDK last handed it over (with the processing line or a screen).
    private let presentation = Locked<PresentationSettings?>(nil)
    /// The texts in use: the transaction's, as handed over, else the presenter's own, else English.
    var strings: SDKStrings {
        presentation.withLock { $0 }?.strings ?? presentationOverrides.strings ?? .english
    }
    /// The colours of what is drawn on the terminal's screen (full screen, the processing line).
    let depth: ColorDepth
    /// Where line and plain mode print their screens: standard output, measured as it is (``OutputGeometry``), not
    /// as the controlling terminal is, so that output sent to a file or a pipe holds no escape code and fits `COLUMNS`.
    let output: Int32 = STDOUT_FILENO
    /// The colours of what line mode prints on ``output``: none unless it is a terminal and `NO_COLOR` is unset.
    let lineDepth: ColorDepth
    /// The environment the presenter was made with, for `COLUMNS`.
    let environment: [String: String]
    private let inlineImages: Bool
    private let io = Locked<TerminalIO?>(nil)
    private let quiet = Locked<QuietInput?>(nil)
    /// How the open-app button opens the bank's app; `nil` when the terminal cannot.
    public let oobAppOpener: (any OOBAppOpener)?
    /// Where keys and lines are read.
    let input: Int32
    let ended = Locked(false)

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
    ///   - diagnostics: Where the one warning about a missing resource folder goes (standard error at the logger's
    ///     default level unless given; the CLI passes its SDK logger, quiet without `--verbose`).
    public init(
        mode: Mode, customization: UiCustomization? = nil, strings: SDKStrings? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, imageLoader: ChallengeImageLoader? = nil,
        oobAppOpener: (any OOBAppOpener)? = nil, appearance: ImageAppearance = .default,
        outputIsTerminal: Bool? = nil, input: Int32 = STDIN_FILENO, hint: String? = nil,
        diagnostics: Logger = Logger(label: "threeds2.terminal") { StreamLogHandler.standardError(label: $0) }
    ) {
        let outputIsTerminal = outputIsTerminal ?? (TerminalIO.screen >= 0)
        self.input = input
        self.hint = hint
        self.oobAppOpener = oobAppOpener
        let dumb = (environment["TERM"] ?? "dumb") == "dumb"
        self.mode = dumb ? .plain : (mode == .fullScreen && !outputIsTerminal ? .line : mode)
        self.presentationOverrides = PresentationOverrides(
            customization: customization, strings: strings, appearance: appearance, htmlReader: LibXML2FormReader(),
            imageLoader: imageLoader)
        self.depth = self.mode == .plain || !outputIsTerminal ? .none : ColorDepth.detect(environment)
        self.environment = environment
        self.lineDepth = self.mode == .plain ? .none : OutputGeometry.colorDepth(of: output, environment: environment)
        self.inlineImages = environment["TERM_PROGRAM"] == "iTerm.app"
        // One warning a process, to `diagnostics` (never among the screen's lines), when its texts are missing.
        TerminalStrings.warnIfMissing(diagnostics)
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

    /// Shows a screen's form state, as the SDK built it from the transaction's presentation and this presenter's
    /// overrides, and returns the cardholder's answer.
    public func present(_ state: ChallengeFormState) async -> ChallengeAnswer {
        presentation.withLock { $0 = state.presentation }
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

    /// Shows the processing line (with the payment system during the AReq) in the app's language and the
    /// customization's progress colours.
    public func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
        self.presentation.withLock { $0 = presentation }
        // Keys typed meanwhile are neither shown nor taken as the first screen's input.
        let previous = quiet.withLock { current in
            defer { current = io.withLock { $0 } == nil ? QuietInput(input: input) : nil }
            return current
        }
        previous?.end()
        let lines = processingLines(scheme: scheme, presentation: presentation, columns: lineColumns)
        TerminalIO.write(lines.joined(separator: "\n") + "\n")
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
                if let action = state.action(for: key) { effect = await perform(action, on: &state) }
                if case .send(let answer)? = effect {
                    TerminalIO.write("\u{1B}[H\u{1B}[2J\(strings[.processing])\r\n")
                    return answer
                }
                draw(state)
            }
        }
        return ChallengeAnswer(.cancel)
    }

    /// Performs a cardholder action on the form state; when it asks for the bank's app, opens it through the opener
    /// (failing without one) and performs what became of it.
    func perform(_ action: FormAction, on state: inout ChallengeFormState) async -> FormEffect? {
        let effect = state.perform(action)
        guard case .openApp(let url)? = effect else { return effect }
        return state.perform(.appOpenResult(await oobAppOpener?.open(url) ?? .failed))
    }

    /// The processing line as ``show(scheme:presentation:)`` draws it: the `processing` text of the presentation's
    /// language, in its progress colours (none without colour), with the payment system's name and, when the name
    /// is not the ID itself, its directory server ID in brackets. A terminal draws no logo.
    ///
    /// - Parameters:
    ///   - scheme: The payment system, while the 3DS Server is asked.
    ///   - presentation: The transaction's presentation.
    /// - Returns: The line, without its line break.
    public func processingLine(scheme: ProcessingScheme?, presentation: PresentationSettings) -> String {
        processingLines(scheme: scheme, presentation: presentation, columns: nil).joined()
    }

    /// The processing line wrapped, words whole, to `columns` (a narrow window gets it on several lines, each in the
    /// progress colours); `nil` keeps it on one line.
    func processingLines(scheme: ProcessingScheme?, presentation: PresentationSettings, columns: Int?) -> [String] {
        let processing = presentation.strings[.processing]
        let texts = TerminalStrings(for: presentation.strings)
        // One sentence of the terminal's table: the SDK's processing text, the name and, unless it is the ID, the ID.
        let text =
            scheme.map { scheme in
                let id = LayoutRenderer.safe(scheme.directoryServerID.rawValue)
                let name = LayoutRenderer.safe(scheme.name)
                return scheme.name == scheme.directoryServerID.rawValue
                    ? texts.format(.processingScheme, processing, id)
                    : texts.format(.processingSchemeID, processing, name, id)
            } ?? processing
        let progress = presentation.style.progress
        let style = TerminalStyle(depth: depth)
        let colours =
            style.foreground(progress.indicatorColor ?? progress.text.color)
            + style.background(progress.backgroundColor)
        let lines = columns.map { LayoutRenderer(width: $0, style: TerminalStyle(depth: .none)).wrap(text) } ?? [text]
        return lines.map { colours + $0 + (colours.isEmpty ? "" : style.reset) }
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
        guard let imageLoader = presentation.withLock({ $0 })?.imageLoader, inlineImages else { return [:] }
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
        let (screen, hintLines) = frame(state, columns: size.columns, rows: size.rows)
        var text = "\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\r\n")
        if !hintLines.isEmpty {
            text += "\u{1B}[\(max(1, size.rows - hintLines.count));1H" + hintLines.joined(separator: "\r\n")
        }
        TerminalIO.write(text)
    }

    /// The full screen for a window of `columns` × `rows`: the screen's lines with the focused element in view, and
    /// the hint, wrapped whole (never cut), on the rows just above the last, which stays free.
    func frame(_ state: ChallengeFormState, columns: Int, rows: Int) -> (screen: [String], hint: [String]) {
        let hintLines =
            hint.map {
                LayoutRenderer(width: columns, style: TerminalStyle(depth: .none)).wrap(LayoutRenderer.safe($0))
            }
            ?? []
        // Two rows of the screen at least stay above the hint.
        let shownHint = Array(hintLines.prefix(max(0, rows - 3)))
        let screen = LayoutRenderer(width: columns, style: TerminalStyle(depth: depth), inlineImages: inlineImages)
            .window(state, rows: rows - 1 - shownHint.count)
        return (screen, shownHint)
    }
}
