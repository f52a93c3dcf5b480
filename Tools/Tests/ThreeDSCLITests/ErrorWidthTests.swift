import Foundation
import Testing
import ThreeDS2SDKTesting

/// `threeds:` error lines read whole in a narrow terminal: broken between words to standard error's width when it is
/// a terminal (measured there, as line mode measures standard output), one line when it is a file or a pipe (issue 43).
@Suite("threeds: error lines fit the terminal they are written to")
struct ErrorWidthTests {
    @Test("standard error a 40-column terminal: broken between words; in a file: one line, however narrow COLUMNS")
    func errorLines() async throws {
        let directory = scratchDirectory("error-width")
        let bundle = "\(directory)/no-such-bundle"
        let inner = "\(directory)/inner.sh"
        // Standard output goes elsewhere in both runs: only standard error is measured.
        let script = """
            stty cols 40 rows 30
            env -u COLUMNS '\(TmuxSession.binary)' ds check '\(bundle)' > /dev/null
            echo "status $?"
            env COLUMNS=40 '\(TmuxSession.binary)' ds check '\(bundle)' > /dev/null 2> '\(directory)/errors.txt'
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: inner))
        let run = try ThreedsRun([], launcher: .shell("exec /usr/bin/script -qec 'sh \(inner)' /dev/null"))
        let screen = await run.exit().output.replacingOccurrences(of: "\r", with: "")
        let message = "threeds: trust bundle \(bundle) does not exist or cannot be read"
        #expect(screen.contains("status 2"), "\(screen)")
        #expect(flattened(screen).contains(message), "\(screen)")
        let overflowing = WidthTests.overflowing(screen, columns: 40)
        #expect(overflowing.isEmpty, "wider than the 40-column terminal:\n\(overflowing)")
        let file = try String(contentsOfFile: "\(directory)/errors.txt", encoding: .utf8)
        #expect(file == message + "\n", "a file gets the line whole: \(file)")
    }
}
