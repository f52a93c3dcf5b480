import ThreeDS2Messages

/// The look of every element of a challenge screen for one appearance, resolved from a ``UiCustomization``: the
/// fallbacks (a label type without its own style takes the label text style, `INFO_HEADER` the heading; the second
/// text box takes the first's) are applied once, here, so every presenter draws the same thing. A `nil` value
/// leaves that property to the platform's default.
public struct ResolvedStyle: Sendable, Hashable {
    /// A resolved text.
    public struct Text: Sendable, Hashable {
        /// The colour.
        public var color: HexColor?
        /// The font name.
        public var fontName: String?
        /// The font size in points.
        public var fontSize: Int?
        /// Whether the text is drawn bold (the heading and the toolbar title).
        public var isBold: Bool
        /// The alignment.
        public var alignment: CustomizationAlignment

        init(_ style: TextStyle, bold: Bool = false, alignment: CustomizationAlignment = .left) {
            color = style.color
            fontName = style.fontName
            fontSize = style.fontSize
            isBold = bold
            self.alignment = alignment
        }
    }

    /// The toolbar.
    public struct Toolbar: Sendable, Hashable {
        /// The title and cancel text.
        public var text: Text
        /// The background.
        public var backgroundColor: HexColor?
        /// The title, when the app set one (else the SDK's "Secure checkout" in the app's language).
        public var headerText: String?
        /// The cancel button's text, when the app set one.
        public var buttonText: String?
    }

    /// A text box.
    public struct TextBox: Sendable, Hashable {
        /// The entered text.
        public var text: Text
        /// The border width in points.
        public var borderWidth: Int?
        /// The border colour.
        public var borderColor: HexColor?
        /// The corner radius in points.
        public var cornerRadius: Int?

        init(_ box: TextBoxCustomization) {
            text = Text(box.text)
            borderWidth = box.borderWidth
            borderColor = box.borderColor
            cornerRadius = box.cornerRadius
        }
    }

    /// A button.
    public struct Button: Sendable, Hashable {
        /// The label.
        public var text: Text
        /// The background.
        public var backgroundColor: HexColor?
        /// The border width in points.
        public var borderWidth: Int?
        /// The border colour.
        public var borderColor: HexColor?
        /// The corner radius in points.
        public var cornerRadius: Int?
        /// The height in points.
        public var height: Int?
        /// The space around the label.
        public var padding: ButtonPadding?

        init(_ button: ButtonCustomization) {
            text = Text(button.text, alignment: .center)
            backgroundColor = button.backgroundColor
            borderWidth = button.borderWidth
            borderColor = button.borderColor
            cornerRadius = button.cornerRadius
            height = button.height
            padding = button.padding
        }
    }

    /// The processing indicator.
    public struct Progress: Sendable, Hashable {
        /// Its text.
        public var text: Text
        /// The spinner or bar colour.
        public var indicatorColor: HexColor?
        /// The background.
        public var backgroundColor: HexColor?
    }

    /// The appearance this style is for.
    public let appearance: UiCustomizationType
    /// The toolbar.
    public var toolbar: Toolbar
    /// Every label type.
    public var labels: [LabelType: Text]
    /// The first text box.
    public var textBox: TextBox
    /// The second text box (2.3.1 `challengeDataEntryTwo`).
    public var textBoxTwo: TextBox
    /// Every button type.
    public var buttons: [ButtonType: Button]
    /// The screen's background.
    public var screenBackground: HexColor?
    /// The processing indicator.
    public var progress: Progress

    /// Resolves a customization.
    ///
    /// - Parameters:
    ///   - customization: The customization for the appearance.
    ///   - appearance: The appearance.
    public init(_ customization: UiCustomization, appearance: UiCustomizationType = .default) {
        self.appearance = appearance
        toolbar = Toolbar(
            text: Text(customization.toolbar.text, bold: true), backgroundColor: customization.toolbar.backgroundColor,
            headerText: customization.toolbar.headerText, buttonText: customization.toolbar.buttonText)
        var labels: [LabelType: Text] = [:]
        for type in LabelType.allCases {
            labels[type] = Text(
                customization.label.textStyle(for: type),
                bold: type == .infoHeader,
                alignment: customization.label.textAlignment(for: type) ?? .left)
        }
        self.labels = labels
        textBox = TextBox(customization.textBox)
        textBoxTwo = TextBox(customization.textBoxTwo ?? customization.textBox)
        var buttons: [ButtonType: Button] = [:]
        for type in ButtonType.allCases { buttons[type] = Button(customization.buttonCustomization(for: type)) }
        self.buttons = buttons
        screenBackground = customization.backgroundColor
        progress = Progress(
            text: Text(customization.progress.text, alignment: .center),
            indicatorColor: customization.progress.indicatorColor,
            backgroundColor: customization.progress.backgroundColor)
    }

    /// A label type's text.
    ///
    /// - Parameter type: The label type.
    /// - Returns: Its resolved text.
    public func label(_ type: LabelType) -> Text { labels[type] ?? Text(TextStyle()) }

    /// A button type's look.
    ///
    /// - Parameter type: The button type.
    /// - Returns: Its resolved look.
    public func button(_ type: ButtonType) -> Button { buttons[type] ?? Button(ButtonCustomization()) }

    /// A text box's look.
    ///
    /// - Parameter box: 0 for `challengeDataEntry`, 1 for `challengeDataEntryTwo`.
    /// - Returns: Its resolved look.
    public func textBox(_ box: Int) -> TextBox { box == 0 ? textBox : textBoxTwo }
}
