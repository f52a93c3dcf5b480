import ArgumentParser
import Foundation
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TerminalUI

/// How `pay` and `demo` show a challenge and its outcome: the options both commands take, declared once.
struct ScreenOptions: ParsableArguments {
    @Flag(help: "Print the outcome as one JSON object on the last line.") var json = false
    @Flag(help: "Plain screens for screen readers: no colour, every control in words.") var plain = false
    @Flag(help: "Line-by-line screens instead of full screen.") var line = false
    @Option(help: "The locale for the SDK's own texts, e.g. de_DE.") var locale: String?
    @Option(help: "The appearance: default, dark or monochrome.") var appearance: AppearanceChoice = .default
    @Option(name: .customLong("ui-customization"), help: UiCustomizationOption.help) var uiCustomization: String?

    func validate() throws {
        if let locale, locale.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--locale needs a locale such as de_DE or fr; it was given an empty value")
        }
        _ = try UiCustomizationOption.load(uiCustomization)
    }

    /// The customizations `--ui-customization` names (the demo's own without it).
    func uiCustomizations() throws -> [UiCustomizationType: UiCustomization] {
        try UiCustomizationOption.load(uiCustomization)
    }

    /// The locale of the SDK's own texts.
    var sdkLocale: Locale { Locale(identifier: locale ?? "en_US") }

    /// Warns on standard error about a locale the SDK has no texts for.
    func warnAboutLocale() {
        if let warning = InputCheck.localeWarning(locale) { warn(warning) }
    }

    /// The terminal presenter these options ask for: plain, line by line, or full screen when the input is a terminal;
    /// its warning about a missing resource folder shows only with `--verbose`, as the SDK's does.
    func presenter(
        images: HTTPClientTransport, oobAppOpener: (any OOBAppOpener)? = HandOverOOBAppOpener(),
        input: Int32 = STDIN_FILENO, hint: String? = nil, verbose: Bool
    ) -> TerminalPresenter {
        let mode: TerminalPresenter.Mode = plain ? .plain : (line || isatty(input) == 0 ? .line : .fullScreen)
        return TerminalPresenter(
            mode: mode, imageLoader: ChallengeImageLoader(transport: images), oobAppOpener: oobAppOpener,
            appearance: appearance.imageAppearance, input: input, hint: hint,
            diagnostics: PayFlow.diagnostics("threeds2.terminal", verbose: verbose))
    }
}
