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
        let body = Self.body(of: screen, strings: strings, htmlReader: htmlReader)
        elements =
            Self.heading(
                of: screen, customization: customization, strings: strings, density: density, appearance: appearance)
            + body.elements + Self.closing(of: screen, strings: strings, actions: body.actions)
        form = body.form
    }

    /// The toolbar, the issuer's and payment system's images, the header and the information text.
    private static func heading(
        of screen: ChallengeScreen, customization: UiCustomization, strings: SDKStrings, density: ScreenDensity,
        appearance: ImageAppearance
    ) -> [LayoutElement] {
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
        return elements
    }

    /// What the screen's UI type shows (its fields, options or page) and the buttons it adds.
    private static func body(of screen: ChallengeScreen, strings: SDKStrings, htmlReader: (any HTMLFormReader)?) -> (
        elements: [LayoutElement], actions: [LayoutElement], form: HTMLForm?
    ) {
        let label: [LayoutElement] = screen.infoLabel.map { [.text(StyledText(plain: $0), warning: false)] } ?? []
        switch screen.uiType {
        case .text:
            return (textFields(of: screen, strings: strings), [], nil)
        case .singleSelect, .multiSelect:
            let options = screen.options.map {
                LayoutElement.option(key: $0.key, label: $0.label, multiple: screen.uiType == .multiSelect)
            }
            return (label + options, [], nil)
        case .outOfBand:
            var actions: [LayoutElement] = []
            if screen.oobAppURL != nil {
                actions.append(.button(.openOOBApp, label: screen.oobAppLabel ?? strings[.openApp]))
            }
            if screen.offersContinueButton {
                actions.append(.button(.continue, label: screen.oobContinueLabel ?? strings[.continueButton]))
            }
            return (label, actions, nil)
        case .information:
            return (label, [.button(.continue, label: screen.infoContinueLabel ?? strings[.continueButton])], nil)
        case .html, .htmlOutOfBand:
            return html(of: screen, strings: strings, htmlReader: htmlReader)
        }
    }

    /// UI 01: one masked box labelled by `challengeInfoLabel` (2.1.0, 2.2.0), or the 2.3.1 entry boxes.
    private static func textFields(of screen: ChallengeScreen, strings: SDKStrings) -> [LayoutElement] {
        guard !screen.entryBoxes.isEmpty else {
            return [.textField(box: 0, EntryBox(label: screen.infoLabel ?? strings[.codeField]))]
        }
        var elements: [LayoutElement] = []
        // 2.3.1: a challengeInfoLabel some ACS tools add is shown only when it says something the boxes do not.
        if let label = screen.infoLabel, !screen.entryBoxes.contains(where: { $0.label == label }) {
            elements.append(.text(StyledText(plain: label), warning: false))
        }
        for (index, box) in screen.entryBoxes.enumerated() { elements.append(.textField(box: index, box)) }
        return elements
    }

    /// UI 05 and 06: the page's text, controls and submitting links as `htmlReader` reads them (nothing without
    /// one: a web view shows the page itself), and on UI 06 the bank's app.
    private static func html(of screen: ChallengeScreen, strings: SDKStrings, htmlReader: (any HTMLFormReader)?) -> (
        elements: [LayoutElement], actions: [LayoutElement], form: HTMLForm?
    ) {
        // UI 06 offers the bank's app whether the page is drawn natively or in a web view.
        let actions: [LayoutElement] =
            screen.uiType == .htmlOutOfBand && screen.oobAppURL != nil
            ? [.button(.openOOBApp, label: strings[.openApp])] : []
        guard let htmlReader else { return ([], actions, nil) }
        let parsed = htmlReader.form(fromHTML: screen.html ?? "")
        if let reason = parsed.invalidReason {
            // An invalid page offers nothing to submit: the reason is shown and the cardholder can cancel.
            return ([.htmlText("\(strings[.genericError]) (\(reason))")], actions, parsed)
        }
        var elements: [LayoutElement] = []
        if !parsed.text.isEmpty { elements.append(.htmlText(parsed.text)) }
        for (index, control) in parsed.controls.enumerated() where control.kind != .hidden && !control.disabled {
            elements.append(.htmlControl(index: index))
        }
        elements += parsed.links.indices.map { .htmlLink(index: $0) }
        return (elements, actions, parsed)
    }

    /// The buttons (submit and resend for the entry types, the additional code), the consent questions above or
    /// below them, and the expandable sections.
    private static func closing(of screen: ChallengeScreen, strings: SDKStrings, actions: [LayoutElement])
        -> [LayoutElement]
    {
        var actions = actions
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
        var elements = screen.consentsAboveActions ? consents + actions : actions + consents
        for section in [screen.whyInfo, screen.expandInfo].compactMap({ $0 }) {
            elements.append(
                .section(label: section.label ?? strings[.showMore], text: screen.styled(section.text ?? "")))
        }
        return elements
    }

    private static func image(
        _ image: ChallengeImage?, density: ScreenDensity, appearance: ImageAppearance, alt: String
    ) -> ImageReference? {
        image?.url(for: density, appearance: appearance).map { ImageReference(url: $0, alternativeText: alt) }
    }

    /// Warnings about the customization (contrast under 4.5:1), to show so they get fixed.
    public var customizationWarnings: [Warning] { customization.contrastWarnings }
}

extension ChallengeScreen {
    /// Whether the screen has a continue button: an information screen always; an out-of-band screen when the ACS
    /// labelled one, or when it names no app (the cardholder approves elsewhere and says so here). An out-of-band
    /// screen with an app link and no label has none: the SDK continues when the bank's app sends the cardholder
    /// back, and a continue before that would send `oobContinue` before the approval.
    public var offersContinueButton: Bool {
        switch uiType {
        case .information: true
        case .outOfBand: oobContinueLabel != nil || oobAppURL == nil
        default: false
        }
    }
}
