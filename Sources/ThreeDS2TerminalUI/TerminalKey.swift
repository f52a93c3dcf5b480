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
    /// A printable character.
    case character(Character)
}

extension ChallengeFormState {
    /// The form action a key means on this screen: Tab and the arrows move, Space toggles, Enter activates, Esc and
    /// Ctrl-C cancel, Ctrl-R refreshes; on the trust question, left/`y` answer yes and right/`n` answer no.
    ///
    /// - Parameter key: The key.
    /// - Returns: The action, or `nil` when the key means nothing here.
    public func action(for key: TerminalKey) -> FormAction? {
        let onTrust: Bool
        if case .trustChoice = focusedElement { onTrust = true } else { onTrust = false }
        switch key {
        case .escape, .controlC: return .cancel
        case .tab, .down: return .focusNext
        case .backTab, .up: return .focusPrevious
        case .refresh: return .refresh
        case .left, .right: return onTrust ? .setTrust(key == .left) : nil
        case .space: return .toggle
        case .enter: return .activate
        case .backspace: return .deleteBackward
        case .character(let character):
            guard onTrust else { return .type(String(character)) }
            switch character.lowercased() {
            case "y": return .setTrust(true)
            case "n": return .setTrust(false)
            default: return nil
            }
        }
    }

    /// Applies a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The answer, when the key completes one.
    public mutating func handle(_ key: TerminalKey) -> ChallengeAnswer? {
        guard let action = action(for: key) else { return nil }
        return apply(action)
    }
}
