import Foundation
import ThreeDS2Messages

/// A colour given as `#RRGGBB` or `#AARRGGBB` hex.
public struct HexColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, green, blue and alpha, 0–255.
    public let red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    /// Parses a hex colour.
    ///
    /// - Parameters:
    ///   - text: `#RRGGBB` or `#AARRGGBB`.
    ///   - field: The field being set, for the error message.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the field.
    public init(_ text: String, field: String = "colour") throws(ThreeDS2Error) {
        let digits = Array(text.utf8.dropFirst())
        // Hex digits only: `UInt32(_:radix:)` alone would take `#+FFFFF`.
        let isHex = digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8, isHex,
            let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
        else {
            throw .invalidInput("\(field) \"\(text)\" is not a hex colour (#RRGGBB or #AARRGGBB)")
        }
        alpha = digits.count == 8 ? UInt8(value >> 24) : 0xFF
        red = UInt8(value >> 16 & 0xFF)
        green = UInt8(value >> 8 & 0xFF)
        blue = UInt8(value & 0xFF)
    }

    /// `#RRGGBB` (or `#AARRGGBB` when not opaque), upper case.
    public var description: String {
        let rgb = [red, green, blue].map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
        if alpha == 0xFF { return "#" + rgb }
        let a = String(alpha, radix: 16, uppercase: true)
        return "#" + (a.count == 1 ? "0" + a : a) + rgb
    }

    /// The WCAG 2 relative luminance.
    public var relativeLuminance: Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    /// The WCAG 2 contrast ratio between two colours, from 1 to 21.
    ///
    /// - Parameter other: The other colour.
    /// - Returns: The ratio.
    public func contrastRatio(with other: HexColor) -> Double {
        let (lighter, darker) = (
            max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance)
        )
        return (lighter + 0.05) / (darker + 0.05)
    }
}

/// The text attributes every customization has: font name, colour and size.
public struct TextStyle: Sendable, Hashable {
    /// The font name, or `nil` for the platform default.
    public private(set) var fontName: String?
    /// The text colour, or `nil` for the default.
    public private(set) var color: HexColor?
    /// The font size in points, or `nil` for the default.
    public private(set) var fontSize: Int?

    /// Default attributes.
    public init() {}

    /// Sets the font name.
    ///
    /// - Parameters:
    ///   - name: A non-empty font name.
    ///   - field: What the error message calls the setting.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty name, one longer than 256 characters, or one
    ///   with a control or bidirectional control character.
    public mutating func setFontName(_ name: String, field: String = "text font name") throws(ThreeDS2Error) {
        fontName = try Measure.text(name, field)
    }

    /// Sets the colour.
    ///
    /// - Parameters:
    ///   - hex: `#RRGGBB` or `#AARRGGBB`.
    ///   - field: What the error message calls the setting.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a malformed colour.
    public mutating func setColor(_ hex: String, field: String = "text colour") throws(ThreeDS2Error) {
        color = try HexColor(hex, field: field)
    }

    /// Sets the font size.
    ///
    /// - Parameters:
    ///   - size: A positive size in points.
    ///   - field: What the error message calls the setting.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a size that is not positive or is over 1000.
    public mutating func setFontSize(_ size: Int, field: String = "text font size") throws(ThreeDS2Error) {
        fontSize = try Measure.positive(size, field)
    }
}

/// Validated non-negative and positive measures shared by the customizations.
///
/// Bounds: a size, width, radius, height or padding is at most ``maxMeasure`` points; a text (toolbar
/// header and button text, a font name) is at most ``maxTextLength`` characters (Unicode scalars) and carries no
/// control character and no bidirectional embedding, override or isolate (right-to-left letters and the marks LRM
/// and RLM are fine).
enum Measure {
    /// The largest measure accepted, in points.
    static let maxMeasure = 1000
    /// The longest text accepted, in Unicode scalars.
    static let maxTextLength = 256

    static func positive(_ value: Int, _ field: String) throws(ThreeDS2Error) -> Int {
        guard value > 0 else { throw .invalidInput("\(field) must be positive, found \(value)") }
        guard value <= maxMeasure else { throw .invalidInput("\(field) must be at most \(maxMeasure), found \(value)") }
        return value
    }

    static func nonNegative(_ value: Int, _ field: String) throws(ThreeDS2Error) -> Int {
        guard value >= 0 else { throw .invalidInput("\(field) must not be negative, found \(value)") }
        guard value <= maxMeasure else { throw .invalidInput("\(field) must be at most \(maxMeasure), found \(value)") }
        return value
    }

    static func text(_ value: String, _ field: String) throws(ThreeDS2Error) -> String {
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidInput("\(field) must not be empty")
        }
        guard PeerText.fits(value, max: maxTextLength) else {
            throw .invalidInput("\(field) must be at most \(maxTextLength) characters")
        }
        if let scalar = value.unicodeScalars.first(where: PeerText.isControlOrBidi) {
            throw .invalidInput(
                "\(field) carries the control character U+\(String(scalar.value, radix: 16, uppercase: true)), "
                    + "which display text may not")
        }
        return value
    }
}

/// The appearance a customization applies to (EMVCo 2.3: default, dark and monochrome).
public enum UiCustomizationType: String, Sendable, Hashable, CaseIterable {
    /// The default (light) appearance.
    case `default` = "DEFAULT"
    /// Dark mode.
    case dark = "DARK"
    /// Monochrome displays.
    case monochrome = "MONOCHROME"
}

/// How the challenge screens look: toolbar, labels, text box and each button type.
public struct UiCustomization: Sendable, Hashable {
    /// The toolbar.
    public var toolbar = ToolbarCustomization()
    /// The labels.
    public var label = LabelCustomization()
    /// The text box (the first entry box in 2.3.1).
    public var textBox = TextBoxCustomization()
    /// The second entry box (2.3.1), when it should differ from ``textBox``.
    public var textBoxTwo: TextBoxCustomization?
    /// The processing indicator's look.
    public var progress = ProgressCustomization()
    /// The screen's background colour (EMVCo `setBackground`); `nil` leaves it to the platform.
    public private(set) var backgroundColor: HexColor?

    /// Sets the screen's background colour (EMVCo `setBackground`).
    ///
    /// - Parameter hex: `#RRGGBB` or `#AARRGGBB`.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a bad colour.
    public mutating func setBackground(_ hex: String) throws(ThreeDS2Error) {
        backgroundColor = try HexColor(hex, field: "screen background colour")
    }
    private var buttons: [ButtonType: ButtonCustomization] = [:]

    /// Default appearance.
    public init() {}

    /// Sets the look of one button type.
    ///
    /// - Parameters:
    ///   - customization: The look.
    ///   - type: The button type.
    public mutating func setButtonCustomization(_ customization: ButtonCustomization, for type: ButtonType) {
        buttons[type] = customization
    }

    /// Sets the look of a button type named as a string (`SUBMIT`, `CONTINUE`, `CANCEL`, `RESEND`, `OPEN_OOB_APP`,
    /// `ADDITIONAL`; `VERIFY` is accepted for `SUBMIT`, `ADD_CH` for `ADDITIONAL`, `OOB_OPEN_APP` for `OPEN_OOB_APP`).
    ///
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an unknown name.
    public mutating func setButtonCustomization(_ customization: ButtonCustomization, for name: String)
        throws(ThreeDS2Error)
    {
        buttons[try Self.buttonType(name)] = customization
    }

    /// The look of one button type (default attributes when not set).
    public func buttonCustomization(for type: ButtonType) -> ButtonCustomization {
        buttons[type] ?? ButtonCustomization()
    }

    /// The look of a button type named as a string.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an unknown name.
    public func buttonCustomization(for name: String) throws(ThreeDS2Error) -> ButtonCustomization {
        buttonCustomization(for: try Self.buttonType(name))
    }

    private static func buttonType(_ name: String) throws(ThreeDS2Error) -> ButtonType {
        let upper = name.uppercased()
        if upper == "VERIFY" { return .submit }
        if upper == "ADD_CH" { return .additional }
        if upper == "OOB_OPEN_APP" { return .openOOBApp }
        guard let type = ButtonType(rawValue: upper) else {
            let known = ButtonType.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidInput("button type \"\(name)\" is unknown; known: \(known)")
        }
        return type
    }

    /// The minimum contrast WCAG 2 (level AA) asks of normal text.
    public static let minimumContrast = 4.5

    /// Text/background pairs below ``minimumContrast``: accepted, but reported so the app can fix them. The pairs:
    /// the toolbar's text on its background, each button's text on its own, and each kind of label's text on the
    /// screen background (when the app set one: otherwise the platform's own background is not known here).
    public var contrastWarnings: [Warning] {
        var pairs: [(String, HexColor?, HexColor?)] = [("toolbar", toolbar.text.color, toolbar.backgroundColor)]
        for type in ButtonType.allCases {
            let button = buttonCustomization(for: type)
            pairs.append(("\(type.rawValue) button", button.text.color, button.backgroundColor))
        }
        // One warning per distinct label colour: a colour several kinds of label share is named once, by the first.
        var labelColours: Set<HexColor> = []
        for type in LabelType.allCases {
            guard let colour = label.textStyle(for: type).color, labelColours.insert(colour).inserted else { continue }
            pairs.append(("\(type.rawValue) label", colour, backgroundColor))
        }
        return pairs.compactMap { name, text, background in
            guard let text, let background else { return nil }
            let ratio = text.contrastRatio(with: background)
            guard ratio < Self.minimumContrast else { return nil }
            return Warning(
                id: .lowContrast,
                message:
                    "\(name) text \(text) on \(background) has contrast \(String(format: "%.2f", ratio)):1, below 4.5:1",
                severity: .low)
        }
    }
}
