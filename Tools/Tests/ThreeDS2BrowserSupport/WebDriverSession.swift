import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
public import ThreeDS2JOSE

/// An element of the page, as the WebDriver protocol names it.
public struct WebElement: Sendable, Hashable {
    /// The WebDriver element reference.
    public let reference: String

    /// The JSON a command takes for this element (the W3C element identifier).
    var json: JSONValue { .object([WebElement.key: .string(reference)]) }

    static let key = "element-6066-11e4-a52e-4f735466cecf"
}

/// One browser session over the W3C WebDriver protocol: plain HTTP JSON to `chromedriver` on loopback.
///
/// Each call is one command; a WebDriver error is thrown as ``BrowserError/command(_:status:error:message:)`` with the
/// driver's message. Waits that the page decides (an element appearing, a text changing) are bounded polls run inside
/// the browser (``waitUntil(_:limit:)``).
public struct WebDriverSession: Sendable {
    /// The session's ID.
    public let id: String
    /// The driver's base URL.
    public let driverURL: String
    /// The browser's profile directory: every process of this browser names it on its command line (`pgrep -f`).
    public let profileDirectory: String

    private static let parser = JSONParser(limits: .init(maxBytes: 64 << 20, maxDepth: 64))

    /// Creates a session with headless Chromium.
    ///
    /// - Parameters:
    ///   - driverURL: The driver's base URL.
    ///   - installation: Where the browser is.
    ///   - profileDirectory: A new, empty directory for the browser's profile.
    ///   - windowSize: The window's width and height in CSS pixels.
    /// - Returns: The session.
    public static func create(
        driverURL: String, installation: BrowserInstallation, profileDirectory: String,
        windowSize: (width: Int, height: Int) = (480, 800)
    ) async throws -> WebDriverSession {
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--user-data-dir=\(profileDirectory)", "--window-size=\(windowSize.width),\(windowSize.height)",
            // Nothing but the tests' loopback servers: no update checks, sync, metrics or first-run pages.
            "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--disable-default-apps", "--metrics-recording-only",
            "--disable-features=Translate,OptimizationHints,MediaRouter", "--force-device-scale-factor=1",
            "--disable-crash-reporter", "--disable-breakpad",
        ]
        let options: JSONObject = [
            "binary": .string(installation.chromium), "args": .array(arguments.map(JSONValue.string)),
        ]
        let capabilities: JSONObject = [
            "alwaysMatch": .object([
                "browserName": .string("chrome"), "goog:chromeOptions": .object(options),
                "goog:loggingPrefs": .object(["browser": .string("ALL")]),
                "timeouts": .object(["script": .integer(60_000), "pageLoad": .integer(60_000)]),
            ])
        ]
        let value = try await send(
            "POST", driverURL + "/session", body: .object(["capabilities": .object(capabilities)]),
            command: "new session")
        guard let id = value.objectValue?["sessionId"]?.stringValue else {
            throw BrowserError.malformed("new session: \(value.serialized.prefix(400))")
        }
        return WebDriverSession(id: id, driverURL: driverURL, profileDirectory: profileDirectory)
    }

    /// Ends the session: the driver closes the browser.
    public func quit() async throws {
        _ = try await command("DELETE", "", name: "delete session")
    }

    /// Opens a URL and returns once the page has loaded.
    public func navigate(to url: String) async throws {
        _ = try await command("POST", "/url", ["url": .string(url)], name: "navigate to \(url)")
    }

    /// The first element the CSS selector matches in the current frame.
    public func element(_ selector: String) async throws -> WebElement {
        let value = try await command(
            "POST", "/element", ["using": .string("css selector"), "value": .string(selector)], name: "find \(selector)"
        )
        return try Self.element(in: value, command: selector)
    }

    /// Every element the CSS selector matches in the current frame.
    public func elements(_ selector: String) async throws -> [WebElement] {
        let value = try await command(
            "POST", "/elements", ["using": .string("css selector"), "value": .string(selector)],
            name: "find all \(selector)")
        return try (value.arrayValue ?? []).map { try Self.element(in: $0, command: selector) }
    }

    /// Moves into the frame the element is (an `iframe`).
    public func switchToFrame(_ frame: WebElement) async throws {
        _ = try await command("POST", "/frame", ["id": frame.json], name: "switch to frame")
    }

    /// Moves back to the top-level page.
    public func switchToTop() async throws {
        _ = try await command("POST", "/frame", ["id": .null], name: "switch to top")
    }

    /// Types into the element as a person does: focus, then one key event per character.
    public func type(_ text: String, into element: WebElement) async throws {
        _ = try await command(
            "POST", "/element/\(element.reference)/value", ["text": .string(text)], name: "type into element")
    }

    /// Clicks the element at its centre, as a person does (it must be visible and not covered).
    public func click(_ element: WebElement) async throws {
        _ = try await command("POST", "/element/\(element.reference)/click", [:], name: "click element")
    }

    /// The element's rendered text.
    public func text(of element: WebElement) async throws -> String {
        try await command("GET", "/element/\(element.reference)/text", name: "element text").stringValue ?? ""
    }

    /// One of the element's DOM properties (`value`, `disabled`, …).
    public func property(_ name: String, of element: WebElement) async throws -> JSONValue {
        try await command("GET", "/element/\(element.reference)/property/\(name)", name: "property \(name)")
    }

    /// Runs a script's body in the current frame (`arguments` holds the arguments) and returns what it returns.
    @discardableResult
    public func execute(_ script: String, arguments: [JSONValue] = []) async throws -> JSONValue {
        try await command(
            "POST", "/execute/sync", ["script": .string(script), "args": .array(arguments)], name: "execute script")
    }

    /// Waits, inside the browser, until the JavaScript expression is truthy in the current frame, and returns its
    /// value; polls every 25 ms for at most `limit`.
    ///
    /// The expression is part of the injected script (no `eval`), so it runs under a page's content security policy.
    @discardableResult
    public func waitUntil(_ expression: String, limit: Duration = .seconds(300)) async throws -> JSONValue {
        // One wait inside the browser lasts at most 20 s (the session's script timeout is 60 s, a command's HTTP
        // timeout 90 s); a longer limit is several of them, one after another, until it is met or the limit passes.
        let deadline = ContinuousClock.now.advanced(by: limit)
        repeat {
            let left = max(ContinuousClock.now.duration(to: deadline), .zero)
            if let value = try await waitOnce(expression, limit: min(left, .seconds(20))) { return value }
        } while ContinuousClock.now < deadline
        throw BrowserError.timedOut("\(expression) within \(limit)")
    }

    /// One wait inside the browser: the expression's value once truthy, `nil` when `limit` passed first.
    private func waitOnce(_ expression: String, limit: Duration) async throws -> JSONValue? {
        let milliseconds = limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
        let script = """
            const done = arguments[arguments.length - 1];
            const start = Date.now();
            const check = () => { try { return (\(expression)); } catch (e) { return undefined; } };
            const poll = () => {
                const value = check();
                if (value) { done({ met: true, value: value }); return; }
                if (Date.now() - start > \(milliseconds)) { done({ met: false }); return; }
                setTimeout(poll, 25);
            };
            poll();
            """
        let value = try await command(
            "POST", "/execute/async", ["script": .string(script), "args": .array([])], name: "wait until")
        guard let object = value.objectValue, object["met"]?.boolValue == true else { return nil }
        return object["value"] ?? .null
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        guard let base64 = try await command("GET", "/screenshot", name: "screenshot").stringValue,
            let png = Data(base64Encoded: base64)
        else { throw BrowserError.malformed("screenshot: not base64") }
        return png
    }

    /// The browser's console messages since the last call (Chromium's log), one line each; for error reports.
    public func consoleLog() async throws -> [String] {
        let value = try await command("POST", "/se/log", ["type": .string("browser")], name: "browser log")
        return (value.arrayValue ?? []).compactMap { $0.objectValue?["message"]?.stringValue }
    }

    private func command(_ method: String, _ path: String, _ body: JSONObject? = nil, name: String) async throws
        -> JSONValue
    {
        try await Self.send(
            method, "\(driverURL)/session/\(id)\(path)", body: body.map(JSONValue.object), command: name)
    }

    private static func element(in value: JSONValue, command: String) throws -> WebElement {
        guard let reference = value.objectValue?[WebElement.key]?.stringValue else {
            throw BrowserError.malformed("\(command): \(value.serialized.prefix(200))")
        }
        return WebElement(reference: reference)
    }

    /// One WebDriver command: its `value`, or the WebDriver error it answered.
    private static func send(_ method: String, _ url: String, body: JSONValue?, command: String) async throws
        -> JSONValue
    {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(90))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        let answer = try parser.parse(Array(buffer: bytes))
        let value = answer.objectValue?["value"] ?? .null
        guard response.status == .ok else {
            let details = value.objectValue
            throw BrowserError.command(
                command, status: Int(response.status.code), error: details?["error"]?.stringValue ?? "unknown",
                message: String((details?["message"]?.stringValue ?? answer.serialized).prefix(1_000)))
        }
        return value
    }
}
