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
        /// The key that shows or hides a masked code.
        public static let revealToggle = Key("revealToggle", 40)

        // The plain mode's names of controls.
        /// A text field.
        public static let fieldText = Key("fieldText", 22)
        /// A password field.
        public static let fieldPassword = Key("fieldPassword", 22)
        /// How much was typed in a field; `%d` is the count (plural forms in the `.stringsdict`).
        public static let charactersEntered = Key("charactersEntered", 40)
        /// A masked field.
        public static let hidden = Key("hidden", 22)
        /// A check box.
        public static let checkbox = Key("checkbox", 22)
        /// A radio button.
        public static let radioButton = Key("radioButton", 22)
        /// A button.
        public static let button = Key("button", 22)
        /// A link.
        public static let link = Key("link", 22)
        /// A list.
        public static let list = Key("list", 22)
        /// A yes-or-no question.
        public static let choice = Key("choice", 22)
        /// A section.
        public static let section = Key("section", 22)
        /// An open section.
        public static let sectionOpen = Key("sectionOpen", 22)
        /// A closed section.
        public static let sectionClosed = Key("sectionClosed", 22)
        /// The keys answering a yes-or-no question; `%1$@` and `%2$@` are the yes and no keys.
        public static let yesOrNo = Key("yesOrNo", 22)

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
            .keysHelp, .keysAnswer, .keysReload, .keysHelpPlain, .keysReloadPlain, .revealToggle, .fieldText,
            .fieldPassword, .charactersEntered, .hidden, .checkbox, .radioButton, .button, .link, .list, .choice,
            .section, .sectionOpen, .sectionClosed, .yesOrNo, .optionNumber, .optionNumbers, .htmlOtherButton,
            .htmlFields, .commandCancel, .commandResend, .commandAdditional, .commandOpen, .keyYes, .keyNo, .question,
            .answer, .lineCommand, .lineContinue, .consentPrompt, .consentKeys, .listSeparator,
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
