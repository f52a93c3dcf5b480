public import ThreeDS2JOSE
public import ThreeDS2SDK

extension FormJSON {
    /// The customization resolved for the appearance (``ResolvedStyle``) as JSON: colours as `#RRGGBB` or
    /// `#AARRGGBB`, sizes in points, `null` where the app set nothing (the client's own default then).
    ///
    /// - Parameter style: The resolved style.
    /// - Returns: `{toolbar, labels, textBox, textBoxTwo, buttons, screenBackground, progress}`.
    public static func style(_ style: ResolvedStyle) -> JSONObject {
        var labels = JSONObject()
        for type in LabelType.allCases { labels[type.rawValue] = .object(text(style.label(type))) }
        var buttons = JSONObject()
        for type in ButtonType.allCases { buttons[type.rawValue] = .object(button(style.button(type))) }
        return [
            "toolbar": .object([
                "text": .object(text(style.toolbar.text)), "backgroundColor": color(style.toolbar.backgroundColor),
            ]),
            "labels": .object(labels),
            "textBox": .object(textBox(style.textBox(0))),
            "textBoxTwo": .object(textBox(style.textBox(1))),
            "buttons": .object(buttons),
            "screenBackground": color(style.screenBackground),
            "progress": .object([
                "text": .object(text(style.progress.text)), "indicatorColor": color(style.progress.indicatorColor),
                "backgroundColor": color(style.progress.backgroundColor),
            ]),
        ]
    }

    static func text(_ text: ResolvedStyle.Text) -> JSONObject {
        [
            "color": color(text.color), "fontName": text.fontName.map(JSONValue.string) ?? .null,
            "fontSize": number(text.fontSize), "bold": .bool(text.isBold),
            "alignment": .string(text.alignment.rawValue),
        ]
    }

    static func textBox(_ box: ResolvedStyle.TextBox) -> JSONObject {
        [
            "text": .object(text(box.text)), "borderWidth": number(box.borderWidth),
            "borderColor": color(box.borderColor), "cornerRadius": number(box.cornerRadius),
        ]
    }

    static func button(_ button: ResolvedStyle.Button) -> JSONObject {
        var padding = JSONValue.null
        if let value = button.padding {
            padding = .object([
                "start": .number("\(value.start)"), "top": .number("\(value.top)"), "end": .number("\(value.end)"),
                "bottom": .number("\(value.bottom)"),
            ])
        }
        return [
            "text": .object(text(button.text)), "backgroundColor": color(button.backgroundColor),
            "borderWidth": number(button.borderWidth), "borderColor": color(button.borderColor),
            "cornerRadius": number(button.cornerRadius), "height": number(button.height), "padding": padding,
        ]
    }

    static func color(_ color: HexColor?) -> JSONValue { color.map { .string($0.description) } ?? .null }

    static func number(_ value: Int?) -> JSONValue { value.map { .number("\($0)") } ?? .null }
}
