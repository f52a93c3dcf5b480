import Foundation

/// Actions in, effects out: the form state's one entry point.
extension ChallengeFormState {
    /// Applies a cardholder action and says what the presenter must do next: send an answer, open the bank's app
    /// (then report what became of it with ``FormAction/appOpenResult(_:)``), or show a note; `nil` when it only
    /// redraws. An answer is sent only when the CReq can carry it (the CReq builder's one check,
    /// `ChallengeRequestBuilder.violation(of:answering:)`; otherwise the screen stays with a note), and once
    /// it is, the entered text is cleared from the form state.
    ///
    /// - Parameter action: What the cardholder did.
    /// - Returns: The effect.
    public mutating func perform(_ action: FormAction) -> FormEffect? {
        if let answer = apply(action) {
            // The CReq builder's own rule, so a form answer is always one the CReq carries; then the entered text
            // goes from the kept state (the answer holds it until it is sent).
            guard let released = release(answer) else { return note.map(FormEffect.showNote) }
            return .send(released)
        }
        if let link = appToOpen {
            if let url = URL(string: link) { return .openApp(url) }
            return perform(.appOpenResult(.failed))
        }
        return note.map(FormEffect.showNote)
    }
}
