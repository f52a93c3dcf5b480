public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How wide and how colourful text may be where it is written. Line and plain mode print their screens on standard
/// output and measure standard output, not the controlling terminal: `threeds demo --line > out.txt` run from a
/// 100-column terminal writes lines of `COLUMNS` (or 80) columns without escape codes, whatever the terminal is.
public enum OutputGeometry {
    /// The widest `COLUMNS` taken: a value past it is a slip, not a width.
    static let maxColumns = 1000
    /// The narrowest width anything is laid out in.
    static let minColumns = 20

    /// The columns text written to `descriptor` fits: the window's width when `descriptor` is a terminal; otherwise
    /// `COLUMNS` (20 at least); otherwise 80.
    ///
    /// - Parameters:
    ///   - descriptor: Where the text goes (standard output by default).
    ///   - environment: The environment, for `COLUMNS`.
    /// - Returns: The width in display columns.
    public static func columns(
        of descriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        var window = winsize()
        if isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 {
            return max(minColumns, Int(window.ws_col))
        }
        guard let text = environment["COLUMNS"], let value = Int(text.trimmingCharacters(in: .whitespaces)),
            value > 0
        else { return 80 }
        return min(maxColumns, max(minColumns, value))
    }

    /// The colours text written to `descriptor` may use: none unless `descriptor` is a terminal and `NO_COLOR` is
    /// unset; then what the environment says the terminal shows (``ColorDepth/detect(_:)``).
    ///
    /// - Parameters:
    ///   - descriptor: Where the text goes (standard output by default).
    ///   - environment: The environment, for `NO_COLOR`, `TERM` and `COLORTERM`.
    /// - Returns: The colour depth.
    public static func colorDepth(
        of descriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ColorDepth {
        guard isatty(descriptor) == 1 else { return .none }
        return ColorDepth.detect(environment)
    }
}
