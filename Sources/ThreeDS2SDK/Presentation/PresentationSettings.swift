public import ThreeDS2Messages

/// How a transaction's challenge UI looks and speaks, built once when the transaction is created from what
/// `initialize` got: the customization resolved for every appearance, the SDK's texts for the locale, the image
/// loader, the density, the appearance in use and the HTML reader. The processing indicator receives it before the
/// first network call; every screen's ``ChallengeFormState`` is built from it (``formState(for:)``, the one place a
/// form state is made), so a presenter receives a ready form state and only draws it.
///
/// Its values are read only: the app's per-challenge overrides (a presenter's own look, texts or pinned
/// appearance, ``ChallengePresenter/presentationOverrides``) are applied in one function, ``applying(_:)``.
public struct PresentationSettings: Sendable {
    /// The customization for each appearance, resolved once: an appearance `initialize` got no customization for
    /// has the default one.
    public let uiCustomizations: [UiCustomizationType: UiCustomization]
    /// The SDK's texts.
    public let strings: SDKStrings
    /// The one owner of the screens' images: it fetches through the challenge's transport (https only, bounded)
    /// and keeps each image once per transaction. `nil` outside a transaction; presenters then show the alternative
    /// text.
    public let imageLoader: ChallengeImageLoader?
    /// The screen density, for images.
    public let density: ScreenDensity
    /// The appearance in use (its customization and its 2.3.1 images).
    public let appearance: ImageAppearance
    /// Reads HTML screens into native controls; `nil` when a web view shows them.
    public let htmlReader: (any HTMLFormReader)?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - uiCustomizations: The customization for each appearance; a missing appearance takes the default one.
    ///   - strings: The SDK's texts.
    ///   - imageLoader: Fetches the screens' images.
    ///   - density: The screen density, for images.
    ///   - appearance: The appearance in use.
    ///   - htmlReader: Reads HTML screens into native controls.
    public init(
        uiCustomizations: [UiCustomizationType: UiCustomization] = [:], strings: SDKStrings = .english,
        imageLoader: ChallengeImageLoader? = nil, density: ScreenDensity = .high,
        appearance: ImageAppearance = .default, htmlReader: (any HTMLFormReader)? = nil
    ) {
        var resolved: [UiCustomizationType: UiCustomization] = [:]
        for type in UiCustomizationType.allCases { resolved[type] = UiCustomization.for(type, in: uiCustomizations) }
        self.uiCustomizations = resolved
        self.strings = strings
        self.imageLoader = imageLoader
        self.density = density
        self.appearance = appearance
        self.htmlReader = htmlReader
    }

    /// The customization type for an image appearance.
    ///
    /// - Parameter appearance: The appearance in use.
    /// - Returns: The customization type.
    public static func customizationType(for appearance: ImageAppearance) -> UiCustomizationType {
        switch appearance {
        case .default: .default
        case .dark: .dark
        case .monochrome: .monochrome
        }
    }

    /// The customization for an appearance.
    ///
    /// - Parameter appearance: The appearance.
    /// - Returns: The customization.
    public func customization(for appearance: ImageAppearance) -> UiCustomization {
        uiCustomizations[Self.customizationType(for: appearance)] ?? UiCustomization()
    }

    /// The resolved style for an appearance.
    ///
    /// - Parameter appearance: The appearance.
    /// - Returns: The style.
    public func style(for appearance: ImageAppearance) -> ResolvedStyle {
        ResolvedStyle(customization(for: appearance), appearance: Self.customizationType(for: appearance))
    }

    /// The resolved style for the appearance in use: what the processing indicator draws (its `progress`).
    public var style: ResolvedStyle { style(for: appearance) }

    /// These settings with the app's per-challenge overrides over them: the one place they are merged.
    ///
    /// - Parameter overrides: The overrides; those left `nil` keep what the transaction has.
    /// - Returns: The settings the challenge's screens and indicator are drawn with.
    public func applying(_ overrides: PresentationOverrides) -> PresentationSettings {
        var customizations = uiCustomizations
        if let customization = overrides.customization {
            for type in UiCustomizationType.allCases { customizations[type] = customization }
        }
        return PresentationSettings(
            uiCustomizations: customizations, strings: overrides.strings ?? strings,
            imageLoader: overrides.imageLoader ?? imageLoader, density: overrides.density ?? density,
            appearance: overrides.appearance ?? appearance, htmlReader: overrides.htmlReader ?? htmlReader)
    }

    /// The form state of a screen drawn with these settings: the one place a form state is made.
    ///
    /// - Parameter screen: The screen.
    /// - Returns: The form state.
    public func formState(for screen: ChallengeScreen) -> ChallengeFormState {
        ChallengeFormState(screen: screen, presentation: self)
    }
}

/// What an app changes for one challenge over what `initialize` got, given to the presenter that draws it
/// (`TerminalPresenter(customization:)`, `SwiftUIChallengePresenter(customization:)`) and read by the SDK once, when
/// the processing indicator or the challenge starts (``PresentationSettings/applying(_:)``). `nil` keeps the
/// transaction's value.
public struct PresentationOverrides: Sendable {
    /// A look for every appearance.
    public var customization: UiCustomization?
    /// The SDK's texts.
    public var strings: SDKStrings?
    /// The appearance to draw (`nil`: the default one, or the system's for a presenter that follows it).
    public var appearance: ImageAppearance?
    /// The screen density, for images.
    public var density: ScreenDensity?
    /// Reads HTML screens into native controls (a presenter without a web view).
    public var htmlReader: (any HTMLFormReader)?
    /// Fetches the screens' images instead of the transaction's loader.
    public var imageLoader: ChallengeImageLoader?

    /// Creates overrides.
    ///
    /// - Parameters:
    ///   - customization: A look for every appearance.
    ///   - strings: The SDK's texts.
    ///   - appearance: The appearance to draw.
    ///   - density: The screen density.
    ///   - htmlReader: Reads HTML screens into native controls.
    ///   - imageLoader: Fetches the screens' images.
    public init(
        customization: UiCustomization? = nil, strings: SDKStrings? = nil, appearance: ImageAppearance? = nil,
        density: ScreenDensity? = nil, htmlReader: (any HTMLFormReader)? = nil,
        imageLoader: ChallengeImageLoader? = nil
    ) {
        self.customization = customization
        self.strings = strings
        self.appearance = appearance
        self.density = density
        self.htmlReader = htmlReader
        self.imageLoader = imageLoader
    }

    /// No override: what `initialize` got.
    public static var none: PresentationOverrides { PresentationOverrides() }
}

extension UiCustomization {
    /// The customization for an appearance among those `initialize` got, falling back to the default one: the one
    /// place the fallback is written.
    static func `for`(_ type: UiCustomizationType, in customizations: [UiCustomizationType: UiCustomization])
        -> UiCustomization
    {
        customizations[type] ?? customizations[.default] ?? UiCustomization()
    }
}
