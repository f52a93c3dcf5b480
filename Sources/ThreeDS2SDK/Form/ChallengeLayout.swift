public import ThreeDS2Messages

/// An image to show, by URL, with the text that stands for it where it cannot be drawn.
public struct ImageReference: Sendable, Hashable {
    /// The https URL chosen for the screen density.
    public let url: String
    /// The alternative text.
    public let alternativeText: String

    /// Creates a reference.
    public init(url: String, alternativeText: String) {
        self.url = url
        self.alternativeText = alternativeText
    }
}

/// One element of a challenge screen, in the zone order of the EMVCo UI: toolbar, branding, information, entry,
/// actions, whitelisting, help sections.
public enum LayoutElement: Sendable, Hashable {
    /// The toolbar: a title and the cancel action.
    case toolbar(title: String, cancelLabel: String)
    /// The branding zone.
    case images(issuer: ImageReference?, paymentSystem: ImageReference?)
    /// The challenge information header.
    case heading(String)
    /// Information text; `warning` shows the indicator before it.
    case text(String, warning: Bool)
    /// A code or text entry.
    case textField(label: String, masked: Bool, maxLength: Int)
    /// A choice of a select screen.
    case option(key: String, label: String, multiple: Bool)
    /// A button.
    case button(ButtonType, label: String)
    /// The whitelisting / trust-list question.
    case trustChoice(question: String)
    /// A collapsible help section (why-info, expand-info).
    case section(label: String, text: String)
    /// Readable text of an HTML page.
    case htmlText(String)
    /// A control of an HTML form, by its index in the form's controls.
    case htmlControl(index: Int)
    /// A submitting link of an HTML page, by its index in the form's links.
    case htmlLink(index: Int)

    /// Whether the element takes keyboard focus.
    public var isFocusable: Bool {
        switch self {
        case .textField, .option, .button, .trustChoice, .section, .htmlControl, .htmlLink: true
        default: false
        }
    }
}

/// A challenge screen laid out for a platform-neutral UI: the elements in order, the SDK texts in the app's
/// language, the customization for the appearance in use. A native UI draws the elements; the terminal renderer is
/// the reference.
public struct ChallengeLayout: Sendable, Hashable {
    /// The screen it was made from.
    public let screen: ChallengeScreen
    /// The elements in order.
    public let elements: [LayoutElement]
    /// The customization applied.
    public let customization: UiCustomization
    /// The SDK's own texts.
    public let strings: SDKStrings
    /// The parsed form of an HTML screen.
    public let form: HTMLForm?

    /// Lays out a screen.
    ///
    /// - Parameters:
    ///   - screen: The validated screen.
    ///   - customization: The look for the appearance in use.
    ///   - strings: The SDK texts.
    ///   - density: The screen density for image selection.
    ///   - htmlReader: Reads an HTML screen's form into native controls; without one, an HTML screen has no
    ///     controls in the layout (a web view shows the page itself).
    public init(
        screen: ChallengeScreen, customization: UiCustomization, strings: SDKStrings, density: ScreenDensity = .high,
        htmlReader: (any HTMLFormReader)? = nil
    ) {
        self.screen = screen
        self.customization = customization
        self.strings = strings
        var elements: [LayoutElement] = [
            .toolbar(
                title: customization.toolbar.headerText ?? strings[.secureCheckout],
                cancelLabel: customization.toolbar.buttonText ?? strings[.cancel])
        ]
        let issuer = Self.image(screen.issuerImage, density: density, alt: "\(strings[.image]): issuer")
        let paymentSystem = Self.image(
            screen.paymentSystemImage, density: density, alt: "\(strings[.image]): payment system")
        if issuer != nil || paymentSystem != nil {
            elements.append(.images(issuer: issuer, paymentSystem: paymentSystem))
        }
        if let header = screen.header { elements.append(.heading(header)) }
        if let text = screen.infoText { elements.append(.text(text, warning: screen.showsWarningIndicator)) }
        var form: HTMLForm?
        switch screen.uiType {
        case .text:
            elements.append(.textField(label: screen.infoLabel ?? strings[.codeField], masked: true, maxLength: 45))
        case .singleSelect, .multiSelect:
            if let label = screen.infoLabel { elements.append(.text(label, warning: false)) }
            elements += screen.options.map {
                .option(key: $0.key, label: $0.label, multiple: screen.uiType == .multiSelect)
            }
        case .outOfBand:
            if let appURL = screen.oobAppURL, !appURL.isEmpty {
                elements.append(.button(.openOOBApp, label: screen.oobAppLabel ?? strings[.openApp]))
            }
            elements.append(.button(.continue, label: screen.oobContinueLabel ?? strings[.continueButton]))
        case .information:
            elements.append(.button(.continue, label: screen.infoContinueLabel ?? strings[.continueButton]))
        case .html, .htmlOutOfBand:
            guard let htmlReader else { break }
            let parsed = htmlReader.form(fromHTML: screen.html ?? "")
            form = parsed
            if !parsed.text.isEmpty { elements.append(.htmlText(parsed.text)) }
            for (index, control) in parsed.controls.enumerated()
            where control.kind != "input/hidden" && !control.disabled {
                elements.append(.htmlControl(index: index))
            }
            elements += parsed.links.indices.map { .htmlLink(index: $0) }
        }
        if [.text, .singleSelect, .multiSelect].contains(screen.uiType) {
            elements.append(.button(.submit, label: screen.submitLabel ?? strings[.submit]))
            if let resend = screen.resendLabel { elements.append(.button(.resend, label: resend)) }
        }
        if let question = screen.whitelistingText { elements.append(.trustChoice(question: question)) }
        for section in [screen.whyInfo, screen.expandInfo].compactMap({ $0 }) {
            elements.append(.section(label: section.label ?? strings[.showMore], text: section.text ?? ""))
        }
        self.elements = elements
        self.form = form
    }

    private static func image(_ image: ChallengeImage?, density: ScreenDensity, alt: String) -> ImageReference? {
        image?.url(for: density).map { ImageReference(url: $0, alternativeText: alt) }
    }

    /// Warnings about the customization (contrast under 4.5:1), to show so they get fixed.
    public var customizationWarnings: [Warning] { customization.contrastWarnings }
}
