public import ThreeDS2Messages

/// What a cardholder can do on a challenge screen. Presenters map their input to these (a key, a tap, a line, a
/// scripted answer); ``ChallengeFormState`` decides what each means.
public enum FormAction: Sendable, Hashable {
    /// Moves the focus to the next control.
    case focusNext
    /// Moves the focus to the previous control.
    case focusPrevious
    /// Moves the focus to a control, by its index in the layout's elements.
    case focus(Int)
    /// Types text into the focused field.
    case type(String)
    /// Deletes the last character of the focused field.
    case deleteBackward
    /// Replaces the code entry's text (a native text field bound to it); refused with a note when too long.
    case setEntry(String)
    /// Toggles the focused control: an option, the trust question, a section, an HTML checkbox or radio.
    case toggle
    /// Activates the focused control: presses a button, submits from a field, chooses a single option.
    case activate
    /// Chooses exactly these options (by key) on a select screen.
    case select([String])
    /// Answers the whitelisting / trust-list question.
    case setTrust(Bool)
    /// Sets HTML form fields by name (text-like controls take the value; radios, checkboxes and selects pick it).
    case setHTMLFields([String: String])
    /// Submits the screen as its submit button does; on an HTML screen, presses this button or link (value, name or
    /// label; the first submit button when `nil`).
    case submit(button: String? = nil)
    /// Asks for a new code.
    case resend
    /// Continues an out-of-band or information screen.
    case continueChallenge
    /// The cardholder opened the out-of-band app and came back.
    case returnedFromApp
    /// Shows `acsHTMLRefresh` in place of the HTML (the app came back to the foreground).
    case refresh
    /// Cancels the challenge.
    case cancel
}

/// The state of one challenge screen, shared by every presenter: the layout, what the cardholder has entered, the
/// focus, the open sections and the note to show; actions in, at most one ``ChallengeAnswer`` out. Pure value: no
/// I/O and no platform imports, so every interaction is tested without a UI.
///
/// All protocol decisions about a screen's answer are made here: which action continue means on which UI type,
/// when an empty submission is allowed, entry length limits, selection order, the HTML form's submission data, and
/// carrying the trust answer.
public struct ChallengeFormState: Sendable {
    /// The longest text entry or selection (`challengeDataEntry`, 45), counted in UTF-8 bytes: an entry within it is
    /// within the limit however an ACS counts.
    public static let maxEntryLength = 45
    /// The longest HTML form data (`challengeHTMLDataEntry`, 256), in UTF-8 bytes.
    public static let maxHTMLDataLength = 256

    /// The layout.
    public private(set) var layout: ChallengeLayout
    /// The index (in `layout.elements`) of the focused element.
    public private(set) var focus: Int
    /// The text entry.
    public private(set) var entry = ""
    /// The chosen option keys, in the order chosen.
    public private(set) var chosen: [String] = []
    /// The trust answer, when asked.
    public private(set) var trust: Bool?
    /// The open sections, by element index.
    public private(set) var expanded: Set<Int> = []
    /// The HTML form with the values entered so far.
    public private(set) var form: HTMLForm?
    /// Whether the cardholder came back from the out-of-band app (then `challengeAddInfo` is shown).
    public private(set) var returnedFromApp = false
    /// Whether the refresh HTML is shown.
    public private(set) var refreshed = false
    /// A note for the cardholder (for example why a submission could not be sent).
    public private(set) var note: String?
    /// Image bytes loaded for the branding zone, by URL.
    public var images: [String: [UInt8]] = [:]

    private let htmlReader: (any HTMLFormReader)?

    /// Starts on a screen, focused on its first control.
    ///
    /// - Parameters:
    ///   - screen: The validated screen.
    ///   - customization: The look for the appearance in use.
    ///   - strings: The SDK texts.
    ///   - density: The screen density, for images.
    ///   - htmlReader: Reads HTML forms into native controls; `nil` for presenters that show HTML in a web view.
    public init(
        screen: ChallengeScreen, customization: UiCustomization = UiCustomization(),
        strings: SDKStrings = .english, density: ScreenDensity = .high, htmlReader: (any HTMLFormReader)? = nil
    ) {
        self.htmlReader = htmlReader
        let layout = ChallengeLayout(
            screen: screen, customization: customization, strings: strings, density: density, htmlReader: htmlReader)
        self.layout = layout
        self.form = layout.form
        self.focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    /// The screen on show.
    public var screen: ChallengeScreen { layout.screen }

    /// The focused element.
    public var focusedElement: LayoutElement { layout.elements[focus] }

    /// The indices of the focusable elements, in focus order.
    public var focusOrder: [Int] { layout.elements.indices.filter { layout.elements[$0].isFocusable } }

    /// Whether the screen's submit button may be pressed now: an empty entry only where `challengeNoEntry` exists.
    public var canSubmit: Bool {
        switch screen.uiType {
        case .text: !entry.isEmpty || screen.allowsEmptySubmission
        case .singleSelect, .multiSelect: !chosen.isEmpty || screen.allowsEmptySubmission
        default: true
        }
    }

    /// The accessibility label of an element: what it is and its state, in the SDK's language.
    ///
    /// - Parameter index: The element's index in `layout.elements`.
    /// - Returns: The label.
    public func accessibilityLabel(of index: Int) -> String {
        let strings = layout.strings
        switch layout.elements[index] {
        case .toolbar(let title, let cancelLabel): return "\(title), \(cancelLabel)"
        case .images(let issuer, let paymentSystem):
            return [issuer, paymentSystem].compactMap { $0?.alternativeText }.joined(separator: ", ")
        case .heading(let text), .htmlText(let text): return text
        case .text(let text, let warning): return warning ? "\(strings[.warning]): \(text)" : text
        case .textField(let label, _, _): return label
        case .option(let key, let label, _):
            return "\(label), \(chosen.contains(key) ? strings[.selected] : strings[.notSelected])"
        case .button(_, let label): return label
        case .trustChoice(let question):
            let state = trust.map { $0 ? strings[.yes] : strings[.no] } ?? strings[.notSelected]
            return "\(question), \(state)"
        case .section(let label, _):
            return "\(label), \(expanded.contains(index) ? strings[.showLess] : strings[.showMore])"
        case .htmlControl(let control):
            guard let form, form.controls.indices.contains(control) else { return "" }
            let item = form.controls[control]
            return item.label.isEmpty ? (item.name ?? item.kind) : item.label
        case .htmlLink(let link):
            return form?.links.indices.contains(link) == true ? form?.links[link].label ?? "" : ""
        }
    }

    /// Applies an action.
    ///
    /// - Parameter action: What the cardholder did.
    /// - Returns: The answer, when the action completes one; otherwise `nil` (and ``note`` may say why).
    public mutating func apply(_ action: FormAction) -> ChallengeAnswer? {
        note = nil
        switch action {
        case .cancel:
            return ChallengeAnswer(.cancel)
        case .focusNext:
            move(by: 1)
        case .focusPrevious:
            move(by: -1)
        case .focus(let index):
            if layout.elements.indices.contains(index), layout.elements[index].isFocusable { focus = index }
        case .refresh:
            refresh()
        case .type(let text):
            edit { $0 + text }
        case .deleteBackward:
            edit { $0.isEmpty ? $0 : String($0.dropLast()) }
        case .setEntry(let text):
            // A whole answer that is too long is refused, not cut: the cardholder sees why and keeps control.
            guard text.utf8.count <= Self.maxEntryLength else {
                note = Self.tooLong(Self.maxEntryLength)
                return nil
            }
            entry = text
        case .toggle:
            return toggle()
        case .activate:
            return activate()
        case .select(let keys):
            let known = screen.options.map(\.key)
            if let unknown = keys.first(where: { !known.contains($0) }) {
                note = "the screen has no option \"\(unknown)\""
                return nil
            }
            let picked = screen.uiType == .singleSelect ? Array(keys.prefix(1)) : keys
            guard picked.joined(separator: ",").utf8.count <= Self.maxEntryLength else {
                note = Self.tooLong(Self.maxEntryLength)
                return nil
            }
            chosen = picked
        case .setTrust(let value):
            if screen.whitelistingText != nil { trust = value }
        case .setHTMLFields(let fields):
            setHTMLFields(fields)
        case .submit(let button):
            return screen.uiType.isHTML ? html(button: button) : submit()
        case .resend:
            guard screen.uiType == .text, screen.resendLabel != nil else {
                note = "the screen offers no new code"
                return nil
            }
            return ChallengeAnswer(.resend)
        case .continueChallenge:
            return continueAnswer()
        case .returnedFromApp:
            returnedFromApp = true
        }
        return nil
    }

    /// The text cut to the entry limit (whole characters), with a note when it had to be cut.
    private mutating func bounded(_ text: String) -> String {
        guard text.utf8.count > Self.maxEntryLength else { return text }
        note = Self.tooLong(Self.maxEntryLength)
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= Self.maxEntryLength else { break }
            kept.append(character)
        }
        return kept
    }

    private static func tooLong(_ limit: Int) -> String { "The entry is too long: at most \(limit) characters." }

    private mutating func move(by step: Int) {
        let order = focusOrder
        guard let position = order.firstIndex(of: focus), !order.isEmpty else { return }
        focus = order[(position + step + order.count) % order.count]
    }

    private mutating func refresh() {
        guard screen.htmlRefresh != nil else { return }
        refreshed = true
        layout = ChallengeLayout(
            screen: screen.refreshed(), customization: layout.customization, strings: layout.strings,
            htmlReader: htmlReader)
        form = layout.form
        focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    private mutating func edit(_ change: (String) -> String) {
        switch layout.elements[focus] {
        case .textField:
            entry = bounded(change(entry))
        case .htmlControl(let index):
            guard var current = form, current.controls.indices.contains(index), current.controls[index].isTextLike
            else { return }
            current.controls[index].value = change(current.controls[index].value)
            form = current
        default:
            break
        }
    }

    private mutating func setHTMLFields(_ fields: [String: String]) {
        guard let current = form else {
            note = "the screen has no HTML form"
            return
        }
        do {
            form = try current.filling(fields)
        } catch {
            note = error.description
        }
    }

    private mutating func toggle() -> ChallengeAnswer? {
        switch layout.elements[focus] {
        case .option(let key, _, let multiple):
            if multiple {
                if let found = chosen.firstIndex(of: key) {
                    chosen.remove(at: found)
                } else if (chosen + [key]).joined(separator: ",").utf8.count <= Self.maxEntryLength {
                    chosen.append(key)
                } else {
                    note = Self.tooLong(Self.maxEntryLength)
                }
            } else {
                chosen = [key]
            }
        case .trustChoice:
            trust = !(trust ?? false)
        case .section:
            if expanded.contains(focus) { expanded.remove(focus) } else { expanded.insert(focus) }
        case .htmlControl(let index):
            form?.toggle(index: index)
        case .textField:
            edit { $0 + " " }
        default:
            return activate()
        }
        return nil
    }

    private mutating func activate() -> ChallengeAnswer? {
        switch layout.elements[focus] {
        case .button(.openOOBApp, _):
            returnedFromApp = true
            return nil
        case .button(.resend, _):
            return apply(.resend)
        case .button(.continue, _):
            return continueAnswer()
        case .button, .textField:
            return submit()
        case .option:
            _ = toggle()
            return screen.uiType == .singleSelect ? submit() : nil
        case .section, .trustChoice:
            return toggle()
        case .htmlControl(let index):
            guard let form, form.controls.indices.contains(index), form.controls[index].isSubmitButton else {
                return toggle()
            }
            return htmlAnswer(form.submission(pressing: index))
        case .htmlLink(let index):
            guard let links = form?.links, links.indices.contains(index) else { return nil }
            guard links[index].query.utf8.count <= Self.maxHTMLDataLength else {
                note = Self.tooLong(Self.maxHTMLDataLength)
                return nil
            }
            return ChallengeAnswer(.submitHTML(links[index].query), whitelisting: trust)
        case .toolbar, .images, .heading, .text, .htmlText:
            return nil
        }
    }

    private func continueAnswer() -> ChallengeAnswer? {
        switch screen.uiType {
        case .information: ChallengeAnswer(.informationContinue, whitelisting: trust)
        case .outOfBand: ChallengeAnswer(.oobContinue, whitelisting: trust)
        default: nil
        }
    }

    private mutating func submit() -> ChallengeAnswer? {
        switch screen.uiType {
        case .text:
            guard canSubmit else {
                note = layout.strings[.codeField]
                return nil
            }
            return ChallengeAnswer(entry.isEmpty ? .submitEmpty : .submitText(entry), whitelisting: trust)
        case .singleSelect, .multiSelect:
            guard canSubmit else {
                note = layout.strings[.chooseOption]
                return nil
            }
            // Sent in option order, whatever order they were chosen in.
            let ordered = screen.options.map(\.key).filter(chosen.contains)
            return ChallengeAnswer(ordered.isEmpty ? .submitEmpty : .submitSelection(ordered), whitelisting: trust)
        case .html, .htmlOutOfBand:
            return html(button: nil)
        case .outOfBand, .information:
            return continueAnswer()
        }
    }

    private mutating func html(button: String?) -> ChallengeAnswer? {
        guard let form else {
            note = "the screen has no HTML form"
            return nil
        }
        let data: String
        do {
            data = try form.submission(button: button)
        } catch {
            note = error.description
            return nil
        }
        return htmlAnswer(data)
    }

    private mutating func htmlAnswer(_ data: String) -> ChallengeAnswer? {
        guard data.utf8.count <= Self.maxHTMLDataLength else {
            note = Self.tooLong(Self.maxHTMLDataLength)
            return nil
        }
        return ChallengeAnswer(.submitHTML(data), whitelisting: trust)
    }
}

extension HTMLForm.Control {
    /// Whether the control takes typed text.
    var isTextLike: Bool {
        (kind.hasPrefix("input/") || kind == "textarea")
            && !["input/checkbox", "input/radio", "input/submit", "input/image", "input/button", "input/reset"]
                .contains(kind)
    }
}

extension HTMLForm {
    /// Toggles a checkbox, checks a radio (unchecking its group), or steps a select to its next option.
    mutating func toggle(index: Int) {
        guard controls.indices.contains(index) else { return }
        let control = controls[index]
        switch control.kind {
        case "input/checkbox":
            controls[index].checked.toggle()
        case "input/radio":
            for other in controls.indices
            where controls[other].kind == "input/radio" && controls[other].name == control.name {
                controls[other].checked = false
            }
            controls[index].checked = true
        case "select", "select/multiple":
            guard !control.options.isEmpty else { return }
            let current = control.options.firstIndex(where: \.selected) ?? -1
            for option in controls[index].options.indices {
                controls[index].options[option].selected = option == (current + 1) % control.options.count
            }
        default:
            return
        }
    }
}
