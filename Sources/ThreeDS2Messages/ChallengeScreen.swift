/// The ACS user-interface type (`acsUiType`).
public enum UIType: String, Sendable, Hashable, CaseIterable {
    /// 01: a text entry (one-time code).
    case text = "01"
    /// 02: a single choice.
    case singleSelect = "02"
    /// 03: a multiple choice.
    case multiSelect = "03"
    /// 04: out of band (another app or device).
    case outOfBand = "04"
    /// 05: an HTML page.
    case html = "05"
    /// 06: an out-of-band HTML page (2.3.1).
    case htmlOutOfBand = "06"
    /// 07: an information screen (2.3.1).
    case information = "07"

    /// Whether the ACS sends HTML for this type.
    public var isHTML: Bool { self == .html || self == .htmlOutOfBand }
}

/// One choice of a select screen: the key sent back and the text shown.
public struct SelectOption: Sendable, Hashable {
    /// The key (the JSON member name), sent back in `challengeDataEntry`.
    public let key: String
    /// The text shown to the cardholder.
    public let label: String

    /// Creates an option.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// Screen densities, for choosing `issuerImage` / `psImage` variants.
public enum ScreenDensity: Sendable, Hashable {
    /// Medium density.
    case medium
    /// High density.
    case high
    /// Extra-high density.
    case extraHigh
}

/// Image URLs by screen density (`issuerImage`, `psImage`).
public struct ChallengeImage: Sendable, Hashable {
    /// Medium density.
    public let medium: String?
    /// High density.
    public let high: String?
    /// Extra-high density.
    public let extraHigh: String?

    /// Creates the image set.
    public init(medium: String?, high: String?, extraHigh: String?) {
        self.medium = medium
        self.high = high
        self.extraHigh = extraHigh
    }

    /// The URL for a screen density, falling back to the nearest density sent (higher first).
    ///
    /// - Parameter density: The screen density.
    /// - Returns: The URL, or `nil` when the object names none.
    public func url(for density: ScreenDensity) -> String? {
        switch density {
        case .medium: medium ?? high ?? extraHigh
        case .high: high ?? extraHigh ?? medium
        case .extraHigh: extraHigh ?? high ?? medium
        }
    }
}

/// A collapsible explanation (why-info, expand-info).
public struct InformationSection: Sendable, Hashable {
    /// The label shown collapsed.
    public let label: String?
    /// The text shown expanded (`\n` is a line break).
    public let text: String?
}

/// A platform-neutral description of one challenge screen, built from a validated CRes: what a presenter draws.
public struct ChallengeScreen: Sendable, Hashable {
    /// The UI type.
    public let uiType: UIType
    /// The message version of the transaction.
    public let messageVersion: MessageVersion
    /// The challenge information header.
    public let header: String?
    /// The challenge information text (`\n` is a line break).
    public let infoText: String?
    /// The label of the entry field.
    public let infoLabel: String?
    /// Whether to show the warning indicator next to the text.
    public let showsWarningIndicator: Bool
    /// Additional information shown when the cardholder returns from an out-of-band app.
    public let additionalInfo: String?
    /// The choices, for select screens, in the order sent.
    public let options: [SelectOption]
    /// The submit button label.
    public let submitLabel: String?
    /// The resend button label, when the ACS allows resending.
    public let resendLabel: String?
    /// The out-of-band continue button label.
    public let oobContinueLabel: String?
    /// The out-of-band app URL (2.3.1), https only.
    public let oobAppURL: String?
    /// The out-of-band app button label (2.3.1).
    public let oobAppLabel: String?
    /// The information-continue label (2.3.1, UI type 07).
    public let infoContinueLabel: String?
    /// The whitelisting / trust-list question; the next CReq must answer it.
    public let whitelistingText: String?
    /// Why-info.
    public let whyInfo: InformationSection?
    /// Expand-info.
    public let expandInfo: InformationSection?
    /// The decoded HTML, for HTML screens.
    public let html: String?
    /// The decoded refresh HTML, shown when the app returns to the foreground.
    public let htmlRefresh: String?
    /// The issuer's image.
    public let issuerImage: ChallengeImage?
    /// The payment system's image.
    public let paymentSystemImage: ChallengeImage?

    /// The screen with its refresh HTML in place of the HTML, as shown when the app returns to the foreground
    /// (`acsHTMLRefresh`); the screen itself when it has none.
    public func refreshed() -> ChallengeScreen {
        guard let htmlRefresh else { return self }
        return ChallengeScreen(
            uiType: uiType, messageVersion: messageVersion, header: header, infoText: infoText, infoLabel: infoLabel,
            showsWarningIndicator: showsWarningIndicator, additionalInfo: additionalInfo, options: options,
            submitLabel: submitLabel,
            resendLabel: resendLabel, oobContinueLabel: oobContinueLabel, oobAppURL: oobAppURL,
            oobAppLabel: oobAppLabel,
            infoContinueLabel: infoContinueLabel, whitelistingText: whitelistingText, whyInfo: whyInfo,
            expandInfo: expandInfo,
            html: htmlRefresh, htmlRefresh: htmlRefresh, issuerImage: issuerImage,
            paymentSystemImage: paymentSystemImage)
    }

    /// Whether a submission with nothing entered is allowed for this screen's version (`challengeNoEntry`).
    public var allowsEmptySubmission: Bool { messageVersion.allowsNoEntry }
}
