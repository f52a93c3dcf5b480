// Written by scripts/generate-builtin-english.py from Tools/Sources/ThreeDS2TerminalUI/Resources/en.lproj; do not edit by hand.

extension TerminalStrings {
    /// The English table compiled into the binary, the texts shown when the resource folder is missing.
    static let builtInEnglish: [String: String] = [
        "keysHelp": "Tab/↑↓ move · Space toggle · Enter submit · Esc cancel",
        "keysAnswer": "%1$@/%2$@ answer",
        "keysReload": "Ctrl-R reload",
        "keysHelpPlain": "Keys: Tab next, Shift-Tab back, Space toggle, Enter activate, Escape cancel.",
        "keysReloadPlain": "Control-R reloads the page.",
        "plainFocus": "[focus]",
        "plainCancelButton": "Button: %1$@ (Escape)",
        "plainButton": "Button: %1$@",
        "plainLink": "Link: %1$@",
        "plainConsent": "Choice: %1$@ %2$@ (%3$@ or %4$@)",
        "plainSectionOpen": "Section: %1$@, open",
        "plainSectionClosed": "Section: %1$@, closed",
        "plainEntry": "Text field: %1$@, %2$@: %3$@",
        "plainEntryHidden": "Text field: %1$@, %2$@ (hidden)",
        "plainEntryToggle": "Text field: %1$@, %2$@: %3$@, Control-T shows or hides it",
        "plainEntryHiddenToggle": "Text field: %1$@, %2$@ (hidden), Control-T shows or hides it",
        "charactersEntered": "%d characters entered",
        "plainCheckboxOn": "Checkbox %1$@, selected",
        "plainCheckboxOff": "Checkbox %1$@, not selected",
        "plainRadioOn": "Radio button %1$@, selected",
        "plainRadioOff": "Radio button %1$@, not selected",
        "plainList": "List %1$@: %2$@",
        "plainPasswordField": "Password field %1$@, %2$@",
        "plainTextField": "Text field %1$@: %2$@",
        "warningLead": "(!) %1$@: ",
        "htmlFieldName": "%1$@ (%2$@)",
        "processingScheme": "%1$@ — %2$@",
        "processingSchemeID": "%1$@ — %2$@ (%3$@)",
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
