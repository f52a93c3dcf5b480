import Foundation
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE

#if canImport(Glibc)
    import Glibc
#endif

/// The harness itself, against small pages on loopback: a real headless Chromium typing, clicking, reading, waiting,
/// crossing into a frame of another site, taking a screenshot, and leaving no process behind.
@Suite("Headless Chromium over WebDriver", .serialized)
struct BrowserHarnessTests {
    /// A form whose button writes the typed text into a paragraph a moment later (as a page answering a server does),
    /// and a frame from another site.
    static func pages(frameOrigin: String) -> [String: SitePage] {
        [
            "/form.html": SitePage(
                """
                <!doctype html><html><head><title>Harness</title><script src="/form.js"></script></head>
                <body><h1 id="title">Hello from the harness</h1>
                <label for="code">Code</label><input id="code" inputmode="numeric">
                <button id="send" type="button">Send</button><p id="echo"></p>
                <iframe id="frame" src="\(frameOrigin)/frame.html" width="300" height="80"></iframe></body></html>
                """),
            "/form.js": SitePage(
                """
                document.addEventListener('DOMContentLoaded', () => {
                  document.getElementById('send').addEventListener('click', () => {
                    const value = document.getElementById('code').value;
                    setTimeout(() => { document.getElementById('echo').textContent = 'You typed ' + value; }, 50);
                  });
                });
                """, contentType: "text/javascript"),
            "/frame.html": SitePage(
                "<!doctype html><p id=\"inside\">Inside the frame</p>",
                headers: [("Content-Security-Policy", "default-src 'none'")]),
        ]
    }

    @Test("types, clicks, waits for the page, reads text and runs scripts; a frame of another site; a screenshot")
    func drivesAPage() async throws {
        let frameSite = try await StaticSite.start(host: "127.0.0.2", pages: Self.pages(frameOrigin: ""))
        let site = try await StaticSite.start(pages: Self.pages(frameOrigin: frameSite.baseURL))
        var profile = ""
        do {
            try await Browser.run { browser in
                profile = browser.profileDirectory
                try await browser.navigate(to: site.baseURL + "/form.html")
                #expect(try await browser.text(of: browser.element("#title")) == "Hello from the harness")
                let input = try await browser.element("#code")
                try await browser.type("123456", into: input)
                #expect(try await browser.property("value", of: input) == .string("123456"))
                try await browser.click(browser.element("#send"))
                let echoed = try await browser.waitUntil("document.getElementById('echo').textContent")
                #expect(echoed == .string("You typed 123456"))
                #expect(try await browser.execute("return arguments[0] + 1", arguments: [.integer(41)]) == .integer(42))
                #expect(try await browser.execute("return window.isSecureContext") == .bool(true))
                try await browser.switchToFrame(browser.element("#frame"))
                #expect(try await browser.text(of: browser.element("#inside")) == "Inside the frame")
                #expect(try await browser.execute("return location.origin") == .string(frameSite.baseURL))
                try await browser.switchToTop()
                let path = try await Browser.screenshot(browser, name: "harness-form")
                let png = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                #expect(png.count > 1_000)
            }
        } catch {
            await site.stop()
            await frameSite.stop()
            throw error
        }
        await site.stop()
        await frameSite.stop()
        #expect(!profile.isEmpty)
        #expect(processes(naming: profile).isEmpty, "a Chromium process outlived its test")
    }

    @Test("a missing element, an unmet wait and a failing body are errors that end the browser all the same")
    func errorsEndTheBrowser() async throws {
        let site = try await StaticSite.start(pages: Self.pages(frameOrigin: "http://127.0.0.2:1"))
        var profile = ""
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await Browser.run { browser in
                profile = browser.profileDirectory
                try await browser.navigate(to: site.baseURL + "/form.html")
                do {
                    _ = try await browser.element("#absent")
                    Issue.record("found an element that is not there")
                } catch BrowserError.command(_, let status, let error, _) {
                    #expect(status == 404)
                    #expect(error == "no such element")
                }
                do {
                    try await browser.waitUntil(
                        "document.getElementById('echo').textContent", limit: .milliseconds(200))
                    Issue.record("a wait for a text that never comes returned")
                } catch BrowserError.timedOut {}
                throw Stop()
            }
        }
        await site.stop()
        #expect(!profile.isEmpty)
        #expect(processes(naming: profile).isEmpty, "a Chromium process outlived its test")
    }

    @Test("stopping the driver kills its process group: the driver and every browser it started")
    func stopLeavesNoProcess() async throws {
        let installation = try BrowserInstallation.find()
        let driver = try await ChromeDriverProcess.start(installation)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("threeds2-harness-\(UUID())")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        // A session that is never quit: stop() alone must end the browser.
        _ = try await WebDriverSession.create(
            driverURL: driver.baseURL, installation: installation, profileDirectory: profile.path)
        #expect(!processes(naming: profile.path).isEmpty)
        #expect(getpgid(driver.pid) == driver.pid)
        driver.stop()
        #expect(
            ChromeDriverProcess.liveProcesses(inGroup: driver.pid).isEmpty,
            "a process of the driver's group is still running")
        #expect(processes(naming: profile.path).isEmpty, "a Chromium process outlived its driver")
    }

    @Test("a driver that lost the race for its port is started again; any other failure to start is not")
    func portRaceIsRetried() {
        // What chromedriver 156 printed in CI when another test held the IPv4 side of the port it had chosen.
        let lost = """
            Starting ChromeDriver 156.0.8078.108 on port 0
            Only local connections are allowed.
            [1795862691.572][SEVERE]: bind() failed: Address already in use (98)
            IPv4 port not available. Exiting...
            """
        #expect(ChromeDriverProcess.isPortRace(lost))
        #expect(!ChromeDriverProcess.isPortRace("error while loading shared libraries: libnss3.so"))
        #expect(!ChromeDriverProcess.isPortRace(""))
    }

    @Test("the recording relay holds every byte between the browser and a server, both ways, and the page works")
    func recordingRelay() async throws {
        let site = try await StaticSite.start(pages: Self.pages(frameOrigin: "http://127.0.0.2:1"))
        let proxy = try await RecordingProxy.start()
        proxy.forward(to: try #require(Int(site.baseURL.split(separator: ":").last ?? "")))
        do {
            try await Browser.run { browser in
                try await browser.navigate(to: proxy.baseURL + "/form.html")
                #expect(try await browser.text(of: browser.element("#title")) == "Hello from the harness")
            }
        } catch {
            await proxy.stop()
            await site.stop()
            throw error
        }
        await proxy.stop()
        await site.stop()
        let sent = proxy.connections.map { String(decoding: $0.sent, as: UTF8.self) }.joined()
        let received = proxy.connections.map { String(decoding: $0.received, as: UTF8.self) }.joined()
        #expect(sent.contains("GET /form.html HTTP/1.1\r\n"))
        #expect(sent.contains("GET /form.js HTTP/1.1\r\n"))
        #expect(received.contains("HTTP/1.1 200 OK\r\n"))
        #expect(received.contains("Hello from the harness"))
        #expect(received.contains("document.addEventListener('DOMContentLoaded'"))
    }

    @Test("without Debian's packages, a clear error naming them (never a skipped test)")
    func missingBrowser() throws {
        do {
            _ = try BrowserInstallation.find(environment: ["THREEDS_CHROMIUM": "/nonexistent/chromium"])
            Issue.record("found a browser at a path that does not exist")
        } catch {
            #expect("\(error)".contains("apt-get install chromium chromium-driver"))
            #expect("\(error)".contains("/nonexistent/chromium"))
        }
    }
}

/// The IDs of the live processes whose command line contains `text` (`pgrep -f`, read from `/proc`); zombies aside.
func processes(naming text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let pid = Int32(entry),
            let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
            String(decoding: commandLine, as: UTF8.self).contains(text),
            let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
            !status.contains("State:\tZ")
        else { return nil }
        return pid
    }
}
