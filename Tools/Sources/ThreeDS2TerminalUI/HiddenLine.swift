public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line typed at a terminal without echo, as a password prompt reads it: for a card number on standard input, so
/// that it never shows on the screen nor stays in the scrollback. The terminal is put back when the line is read, on
/// Ctrl-C, and if the process is killed meanwhile.
public enum HiddenLine {
    /// What was read.
    public enum Result: Equatable, Sendable {
        /// The line, without its line break.
        case line(String)
        /// The input ended before a line.
        case end
        /// Ctrl-C at the prompt.
        case interrupted
    }

    /// Reads one line from `input`. When `input` is a terminal, `prompt` is written to `promptOutput` first and echo
    /// is off while the line is typed; otherwise (a pipe, a file) the line is read as it is, with no prompt.
    ///
    /// - Parameters:
    ///   - prompt: The question, written before the cursor (standard error by default, so that it never reaches
    ///     redirected output).
    ///   - input: Where the line is read (standard input by default).
    ///   - promptOutput: Where the prompt goes.
    /// - Returns: The line, the end of the input, or Ctrl-C.
    public static func read(prompt: String, from input: Int32 = STDIN_FILENO, promptOutput: Int32 = STDERR_FILENO)
        -> Result
    {
        var settings = termios()
        guard isatty(input) == 1, tcgetattr(input, &settings) == 0 else {
            return result(PromptInput.typed(from: input))
        }
        write(prompt, to: promptOutput)
        var silent = settings
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(input, TCSANOW, &silent)
        let saved = settings
        let registration = TerminalRestore.register {
            var restored = saved
            tcsetattr(input, TCSANOW, &restored)
        }
        let typed = PromptInput.typed(from: input)
        var restored = saved
        tcsetattr(input, TCSANOW, &restored)
        TerminalRestore.unregister(registration)
        // The Enter typed was not echoed either: the next output starts on a line of its own.
        write("\n", to: promptOutput)
        return result(typed)
    }

    private static func result(_ typed: PromptInput) -> Result {
        switch typed {
        case .line(let line): .line(line)
        case .end: .end
        case .interrupted: .interrupted
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWriteBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}

#if canImport(Glibc)
    private let systemWriteBytes = Glibc.write
#elseif canImport(Darwin)
    private let systemWriteBytes = Darwin.write
#endif
