import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

/// One setter of the customization surface and where it must land in the resolved style.
struct SetterCase: Sendable, CustomTestStringConvertible {
    let name: String
    let apply: @Sendable (inout UiCustomization) throws -> Void
    let reached: @Sendable (ResolvedStyle) -> Bool
    var testDescription: String { name }
}

private let set = "#C0392B"
private func isSet(_ color: HexColor?) -> Bool { color?.description == set }

/// Every setter: toolbar, labels (each type, with alignment), both text boxes, each button type, screen, progress.
let setterCases: [SetterCase] = {
    var cases: [SetterCase] = [
        SetterCase(
            name: "toolbar background", apply: { try $0.toolbar.setBackgroundColor(set) },
            reached: { isSet($0.toolbar.backgroundColor) }),
        SetterCase(
            name: "toolbar header text", apply: { try $0.toolbar.setHeaderText("Acme Bank") },
            reached: { $0.toolbar.headerText == "Acme Bank" }),
        SetterCase(
            name: "toolbar button text", apply: { try $0.toolbar.setButtonText("Abort") },
            reached: { $0.toolbar.buttonText == "Abort" }),
        SetterCase(
            name: "toolbar text colour", apply: { try $0.toolbar.text.setColor(set) },
            reached: { isSet($0.toolbar.text.color) }),
        SetterCase(
            name: "toolbar font name", apply: { try $0.toolbar.text.setFontName("Avenir") },
            reached: { $0.toolbar.text.fontName == "Avenir" }),
        SetterCase(
            name: "toolbar font size", apply: { try $0.toolbar.text.setFontSize(19) },
            reached: { $0.toolbar.text.fontSize == 19 }),
        SetterCase(
            name: "label text colour (every type but the header)", apply: { try $0.label.text.setColor(set) },
            reached: { style in
                LabelType.allCases.allSatisfy { isSet(style.label($0).color) == ($0 != .infoHeader) }
            }),
        SetterCase(
            name: "label font name", apply: { try $0.label.text.setFontName("Avenir") },
            reached: { $0.label(.infoText).fontName == "Avenir" }),
        SetterCase(
            name: "label font size", apply: { try $0.label.text.setFontSize(15) },
            reached: { $0.label(.selectionList).fontSize == 15 }),
        SetterCase(
            name: "heading colour", apply: { try $0.label.heading.setColor(set) },
            reached: { isSet($0.label(.infoHeader).color) && !isSet($0.label(.infoText).color) }),
        SetterCase(
            name: "heading font name", apply: { try $0.label.heading.setFontName("Georgia") },
            reached: { $0.label(.infoHeader).fontName == "Georgia" }),
        SetterCase(
            name: "heading font size", apply: { try $0.label.heading.setFontSize(22) },
            reached: { $0.label(.infoHeader).fontSize == 22 }),
        SetterCase(
            name: "heading alignment", apply: { $0.label.setHeadingTextAlignment(.center) },
            reached: { $0.label(.infoHeader).alignment == .center && $0.label(.infoText).alignment == .left }),
        SetterCase(
            name: "text box text colour", apply: { try $0.textBox.text.setColor(set) },
            reached: { isSet($0.textBox.text.color) }),
        SetterCase(
            name: "text box border width", apply: { try $0.textBox.setBorderWidth(3) },
            reached: { $0.textBox(0).borderWidth == 3 && $0.textBox(1).borderWidth == 3 }),
        SetterCase(
            name: "text box border colour", apply: { try $0.textBox.setBorderColor(set) },
            reached: { isSet($0.textBox.borderColor) }),
        SetterCase(
            name: "text box corner radius", apply: { try $0.textBox.setCornerRadius(9) },
            reached: { $0.textBox.cornerRadius == 9 }),
        SetterCase(
            name: "second text box of its own",
            apply: { ui in
                var two = TextBoxCustomization()
                try two.setBorderColor(set)
                ui.textBoxTwo = two
            },
            reached: { isSet($0.textBox(1).borderColor) && !isSet($0.textBox(0).borderColor) }),
        SetterCase(
            name: "screen background", apply: { try $0.setBackground(set) }, reached: { isSet($0.screenBackground) }),
        SetterCase(
            name: "progress indicator colour", apply: { try $0.progress.setIndicatorColor(set) },
            reached: { isSet($0.progress.indicatorColor) }),
        SetterCase(
            name: "progress background", apply: { try $0.progress.setBackgroundColor(set) },
            reached: { isSet($0.progress.backgroundColor) }),
        SetterCase(
            name: "progress text colour", apply: { try $0.progress.text.setColor(set) },
            reached: { isSet($0.progress.text.color) }),
    ]
    for type in LabelType.allCases {
        cases.append(
            SetterCase(
                name: "label \(type.rawValue) style",
                apply: { ui in
                    var style = TextStyle()
                    try style.setColor(set)
                    try style.setFontSize(11)
                    ui.label.setTextStyle(style, for: type)
                },
                reached: { style in
                    LabelType.allCases.allSatisfy { isSet(style.label($0).color) == ($0 == type) }
                        && style.label(type).fontSize == 11
                }))
        cases.append(
            SetterCase(
                name: "label \(type.rawValue) alignment", apply: { $0.label.setTextAlignment(.right, for: type) },
                reached: { style in
                    LabelType.allCases.allSatisfy { (style.label($0).alignment == .right) == ($0 == type) }
                }))
    }
    for type in ButtonType.allCases {
        func button(
            _ name: String, _ change: @escaping @Sendable (inout ButtonCustomization) throws -> Void,
            _ check: @escaping @Sendable (ResolvedStyle.Button) -> Bool
        ) -> SetterCase {
            SetterCase(
                name: "\(type.rawValue) button \(name)",
                apply: { ui in
                    var button = ButtonCustomization()
                    try change(&button)
                    ui.setButtonCustomization(button, for: type)
                },
                reached: { style in
                    check(style.button(type))
                        && ButtonType.allCases.filter { $0 != type }.allSatisfy { !check(style.button($0)) }
                })
        }
        cases += [
            button("background", { try $0.setBackgroundColor(set) }, { isSet($0.backgroundColor) }),
            button("text colour", { try $0.text.setColor(set) }, { isSet($0.text.color) }),
            button("font name", { try $0.text.setFontName("Menlo") }, { $0.text.fontName == "Menlo" }),
            button("font size", { try $0.text.setFontSize(17) }, { $0.text.fontSize == 17 }),
            button("corner radius", { try $0.setCornerRadius(12) }, { $0.cornerRadius == 12 }),
            button("border width", { try $0.setBorderWidth(2) }, { $0.borderWidth == 2 }),
            button("border colour", { try $0.setBorderColor(set) }, { isSet($0.borderColor) }),
            button("height", { try $0.setHeight(48) }, { $0.height == 48 }),
            button(
                "padding", { try $0.setPadding(start: 1, top: 2, end: 3, bottom: 4) },
                { $0.padding == ButtonPadding(start: 1, top: 2, end: 3, bottom: 4) }),
        ]
    }
    return cases
}()

private func imageAppearance(_ type: UiCustomizationType) -> ImageAppearance {
    switch type {
    case .default: .default
    case .dark: .dark
    case .monochrome: .monochrome
    }
}

@Suite("Customization resolved into one style per element")
struct CustomizationResolutionTests {
    @Test(
        "each setter reaches the resolved style of the form state, for each appearance",
        arguments: UiCustomizationType.allCases, setterCases)
    func setterReachesStyle(_ type: UiCustomizationType, _ setter: SetterCase) throws {
        #expect(!setter.reached(ResolvedStyle(UiCustomization())), "the default style already has it")
        var ui = UiCustomization()
        try setter.apply(&ui)
        let settings = PresentationSettings(uiCustomizations: [type: ui])
        let screen = try formScreen("01")
        let state = settings.applying(PresentationOverrides(appearance: imageAppearance(type))).formState(for: screen)
        #expect(state.style.appearance == type)
        #expect(setter.reached(state.style))
        if type != .default {
            // Set for one appearance only: the default appearance does not draw it.
            #expect(!setter.reached(settings.formState(for: screen).style))
        } else {
            // The default customization is the fallback of the other appearances.
            #expect(
                setter.reached(settings.applying(PresentationOverrides(appearance: .dark)).formState(for: screen).style)
            )
        }
    }

    @Test("NEXT is a button type: its customization is set by name and resolved")
    func nextButton() throws {
        var ui = UiCustomization()
        var next = ButtonCustomization()
        try next.setBackgroundColor(set)
        try ui.setButtonCustomization(next, for: "NEXT")
        #expect(isSet(ui.buttonCustomization(for: .next).backgroundColor))
        #expect(isSet(ResolvedStyle(ui).button(.next).backgroundColor))
    }

    @Test("bad sizes are refused naming the setter")
    func badSizes() {
        var button = ButtonCustomization()
        #expect(throws: ThreeDS2Error.self) { try button.setHeight(0) }
        #expect(throws: ThreeDS2Error.self) { try button.setPadding(start: 0, top: -1, end: 0, bottom: 0) }
        var ui = UiCustomization()
        #expect(throws: ThreeDS2Error.self) { try ui.setBackground("white") }
    }

    @Test("refresh keeps the appearance and the density")
    func refreshKeepsAppearance() throws {
        let page = "<form><input name=otp><button name=go value=ok>OK</button></form>"
        let refresh = "<form><input name=otp2><button name=go value=again>Again</button></form>"
        let screen = try formScreen(
            "05",
            [
                "acsHTML": .string(Base64.urlEncode(Array(page.utf8))),
                "acsHTMLRefresh": .string(Base64.urlEncode(Array(refresh.utf8))),
            ])
        var dark = UiCustomization()
        try dark.toolbar.setHeaderText("Dark")
        var state = PresentationSettings(uiCustomizations: [.dark: dark], density: .extraHigh, appearance: .dark)
            .formState(for: screen)
        _ = state.perform(.refresh)
        #expect(state.refreshed)
        #expect(state.layout.appearance == .dark && state.layout.density == .extraHigh)
        #expect(state.style.appearance == .dark && state.style.toolbar.headerText == "Dark")
    }
}

@Suite("UI customization JSON")
struct UiCustomizationJSONTests {
    @Test("every key of the vocabulary reaches the resolved style of its appearance")
    func fullFile() throws {
        let json = """
            {
              "default": {
                "background": "#FAFAFA",
                "toolbar": {"headerText": "Acme Bank", "buttonText": "Abort", "backgroundColor": "#0B3D91",
                            "textColor": "#FFFFFF", "textFontName": "Avenir", "textFontSize": 18},
                "label": {"textColor": "#222222", "textFontName": "Avenir", "textFontSize": 14,
                          "headingTextColor": "#0B3D91", "headingTextFontName": "Georgia", "headingTextFontSize": 20,
                          "headingTextAlignment": "center",
                          "types": {"WHY_INFO": {"textColor": "#C0392B", "textAlignment": "right", "textFontSize": 12}}},
                "textBox": {"textColor": "#111111", "borderWidth": 2, "borderColor": "#888888", "cornerRadius": 6,
                            "textFontName": "Menlo", "textFontSize": 16},
                "textBoxTwo": {"borderColor": "#C0392B"},
                "buttons": {
                  "SUBMIT": {"backgroundColor": "#1B7F3B", "textColor": "#FFFFFF", "cornerRadius": 8, "borderWidth": 1,
                             "borderColor": "#145A2A", "height": 48, "padding": [16, 8, 16, 8],
                             "textFontName": "Avenir", "textFontSize": 17},
                  "NEXT": {"backgroundColor": "#C0392B", "padding": 4},
                  "CANCEL": {"textColor": "#C0392B"}
                },
                "progress": {"indicatorColor": "#0B3D91", "backgroundColor": "#FFFFFF", "textColor": "#222222",
                             "textFontName": "Avenir", "textFontSize": 13}
              },
              "dark": {"toolbar": {"headerText": "Acme Bank (dark)", "backgroundColor": "#1E1E2E"}},
              "monochrome": {"buttons": {"SUBMIT": {"backgroundColor": "#000000"}}}
            }
            """
        let appearances = try UiCustomization.appearances(fromJSON: Array(json.utf8))
        #expect(Set(appearances.keys) == Set(UiCustomizationType.allCases))
        let settings = PresentationSettings(uiCustomizations: appearances)
        let light = settings.style(for: .default)
        #expect(light.screenBackground?.description == "#FAFAFA")
        #expect(light.toolbar.headerText == "Acme Bank" && light.toolbar.buttonText == "Abort")
        #expect(light.toolbar.backgroundColor?.description == "#0B3D91" && light.toolbar.text.fontSize == 18)
        #expect(light.toolbar.text.color?.description == "#FFFFFF" && light.toolbar.text.fontName == "Avenir")
        #expect(light.label(.infoText).color?.description == "#222222" && light.label(.infoText).fontSize == 14)
        #expect(light.label(.infoHeader).color?.description == "#0B3D91")
        #expect(light.label(.infoHeader).fontName == "Georgia" && light.label(.infoHeader).fontSize == 20)
        #expect(light.label(.infoHeader).alignment == .center)
        #expect(light.label(.whyInfo).color?.description == "#C0392B" && light.label(.whyInfo).alignment == .right)
        #expect(light.label(.whyInfo).fontSize == 12)
        #expect(light.textBox(0).borderWidth == 2 && light.textBox(0).cornerRadius == 6)
        #expect(light.textBox(0).text.fontName == "Menlo" && light.textBox(0).text.color?.description == "#111111")
        #expect(light.textBox(1).borderColor?.description == "#C0392B")
        let submit = light.button(.submit)
        #expect(submit.backgroundColor?.description == "#1B7F3B" && submit.height == 48 && submit.cornerRadius == 8)
        #expect(submit.borderWidth == 1 && submit.borderColor?.description == "#145A2A")
        #expect(submit.padding == ButtonPadding(start: 16, top: 8, end: 16, bottom: 8) && submit.text.fontSize == 17)
        #expect(light.button(.next).padding == ButtonPadding(start: 4, top: 4, end: 4, bottom: 4))
        #expect(light.button(.cancel).text.color?.description == "#C0392B")
        #expect(light.progress.indicatorColor?.description == "#0B3D91" && light.progress.text.fontSize == 13)
        #expect(settings.style(for: .dark).toolbar.headerText == "Acme Bank (dark)")
        #expect(settings.style(for: .monochrome).button(.submit).backgroundColor?.description == "#000000")
    }

    @Test(
        "unknown keys, bad colours and wrong types are errors naming the key",
        arguments: [
            (##"{"sepia": {}}"##, "sepia"),
            (##"{"dark": {"toolbar": {"colour": "#FFFFFF"}}}"##, "dark.toolbar.colour"),
            (
                ##"{"dark": {"buttons": {"SUBMIT": {"backgroundColor": "#12"}}}}"##,
                "dark.buttons.SUBMIT.backgroundColor"
            ),
            (##"{"default": {"buttons": {"VERIFY_ME": {}}}}"##, "default.buttons.VERIFY_ME"),
            (##"{"default": {"label": {"types": {"FOOTER": {}}}}}"##, "default.label.types.FOOTER"),
            (
                ##"{"default": {"label": {"types": {"INFO_TEXT": {"textAlignment": "justify"}}}}}"##,
                "default.label.types.INFO_TEXT.textAlignment"
            ),
            (##"{"default": {"textBox": {"borderWidth": "2"}}}"##, "default.textBox.borderWidth"),
            (##"{"default": {"textBox": {"borderWidth": -1}}}"##, "default.textBox.borderWidth"),
            (##"{"monochrome": {"buttons": {"CANCEL": {"padding": [1, 2]}}}}"##, "monochrome.buttons.CANCEL.padding"),
            (##"{"default": {"background": "red"}}"##, "default.background"),
            (##"{"default": []}"##, "default"),
        ])
    func errors(_ json: String, _ key: String) {
        do {
            _ = try UiCustomization.appearances(fromJSON: Array(json.utf8))
            Issue.record("\(json) was accepted")
        } catch {
            #expect(error.code == .invalidInput && error.message.contains(key), "\(error.message)")
        }
    }
}
