import Foundation
public import ThreeDS2Messages

/// What a presenter reads from the form state to draw it: the shown text, the focus, the entry boxes, the consent
/// answers, whether submit is enabled, and each element's accessibility label.
extension ChallengeFormState {
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

    /// What the platform may fill entry box `box` with (iOS `textContentType`, Android autofill hints).
    ///
    /// In 2.3.1 only what the ACS enabled: `challengeDataEntryAutofill` `Y`, its kind from
    /// `challengeDataEntryAutofillType`; without the flag, `nil`, and a presenter offers no autofill (the ACS asked for
    /// none, so no SMS code or password is suggested). In 2.1.0 and 2.2.0 the ACS cannot say: a one-time code received
    /// by SMS, the common challenge of those versions (the platform suggests one only when a message carries a code).
    ///
    /// - Parameter box: The entry box, `0` for the first.
    public func autofill(box: Int) -> EntryBox.Autofill? {
        screen.messageVersion.hasEntryBoxes ? entryBox(box).autofill : .smsOneTimeCode
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

    /// A typed answer to a consent question (trust list, device binding, whitelisting) as yes or no: the language's
    /// words for yes and no, or their first letters, and English `yes`/`no`/`y`/`n`, whatever the case; `nil` for
    /// anything else, which a presenter asks again rather than reading as no.
    ///
    /// - Parameter typed: What the cardholder typed.
    /// - Returns: `true` for yes, `false` for no, `nil` when it is neither.
    public func consentAnswer(_ typed: String) -> Bool? {
        let word = typed.trimmingCharacters(in: .whitespaces).lowercased()
        guard !word.isEmpty else { return nil }
        let yes = layout.strings[.yes].lowercased()
        let no = layout.strings[.no].lowercased()
        let yesWords: Set<String> = ["yes", "y", yes, String(yes.prefix(1))]
        let noWords: Set<String> = ["no", "n", no, String(no.prefix(1))]
        // A language whose yes and no start alike takes only the whole words for them.
        switch (yesWords.contains(word), noWords.contains(word)) {
        case (true, false): return true
        case (false, true): return false
        default: return nil
        }
    }
}
