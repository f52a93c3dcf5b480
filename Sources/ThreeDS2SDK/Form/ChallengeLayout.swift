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

/// A consent question a screen may ask; the next CReq answers each one asked.
public enum ConsentKind: Sendable, Hashable, CaseIterable {
    /// Trust the merchant: whitelisting (2.2.0), trust list (2.3.1).
    case trust
    /// Bind this device (2.3.1).
    case deviceBinding
}

/// One element of a challenge screen, in the zone order of the EMVCo UI: toolbar, branding, information, entry,
/// actions and consents (consents first when the ACS asks, 2.3.1 `togglePositionInd`), help sections.
public enum LayoutElement: Sendable, Hashable {
    /// The toolbar: a title and the cancel action.
    case toolbar(title: String, cancelLabel: String)
    /// The branding zone.
    case images(issuer: ImageReference?, paymentSystem: ImageReference?)
    /// The challenge information header.
    case heading(String)
    /// Information text with its bold runs; `warning` shows the indicator before it.
    case text(StyledText, warning: Bool)
    /// An entry box: `box` 0 is `challengeDataEntry`, 1 is `challengeDataEntryTwo` (2.3.1).
    case textField(box: Int, EntryBox)
    /// A choice of a select screen.
    case option(key: String, label: String, multiple: Bool)
    /// A button.
    case button(ButtonType, label: String)
    /// A consent question (trust list / whitelisting, device binding).
    case consent(ConsentKind, question: String)
    /// A collapsible help section (why-info, expand-info).
    case section(label: String, text: StyledText)
    /// Readable text of an HTML page.
    case htmlText(String)
    /// A control of an HTML form, by its index in the form's controls.
    case htmlControl(index: Int)
    /// A submitting link of an HTML page, by its index in the form's links.
    case htmlLink(index: Int)

    /// Whether the element takes keyboard focus.
    public var isFocusable: Bool {
        switch self {
        case .textField, .option, .button, .consent, .section, .htmlControl, .htmlLink: true
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
    /// The customization resolved for the appearance: what presenters draw.
    public let style: ResolvedStyle
    /// The screen density images were chosen for.
    public let density: ScreenDensity
    /// The appearance in use (its customization and its 2.3.1 images).
    public let appearance: ImageAppearance
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
    ///   - appearance: The appearance in use, for 2.3.1 image selection.
    ///   - htmlReader: Reads an HTML screen's form into native controls; without one, an HTML screen has no
    ///     controls in the layout (a web view shows the page itself).
    public init(
        screen: ChallengeScreen, customization: UiCustomization, strings: SDKStrings, density: ScreenDensity = .high,
        appearance: ImageAppearance = .default, htmlReader: (any HTMLFormReader)? = nil
    ) {
        self.screen = screen
        self.customization = customization
        self.style = ResolvedStyle(customization, appearance: PresentationSettings.customizationType(for: appearance))
        self.density = density
        self.appearance = appearance
        self.strings = strings
        var elements: [LayoutElement] = [
            .toolbar(
                title: customization.toolbar.headerText ?? strings[.secureCheckout],
                cancelLabel: customization.toolbar.buttonText ?? strings[.cancel])
        ]
        let issuer = Self.image(
            screen.issuerImage, density: density, appearance: appearance, alt: "\(strings[.image]): \(strings[.issuer])"
        )
        let paymentSystem = Self.image(
            screen.paymentSystemImage, density: density, appearance: appearance,
            alt: "\(strings[.image]): \(strings[.paymentSystem])")
        if issuer != nil || paymentSystem != nil {
            elements.append(.images(issuer: issuer, paymentSystem: paymentSystem))
        }
        if let header = screen.header { elements.append(.heading(header)) }
        if let text = screen.infoText {
            elements.append(.text(screen.styled(text), warning: screen.showsWarningIndicator))
        }
        var form: HTMLForm?
        var actions: [LayoutElement] = []
        switch screen.uiType {
        case .text:
            if screen.entryBoxes.isEmpty {
                // 2.1.0 / 2.2.0: one masked box labelled by challengeInfoLabel.
                let box = EntryBox(label: screen.infoLabel ?? strings[.codeField])
                elements.append(.textField(box: 0, box))
            } else {
                // 2.3.1: a challengeInfoLabel some ACS tools add is shown only when it says something the boxes do not.
                if let label = screen.infoLabel, !screen.entryBoxes.contains(where: { $0.label == label }) {
                    elements.append(.text(StyledText(plain: label), warning: false))
                }
                for (index, box) in screen.entryBoxes.enumerated() { elements.append(.textField(box: index, box)) }
            }
        case .singleSelect, .multiSelect:
            if let label = screen.infoLabel { elements.append(.text(StyledText(plain: label), warning: false)) }
            elements += screen.options.map {
                .option(key: $0.key, label: $0.label, multiple: screen.uiType == .multiSelect)
            }
        case .outOfBand:
            if let label = screen.infoLabel { elements.append(.text(StyledText(plain: label), warning: false)) }
            if screen.oobAppURL != nil {
                actions.append(.button(.openOOBApp, label: screen.oobAppLabel ?? strings[.openApp]))
            }
            if screen.oobContinueLabel != nil || screen.oobAppURL == nil {
                actions.append(.button(.continue, label: screen.oobContinueLabel ?? strings[.continueButton]))
            }
        case .information:
            if let label = screen.infoLabel { elements.append(.text(StyledText(plain: label), warning: false)) }
            actions.append(.button(.continue, label: screen.infoContinueLabel ?? strings[.continueButton]))
        case .html, .htmlOutOfBand:
            // UI 06 offers the bank's app whether the page is drawn natively or in a web view.
            if screen.uiType == .htmlOutOfBand, screen.oobAppURL != nil {
                actions.append(.button(.openOOBApp, label: strings[.openApp]))
            }
            guard let htmlReader else { break }
            let parsed = htmlReader.form(fromHTML: screen.html ?? "")
            form = parsed
            if let reason = parsed.invalidReason {
                // An invalid page offers nothing to submit: the reason is shown and the cardholder can cancel.
                elements.append(.htmlText("\(strings[.genericError]) (\(reason))"))
                break
            }
            if !parsed.text.isEmpty { elements.append(.htmlText(parsed.text)) }
            for (index, control) in parsed.controls.enumerated()
            where control.kind != .hidden && !control.disabled {
                elements.append(.htmlControl(index: index))
            }
            elements += parsed.links.indices.map { .htmlLink(index: $0) }
        }
        if [.text, .singleSelect, .multiSelect].contains(screen.uiType) {
            actions.append(.button(.submit, label: screen.submitLabel ?? strings[.submit]))
            if let resend = screen.resendLabel, screen.uiType == .text || !screen.messageVersion.limitsResendToText {
                actions.append(.button(.resend, label: resend))
            }
        }
        if let additional = screen.additionalCodeLabel { actions.append(.button(.additional, label: additional)) }
        var consents: [LayoutElement] = []
        if let question = screen.whitelistingText { consents.append(.consent(.trust, question: question)) }
        if let question = screen.deviceBindingText { consents.append(.consent(.deviceBinding, question: question)) }
        elements += screen.consentsAboveActions ? consents + actions : actions + consents
        for section in [screen.whyInfo, screen.expandInfo].compactMap({ $0 }) {
            elements.append(
                .section(label: section.label ?? strings[.showMore], text: screen.styled(section.text ?? "")))
        }
        self.elements = elements
        self.form = form
    }

    private static func image(
        _ image: ChallengeImage?, density: ScreenDensity, appearance: ImageAppearance, alt: String
    ) -> ImageReference? {
        image?.url(for: density, appearance: appearance).map { ImageReference(url: $0, alternativeText: alt) }
    }

    /// Warnings about the customization (contrast under 4.5:1), to show so they get fixed.
    public var customizationWarnings: [Warning] { customization.contrastWarnings }
}
