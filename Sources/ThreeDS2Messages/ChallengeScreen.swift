import Foundation

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

    /// Whether an ACS may show this type to an SDK whose interface is HTML only (`sdkInterface` `02`): the HTML types
    /// and 07, which 2.3.1 defines for both interfaces (Annex A, `acsUiType`).
    public var isValidOnHTMLInterface: Bool { isHTML || self == .information }

    /// Whether an ACS may show this type to an SDK whose interface is native only (`sdkInterface` `01`): every type
    /// but the HTML ones.
    public var isValidOnNativeInterface: Bool { !isHTML }
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

/// Screen densities, for choosing 2.1.0 / 2.2.0 `issuerImage` / `psImage` variants.
public enum ScreenDensity: Sendable, Hashable {
    /// Medium density.
    case medium
    /// High density.
    case high
    /// Extra-high density.
    case extraHigh
}

/// The appearance in use, for choosing 2.3.1 `issuerImage` / `psImage` variants (Table A.21/A.22).
public enum ImageAppearance: Sendable, Hashable {
    /// The default (light) appearance.
    case `default`
    /// Dark mode.
    case dark
    /// A monochrome-only display.
    case monochrome
}

/// Image URLs of `issuerImage` / `psImage`: by density (2.1.0, 2.2.0: `medium`, `high`, `extraHigh`) or by
/// appearance (2.3.1: `default`, `dark`, `monochrome`). Every URL is https.
public struct ChallengeImage: Sendable, Hashable {
    /// Medium density.
    public let medium: String?
    /// High density.
    public let high: String?
    /// Extra-high density.
    public let extraHigh: String?
    /// The default appearance (2.3.1).
    public let defaultAppearance: String?
    /// Dark mode (2.3.1).
    public let dark: String?
    /// Monochrome displays (2.3.1).
    public let monochrome: String?

    /// Creates the image set.
    public init(
        medium: String? = nil, high: String? = nil, extraHigh: String? = nil, defaultAppearance: String? = nil,
        dark: String? = nil, monochrome: String? = nil
    ) {
        self.medium = medium
        self.high = high
        self.extraHigh = extraHigh
        self.defaultAppearance = defaultAppearance
        self.dark = dark
        self.monochrome = monochrome
    }

    /// The URL for a screen density and appearance: the appearance's variant when the ACS sent appearances (falling
    /// back to `default`), otherwise the nearest density sent (higher first).
    ///
    /// - Parameters:
    ///   - density: The screen density.
    ///   - appearance: The appearance in use.
    /// - Returns: The URL, or `nil` when the object names none.
    public func url(for density: ScreenDensity, appearance: ImageAppearance = .default) -> String? {
        let byAppearance: String? =
            switch appearance {
            case .default: defaultAppearance
            case .dark: dark ?? defaultAppearance
            case .monochrome: monochrome ?? defaultAppearance
            }
        if let byAppearance { return byAppearance }
        return switch density {
        case .medium: medium ?? high ?? extraHigh
        case .high: high ?? extraHigh ?? medium
        case .extraHigh: extraHigh ?? high ?? medium
        }
    }
}

/// Text with `**bold**` runs (2.3.1 info, why and expand texts); earlier versions' texts are one plain run.
public struct StyledText: Sendable, Hashable, CustomStringConvertible {
    /// One run of text, bold or not.
    public struct Run: Sendable, Hashable {
        /// The text (may contain `\n` line breaks).
        public let text: String
        /// Whether it is shown bold.
        public let isBold: Bool

        /// Creates a run.
        public init(text: String, isBold: Bool) {
            self.text = text
            self.isBold = isBold
        }
    }

    /// The runs, in order; adjacent runs differ in weight.
    public let runs: [Run]

    /// One plain run.
    ///
    /// - Parameter plain: The text, shown as it is.
    public init(plain: String) {
        runs = plain.isEmpty ? [] : [Run(text: plain, isBold: false)]
    }

    /// Reads `**bold**` markup: each pair of `**` opens and closes a bold run; an unpaired `**` is kept as text.
    ///
    /// - Parameter markup: The text as the ACS sent it.
    public init(markup: String) {
        var runs: [Run] = []
        var rest = Substring(markup)
        while let open = rest.range(of: "**") {
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "**") else { break }
            let before = String(rest[..<open.lowerBound])
            let bold = String(after[..<close.lowerBound])
            if !before.isEmpty { Self.append(Run(text: before, isBold: false), to: &runs) }
            if !bold.isEmpty { Self.append(Run(text: bold, isBold: true), to: &runs) }
            rest = after[close.upperBound...]
        }
        if !rest.isEmpty { Self.append(Run(text: String(rest), isBold: false), to: &runs) }
        self.runs = runs
    }

    private static func append(_ run: Run, to runs: inout [Run]) {
        if let last = runs.last, last.isBold == run.isBold {
            runs[runs.count - 1] = Run(text: last.text + run.text, isBold: run.isBold)
        } else {
            runs.append(run)
        }
    }

    /// The text without markup.
    public var plain: String { runs.map(\.text).joined() }

    /// The text without markup.
    public var description: String { plain }
}

/// The settings of one entry box (`challengeEntryBox`, `challengeEntryBoxTwo`; 2.3.1 Table A.26). Text screens of
/// earlier versions get one box built from `challengeInfoLabel`, masked, numeric-agnostic, 45 long.
public struct EntryBox: Sendable, Hashable {
    /// The keyboard the box asks for (`challengeDataEntryKeyboardType`).
    public enum Keyboard: String, Sendable, Hashable {
        /// `01`: digits.
        case numeric = "01"
        /// `02`: letters and digits.
        case alphanumeric = "02"
    }

    /// What the platform may fill in (`challengeDataEntryAutofillType`, with `challengeDataEntryAutofill` `Y`).
    public enum Autofill: String, Sendable, Hashable {
        /// `01`: a one-time code received by SMS (iOS `.oneTimeCode`, Android `smsOTPCode`).
        case smsOneTimeCode = "01"
        /// `02`: a password.
        case password = "02"
    }

    /// The label above the box.
    public let label: String
    /// The keyboard, when the ACS named one.
    public let keyboard: Keyboard?
    /// The autofill, when the ACS enabled it.
    public let autofill: Autofill?
    /// The longest entry, 1–45 (45 when the ACS named none).
    public let maxLength: Int
    /// Whether the entry is masked.
    public let isMasked: Bool
    /// Whether the cardholder may reveal a masked entry (`challengeDataEntryToggle` `Y`).
    public let offersRevealToggle: Bool

    /// Creates an entry box.
    public init(
        label: String, keyboard: Keyboard? = nil, autofill: Autofill? = nil, maxLength: Int = 45,
        isMasked: Bool = true, offersRevealToggle: Bool = false
    ) {
        self.label = label
        self.keyboard = keyboard
        self.autofill = autofill
        self.maxLength = maxLength
        self.isMasked = isMasked
        self.offersRevealToggle = offersRevealToggle
    }
}

/// A collapsible explanation (why-info, expand-info).
public struct InformationSection: Sendable, Hashable {
    /// The label shown collapsed.
    public let label: String?
    /// The text shown expanded (`\n` is a line break; may carry `**bold**` in 2.3.1, see ``ChallengeScreen/styled(_:)``).
    public let text: String?

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - label: The label shown collapsed.
    ///   - text: The text shown expanded.
    public init(label: String?, text: String?) {
        self.label = label
        self.text = text
    }
}

/// A platform-neutral description of one challenge screen, built from a validated CRes: what a presenter draws, and
/// what an ACS writes with `ChallengeResponseBuilder` of ThreeDS2ACSKit (both ends of the CRes share this vocabulary).
public struct ChallengeScreen: Sendable, Hashable {
    /// The UI type.
    public var uiType: UIType
    /// The message version of the transaction.
    public var messageVersion: MessageVersion
    /// The challenge information header.
    public var header: String?
    /// The challenge information text (`\n` is a line break; may carry `**bold**` in 2.3.1).
    public var infoText: String?
    /// The label of the entry field (2.1.0, 2.2.0), or an extra label a 2.3.1 ACS sent anyway.
    public var infoLabel: String?
    /// Whether to show the warning indicator next to the text.
    public var showsWarningIndicator: Bool = false
    /// Additional information shown when the cardholder returns from an out-of-band app.
    public var additionalInfo: String?
    /// The entry boxes of a 2.3.1 text screen (one or two, in order); empty otherwise.
    public var entryBoxes: [EntryBox] = []
    /// The choices, for select screens, in the order sent.
    public var options: [SelectOption] = []
    /// The submit button label.
    public var submitLabel: String?
    /// The resend button label, when the ACS allows resending.
    public var resendLabel: String?
    /// The additional-code button label (`challengeAddLabel`, 2.3.1).
    public var additionalCodeLabel: String?
    /// The out-of-band continue button label.
    public var oobContinueLabel: String?
    /// The out-of-band app URL (2.3.1, or 2.2.0's Bridging extension), https only.
    public var oobAppURL: String?
    /// The out-of-band app button label (2.3.1).
    public var oobAppLabel: String?
    /// What the CRes's Bridging extension said (2.2.0, when the CReqs announced it), if it carried one.
    public var bridging: Bridging.Received?
    /// The information-continue label (2.3.1, UI type 07).
    public var infoContinueLabel: String?
    /// The whitelisting (2.2.0) / trust-list (2.3.1) question; the next CReq must answer it.
    public var whitelistingText: String?
    /// The device-binding question (2.3.1); the next CReq must answer it.
    public var deviceBindingText: String?
    /// Whether the consent questions go above the action buttons (`togglePositionInd` `01`, 2.3.1).
    public var consentsAboveActions: Bool = false
    /// Why-info.
    public var whyInfo: InformationSection?
    /// Expand-info.
    public var expandInfo: InformationSection?
    /// The decoded HTML, for HTML screens.
    public var html: String?
    /// The decoded refresh HTML, shown when the app returns to the foreground.
    public var htmlRefresh: String?
    /// The issuer's image.
    public var issuerImage: ChallengeImage?
    /// The payment system's image.
    public var paymentSystemImage: ChallengeImage?

    /// A screen of `uiType` with nothing on it yet: the validator fills one from a CRes, an ACS fills one to send
    /// (`ChallengeResponseBuilder` of ThreeDS2ACSKit).
    ///
    /// - Parameters:
    ///   - uiType: The UI type.
    ///   - messageVersion: The message version of the transaction.
    public init(uiType: UIType, messageVersion: MessageVersion) {
        self.uiType = uiType
        self.messageVersion = messageVersion
    }

    /// The screen with its refresh HTML in place of the HTML, as shown when the app returns to the foreground
    /// (`acsHTMLRefresh`); the screen itself when it has none.
    public func refreshed() -> ChallengeScreen {
        guard let htmlRefresh else { return self }
        var screen = self
        screen.html = htmlRefresh
        return screen
    }

    /// A text of this screen with its markup read: `**bold**` runs in 2.3.1, one plain run before.
    ///
    /// - Parameter text: The info, why or expand text.
    /// - Returns: The styled text.
    public func styled(_ text: String) -> StyledText {
        messageVersion.hasBoldMarkup ? StyledText(markup: text) : StyledText(plain: text)
    }

    /// Whether a submission with nothing entered is allowed for this screen's version (`challengeNoEntry`).
    public var allowsEmptySubmission: Bool { messageVersion.allowsNoEntry }

    /// Whether the screen asks a consent question (trust list / whitelisting, device binding) that the next CReq
    /// must answer.
    public var asksConsent: Bool { whitelistingText != nil || deviceBindingText != nil }
}
