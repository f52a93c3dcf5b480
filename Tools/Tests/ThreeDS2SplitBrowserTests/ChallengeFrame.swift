import Testing
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

    /// Waits until the frame draws a screen of this UI type (`01`…`07`).
    func waitForScreen(uiType: String) async throws {
        try await page.enterFrame()
        try await browser.waitUntil("document.querySelector('form.screen[data-ui-type=\"\(uiType)\"]')")
    }

    /// Chooses an option by its key (a radio button or a checkbox).
    func choose(_ key: String) async throws {
        try await page.enterFrame()
        try await browser.click(browser.element("form.screen .options input[value=\"\(key)\"]"))
    }

    /// Ticks the consent question at `index` (in the screen's order).
    func tickConsent(_ index: Int) async throws {
        try await page.enterFrame()
        let boxes = try await browser.elements("form.screen .consent input")
        try #require(boxes.count > index, "the screen has \(boxes.count) consent questions")
        try await browser.click(boxes[index])
    }

    /// Types into the entry box `box` (0 or 1).
    func enter(_ code: String, box: Int) async throws {
        try await page.enterFrame()
        let entries = try await browser.elements(Self.entry)
        try #require(entries.count > box, "the screen has \(entries.count) entry boxes")
        try await browser.type(code, into: entries[box])
    }

    /// Moves into the HTML page's own frame, once the client is listening to it.
    func enterPage() async throws {
        try await page.enterFrame()
        try await browser.waitUntil("document.querySelector('.html iframe[data-ready]')")
        try await browser.switchToFrame(browser.element(".html iframe"))
    }

    /// Presses a button of the screen by its type in lower case (`continue`, `additional`, `submit`, `resend`).
    func press(button type: String) async throws { try await press(type) }

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
