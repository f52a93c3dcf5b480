public import Foundation

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
    /// Chooses the options numbered in `text` (1-based, separated by commas or spaces, as the screen lists them), as a
    /// presenter that takes typed numbers reads them. Anything that is not the number of an option is refused with a
    /// note naming it, and nothing is chosen: a slip is asked again, never sent.
    case selectNumbered(String)
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
    /// Presses the open-app button: the effect is ``FormEffect/openApp(_:)`` for the presenter's ``OOBAppOpener``.
    case openApp
    /// What became of opening the bank's app: back from it continues on its own, opened asks the cardholder to
    /// finish there, failed keeps the screen and the next CReq says so (`oobAppStatus`).
    case appOpenResult(OOBAppOpenResult)
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
    /// Open the bank's app at this https link through the presenter's ``OOBAppOpener``, then perform
    /// ``FormAction/appOpenResult(_:)`` with what happened (``OOBAppOpenResult/failed`` without an opener).
    case openApp(URL)
    /// Keep the screen and show this note (why an answer could not be sent, or what to do in the bank's app).
    case showNote(String)

    /// The answer to send, when the effect is one.
    public var answer: ChallengeAnswer? {
        if case .send(let answer) = self { return answer }
        return nil
    }
}
