public import Foundation
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
    /// Replaces an entry box's text (a native text field bound to it; box 0 or, in 2.3.1, 1); refused with a note
    /// when too long.
    case setEntry(String, box: Int = 0)
    /// Toggles the focused control: an option, a consent question, a section, an HTML checkbox or radio.
    case toggle
    /// Shows or masks the focused entry box's text again, where the ACS offers the toggle (2.3.1).
    case toggleReveal
    /// Activates the focused control: presses a button, submits from a field, chooses a single option.
    case activate
    /// Chooses exactly these options (by key) on a select screen.
    case select([String])
    /// Answers the whitelisting / trust-list question.
    case setTrust(Bool)
    /// Answers the device-binding question (2.3.1).
    case setDeviceBinding(Bool)
    /// Sets HTML form fields by name (text-like controls take the value; radios, checkboxes and selects pick it).
    case setHTMLFields([String: String])
    /// Submits the screen as its submit button does; on an HTML screen, presses this button or link (value, name or
    /// label; the first submit button when `nil`).
    case submit(button: String? = nil)
    /// Asks for a new code.
    case resend
    /// Presses the additional-code button (2.3.1).
    case additionalCode
    /// Continues an out-of-band or information screen.
    case continueChallenge
    /// Presses the open-app button: ``ChallengeFormState/appToOpen`` is set for the presenter's ``OOBAppOpener``.
    case openApp
    /// The bank's app could not be opened: the screen stays, and the next CReq says so (`oobAppStatus`).
    case appOpenFailed
    /// The cardholder came back from the out-of-band app: after the SDK opened it (2.3.1 `oobAppURL`) the screen
    /// continues on its own (`oobContinue` `02`); otherwise `challengeAddInfo` is shown.
    case returnedFromApp
    /// Shows `acsHTMLRefresh` in place of the HTML (the app came back to the foreground).
    case refresh
    /// A web view showing the HTML page submitted this form data (``WebViewPolicy/Decision/submit(_:)``); refused
    /// with a note when longer than 256 characters or on a screen that is not HTML.
    case submitWebForm(String)
    /// Cancels the challenge.
    case cancel
}

/// What a presenter must do after a cardholder action (``ChallengeFormState/perform(_:)``).
public enum FormEffect: Sendable, Hashable {
    /// Send this answer to the SDK: the screen is done.
    case send(ChallengeAnswer)
    /// Open the bank's app at this https link, then report back (``ChallengeFormState/openApp(using:)``);
    /// ``ChallengeFormState/perform(_:opener:)`` does both.
    case openApp(URL)
    /// Keep the screen and show this note (why an answer could not be sent, or what to do in the bank's app).
    case showNote(String)
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
    /// The entry boxes' texts (one, or two on a 2.3.1 screen with `challengeEntryBoxTwo`).
    public private(set) var entries: [String]
    /// The entry boxes whose masked text the cardholder revealed.
    public private(set) var revealed: Set<Int> = []
    /// The chosen option keys, in the order chosen.
    public private(set) var chosen: [String] = []
    /// The trust answer, when asked.
    public private(set) var trust: Bool?
    /// The device-binding answer, when asked (2.3.1).
    public private(set) var deviceBinding: Bool?
    /// The bank's app link the presenter should open now (set by ``FormAction/openApp``, cleared by
    /// ``openApp(using:)``).
    public private(set) var appToOpen: String?
    /// Whether the SDK opened the bank's app from this screen.
    public private(set) var openedApp = false
    /// Whether opening the bank's app failed on this screen (the next CReq carries `oobAppStatus` `01`).
    public private(set) var appOpenFailed = false
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
    ///   - appearance: The appearance in use, for 2.3.1 images.
    ///   - htmlReader: Reads HTML forms into native controls; `nil` for presenters that show HTML in a web view.
    public init(
        screen: ChallengeScreen, customization: UiCustomization = UiCustomization(),
        strings: SDKStrings = .english, density: ScreenDensity = .high, appearance: ImageAppearance = .default,
        htmlReader: (any HTMLFormReader)? = nil
    ) {
        self.htmlReader = htmlReader
        self.entries = Array(repeating: "", count: max(1, screen.entryBoxes.count))
        let layout = ChallengeLayout(
            screen: screen, customization: customization, strings: strings, density: density,
            appearance: appearance, htmlReader: htmlReader)
        self.layout = layout
        self.form = layout.form
        self.focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    /// The screen on show.
    public var screen: ChallengeScreen { layout.screen }

    /// The look of every element, resolved for the appearance in use: what presenters draw.
    public var style: ResolvedStyle { layout.style }

    /// What a ``LayoutElement/text(_:warning:)`` element shows now: on an out-of-band screen, once the cardholder is
    /// back from the bank's app, `challengeAddInfo` replaces the information text (without the warning).
    ///
    /// - Parameters:
    ///   - text: The element's text.
    ///   - warning: The element's warning flag.
    /// - Returns: The text and warning to draw.
    public func shownText(_ text: StyledText, warning: Bool) -> (text: StyledText, warning: Bool) {
        guard returnedFromApp, let info = screen.additionalInfo else { return (text, warning) }
        return screen.uiType == .outOfBand ? (StyledText(plain: info), false) : (text, false)
    }

    /// The focused element.
    public var focusedElement: LayoutElement { layout.elements[focus] }

    /// The first entry box's text.
    public var entry: String { entries[0] }

    /// Whether an entry box shows its text masked now.
    ///
    /// - Parameter box: The box index.
    /// - Returns: `true` when the ACS asked for masking and the cardholder has not revealed it.
    public func isMasked(box: Int) -> Bool {
        entryBox(box).isMasked && !revealed.contains(box)
    }

    /// The settings of an entry box (the 2.1.0 / 2.2.0 box is masked, 45 long).
    public func entryBox(_ box: Int) -> EntryBox {
        for element in layout.elements {
            if case .textField(let index, let settings) = element, index == box { return settings }
        }
        return EntryBox(label: layout.strings[.codeField])
    }

    /// The answer to a consent question, `nil` while untouched.
    public func consent(_ kind: ConsentKind) -> Bool? {
        switch kind {
        case .trust: trust
        case .deviceBinding: deviceBinding
        }
    }

    /// The indices of the focusable elements, in focus order.
    public var focusOrder: [Int] { layout.elements.indices.filter { layout.elements[$0].isFocusable } }

    /// Whether the screen's submit button may be pressed now: an empty entry only where `challengeNoEntry` exists; a
    /// single select only with an option chosen.
    public var canSubmit: Bool {
        switch screen.uiType {
        case .text: entries.contains { !$0.isEmpty } || screen.allowsEmptySubmission
        // A single select asks for a choice rather than sending none (challengeNoEntry stays for multi select).
        case .singleSelect: !chosen.isEmpty
        case .multiSelect: !chosen.isEmpty || screen.allowsEmptySubmission
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
        case .text(let text, let warning): return warning ? "\(strings[.warning]): \(text.plain)" : text.plain
        case .textField(_, let box): return box.label
        case .option(let key, let label, _):
            return "\(label), \(chosen.contains(key) ? strings[.selected] : strings[.notSelected])"
        case .button(_, let label): return label
        case .consent(let kind, let question):
            let state = consent(kind).map { $0 ? strings[.yes] : strings[.no] } ?? strings[.notSelected]
            return "\(question), \(state)"
        case .section(let label, _):
            return "\(label), \(expanded.contains(index) ? strings[.showLess] : strings[.showMore])"
        case .htmlControl(let control):
            guard let form, form.controls.indices.contains(control) else { return "" }
            let item = form.controls[control]
            return item.label.isEmpty ? (item.name ?? item.kind.rawValue) : item.label
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
        case .setEntry(let text, let box):
            guard entries.indices.contains(box) else {
                note = "the screen has no entry box \(box + 1)"
                return nil
            }
            // A whole answer that is too long is refused, not cut: the cardholder sees why and keeps control.
            let limit = entryBox(box).maxLength
            guard text.utf8.count <= Self.maxEntryLength, text.count <= limit else {
                note = Self.tooLong(min(limit, Self.maxEntryLength))
                return nil
            }
            entries[box] = text
        case .toggleReveal:
            guard case .textField(let box, let settings) = focusedElement, settings.offersRevealToggle else {
                return nil
            }
            if revealed.contains(box) { revealed.remove(box) } else { revealed.insert(box) }
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
        case .setDeviceBinding(let value):
            if screen.deviceBindingText != nil { deviceBinding = value }
        case .setHTMLFields(let fields):
            setHTMLFields(fields)
        case .submit(let button):
            return screen.uiType.isHTML ? html(button: button) : submit()
        case .resend:
            // The layout's rule: text screens, and select screens before 2.3.1 (resendChallenge is UI 01 only there).
            let allowed =
                screen.uiType == .text
                || (!screen.messageVersion.limitsResendToText && [.singleSelect, .multiSelect].contains(screen.uiType))
            guard allowed, screen.resendLabel != nil else {
                note = "the screen offers no new code"
                return nil
            }
            return answer(.resend)
        case .additionalCode:
            guard screen.additionalCodeLabel != nil else {
                note = "the screen offers no additional-code button"
                return nil
            }
            return answer(.additionalCode)
        case .continueChallenge:
            return continueAnswer()
        case .openApp:
            guard let url = screen.oobAppURL else {
                note = "the screen offers no app to open"
                return nil
            }
            appToOpen = url
        case .appOpenFailed:
            appToOpen = nil
            appOpenFailed = true
            note = layout.strings[.appOpenFailed]
        case .submitWebForm(let data):
            guard screen.uiType == .html || screen.uiType == .htmlOutOfBand else {
                note = "the screen is not an HTML page"
                return nil
            }
            return htmlAnswer(data)
        case .returnedFromApp:
            returnedFromApp = true
            if openedApp, screen.oobAppURL != nil, screen.uiType == .outOfBand || screen.uiType == .htmlOutOfBand {
                return answer(.oobContinue(automatic: true))
            }
        }
        return nil
    }

    /// Opens the bank's app asked for by ``FormAction/openApp`` through the presenter's opener, and applies what
    /// happened: back from the app continues on its own, a failure keeps the screen with a note. A presenter without
    /// an opener fails to open it.
    ///
    /// - Parameter opener: The presenter's opener, `nil` when it has none.
    /// - Returns: The answer when the cardholder came back from the app; otherwise `nil`.
    public mutating func openApp(using opener: (any OOBAppOpener)?) async -> ChallengeAnswer? {
        guard let link = appToOpen else { return nil }
        appToOpen = nil
        guard let opener, let url = URL(string: link) else { return apply(.appOpenFailed) }
        switch await opener.open(url) {
        case .returned:
            openedApp = true
            return apply(.returnedFromApp)
        case .opened:
            openedApp = true
            note = layout.strings[.finishInApp]
            return nil
        case .failed:
            return apply(.appOpenFailed)
        }
    }

    /// Applies an action and says what the presenter must do: send an answer, open the bank's app, or show a note;
    /// `nil` when it only redraws.
    ///
    /// - Parameter action: What the cardholder did.
    /// - Returns: The effect.
    public mutating func perform(_ action: FormAction) -> FormEffect? {
        if let answer = apply(action) { return .send(answer) }
        if let link = appToOpen {
            if let url = URL(string: link) { return .openApp(url) }
            if let answer = apply(.appOpenFailed) { return .send(answer) }
        }
        return note.map(FormEffect.showNote)
    }

    /// Applies an action and carries out the open-app round trip itself (the one place it is written): when the
    /// action asks for the bank's app, it is opened through `opener` and what happened is applied (back from the app
    /// continues on its own; a failure keeps the screen with a note). What is left for the presenter is to send the
    /// answer or show the note.
    ///
    /// - Parameters:
    ///   - action: What the cardholder did.
    ///   - opener: The presenter's opener, `nil` when it cannot open apps (then opening fails).
    /// - Returns: ``FormEffect/send(_:)``, ``FormEffect/showNote(_:)`` or `nil`; never ``FormEffect/openApp(_:)``.
    public mutating func perform(_ action: FormAction, opener: (any OOBAppOpener)?) async -> FormEffect? {
        let effect = perform(action)
        guard case .openApp = effect else { return effect }
        if let answer = await openApp(using: opener) { return .send(answer) }
        return note.map(FormEffect.showNote)
    }

    /// An answer carrying the consent answers and the app-open failure of this screen.
    private func answer(_ action: CardholderAction) -> ChallengeAnswer {
        ChallengeAnswer(
            action, whitelisting: trust, deviceBinding: deviceBinding,
            oobAppOpenFailed: appOpenFailed && action != .cancel)
    }

    /// The text cut to the entry limit (whole characters, at most `limit` of them and 45 UTF-8 bytes), with a note
    /// when it had to be cut.
    private mutating func bounded(_ text: String, limit: Int) -> String {
        guard text.utf8.count > Self.maxEntryLength || text.count > limit else { return text }
        note = Self.tooLong(min(limit, Self.maxEntryLength))
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= Self.maxEntryLength, kept.count < limit else { break }
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
            density: layout.density, appearance: layout.appearance, htmlReader: htmlReader)
        form = layout.form
        focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    private mutating func edit(_ change: (String) -> String) {
        switch layout.elements[focus] {
        case .textField(let box, let settings):
            entries[box] = bounded(change(entries[box]), limit: settings.maxLength)
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
            note = error.message
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
        case .consent(.trust, _):
            trust = !(trust ?? false)
        case .consent(.deviceBinding, _):
            deviceBinding = !(deviceBinding ?? false)
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
            return apply(.openApp)
        case .button(.resend, _):
            return apply(.resend)
        case .button(.additional, _):
            return apply(.additionalCode)
        case .button(.continue, _):
            return continueAnswer()
        case .button, .textField:
            return submit()
        case .option(let key, _, _):
            // Enter in a form submits, as in a browser: a single select takes the focused option (never unchoosing
            // it), a multi select sends what is ticked (Space ticks).
            if screen.uiType == .singleSelect { chosen = [key] }
            return submit()
        case .section, .consent:
            return toggle()
        case .htmlControl(let index):
            guard let form, form.controls.indices.contains(index) else { return nil }
            if form.controls[index].isSubmitButton { return htmlAnswer(form.submission(pressing: index)) }
            // Enter in a field submits the form as a browser does (its first submit button); Space toggles.
            return html(button: nil)
        case .htmlLink(let index):
            guard let links = form?.links, links.indices.contains(index) else { return nil }
            return htmlAnswer(links[index].query)
        case .toolbar, .images, .heading, .text, .htmlText:
            return nil
        }
    }

    private func continueAnswer() -> ChallengeAnswer? {
        switch screen.uiType {
        case .information: answer(.informationContinue)
        case .outOfBand: answer(.oobContinue())
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
            guard entries.contains(where: { !$0.isEmpty }) else { return answer(.submitEmpty) }
            return answer(.submitText(entries[0], second: entries.count > 1 ? entries[1] : nil))
        case .singleSelect, .multiSelect:
            guard canSubmit else {
                note = layout.strings[.chooseOption]
                return nil
            }
            // Sent in option order, whatever order they were chosen in.
            let ordered = screen.options.map(\.key).filter(chosen.contains)
            return answer(ordered.isEmpty ? .submitEmpty : .submitSelection(ordered))
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
            note = error.message
            return nil
        }
        return htmlAnswer(data)
    }

    private mutating func htmlAnswer(_ data: String) -> ChallengeAnswer? {
        guard data.utf8.count <= Self.maxHTMLDataLength else {
            note = Self.tooLong(Self.maxHTMLDataLength)
            return nil
        }
        return answer(.submitHTML(data))
    }
}

extension HTMLForm.Control {
    /// Whether the control takes typed text.
    public var isTextLike: Bool {
        (kind.isInput || kind == .textarea)
            && ![.checkbox, .radio, .submitInput, .imageInput, .buttonInput, .resetInput].contains(kind)
    }
}

extension HTMLForm {
    /// Toggles a checkbox, checks a radio (unchecking its group), or steps a select to its next option.
    mutating func toggle(index: Int) {
        guard controls.indices.contains(index) else { return }
        let control = controls[index]
        switch control.kind {
        case .checkbox:
            controls[index].checked.toggle()
        case .radio:
            for other in controls.indices
            where controls[other].kind == .radio && controls[other].name == control.name {
                controls[other].checked = false
            }
            controls[index].checked = true
        case .select, .multipleSelect:
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
