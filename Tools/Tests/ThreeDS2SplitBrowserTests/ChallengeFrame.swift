import ThreeDS2BrowserSupport
import ThreeDS2JOSE

/// The challenge frame as a person uses it: reads its text, types into the code box, presses its buttons. The
/// selectors name what the web client draws (ui.js): the form's elements by their kinds and actions.
struct ChallengeFrame {
    let browser: WebDriverSession
    let page: ChallengeBrowser

    /// The code box of the text screen.
    static let entry = "form.screen .entry input"
    /// A button of the screen by its type (`submit`, `resend`), or the toolbar's cancel button.
    static func button(_ action: String) -> String {
        action == "cancel" ? "header.toolbar button.cancel" : "form.screen button.action.\(action)"
    }

    /// Waits until the frame draws a screen with a code box (the merchant page got `challengeShown`).
    func waitForScreen() async throws {
        try await page.event("challengeShown")
        try await page.enterFrame()
        try await browser.waitUntil("document.querySelector(\"\(Self.entry)\")")
    }

    /// Types into the code box.
    func enter(_ code: String) async throws {
        try await page.enterFrame()
        try await browser.type(code, into: browser.element(Self.entry))
    }

    /// The code box's value.
    func entryValue() async throws -> String {
        try await page.enterFrame()
        return try await browser.property("value", of: browser.element(Self.entry)).stringValue ?? ""
    }

    /// Presses the submit button.
    func submit() async throws { try await press("submit") }

    /// Presses the resend button.
    func resend() async throws { try await press("resend") }

    /// Presses the toolbar's cancel button.
    func cancel() async throws { try await press("cancel") }

    private func press(_ action: String) async throws {
        try await page.enterFrame()
        try await browser.click(browser.element(Self.button(action)))
    }

    /// Waits until the frame's visible text holds `text`; the limit is a backstop for a run that hangs (a loaded 2-core
    /// machine, several browsers starting at once, took over 30 s to show a first screen).
    func waitForText(_ text: String, limit: Duration = .seconds(300)) async throws {
        try await page.enterFrame()
        let quoted = JSONValue.string(text).serialized
        do {
            try await browser.waitUntil("document.body && document.body.innerText.includes(\(quoted))", limit: limit)
        } catch BrowserError.timedOut {
            let shown = try await browser.execute("return document.body ? document.body.innerText : ''")
            throw BrowserTestError("the frame never showed \(quoted); it shows: \(shown.stringValue ?? "")")
        }
    }

    /// After an answer: waits until the frame shows `note` or the merchant's page got `finished` or `failed` (the
    /// leaking build's extra member may make the server refuse the answer).
    func waitForAnswerHandled(note: String) async throws {
        let quoted = JSONValue.string(note).serialized
        // Until it is handled; five minutes is a backstop for a run that hangs, never what the test waits for.
        let deadline = ContinuousClock.now.advanced(by: .seconds(300))
        while ContinuousClock.now < deadline {
            try await browser.switchToTop()
            let ended = try await browser.execute(
                "return (window.threedsEvents || []).some((e) => e.event === 'finished' || e.event === 'failed')")
            if ended == .bool(true) { return }
            try await page.enterFrame()
            do {
                try await browser.waitUntil("document.body.innerText.includes(\(quoted))", limit: .milliseconds(500))
                return
            } catch BrowserError.timedOut {}
        }
        throw BrowserTestError("the answer was never handled")
    }
}
