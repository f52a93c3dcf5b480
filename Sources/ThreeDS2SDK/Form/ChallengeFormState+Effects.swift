import Foundation

/// Actions in, effects out: the form state's one entry point.
extension ChallengeFormState {
    /// Applies a cardholder action and says what the presenter must do next: send an answer, open the bank's app
    /// (then report what became of it with ``FormAction/appOpenResult(_:)``), or show a note; `nil` when it only
    /// redraws.
    ///
    /// - Parameter action: What the cardholder did.
    /// - Returns: The effect.
    public mutating func perform(_ action: FormAction) -> FormEffect? {
        if let answer = apply(action) { return .send(answer) }
        if let link = appToOpen {
            if let url = URL(string: link) { return .openApp(url) }
            return perform(.appOpenResult(.failed))
        }
        return note.map(FormEffect.showNote)
    }
}
