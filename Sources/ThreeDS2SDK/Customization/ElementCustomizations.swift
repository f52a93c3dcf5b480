import Foundation

/// The toolbar at the top of a challenge screen.
public struct ToolbarCustomization: Sendable, Hashable {
    /// Text attributes of the header and button texts.
    public var text = TextStyle()
    /// The background colour.
    public private(set) var backgroundColor: HexColor?
    /// The header text, replacing the SDK's default title.
    public private(set) var headerText: String?
    /// The text of the toolbar's cancel button.
    public private(set) var buttonText: String?

    /// Default attributes.
    public init() {}

    /// Sets the background colour. - Throws: `invalidInput` for a malformed colour.
    public mutating func setBackgroundColor(_ hex: String) throws(ThreeDS2Error) {
        backgroundColor = try HexColor(hex, field: "toolbar background colour")
    }

    /// Sets the header text. - Throws: `invalidInput` for an empty text.
    public mutating func setHeaderText(_ value: String) throws(ThreeDS2Error) {
        headerText = try Measure.text(value, "toolbar header text")
    }

    /// Sets the cancel button text. - Throws: `invalidInput` for an empty text.
    public mutating func setButtonText(_ value: String) throws(ThreeDS2Error) {
        buttonText = try Measure.text(value, "toolbar button text")
    }
}

/// Labels: the challenge information texts and their heading.
public struct LabelCustomization: Sendable, Hashable {
    /// Text attributes of body labels.
    public var text = TextStyle()
    /// Text attributes of the heading.
    public var heading = TextStyle()
    private var byType: [LabelType: TextStyle] = [:]
    private var alignments: [LabelType: CustomizationAlignment] = [:]
    /// The heading's alignment (EMVCo `setHeadingTextAlignment`); `nil` leaves it to the platform (leading).
    public private(set) var headingAlignment: CustomizationAlignment?

    /// Sets the heading's alignment (the `INFO_HEADER` label unless that type has its own).
    ///
    /// - Parameter alignment: The alignment.
    public mutating func setHeadingTextAlignment(_ alignment: CustomizationAlignment) {
        headingAlignment = alignment
    }

    /// Sets one label type's alignment.
    ///
    /// - Parameters:
    ///   - alignment: The alignment.
    ///   - type: The label type.
    public mutating func setTextAlignment(_ alignment: CustomizationAlignment, for type: LabelType) {
        alignments[type] = alignment
    }

    /// A label type's alignment: its own, the heading's for `INFO_HEADER`, else `nil` (leading).
    ///
    /// - Parameter type: The label type.
    /// - Returns: The alignment, when set.
    public func textAlignment(for type: LabelType) -> CustomizationAlignment? {
        alignments[type] ?? (type == .infoHeader ? headingAlignment : nil)
    }

    /// Whether a label type has a text style of its own (else it takes ``text``, or ``heading`` for `INFO_HEADER`).
    ///
    /// - Parameter type: The label type.
    /// - Returns: Whether it has one.
    public func hasOwnTextStyle(for type: LabelType) -> Bool { byType[type] != nil }

    /// Default attributes.
    public init() {}

    /// Sets the text attributes of one kind of label, overriding ``text`` (or ``heading`` for the header) for it.
    ///
    /// - Parameters:
    ///   - style: The attributes.
    ///   - type: The kind of label.
    public mutating func setTextStyle(_ style: TextStyle, for type: LabelType) {
        byType[type] = style
    }

    /// The text attributes of one kind of label: its own when set, otherwise ``heading`` for the header and ``text``
    /// for every other label.
    ///
    /// - Parameter type: The kind of label.
    /// - Returns: The attributes.
    public func textStyle(for type: LabelType) -> TextStyle {
        byType[type] ?? (type == .infoHeader ? heading : text)
    }
}

/// A text alignment (EMVCo label and heading alignment), in reading order: `left` is the leading edge.
public enum CustomizationAlignment: String, Sendable, Hashable, CaseIterable {
    /// The leading edge.
    case left
    /// Centred.
    case center
    /// The trailing edge.
    case right
}

/// Space around a button's text, in points (EMVCo `setPadding(start, top, end, bottom)`).
public struct ButtonPadding: Sendable, Hashable {
    /// Leading.
    public var start: Int
    /// Top.
    public var top: Int
    /// Trailing.
    public var end: Int
    /// Bottom.
    public var bottom: Int

    /// Creates insets.
    public init(start: Int, top: Int, end: Int, bottom: Int) {
        self.start = start
        self.top = top
        self.end = end
        self.bottom = bottom
    }
}

/// The kinds of label a challenge screen shows, as the vendor SDKs name them (their `LabelType`), with the
/// 2.3.1 second entry box's label.
public enum LabelType: String, Sendable, Hashable, CaseIterable {
    /// `challengeInfoHeader`.
    case infoHeader = "INFO_HEADER"
    /// `challengeInfoText`.
    case infoText = "INFO_TEXT"
    /// `challengeInfoLabel`.
    case infoLabel = "INFO_LABEL"
    /// The whitelisting / trust-list and device-binding questions.
    case whitelist = "WHITELIST"
    /// `whyInfoLabel`.
    case whyInfo = "WHY_INFO"
    /// `whyInfoText`.
    case whyInfoText = "WHY_INFO_TEXT"
    /// `expandInfoLabel`.
    case expandableInfo = "EXPANDABLE_INFO"
    /// `expandInfoText`.
    case expandableInfoText = "EXPANDABLE_INFO_TEXT"
    /// The options of a select screen.
    case selectionList = "SELECTION_LIST"
    /// The first entry box's label (`challengeEntryBox.challengeDataEntryLabel`, 2.3.1).
    case dataEntryLabel = "DATA_ENTRY_LABEL"
    /// The second entry box's label (`challengeEntryBoxTwo.challengeDataEntryLabel`, 2.3.1).
    case dataEntryLabel2 = "DATA_ENTRY_LABEL_2"
}

/// The text box where a code is entered.
public struct TextBoxCustomization: Sendable, Hashable {
    /// Text attributes of the entered text.
    public var text = TextStyle()
    /// The border width in points.
    public private(set) var borderWidth: Int?
    /// The border colour.
    public private(set) var borderColor: HexColor?
    /// The corner radius in points.
    public private(set) var cornerRadius: Int?

    /// Default attributes.
    public init() {}

    /// Sets the border width. - Throws: `invalidInput` for a negative width.
    public mutating func setBorderWidth(_ value: Int) throws(ThreeDS2Error) {
        borderWidth = try Measure.nonNegative(value, "text box border width")
    }

    /// Sets the border colour. - Throws: `invalidInput` for a malformed colour.
    public mutating func setBorderColor(_ hex: String) throws(ThreeDS2Error) {
        borderColor = try HexColor(hex, field: "text box border colour")
    }

    /// Sets the corner radius. - Throws: `invalidInput` for a negative radius.
    public mutating func setCornerRadius(_ value: Int) throws(ThreeDS2Error) {
        cornerRadius = try Measure.nonNegative(value, "text box corner radius")
    }
}

/// The buttons of a challenge screen.
public enum ButtonType: String, Sendable, Hashable, CaseIterable {
    /// Submit / verify the entered data.
    case submit = "SUBMIT"
    /// Continue (out-of-band, information screens).
    case `continue` = "CONTINUE"
    /// Next: moves on to the next step without answering (EMVCo `NEXT`).
    case next = "NEXT"
    /// Cancel the challenge.
    case cancel = "CANCEL"
    /// Ask for a new code.
    case resend = "RESEND"
    /// Open the out-of-band authentication app.
    case openOOBApp = "OPEN_OOB_APP"
    /// The additional-code button (`challengeAddLabel`, 2.3.1).
    case additional = "ADDITIONAL"
}

/// One button type's look.
public struct ButtonCustomization: Sendable, Hashable {
    /// Text attributes of the label.
    public var text = TextStyle()
    /// The background colour.
    public private(set) var backgroundColor: HexColor?
    /// The corner radius in points.
    public private(set) var cornerRadius: Int?
    /// The border width in points.
    public private(set) var borderWidth: Int?
    /// The border colour.
    public private(set) var borderColor: HexColor?

    /// Default attributes.
    public init() {}

    /// Sets the background colour. - Throws: `invalidInput` for a malformed colour.
    public mutating func setBackgroundColor(_ hex: String) throws(ThreeDS2Error) {
        backgroundColor = try HexColor(hex, field: "button background colour")
    }

    /// Sets the corner radius. - Throws: `invalidInput` for a negative radius.
    public mutating func setCornerRadius(_ value: Int) throws(ThreeDS2Error) {
        cornerRadius = try Measure.nonNegative(value, "button corner radius")
    }

    /// Sets the border width. - Throws: `invalidInput` for a negative width.
    public mutating func setBorderWidth(_ value: Int) throws(ThreeDS2Error) {
        borderWidth = try Measure.nonNegative(value, "button border width")
    }

    /// Sets the border colour. - Throws: `invalidInput` for a malformed colour.
    public mutating func setBorderColor(_ hex: String) throws(ThreeDS2Error) {
        borderColor = try HexColor(hex, field: "button border colour")
    }

    /// The height in points; `nil` leaves it to the platform.
    public private(set) var height: Int?
    /// The space around the text; `nil` leaves it to the platform.
    public private(set) var padding: ButtonPadding?

    /// Sets the height (EMVCo `setHeight`).
    ///
    /// - Parameter value: Points, positive.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` when not positive.
    public mutating func setHeight(_ value: Int) throws(ThreeDS2Error) {
        height = try Measure.positive(value, "button height")
    }

    /// Sets the padding (EMVCo `setPadding`).
    ///
    /// - Parameters:
    ///   - start: Leading points.
    ///   - top: Top points.
    ///   - end: Trailing points.
    ///   - bottom: Bottom points.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` when a side is negative.
    public mutating func setPadding(start: Int, top: Int, end: Int, bottom: Int) throws(ThreeDS2Error) {
        padding = ButtonPadding(
            start: try Measure.nonNegative(start, "button padding start"),
            top: try Measure.nonNegative(top, "button padding top"),
            end: try Measure.nonNegative(end, "button padding end"),
            bottom: try Measure.nonNegative(bottom, "button padding bottom"))
    }
}

/// The processing indicator's look (the seeds' `ProgressBarColor`).
public struct ProgressCustomization: Sendable, Hashable {
    /// The indicator's text (the directory server's name, "Processing").
    public var text = TextStyle()
    /// The spinner or bar colour.
    public private(set) var indicatorColor: HexColor?
    /// The background behind the indicator.
    public private(set) var backgroundColor: HexColor?

    /// Creates an empty customization.
    public init() {}

    /// Sets the spinner or bar colour.
    ///
    /// - Parameter hex: `#RRGGBB` or `#AARRGGBB`.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a bad colour.
    public mutating func setIndicatorColor(_ hex: String) throws(ThreeDS2Error) {
        indicatorColor = try HexColor(hex, field: "progress indicator colour")
    }

    /// Sets the background behind the indicator.
    ///
    /// - Parameter hex: `#RRGGBB` or `#AARRGGBB`.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a bad colour.
    public mutating func setBackgroundColor(_ hex: String) throws(ThreeDS2Error) {
        backgroundColor = try HexColor(hex, field: "progress background colour")
    }
}
