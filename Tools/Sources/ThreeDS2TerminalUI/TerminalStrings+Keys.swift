import Foundation

extension TerminalStrings {
    /// The terminal presenter's texts, each a key of its `Localizable.strings` tables (the raw value).
    public struct Key: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The key's name in the tables.
        public let rawValue: String
        /// The most display columns the text may take in any language (``LayoutRenderer/displayWidth(_:)-swift.type.method``):
        /// 22 for a word or a key, 40 for a label, 80 for a line, 160 for two lines.
        public let columnBudget: Int

        private init(_ rawValue: String, _ columnBudget: Int) {
            self.rawValue = rawValue
            self.columnBudget = columnBudget
        }

        /// The key's name (its ``rawValue``).
        public var description: String { rawValue }

        // The full screen's key help.
        /// The full-screen key help.
        public static let keysHelp = Key("keysHelp", 80)
        /// The key help's part for consent questions; `%1$@` and `%2$@` are the yes and no keys.
        public static let keysAnswer = Key("keysAnswer", 22)
        /// The key help's part for reloading an HTML page.
        public static let keysReload = Key("keysReload", 22)
        /// The plain (screen-reader) key help.
        public static let keysHelpPlain = Key("keysHelpPlain", 160)
        /// The plain key help's sentence for reloading an HTML page.
        public static let keysReloadPlain = Key("keysReloadPlain", 80)
        // The plain (screen-reader) mode's descriptions of controls, each one sentence of the table: the control's
        // name, its label and its state in the language's own order and punctuation.
        /// The word that marks the focused control in plain full screen (`[focus]`).
        public static let plainFocus = Key("plainFocus", 22)
        /// The toolbar's cancel button; `%1$@` is its label.
        public static let plainCancelButton = Key("plainCancelButton", 80)
        /// A button; `%1$@` is its label.
        public static let plainButton = Key("plainButton", 80)
        /// A link; `%1$@` is its text (or the address).
        public static let plainLink = Key("plainLink", 80)
        /// A yes-or-no question; `%1$@` is the question, `%2$@` the answer so far (the SDK's yes or no, or `—`),
        /// `%3$@` and `%4$@` the yes and no keys.
        public static let plainConsent = Key("plainConsent", 80)
        /// An open section; `%1$@` is its label.
        public static let plainSectionOpen = Key("plainSectionOpen", 80)
        /// A closed section; `%1$@` is its label.
        public static let plainSectionClosed = Key("plainSectionClosed", 80)
        /// An entry box showing what was typed; `%1$@` is its label, `%2$@` how much was typed
        /// (``charactersEntered``), `%3$@` the text.
        public static let plainEntry = Key("plainEntry", 80)
        /// A masked entry box; `%1$@` is its label, `%2$@` how much was typed (``charactersEntered``).
        public static let plainEntryHidden = Key("plainEntryHidden", 80)
        /// An entry box showing what was typed, with the key that hides it; placeholders as ``plainEntry``.
        public static let plainEntryToggle = Key("plainEntryToggle", 160)
        /// A masked entry box with the key that shows it; placeholders as ``plainEntryHidden``.
        public static let plainEntryHiddenToggle = Key("plainEntryHiddenToggle", 160)
        /// How much was typed in a field; `%d` is the count (plural forms in the `.stringsdict`). It fills the
        /// entry boxes' descriptions.
        public static let charactersEntered = Key("charactersEntered", 40)
        /// A selected check box; `%1$@` is its label.
        public static let plainCheckboxOn = Key("plainCheckboxOn", 80)
        /// A check box not selected; `%1$@` is its label.
        public static let plainCheckboxOff = Key("plainCheckboxOff", 80)
        /// A selected radio button; `%1$@` is its label.
        public static let plainRadioOn = Key("plainRadioOn", 80)
        /// A radio button not selected; `%1$@` is its label.
        public static let plainRadioOff = Key("plainRadioOff", 80)
        /// An HTML page's list; `%1$@` is its label, `%2$@` the option chosen.
        public static let plainList = Key("plainList", 80)
        /// An HTML page's password field; `%1$@` is its label, `%2$@` how much was typed (``charactersEntered``).
        public static let plainPasswordField = Key("plainPasswordField", 80)
        /// An HTML page's text field; `%1$@` is its label, `%2$@` its text.
        public static let plainTextField = Key("plainTextField", 80)

        // Texts of every mode.
        /// The lead of an information text shown as a warning; `%1$@` is the SDK's word for a warning.
        public static let warningLead = Key("warningLead", 40)
        /// A field of an HTML form in the line mode's list of fields; `%1$@` is its name, `%2$@` its label.
        public static let htmlFieldName = Key("htmlFieldName", 22)
        /// The processing line with the payment system; `%1$@` is the SDK's processing text, `%2$@` the name.
        public static let processingScheme = Key("processingScheme", 22)
        /// The processing line with the payment system and its directory server ID; `%1$@` is the SDK's
        /// processing text, `%2$@` the name, `%3$@` the ID.
        public static let processingSchemeID = Key("processingSchemeID", 22)

        // The line mode's questions, each one sentence.
        /// The question of a single-select screen.
        public static let optionNumber = Key("optionNumber", 40)
        /// The question of a multi-select screen.
        public static let optionNumbers = Key("optionNumbers", 40)
        /// How another button of an HTML page is pressed; `%@` lists the buttons.
        public static let htmlOtherButton = Key("htmlOtherButton", 80)
        /// How an HTML form with several fields is filled; `%1$@` lists the fields, `%2$@` the buttons.
        public static let htmlFields = Key("htmlFields", 160)
        /// A screen's question; `%1$@` is what is asked (a label), `%2$@` the cancel command.
        public static let question = Key("question", 80)
        /// A further question of the same screen (the second entry box); `%1$@` is its label.
        public static let answer = Key("answer", 22)
        /// A command the screen offers; `%1$@` is the word to type, `%2$@` what it does (the ACS's label).
        public static let lineCommand = Key("lineCommand", 80)
        /// What an empty line (Enter) does; `%1$@` is the button's label.
        public static let lineContinue = Key("lineContinue", 80)
        /// What separates the items of a list in a question (field names, buttons): `, `, `、`, `، `.
        public static let listSeparator = Key("listSeparator", 22)
        /// A consent question; `%1$@` is the question, `%2$@` and `%3$@` the yes and no keys.
        public static let consentPrompt = Key("consentPrompt", 80)
        /// The keys of a consent row in full screen; `%1$@` and `%2$@` are the yes and no keys.
        public static let consentKeys = Key("consentKeys", 22)

        // What a person types.
        /// The command that cancels.
        public static let commandCancel = Key("commandCancel", 22)
        /// The command that asks for a new code.
        public static let commandResend = Key("commandResend", 22)
        /// The command that asks for an additional code (2.3.1).
        public static let commandAdditional = Key("commandAdditional", 22)
        /// The command that opens the bank's app.
        public static let commandOpen = Key("commandOpen", 22)
        /// The key answering yes: one character.
        public static let keyYes = Key("keyYes", 22)
        /// The key answering no: one character.
        public static let keyNo = Key("keyNo", 22)

        /// Every key, in the order of the English table.
        public static let allCases: [Key] = [
            .keysHelp, .keysAnswer, .keysReload, .keysHelpPlain, .keysReloadPlain, .plainFocus, .plainCancelButton,
            .plainButton, .plainLink, .plainConsent, .plainSectionOpen, .plainSectionClosed, .plainEntry,
            .plainEntryHidden, .plainEntryToggle, .plainEntryHiddenToggle, .charactersEntered, .plainCheckboxOn,
            .plainCheckboxOff, .plainRadioOn, .plainRadioOff, .plainList, .plainPasswordField, .plainTextField,
            .warningLead, .htmlFieldName, .processingScheme, .processingSchemeID, .optionNumber, .optionNumbers,
            .htmlOtherButton, .htmlFields, .commandCancel, .commandResend, .commandAdditional, .commandOpen, .keyYes,
            .keyNo, .question, .answer, .lineCommand, .lineContinue, .consentPrompt, .consentKeys, .listSeparator,
        ]
    }

    /// A command a person types in line mode.
    public enum Command: Sendable, Hashable, CaseIterable {
        /// Cancel the challenge.
        case cancel
        /// Ask for a new code.
        case resend
        /// Ask for an additional code.
        case additional
        /// Open the bank's app.
        case open

        /// The command's key in the table.
        var key: Key {
            switch self {
            case .cancel: .commandCancel
            case .resend: .commandResend
            case .additional: .commandAdditional
            case .open: .commandOpen
            }
        }

        /// The English word, taken in every language so that a script's input works whatever the locale.
        var englishWord: String {
            switch self {
            case .cancel: "cancel"
            case .resend: "resend"
            case .additional: "additional"
            case .open: "open"
            }
        }
    }

    /// The word a person types for a command, as the table gives it.
    ///
    /// - Parameter command: The command.
    /// - Returns: The word.
    public func word(_ command: Command) -> String { self[command.key] }

    /// The command a typed line is: the table's word or the English one, whatever the case, surrounding spaces
    /// ignored; `nil` for anything else.
    ///
    /// - Parameter typed: The line.
    /// - Returns: The command.
    public func command(_ typed: String) -> Command? {
        let word = typed.trimmingCharacters(in: .whitespaces).lowercased()
        return Command.allCases.first { word == self[$0.key].lowercased() || word == $0.englishWord }
    }

    /// The keys answering a consent question, as shown: the table's yes and no keys.
    public var answerKeys: (yes: String, no: String) { (self[.keyYes], self[.keyNo]) }

    /// A key typed on a consent question as yes or no: the table's keys or `y`/`n`, whatever the case; `nil` for
    /// anything else. Full screen takes the key pressed, line mode the line typed: both take the same keys.
    ///
    /// - Parameter typed: The key or line.
    /// - Returns: `true` for yes, `false` for no, `nil` when it is neither.
    public func consentKey(_ typed: String) -> Bool? {
        let key = typed.trimmingCharacters(in: .whitespaces).lowercased()
        if key == self[.keyYes].lowercased() || key == "y" { return true }
        if key == self[.keyNo].lowercased() || key == "n" { return false }
        return nil
    }
}
