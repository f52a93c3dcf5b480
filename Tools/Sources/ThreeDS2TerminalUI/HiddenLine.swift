public import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWriteBytes = Glibc.write
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemWriteBytes = Darwin.write
    private let systemRead = Darwin.read
#endif

/// One line typed at a terminal without echo, as a password prompt reads it: for a card number on standard input, so
/// that it never shows on the screen nor stays in the scrollback.
///
/// At a terminal the line is read key by key with echo and signals off (Backspace deletes, Ctrl-U clears, Enter ends,
/// Ctrl-C interrupts, Ctrl-D on an empty line ends the input), so Ctrl-C is an answer rather than a signal that would
/// end the process with echo still off; no signal handler is installed, so the command's own handling of Ctrl-C
/// afterwards (`threeds load` stops gracefully) is untouched. The terminal's settings are restored before it returns.
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

    /// The most bytes a line holds; the rest of a longer line is dropped.
    static let maxBytes = 1024

    /// Reads one line from `input`. When `input` is a terminal, `prompt` is written to `promptOutput` first and
    /// nothing typed is echoed; otherwise (a pipe, a file) the line is read as it is, with no prompt, and nothing after
    /// it is taken from the input.
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
        guard isatty(input) == 1, tcgetattr(input, &settings) == 0 else { return plainLine(from: input) }
        write(prompt, to: promptOutput)
        var silent = settings
        silent.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &silent.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSANOW, &silent)
        defer {
            var restored = settings
            tcsetattr(input, TCSAFLUSH, &restored)
            // The Enter typed was not echoed either: the next output starts on a line of its own.
            write("\n", to: promptOutput)
        }
        return keys(from: input)
    }

    /// The line typed key by key, as ``read(prompt:from:promptOutput:)`` reads it at a terminal.
    static func keys(from input: Int32) -> Result {
        var bytes: [UInt8] = []
        while true {
            guard let byte = nextByte(from: input) else {
                return bytes.isEmpty ? .end : .line(String(decoding: bytes, as: UTF8.self))
            }
            switch byte {
            case 10, 13: return .line(String(decoding: bytes, as: UTF8.self))
            case 3: return .interrupted
            case 4 where bytes.isEmpty: return .end
            case 8, 127: if !bytes.isEmpty { bytes.removeLast() }
            case 21: bytes.removeAll()
            case 0..<32: continue
            default: if bytes.count < maxBytes { bytes.append(byte) }
            }
        }
    }

    /// One line from a pipe or file, read a byte at a time so that nothing after it is taken.
    static func plainLine(from input: Int32) -> Result {
        var bytes: [UInt8] = []
        while true {
            guard let byte = nextByte(from: input) else {
                return bytes.isEmpty ? .end : .line(String(decoding: bytes, as: UTF8.self))
            }
            if byte == 10 { break }
            if bytes.count < maxBytes { bytes.append(byte) }
        }
        if bytes.last == 13 { bytes.removeLast() }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    /// The next byte of `input`, retrying a read that a signal or a non-blocking descriptor interrupted; `nil` at the
    /// end of input or on a read error.
    private static func nextByte(from input: Int32) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = systemRead(input, &byte, 1)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return count > 0 ? byte : nil
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
