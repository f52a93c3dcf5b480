/// The one exit-status table of every `threeds` command: 0 when the command did what was asked and the result is
/// good, 1 when it ran and the result is a failure, 2 for a usage error (a bad or missing option, or an input file that
/// does not exist or cannot be read), 128 + the signal when a run is interrupted. Each command's help states it in the
/// same words (``help(success:failure:)``), and the tools manual lists it once.
enum ExitStatus {
    /// A usage error.
    static let usage: Int32 = 2
    /// `threeds conform`: a case could not run for a reason of the run's own (TLS, reachability, a failing 3DS
    /// Server or command), and nothing the ACS did was found broken.
    static let setup: Int32 = 3

    /// The help text's exit-status paragraph, wrapped to fit 80 columns with room to spare (ArgumentParser re-wraps
    /// a line that reaches the terminal's width).
    ///
    /// - Parameters:
    ///   - success: What exit status 0 means for the command.
    ///   - failure: What exit status 1 means for the command.
    ///   - interrupted: What an interruption does, when it differs from 130 after Ctrl-C and 143 after SIGTERM.
    static func help(success: String, failure: String, interrupted: String? = nil) -> String {
        let text =
            "Exit status: 0 \(success); 1 \(failure); 2 usage error (a bad option, or an input file that is missing "
            + "or unreadable); \(interrupted ?? "130 after Ctrl-C, 143 after SIGTERM")."
        return TerminalWidth.wrapLine(text, width: 76, indent: "").joined(separator: "\n")
    }
}
