public import ThreeDS2Messages
public import ThreeDS2SDK

/// A key the terminal delivered.
public enum TerminalKey: Sendable, Hashable {
    case tab, backTab, up, down, left, right, space, enter, escape, controlC, backspace, refresh
    case character(Character)
}

/// What the cardholder has entered and where the focus is, for one screen; keys in, answer out. No I/O, so every
/// interaction is tested without a terminal.
public struct ScreenState: Sendable {
    /// The layout.
    public private(set) var layout: ChallengeLayout
    /// The index (in `layout.elements`) of the focused element.
    public private(set) var focus: Int
    /// The text entry.
    public private(set) var entry = ""
    /// The chosen option keys.
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

    /// Starts on a layout, focused on its first control.
    public init(layout: ChallengeLayout) {
        self.layout = layout
        self.form = layout.form
        self.focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
    }

    private var focusable: [Int] { layout.elements.indices.filter { layout.elements[$0].isFocusable } }

    /// Applies a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The answer, when the key completes one.
    public mutating func handle(_ key: TerminalKey) -> ChallengeAnswer? {
        note = nil
        switch key {
        case .escape, .controlC:
            return ChallengeAnswer(.cancel)
        case .tab, .down:
            move(by: 1)
        case .backTab, .up:
            move(by: -1)
        case .refresh:
            if layout.screen.htmlRefresh != nil {
                refreshed = true
                layout = ChallengeLayout(
                    screen: layout.screen.refreshed(), customization: layout.customization, strings: layout.strings)
                form = layout.form
                focus = layout.elements.firstIndex(where: \.isFocusable) ?? 0
            }
        case .left, .right:
            if case .trustChoice = layout.elements[focus] { trust = key == .left }
        case .space:
            return toggle()
        case .enter:
            return activate()
        case .backspace:
            edit { $0.isEmpty ? $0 : String($0.dropLast()) }
        case .character(let character):
            if case .trustChoice = layout.elements[focus], let answer = character.lowercased().first {
                if answer == "y" { trust = true } else if answer == "n" { trust = false }
                return nil
            }
            edit { $0.count < 45 ? $0 + String(character) : $0 }
        }
        return nil
    }

    private mutating func move(by step: Int) {
        let order = focusable
        guard let position = order.firstIndex(of: focus), !order.isEmpty else { return }
        focus = order[(position + step + order.count) % order.count]
    }

    private mutating func edit(_ change: (String) -> String) {
        switch layout.elements[focus] {
        case .textField:
            entry = change(entry)
        case .htmlControl(let index):
            guard var current = form, current.controls.indices.contains(index),
                current.controls[index].kind.hasPrefix("input/") || current.controls[index].kind == "textarea",
                !["input/checkbox", "input/radio", "input/submit", "input/image", "input/button", "input/reset"]
                    .contains(current.controls[index].kind)
            else { return }
            current.set(index: index, value: change(current.controls[index].value))
            form = current
        default:
            break
        }
    }

    private mutating func toggle() -> ChallengeAnswer? {
        switch layout.elements[focus] {
        case .option(let key, _, let multiple):
            if multiple {
                if let found = chosen.firstIndex(of: key) { chosen.remove(at: found) } else { chosen.append(key) }
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
            edit { $0.count < 45 ? $0 + " " : $0 }
        default:
            return activate()
        }
        return nil
    }

    private mutating func activate() -> ChallengeAnswer? {
        let screen = layout.screen
        switch layout.elements[focus] {
        case .button(.openOOBApp, _):
            returnedFromApp = true
            return nil
        case .button(.resend, _):
            return ChallengeAnswer(.resend)
        case .button(.continue, _):
            return ChallengeAnswer(
                screen.uiType == .information ? .informationContinue : .oobContinue, whitelisting: trust)
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
            return html(
                button: form.controls[index].value.isEmpty ? form.controls[index].name : form.controls[index].value)
        case .htmlLink(let index):
            guard let links = form?.links, links.indices.contains(index) else { return nil }
            let link = links[index]
            return ChallengeAnswer(.submitHTML(link.query), whitelisting: trust)
        default:
            return nil
        }
    }

    private mutating func submit() -> ChallengeAnswer? {
        let screen = layout.screen
        switch screen.uiType {
        case .text:
            if entry.isEmpty && !screen.allowsEmptySubmission {
                note = layout.strings[.codeField]
                return nil
            }
            return ChallengeAnswer(entry.isEmpty ? .submitEmpty : .submitText(entry), whitelisting: trust)
        case .singleSelect, .multiSelect:
            let ordered = screen.options.map(\.key).filter(chosen.contains)
            if ordered.isEmpty && !screen.allowsEmptySubmission { return nil }
            return ChallengeAnswer(ordered.isEmpty ? .submitEmpty : .submitSelection(ordered), whitelisting: trust)
        case .html, .htmlOutOfBand:
            return html(button: nil)
        case .outOfBand:
            return ChallengeAnswer(.oobContinue, whitelisting: trust)
        case .information:
            return ChallengeAnswer(.informationContinue, whitelisting: trust)
        }
    }

    private mutating func html(button: String?) -> ChallengeAnswer? {
        guard let form else { return nil }
        do {
            return ChallengeAnswer(.submitHTML(try form.submission(button: button)), whitelisting: trust)
        } catch {
            note = "\(error)"
            return nil
        }
    }
}

extension HTMLForm {
    /// Sets a text-like control's value.
    mutating func set(index: Int, value: String) {
        var copy = controls
        copy[index].value = value
        self = replacing(controls: copy)
    }

    /// Toggles a checkbox, checks a radio (unchecking its group), or steps a select to its next option.
    mutating func toggle(index: Int) {
        guard controls.indices.contains(index) else { return }
        var copy = controls
        let control = copy[index]
        switch control.kind {
        case "input/checkbox":
            copy[index].checked.toggle()
        case "input/radio":
            for other in copy.indices where copy[other].kind == "input/radio" && copy[other].name == control.name {
                copy[other].checked = false
            }
            copy[index].checked = true
        case "select", "select/multiple":
            guard !control.options.isEmpty else { return }
            let current = control.options.firstIndex(where: \.selected) ?? -1
            for option in copy[index].options.indices {
                copy[index].options[option].selected = option == (current + 1) % control.options.count
            }
        default:
            return
        }
        self = replacing(controls: copy)
    }
}
