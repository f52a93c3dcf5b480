// Written by scripts/generate-builtin-english.py from Tools/Sources/ThreeDS2TerminalUI/Resources/en.lproj; do not edit by hand.

extension TerminalStrings {
    /// The English table compiled into the binary, the texts shown when the resource folder is missing.
    static let builtInEnglish: [String: String] = [
        "keysHelp": "Tab/↑↓ move · Space toggle · Enter submit · Esc cancel",
        "keysAnswer": "%1$@/%2$@ answer",
        "keysReload": "Ctrl-R reload",
        "keysHelpPlain": "Keys: Tab next, Shift-Tab back, Space toggle, Enter activate, Escape cancel.",
        "keysReloadPlain": "Control-R reloads the page.",
        "revealToggle": "Control-T shows or hides it",
        "fieldText": "Text field",
        "fieldPassword": "Password field",
        "charactersEntered": "%d characters entered",
        "hidden": "hidden",
        "checkbox": "Checkbox",
        "radioButton": "Radio button",
        "button": "Button",
        "link": "Link",
        "list": "List",
        "choice": "Choice",
        "section": "Section",
        "sectionOpen": "open",
        "sectionClosed": "closed",
        "yesOrNo": "%1$@ or %2$@",
        "optionNumber": "Number",
        "optionNumbers": "Numbers (comma-separated)",
        "htmlOtherButton": "To press another button, add it after a space: %@",
        "htmlFields": "field=value&… (fields: %1$@) then a button (%2$@)",
        "commandCancel": "cancel",
        "commandResend": "resend",
        "commandAdditional": "additional",
        "commandOpen": "open",
        "keyYes": "y",
        "keyNo": "n",
        "question": "%1$@ (type “%2$@” to cancel): ",
        "answer": "%1$@: ",
        "lineCommand": "Type “%1$@”: %2$@",
        "lineContinue": "Press Enter: %1$@",
        "consentPrompt": "%1$@ [%2$@/%3$@]: ",
        "consentKeys": "(%1$@/%2$@)",
        "listSeparator": ", ",
    ]

    /// The English plural forms compiled into the binary, by key and CLDR category.
    static let builtInEnglishPlurals: [String: [String: String]] = [
        "charactersEntered": [
            "one": "%d character entered",
            "other": "%d characters entered",
        ]
    ]
}
