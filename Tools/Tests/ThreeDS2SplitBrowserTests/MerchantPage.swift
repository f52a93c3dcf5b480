import ThreeDS2BrowserSupport
import ThreeDS2JOSE

/// The merchant's checkout page, on another site than the Split-SDK Server (127.0.0.2): it loads the server's
/// `merchant.js`, opens the challenge frame with the session's client token (handed over by `postMessage`, never in a
/// URL) and keeps the frame's events in `window.threedsEvents`. It never sees an input.
enum MerchantPage {
    /// The page and its script; `serverURL` is the Split-SDK Server's origin as the browser reaches it.
    static func pages(serverURL: String) -> [String: SitePage] {
        [
            "/checkout.html": SitePage(
                """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <script type="module" src="/checkout.js"></script></head>
                <body><h1>Shop checkout</h1><p>Total: 19.99 EUR</p><div id="challenge"></div></body></html>
                """,
                headers: [
                    (
                        "Content-Security-Policy",
                        "default-src 'none'; script-src 'self' \(serverURL); frame-src \(serverURL); style-src 'unsafe-inline'"
                    )
                ]),
            "/checkout.js": SitePage(
                """
                import { openChallengeFrame } from '\(serverURL)/client/v1/merchant.js';
                window.threedsEvents = [];
                window.startChallenge = (clientURL, clientToken) => {
                  window.challenge = openChallengeFrame({
                    container: document.getElementById('challenge'), clientURL, clientToken,
                    onEvent: (event) => window.threedsEvents.push(event),
                  });
                  return true;
                };
                window.merchantReady = true;
                """, contentType: "text/javascript; charset=utf-8"),
        ]
    }
}

/// The browser side of a challenge: the merchant page, then the frame.
struct ChallengeBrowser {
    let browser: WebDriverSession

    /// Opens the checkout page and starts the frame with the session's client URL and token.
    func open(checkoutURL: String, clientURL: String, clientToken: String) async throws {
        try await browser.navigate(to: checkoutURL)
        do {
            try await browser.waitUntil("window.merchantReady === true")
        } catch BrowserError.timedOut {
            let console = (try? await browser.consoleLog()) ?? []
            throw BrowserTestError("the checkout page never became ready; the browser's console: \(console)")
        }
        try await browser.execute(
            "return window.startChallenge(arguments[0], arguments[1])",
            arguments: [.string(clientURL), .string(clientToken)])
    }

    /// Waits on the merchant page for an event of the frame (`started`, `challengeShown`, `finished`, `failed`) and
    /// returns it.
    @discardableResult
    func event(_ name: String, limit: Duration = .seconds(300)) async throws -> JSONObject {
        try await browser.switchToTop()
        let value = try await browser.waitUntil(
            "(window.threedsEvents || []).find((e) => e.event === '\(name)' || e.event === 'failed')", limit: limit)
        let event = value.objectValue ?? [:]
        if name != "failed", event["event"]?.stringValue == "failed" {
            let console = (try? await browser.consoleLog()) ?? []
            throw BrowserTestError("the frame failed: \(event.serialized); console: \(console)")
        }
        return event
    }

    /// Every event the merchant page received so far.
    func events() async throws -> [JSONObject] {
        try await browser.switchToTop()
        let value = try await browser.execute("return window.threedsEvents || []")
        return (value.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// Moves into the challenge frame.
    func enterFrame() async throws {
        try await browser.switchToTop()
        try await browser.switchToFrame(browser.element("#challenge iframe"))
    }
}
