// Written by scripts/generate-builtin-english.py from Sources/ThreeDS2SDK/Resources/en.lproj; do not edit by hand.

extension StringsTables {
    /// The English table compiled into the binary, the texts shown when the resource folder is missing.
    static let builtInEnglish: [String: String] = [
        "cancel": "Cancel",
        "processing": "Processing…",
        "continueButton": "Continue",
        "submit": "Submit",
        "resend": "Resend code",
        "secureCheckout": "Secure checkout",
        "warning": "Warning",
        "showMore": "Show",
        "showLess": "Hide",
        "openApp": "Open app",
        "yes": "Yes",
        "no": "No",
        "selected": "selected",
        "notSelected": "not selected",
        "chooseOption": "Choose an option",
        "image": "Image",
        "codeField": "Code entry",
        "timedOut": "The authentication timed out.",
        "cancelled": "Authentication cancelled.",
        "completed": "Authentication finished.",
        "genericError": "The authentication could not be completed.",
        "appOpenFailed": "The bank's app could not be opened. Approve the payment another way, then continue.",
        "finishInApp": "Approve the payment in your bank's app, then come back and continue.",
        "issuer": "issuer",
        "paymentSystem": "payment system",
        "noteNoEntryBox": "This screen has no entry box %d.",
        "noteNoOption": "This screen has no option “%@”.",
        "noteNoNewCode": "This screen offers no new code.",
        "noteNoAdditionalCode": "This screen offers no additional code.",
        "noteNoApp": "This screen offers no app to open.",
        "noteNotHTML": "This screen is not an HTML page.",
        "noteNoHTMLForm": "This screen has no HTML form.",
        "noteTooLong": "The entry is too long: at most %d characters.",
        "noteUnknownField": "The page has no field “%@” for this value.",
        "noteUnknownButton": "The page has no button or link “%@”.",
        "warningJailbroken": "This device is rooted or jailbroken.",
        "warningTampered": "The payment security software has been tampered with.",
        "warningEmulator": "The app is running in an emulator or a virtual machine.",
        "warningDebugger": "A debugger is attached to the app.",
        "warningUnsupportedOS": "This version of the operating system is not supported.",
        "noteCannotSend": "This answer cannot be sent. Change it or cancel.",
        "outcomeNotAuthenticated": "Your bank did not confirm this payment.",
        "outcomeConnectionFailed": "Your bank could not be reached. Check your connection and try again.",
        "outcomeBankError": "Your bank could not complete the authentication. Try again later.",
        "outcomeUnavailable": "The payment could not be checked right now. Try again later.",
    ]

    /// The English plural forms compiled into the binary, by key and CLDR category.
    static let builtInEnglishPlurals: [String: [String: String]] = [
        "noteTooLong": [
            "one": "The entry is too long: at most %d character.",
            "other": "The entry is too long: at most %d characters.",
        ]
    ]
}
