import Foundation
import ThreeDS2TerminalUI

/// Text a person reads fits 80 columns, counted in display columns (East Asian wide characters count two): lines are
/// broken at spaces only, so no word, token, URL or path is ever split; a single token longer than the width stands
/// on its own line.
enum TerminalWidth {
    /// The width everything the CLI prints for a person fits: 80 columns, or less where it is written: the window's
    /// width when standard output (else standard error) is a terminal, else `COLUMNS` (``OutputGeometry``). A shell
    /// sets `COLUMNS` without exporting it, so a 30-column terminal once got 80-column lines that it broke inside
    /// words ("car" / "dholder", issue 43).
    static var columns: Int {
        let written = isatty(STDOUT_FILENO) == 1 || isatty(STDERR_FILENO) != 1 ? STDOUT_FILENO : STDERR_FILENO
        return min(80, OutputGeometry.columns(of: written))
    }

    /// The width error lines fit when standard error is a terminal: its window's width, 80 at most, measured on
    /// standard error itself (standard output may go to a file meanwhile); `nil` when standard error is a file or a
    /// pipe, whose lines are not broken.
    static var errorColumns: Int? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return min(80, OutputGeometry.columns(of: STDERR_FILENO))
    }

    /// `text` with each of its lines broken at spaces to fit `width`; continuation lines start with `indent`.
    static func wrap(_ text: String, width: Int = columns, indent: String = "  ") -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            wrapLine(String($0), width: width, indent: indent).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// One line broken at spaces; the line's own leading spaces are kept and added to `indent`.
    static func wrapLine(_ line: String, width: Int = columns, indent: String = "  ") -> [String] {
        guard LayoutRenderer.displayWidth(line) > width else { return [line] }
        let lead = String(line.prefix { $0 == " " })
        var lines: [String] = []
        var current = lead
        var empty = true
        // Empty words keep runs of spaces (two columns between a card and its summary) inside a line.
        for word in line.dropFirst(lead.count).split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = empty ? current + word : current + " " + word
            if word.isEmpty, empty { continue }
            if LayoutRenderer.displayWidth(candidate) > width, !empty, !word.isEmpty {
                lines.append(current)
                current = lead + indent + word
            } else {
                current = candidate
            }
            empty = false
        }
        lines.append(current)
        return lines
    }

    /// A shell command broken at spaces into lines that end with ` \` and continue indented, as a person would type
    /// it: copied whole, it runs as written.
    static func command(_ command: String, width: Int = columns, lead: String = "  ") -> String {
        // Room for the " \" at the end of every line but the last.
        let lines = wrapLine(lead + command, width: width - 2, indent: "  ")
        return lines.enumerated().map { $0.offset < lines.count - 1 ? $0.element + " \\" : $0.element }
            .joined(separator: "\n")
    }
}
