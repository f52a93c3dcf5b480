public import Foundation

/// Headless Chromium for one test: Debian's browser driven through Debian's `chromedriver`, always closed.
public enum Browser {
    /// Starts the driver and a session (a new profile in a temporary directory), runs `body`, then ends the session,
    /// kills the driver's process group and removes the profile, whether `body` returned or threw.
    ///
    /// - Parameters:
    ///   - windowSize: The window's width and height in CSS pixels.
    ///   - body: The test's use of the browser.
    /// - Returns: What `body` returned.
    public static func run<T>(
        windowSize: (width: Int, height: Int) = (480, 800), _ body: (WebDriverSession) async throws -> T
    ) async throws -> T {
        let installation = try BrowserInstallation.find()
        let driver = try await ChromeDriverProcess.start(installation)
        defer { driver.stop() }
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("threeds2-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: profile) }
        let session: WebDriverSession
        do {
            session = try await WebDriverSession.create(
                driverURL: driver.baseURL, installation: installation, profileDirectory: profile.path,
                windowSize: windowSize)
        } catch {
            throw BrowserError.driverDidNotStart("\(error); the driver printed: \(driver.printed)")
        }
        do {
            let result = try await body(session)
            try? await session.quit()
            return result
        } catch {
            try? await session.quit()
            throw error
        }
    }

    /// Where screenshots go, for a person to look at: `.build-artifacts/split-browser/` in the repository's root (a
    /// build folder, never committed).
    public static var artifactsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build-artifacts/split-browser", isDirectory: true)
    }

    /// Takes a screenshot of the viewport and writes it as `<name>.png` in ``artifactsDirectory``; prints and returns
    /// the path.
    ///
    /// - Parameters:
    ///   - session: The browser.
    ///   - name: The file's name without `.png` (letters, digits, `-`).
    /// - Returns: The PNG's path.
    @discardableResult
    public static func screenshot(_ session: WebDriverSession, name: String) async throws -> String {
        let png = try await session.screenshot()
        try FileManager.default.createDirectory(at: artifactsDirectory, withIntermediateDirectories: true)
        let file = artifactsDirectory.appendingPathComponent("\(name).png")
        try png.write(to: file)
        print("screenshot: \(file.path)")
        return file.path
    }
}
