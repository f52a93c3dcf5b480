public import Foundation

/// Where the browser and its WebDriver server are: Debian's `chromium` and `chromium-driver` packages, by path.
///
/// Nothing here downloads a browser or a driver. `scripts/test.sh` and `.ci/run` install both packages when they run as
/// root; elsewhere a missing one is a clear error that names the packages, never a skipped test. A tester on another
/// system names both programs with `THREEDS_CHROMIUM` and `THREEDS_CHROMEDRIVER`.
public struct BrowserInstallation: Sendable, Hashable {
    /// The browser's executable (Debian: `/usr/bin/chromium`).
    public var chromium: String
    /// The WebDriver server's executable (Debian: `/usr/bin/chromedriver`, from `chromium-driver`).
    public var chromedriver: String

    /// An installation at the given paths, unchecked.
    ///
    /// - Parameters:
    ///   - chromium: The browser's executable.
    ///   - chromedriver: The WebDriver server's executable.
    public init(chromium: String, chromedriver: String) {
        self.chromium = chromium
        self.chromedriver = chromedriver
    }

    /// Debian's paths, or those the environment names; both must be executable files.
    ///
    /// - Parameter environment: The variables to read (the process's by default).
    /// - Returns: The installation.
    /// - Throws: ``BrowserError/notInstalled(_:)`` naming what is missing and how to install it.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws(BrowserError)
        -> BrowserInstallation
    {
        let installation = BrowserInstallation(
            chromium: environment["THREEDS_CHROMIUM"] ?? "/usr/bin/chromium",
            chromedriver: environment["THREEDS_CHROMEDRIVER"] ?? "/usr/bin/chromedriver")
        let missing = [installation.chromium, installation.chromedriver].filter {
            !FileManager.default.isExecutableFile(atPath: $0)
        }
        guard missing.isEmpty else {
            throw .notInstalled(
                "the browser tests need Debian's chromium and chromium-driver; missing: "
                    + missing.joined(separator: ", ")
                    + " (apt-get install chromium chromium-driver, as scripts/test.sh does when run as root; "
                    + "elsewhere set THREEDS_CHROMIUM and THREEDS_CHROMEDRIVER to the programs' paths)")
        }
        return installation
    }
}

/// What went wrong while driving the browser.
public enum BrowserError: Error, CustomStringConvertible, Sendable {
    /// The browser or its driver is not installed; the text says what to install.
    case notInstalled(String)
    /// `chromedriver` did not start (its output is included).
    case driverDidNotStart(String)
    /// The driver answered a command with a WebDriver error.
    case command(String, status: Int, error: String, message: String)
    /// The driver's answer was not what the WebDriver protocol defines.
    case malformed(String)
    /// A condition the test waited for did not come true within its bound.
    case timedOut(String)

    /// A readable account of the error.
    public var description: String {
        switch self {
        case .notInstalled(let text): text
        case .driverDidNotStart(let output): "chromedriver did not start: \(output)"
        case .command(let command, let status, let error, let message):
            "WebDriver \(command) failed (HTTP \(status), \(error)): \(message)"
        case .malformed(let text): "an unexpected WebDriver answer: \(text)"
        case .timedOut(let text): "timed out: \(text)"
        }
    }
}
