public import ThreeDS2Messages
public import ThreeDS2SDK

/// A key the terminal delivered.
public enum TerminalKey: Sendable, Hashable {
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Space.
    case space
    /// Enter.
    case enter
    /// Escape.
    case escape
    /// Ctrl-C.
    case controlC
    /// Backspace or Delete.
    case backspace
    /// Ctrl-R: show the refresh HTML.
    case refresh
    /// Ctrl-T: show or mask a masked entry (where the ACS offers the toggle).
    case reveal
    /// A printable character.
    case character(Character)
}

extension ChallengeFormState {
    /// The form action a key means on this screen: Tab and the arrows move, Space toggles, Enter activates, Esc and
    /// Ctrl-C cancel, Ctrl-R refreshes, Ctrl-T reveals a masked entry; on a consent question, left/`y` answer yes and
    /// right/`n` answer no (and the table's keys for yes and no, ``TerminalStrings/consentKey(_:)``).
    ///
    /// - Parameter key: The key.
    /// - Returns: The action, or `nil` when the key means nothing here.
    public func action(for key: TerminalKey) -> FormAction? {
        var consent: ConsentKind?
        if case .consent(let kind, _) = focusedElement { consent = kind }
        func answer(_ value: Bool) -> FormAction? {
            switch consent {
            case .trust: .setTrust(value)
            case .deviceBinding: .setDeviceBinding(value)
            case nil: nil
            }
        }
        switch key {
        case .escape, .controlC: return .cancel
        case .tab, .down: return .focusNext
        case .backTab, .up: return .focusPrevious
        case .refresh: return .refresh
        case .reveal: return .toggleReveal
        case .left, .right: return answer(key == .left)
        case .space: return .toggle
        case .enter: return .activate
        case .backspace: return .deleteBackward
        case .character(let character):
            guard consent != nil else { return .type(String(character)) }
            // The keys of the terminal's table (and y/n), the same line mode takes (TerminalStrings.consentKey).
            return TerminalStrings(for: layout.strings).consentKey(String(character)).flatMap(answer)
        }
    }

    /// Applies a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The answer, when the key completes one.
    public mutating func handle(_ key: TerminalKey) -> ChallengeAnswer? {
        guard let action = action(for: key) else { return nil }
        return perform(action)?.answer
    }
}
