import ThreeDS2Messages

extension ScenarioScript {
    /// The one-time-code screen (UI 01), with the scenario's extras: two entry boxes, the additional-code button, the
    /// consent questions, and the lab's images when it serves them.
    static func textScreen(_ challenge: AccessControlServer.Challenge, note: String?, imageBase: String?)
        -> ChallengeScreen
    {
        let version = challenge.record.messageVersion
        let scenario = challenge.record.scenario
        var screen = ChallengeScreen(uiType: .text, messageVersion: version)
        screen.header = "Confirm your payment"
        screen.submitLabel = "Verify"
        screen.resendLabel = "Send a new code"
        screen.whyInfo = InformationSection(
            label: "Why am I asked this?", text: "Your bank checks that it is really you paying.")
        screen.expandInfo = InformationSection(
            label: "Need help?", text: "Call the number on the back of your card.")
        if version.hasEntryBoxes {
            // 2.3.1 (Table A.20): the label lives in the entry box; there is no challengeInfoLabel.
            screen.entryBoxes = entryBoxes(twoBoxes: scenario == .twoEntryBoxes)
            screen.infoText = note ?? "We sent a **one-time code** to your phone ending in 12.\nEnter it below."
        } else {
            screen.infoLabel = "One-time code"
            screen.infoText = note ?? "We sent a one-time code to your phone ending in 12.\nEnter it below."
        }
        if scenario == .additionalCode { screen.additionalCodeLabel = "Use my banking app instead" }
        // Asked in every version that has the question (whitelisting in 2.2.0, the trust list in 2.3.1).
        screen.whitelistingText = "Trust this merchant for future payments?"
        if scenario == .consents, version.hasDeviceBinding {
            screen.deviceBindingText = "Remember this device for future approvals?"
            screen.consentsAboveActions = true
        }
        if let imageBase { addImages(to: &screen, base: imageBase) }
        return screen
    }

    /// The code box, and for the two-box scenario a masked, autofilled one beside the year of birth.
    private static func entryBoxes(twoBoxes: Bool) -> [EntryBox] {
        guard twoBoxes else {
            return [EntryBox(label: "One-time code", keyboard: .numeric, maxLength: 6, isMasked: false)]
        }
        return [
            EntryBox(
                label: "One-time code", keyboard: .numeric, autofill: .smsOneTimeCode, maxLength: 6, isMasked: true,
                offersRevealToggle: true),
            EntryBox(label: "Year of birth", keyboard: .numeric, maxLength: 4, isMasked: false),
        ]
    }

    /// The issuer and payment-system images: by appearance from 2.3.1, by density before.
    private static func addImages(to screen: inout ChallengeScreen, base: String) {
        if screen.messageVersion.hasAppearanceImages {
            screen.issuerImage = ChallengeImage(
                defaultAppearance: base + "/issuer-default.png", dark: base + "/issuer-dark.png",
                monochrome: base + "/issuer-monochrome.png")
            screen.paymentSystemImage = ChallengeImage(
                defaultAppearance: base + "/ps-default.png", dark: base + "/ps-dark.png")
        } else {
            screen.issuerImage = ChallengeImage(medium: base + "/issuer-medium.png", high: base + "/issuer-high.png")
            screen.paymentSystemImage = ChallengeImage(
                medium: base + "/ps-medium.png", extraHigh: base + "/ps-xhigh.png")
        }
    }

    /// The single-choice (UI 02) or multiple-choice (UI 03) screen.
    static func selectScreen(multiple: Bool, version: MessageVersion) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: multiple ? .multiSelect : .singleSelect, messageVersion: version)
        if multiple {
            screen.header = "Security questions"
            screen.infoText = "Which of these did you buy in the last month?"
            screen.infoLabel = "Choose all that apply"
            screen.submitLabel = "Submit"
            screen.options = [
                SelectOption(key: "q1", label: "Train ticket"), SelectOption(key: "q2", label: "Piano"),
                SelectOption(key: "q3", label: "Groceries"),
            ]
        } else {
            screen.header = "Where should we send your code?"
            screen.infoText = "Choose how to receive your one-time code."
            screen.infoLabel = "Send the code by"
            screen.submitLabel = "Continue"
            screen.options = [
                SelectOption(key: "sms", label: "SMS to •••• 12"),
                SelectOption(key: "mail", label: "Email to j•••@example.com"),
            ]
        }
        return screen
    }

    /// The HTML screen (UI 05) with the lab's form page.
    static func htmlScreen(txid: String, error: Bool, resent: Bool = false, version: MessageVersion)
        -> ChallengeScreen
    {
        var screen = ChallengeScreen(uiType: .html, messageVersion: version)
        screen.html = htmlPage(txid: txid, error: error, resent: resent)
        return screen
    }
}
