import Foundation
public import ThreeDS2Messages

/// The state of one challenge screen, shared by every presenter: the layout, what the cardholder has entered, the
/// focus, the open sections and the note to show; actions in, at most one `ChallengeAnswer` out. Pure value: no
/// I/O and no platform imports, so every interaction is tested without a UI.
///
/// All protocol decisions about a screen's answer are made here: which action continue means on which UI type,
/// when an empty submission is allowed, entry length limits, selection order, the HTML form's submission data, and
/// carrying the trust answer.
///
/// The SDK builds it from the transaction's presentation (``PresentationSettings/formState(for:)``) and hands it to
/// the presenter; the presenter draws it and feeds the cardholder's input through its one entry point,
/// ``perform(_:)``, which returns what to do next.
public struct ChallengeFormState: Sendable {
    /// The longest text entry or selection (`challengeDataEntry`, 45), counted in UTF-8 bytes: an entry within it is
    /// within the limit however an ACS counts.
    public static let maxEntryLength = ChallengeLimits.maxEntryBytes
    /// The longest HTML form data (`challengeHTMLDataEntry`, 256), in UTF-8 bytes.
    public static let maxHTMLDataLength = ChallengeLimits.maxHTMLDataBytes

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
    /// ``FormAction/appOpenResult(_:)``).
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
    /// A note for the cardholder (for example why a submission could not be sent), in the layout's language: the
    /// text of ``noteKey``.
    public private(set) var note: String?
    /// Which of the SDK's texts ``note`` is, when there is a note.
    public private(set) var noteKey: SDKStrings.Key?
    /// Image bytes loaded for the branding zone, by URL.
    public var images: [String: [UInt8]] = [:]
    /// What the screen is drawn with: the transaction's presentation with the presenter's overrides (the look for
    /// each appearance, the texts, the image loader, the density, the appearance, the HTML reader).
    public let presentation: PresentationSettings

    /// Starts on a screen, focused on its first control. Presenters receive form states from the SDK
    /// (``PresentationSettings/formState(for:)``); tests and tools start one here.
    ///
    /// - Parameters:
    ///   - screen: The validated screen.
    ///   - presentation: What it is drawn with; the defaults (English, no customization, no HTML reader) when not
    ///     given.
    public init(screen: ChallengeScreen, presentation: PresentationSettings = PresentationSettings()) {
        self.presentation = presentation
        self.entries = Array(repeating: "", count: max(1, screen.entryBoxes.count))
        let layout = Self.layout(screen, presentation)
        self.layout = layout
        self.form = layout.form
        self.focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    /// The screen on show.
    public var screen: ChallengeScreen { layout.screen }

    /// The look of every element, resolved for the appearance in use: what presenters draw.
    public var style: ResolvedStyle { layout.style }

    private static func layout(_ screen: ChallengeScreen, _ presentation: PresentationSettings) -> ChallengeLayout {
        ChallengeLayout(
            screen: screen, customization: presentation.customization(for: presentation.appearance),
            strings: presentation.strings, density: presentation.density, appearance: presentation.appearance,
            htmlReader: presentation.htmlReader)
    }

    /// Applies an action (``perform(_:)`` is the entry point that says what follows).
    ///
    /// - Parameter action: What the cardholder did.
    /// - Returns: The answer, when the action completes one; otherwise `nil` (and ``note`` may say why).
    mutating func apply(_ action: FormAction) -> ChallengeAnswer? {
        note = nil
        noteKey = nil
        switch action {
        case .cancel: return ChallengeAnswer(.cancel)
        case .focusNext: move(by: 1)
        case .focusPrevious: move(by: -1)
        case .focus(let index): focus(on: index)
        case .refresh: refresh()
        case .type(let text): edit { $0 + text }
        case .deleteBackward: edit { $0.isEmpty ? $0 : String($0.dropLast()) }
        case .setEntry(let text, let box): setEntry(text, box: box)
        case .toggleReveal: toggleReveal()
        case .toggle: return toggle()
        case .activate: return activate()
        case .select(let keys): select(keys)
        case .selectNumbered(let text): return selectNumbered(text)
        case .setTrust(let value): if screen.whitelistingText != nil { trust = value }
        case .setDeviceBinding(let value): if screen.deviceBindingText != nil { deviceBinding = value }
        case .setHTMLFields(let fields): setHTMLFields(fields)
        case .submit(let button): return screen.uiType.isHTML ? html(button: button) : submit()
        case .resend: return resend()
        case .additionalCode: return additionalCode()
        case .continueChallenge: return continueAnswer()
        case .openApp: requestApp()
        case .appOpenResult(let result): return appOpened(result)
        case .submitWebForm(let data): return webForm(data)
        case .returnedFromApp: return cameBackFromApp()
        }
        return nil
    }

    /// Moves the focus to element `index` when it takes focus.
    private mutating func focus(on index: Int) {
        if layout.elements.indices.contains(index), layout.elements[index].isFocusable { focus = index }
    }

    /// Sets entry box `box` to a whole answer; one that is too long is refused, not cut: the cardholder sees why
    /// and keeps control.
    private mutating func setEntry(_ text: String, box: Int) {
        guard entries.indices.contains(box) else {
            setNote(.noteNoEntryBox, box + 1)
            return
        }
        let limit = entryBox(box).maxLength
        guard text.utf8.count <= Self.maxEntryLength, text.count <= limit else {
            setNote(.noteTooLong, min(limit, Self.maxEntryLength))
            return
        }
        entries[box] = text
    }

    /// Shows or hides the focused entry box's text, where the box offers it.
    private mutating func toggleReveal() {
        guard case .textField(let box, let settings) = focusedElement, settings.offersRevealToggle else { return }
        if revealed.contains(box) { revealed.remove(box) } else { revealed.insert(box) }
    }

    /// Chooses options by key (the first only on a single select); an unknown key is refused with a note.
    private mutating func select(_ keys: [String]) {
        let known = screen.options.map(\.key)
        if let unknown = keys.first(where: { !known.contains($0) }) {
            setNote(.noteNoOption, unknown)
            return
        }
        let picked = screen.uiType == .singleSelect ? Array(keys.prefix(1)) : keys
        guard picked.joined(separator: ",").utf8.count <= Self.maxEntryLength else {
            setNote(.noteTooLong, Self.maxEntryLength)
            return
        }
        chosen = picked
    }

    /// Chooses options by their numbers as typed (`2`, `1,3`): out-of-range and non-numeric input is refused.
    private mutating func selectNumbered(_ text: String) -> ChallengeAnswer? {
        let tokens = text.split(whereSeparator: { $0 == "," || $0.isWhitespace })
        var keys: [String] = []
        for token in tokens {
            guard let number = Int(token), screen.options.indices.contains(number - 1) else {
                setNote(.noteNoOption, String(token.prefix(16)))
                return nil
            }
            keys.append(screen.options[number - 1].key)
        }
        guard !keys.isEmpty else {
            setNote(.chooseOption)
            return nil
        }
        return apply(.select(keys))
    }

    /// A new code, where the screen offers one: text screens, and select screens before 2.3.1 (resendChallenge is
    /// UI 01 only there) — the layout's rule.
    private mutating func resend() -> ChallengeAnswer? {
        let allowed =
            screen.uiType == .text
            || (!screen.messageVersion.limitsResendToText && [.singleSelect, .multiSelect].contains(screen.uiType))
        guard allowed, screen.resendLabel != nil else {
            setNote(.noteNoNewCode)
            return nil
        }
        return answer(.resend)
    }

    /// The additional-code button's answer, where the screen has the button.
    private mutating func additionalCode() -> ChallengeAnswer? {
        guard screen.additionalCodeLabel != nil else {
            setNote(.noteNoAdditionalCode)
            return nil
        }
        return answer(.additionalCode)
    }

    /// Asks for the bank's app to be opened (``perform(_:)`` returns the link as the effect).
    private mutating func requestApp() {
        guard let url = screen.oobAppURL else {
            setNote(.noteNoApp)
            return
        }
        appToOpen = url
    }

    /// A web view's form post, on HTML screens only.
    private mutating func webForm(_ data: String) -> ChallengeAnswer? {
        guard screen.uiType == .html || screen.uiType == .htmlOutOfBand else {
            setNote(.noteNotHTML)
            return nil
        }
        return htmlAnswer(data)
    }

    /// Back in the app: after the bank's app was opened from an out-of-band screen, the challenge continues on its
    /// own.
    private mutating func cameBackFromApp() -> ChallengeAnswer? {
        returnedFromApp = true
        if openedApp, screen.oobAppURL != nil, screen.uiType == .outOfBand || screen.uiType == .htmlOutOfBand {
            return answer(.oobContinue(automatic: true))
        }
        return nil
    }

    /// Applies what became of opening the bank's app: back from the app continues on its own, opened leaves a note
    /// to finish there, a failure keeps the screen with a note (and the next CReq says so). Only a failure counts
    /// when no app was asked for.
    private mutating func appOpened(_ result: OOBAppOpenResult) -> ChallengeAnswer? {
        let asked = appToOpen != nil
        appToOpen = nil
        switch result {
        case .returned where asked:
            openedApp = true
            return apply(.returnedFromApp)
        case .opened where asked:
            openedApp = true
            setNote(.finishInApp)
        case .failed:
            appOpenFailed = true
            setNote(.appOpenFailed)
        case .returned, .opened:
            break
        }
        return nil
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
        setNote(.noteTooLong, min(limit, Self.maxEntryLength))
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= Self.maxEntryLength, kept.count < limit else { break }
            kept.append(character)
        }
        return kept
    }

    /// The answer as it leaves the form: held to the CReq builder's own rule (a refused answer keeps the screen, with
    /// a note), then the entered text forgotten (PCI 3DS: sensitive data deleted once no longer needed).
    mutating func release(_ answer: ChallengeAnswer) -> ChallengeAnswer? {
        if ChallengeRequestBuilder.violation(of: answer, answering: screen) != nil {
            setNote(.noteCannotSend)
            return nil
        }
        entries = entries.map { _ in "" }
        revealed = []
        return answer
    }

    /// Sets the note to one of the SDK's texts, in the layout's language.
    private mutating func setNote(_ key: SDKStrings.Key, _ arguments: any CustomStringConvertible...) {
        noteKey = key
        note = SDKStrings.fill(layout.strings[key], arguments.map(\.description))
    }

    /// Sets the note for an HTML submission the page refused.
    private mutating func setNote(_ error: HTMLForm.SubmissionError) {
        switch error.code {
        case .unknownButton: setNote(.noteUnknownButton, error.subject ?? "")
        default: setNote(.noteUnknownField, error.subject ?? "")
        }
    }

    private mutating func move(by step: Int) {
        let order = focusOrder
        guard let position = order.firstIndex(of: focus), !order.isEmpty else { return }
        focus = order[(position + step + order.count) % order.count]
    }

    private mutating func refresh() {
        guard screen.htmlRefresh != nil else { return }
        refreshed = true
        layout = Self.layout(screen.refreshed(), presentation)
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
            setNote(.noteNoHTMLForm)
            return
        }
        do {
            form = try current.filling(fields)
        } catch {
            setNote(error)
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
                    setNote(.noteTooLong, Self.maxEntryLength)
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
        case .option(let key, _, let multiple):
            // Enter on a checkbox ticks it, as Space does: a multi select is sent only from its submit button, so a
            // slip never sends an empty or half-made selection. On a single select Enter takes the focused option
            // (never unchoosing it) and submits, as in a browser.
            if multiple { return toggle() }
            chosen = [key]
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
                setNote(.codeField)
                return nil
            }
            guard entries.contains(where: { !$0.isEmpty }) else { return answer(.submitEmpty) }
            return answer(.submitText(entries[0], second: entries.count > 1 ? entries[1] : nil))
        case .singleSelect, .multiSelect:
            guard canSubmit else {
                setNote(.chooseOption)
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
            setNote(.noteNoHTMLForm)
            return nil
        }
        let data: String
        do {
            data = try form.submission(button: button)
        } catch {
            setNote(error)
            return nil
        }
        return htmlAnswer(data)
    }

    private mutating func htmlAnswer(_ data: String) -> ChallengeAnswer? {
        guard data.utf8.count <= Self.maxHTMLDataLength else {
            setNote(.noteTooLong, Self.maxHTMLDataLength)
            return nil
        }
        return answer(.submitHTML(data))
    }
}
