public import Foundation
import ThreeDS2JOSE

extension UiCustomization {
    /// The largest UI customization JSON read, in bytes (64 KiB).
    public static let maxJSONBytes = 64 * 1024

    /// Reads a customization for each appearance from a JSON file (``appearances(fromJSON:)``), bounded before
    /// reading: the file must be a regular file (a FIFO or device is refused without blocking) of at most
    /// ``maxJSONBytes`` bytes, and no more than that is ever read.
    ///
    /// - Parameter url: The JSON file.
    /// - Returns: The customization for each appearance given.
    /// - Throws: ``ThreeDS2Error``: `invalidInput` when the file cannot be read, is not a regular file or is too
    ///   large; otherwise as ``appearances(fromJSON:)``.
    public static func appearances(contentsOf url: URL) throws(ThreeDS2Error) -> [UiCustomizationType: UiCustomization]
    {
        try appearances(fromJSON: BoundedFile.read(url.path, maxBytes: maxJSONBytes, what: "UI customization"))
    }

    /// Reads a customization for each appearance from JSON in the vendor SDKs' vocabulary (their setter names in
    /// camelCase, without `set`): top-level keys `default`, `dark`, `monochrome`, each an object with
    ///
    /// - `background`: the screen's background colour;
    /// - `toolbar`: `headerText`, `buttonText`, `backgroundColor`, `textColor`, `textFontName`, `textFontSize`;
    /// - `label`: `textColor`, `textFontName`, `textFontSize`, `headingTextColor`, `headingTextFontName`,
    ///   `headingTextFontSize`, `headingTextAlignment`, and `types`: an object keyed by label type (`INFO_TEXT`,
    ///   `WHY_INFO`, …) holding `textColor`, `textFontName`, `textFontSize`, `textAlignment`;
    /// - `textBox` and `textBoxTwo`: `textColor`, `textFontName`, `textFontSize`, `borderWidth`, `borderColor`,
    ///   `cornerRadius`;
    /// - `buttons`: an object keyed by button type (`SUBMIT`, `CONTINUE`, `NEXT`, `CANCEL`, `RESEND`, `OPEN_OOB_APP`,
    ///   `ADDITIONAL`) holding `backgroundColor`, `textColor`, `textFontName`, `textFontSize`, `cornerRadius`,
    ///   `borderWidth`, `borderColor`, `height` and `padding` (one number, or `[start, top, end, bottom]`);
    /// - `progress`: `indicatorColor`, `backgroundColor`, `textColor`, `textFontName`, `textFontSize`.
    ///
    /// Colours are `#RRGGBB` or `#AARRGGBB`; alignments `left`, `center` or `right`.
    ///
    /// - Parameter bytes: The JSON (at most 64 KiB).
    /// - Returns: The customization for each appearance given; pass it to
    ///   ``ThreeDS2Service/initialize(configParameters:locale:uiCustomizations:)``.
    /// - Throws: ``ThreeDS2Error``: `malformedJSON` when it is not JSON; `invalidInput` naming the key: an unknown
    ///   key, a value of the wrong type, a bad colour, size or alignment.
    public static func appearances(fromJSON bytes: some Collection<UInt8>) throws(ThreeDS2Error)
        -> [UiCustomizationType: UiCustomization]
    {
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: maxJSONBytes, maxDepth: 8)).parse(bytes)
        } catch {
            throw ThreeDS2Error(.malformedJSON, "the UI customization is not JSON: \(error.message)", underlying: error)
        }
        var reader = CustomizationReader()
        let top = try reader.object(value, "the UI customization")
        var result: [UiCustomizationType: UiCustomization] = [:]
        for (name, member) in top.members {
            let type: UiCustomizationType
            switch name {
            case "default": type = .default
            case "dark": type = .dark
            case "monochrome": type = .monochrome
            default: throw CustomizationReader.unknown(name, known: ["default", "dark", "monochrome"])
            }
            result[type] = try reader.customization(member, path: name)
        }
        return result
    }
}

/// Reads the JSON form of a customization, naming the key path in every error.
private struct CustomizationReader {
    static func unknown(_ path: String, known: [String]) -> ThreeDS2Error {
        .invalidInput("UI customization key \(path) is unknown; known here: \(known.joined(separator: ", "))")
    }

    func object(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> JSONObject {
        guard case .object(let object) = value else {
            throw .invalidInput("UI customization \(path) must be a JSON object, found \(value.typeName)")
        }
        return object
    }

    func string(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> String {
        guard case .string(let text) = value else {
            throw .invalidInput("UI customization \(path) must be a string, found \(value.typeName)")
        }
        return text
    }

    func integer(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> Int {
        guard case .number(let text) = value, let number = Int(text) else {
            throw .invalidInput("UI customization \(path) must be a whole number, found \(value.typeName)")
        }
        return number
    }

    func alignment(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> CustomizationAlignment {
        let text = try string(value, path)
        guard let alignment = CustomizationAlignment(rawValue: text) else {
            throw .invalidInput("UI customization \(path) \"\(text)\" is not left, center or right")
        }
        return alignment
    }

    /// Runs a setter, naming the key path in its error.
    func set(_ path: String, _ body: () throws(ThreeDS2Error) -> Void) throws(ThreeDS2Error) {
        do {
            try body()
        } catch {
            throw .invalidInput("UI customization \(path): \(error.message)")
        }
    }

    /// Iterates an object's members, refusing names outside `known`.
    func members(_ value: JSONValue, _ path: String, known: [String]) throws(ThreeDS2Error) -> [(
        String, JSONValue, String
    )] {
        let object = try object(value, path)
        var result: [(String, JSONValue, String)] = []
        for (name, member) in object.members {
            guard known.contains(name) else { throw Self.unknown("\(path).\(name)", known: known) }
            result.append((name, member, "\(path).\(name)"))
        }
        return result
    }

    static let textKeys = ["textColor", "textFontName", "textFontSize"]

    /// Applies `textColor`, `textFontName` or `textFontSize`; returns whether the key was one of them.
    func text(_ name: String, _ value: JSONValue, _ path: String, to style: inout TextStyle) throws(ThreeDS2Error)
        -> Bool
    {
        switch name {
        case "textColor":
            let text = try string(value, path)
            try set(path) { () throws(ThreeDS2Error) in try style.setColor(text, field: "colour") }
        case "textFontName":
            let text = try string(value, path)
            try set(path) { () throws(ThreeDS2Error) in try style.setFontName(text, field: "font name") }
        case "textFontSize":
            let size = try integer(value, path)
            try set(path) { () throws(ThreeDS2Error) in try style.setFontSize(size, field: "font size") }
        default: return false
        }
        return true
    }

    mutating func customization(_ value: JSONValue, path: String) throws(ThreeDS2Error) -> UiCustomization {
        var ui = UiCustomization()
        let sections = ["background", "toolbar", "label", "textBox", "textBoxTwo", "buttons", "progress"]
        for (name, member, path) in try members(value, path, known: sections) {
            switch name {
            case "background":
                let text = try string(member, path)
                try set(path) { () throws(ThreeDS2Error) in try ui.setBackground(text) }
            case "toolbar": ui.toolbar = try toolbar(member, path)
            case "label": ui.label = try label(member, path)
            case "textBox": ui.textBox = try textBox(member, path)
            case "textBoxTwo": ui.textBoxTwo = try textBox(member, path)
            case "buttons":
                for (typeName, button) in try object(member, path).members {
                    guard let type = ButtonType(rawValue: typeName) else {
                        throw Self.unknown("\(path).\(typeName)", known: ButtonType.allCases.map(\.rawValue))
                    }
                    ui.setButtonCustomization(try self.button(button, "\(path).\(typeName)"), for: type)
                }
            default: ui.progress = try progress(member, path)
            }
        }
        return ui
    }

    func toolbar(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> ToolbarCustomization {
        var toolbar = ToolbarCustomization()
        let known = ["headerText", "buttonText", "backgroundColor"] + Self.textKeys
        for (name, member, path) in try members(value, path, known: known) {
            if try text(name, member, path, to: &toolbar.text) { continue }
            let text = try string(member, path)
            try set(path) { () throws(ThreeDS2Error) in
                switch name {
                case "headerText": try toolbar.setHeaderText(text)
                case "buttonText": try toolbar.setButtonText(text)
                default: try toolbar.setBackgroundColor(text)
                }
            }
        }
        return toolbar
    }

    func label(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> LabelCustomization {
        var label = LabelCustomization()
        let known =
            Self.textKeys + ["headingTextColor", "headingTextFontName", "headingTextFontSize", "headingTextAlignment"]
            + ["types"]
        for (name, member, path) in try members(value, path, known: known) {
            if try text(name, member, path, to: &label.text) { continue }
            switch name {
            case "headingTextAlignment": label.setHeadingTextAlignment(try alignment(member, path))
            case "types":
                for (typeName, typed) in try object(member, path).members {
                    guard let type = LabelType(rawValue: typeName) else {
                        throw Self.unknown("\(path).\(typeName)", known: LabelType.allCases.map(\.rawValue))
                    }
                    var style = label.textStyle(for: type)
                    let typePath = "\(path).\(typeName)"
                    for (key, setting, keyPath) in try members(
                        typed, typePath, known: Self.textKeys + ["textAlignment"])
                    {
                        if try text(key, setting, keyPath, to: &style) { continue }
                        label.setTextAlignment(try alignment(setting, keyPath), for: type)
                    }
                    label.setTextStyle(style, for: type)
                }
            default:
                // headingTextColor, headingTextFontName, headingTextFontSize.
                let key = "text" + name.dropFirst("headingText".count)
                _ = try text(key, member, path, to: &label.heading)
            }
        }
        return label
    }

    func textBox(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> TextBoxCustomization {
        var box = TextBoxCustomization()
        for (name, member, path) in try members(
            value, path, known: Self.textKeys + ["borderWidth", "borderColor", "cornerRadius"])
        {
            if try text(name, member, path, to: &box.text) { continue }
            switch name {
            case "borderColor":
                let text = try string(member, path)
                try set(path) { () throws(ThreeDS2Error) in try box.setBorderColor(text) }
            case "borderWidth":
                let number = try integer(member, path)
                try set(path) { () throws(ThreeDS2Error) in try box.setBorderWidth(number) }
            default:
                let number = try integer(member, path)
                try set(path) { () throws(ThreeDS2Error) in try box.setCornerRadius(number) }
            }
        }
        return box
    }

    func button(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> ButtonCustomization {
        var button = ButtonCustomization()
        let known =
            Self.textKeys + ["backgroundColor", "cornerRadius", "borderWidth", "borderColor", "height", "padding"]
        for (name, member, path) in try members(value, path, known: known) {
            if try text(name, member, path, to: &button.text) { continue }
            switch name {
            case "backgroundColor", "borderColor":
                let text = try string(member, path)
                try set(path) { () throws(ThreeDS2Error) in
                    if name == "backgroundColor" {
                        try button.setBackgroundColor(text)
                    } else {
                        try button.setBorderColor(text)
                    }
                }
            case "padding":
                let sides: [Int]
                if case .array(let values) = member {
                    var read: [Int] = []
                    for (index, side) in values.enumerated() { read.append(try integer(side, "\(path)[\(index)]")) }
                    guard read.count == 4 else {
                        throw .invalidInput(
                            "UI customization \(path) must be one number or [start, top, end, bottom]")
                    }
                    sides = read
                } else {
                    sides = Array(repeating: try integer(member, path), count: 4)
                }
                try set(path) { () throws(ThreeDS2Error) in
                    try button.setPadding(start: sides[0], top: sides[1], end: sides[2], bottom: sides[3])
                }
            default:
                let number = try integer(member, path)
                try set(path) { () throws(ThreeDS2Error) in
                    switch name {
                    case "cornerRadius": try button.setCornerRadius(number)
                    case "borderWidth": try button.setBorderWidth(number)
                    default: try button.setHeight(number)
                    }
                }
            }
        }
        return button
    }

    func progress(_ value: JSONValue, _ path: String) throws(ThreeDS2Error) -> ProgressCustomization {
        var progress = ProgressCustomization()
        for (name, member, path) in try members(
            value, path, known: Self.textKeys + ["indicatorColor", "backgroundColor"])
        {
            if try text(name, member, path, to: &progress.text) { continue }
            let text = try string(member, path)
            try set(path) { () throws(ThreeDS2Error) in
                if name == "indicatorColor" {
                    try progress.setIndicatorColor(text)
                } else {
                    try progress.setBackgroundColor(text)
                }
            }
        }
        return progress
    }
}
