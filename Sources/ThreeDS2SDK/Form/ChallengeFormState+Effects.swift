import Foundation

/// Actions in, effects out: what a presenter must do after a cardholder action.
extension ChallengeFormState {
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
}
