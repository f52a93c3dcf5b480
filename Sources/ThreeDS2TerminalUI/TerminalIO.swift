import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Raw keyboard input and window size for the full-screen renderer. Input is read on its own thread with
/// `poll`, so it stops cleanly; the window size is checked on every poll tick (100 ms), so a resize redraws
/// without a signal handler; the terminal's settings are restored on ``stop()``.
final class TerminalIO: Sendable {
    enum Event: Sendable, Hashable {
        case key(TerminalKey)
        case resize
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let running = Mutex(true)
    private let original = Mutex<termios?>(nil)

    init() {
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Switches the terminal to raw input and starts reading keys and resize signals.
    func start() {
        var settings = termios()
        if tcgetattr(STDIN_FILENO, &settings) == 0 {
            original.withLock { $0 = settings }
            var raw = settings
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 1
                bytes[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        let thread = Thread { [self] in readLoop() }
        thread.start()
    }

    /// Restores the terminal and stops reading.
    func stop() {
        running.withLock { $0 = false }
        if var settings = original.withLock({ $0 }) { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
        continuation.finish()
    }

    /// The window size, or 80×24 when it cannot be read.
    static var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                systemWrite(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64)
        var lastSize = Self.size
        while running.withLock({ $0 }) {
            let size = Self.size
            if size != lastSize {
                lastSize = size
                continuation.yield(.resize)
            }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
            if count <= 0 {
                continuation.yield(.key(.escape))
                return
            }
            for key in Self.decode(Array(buffer[0..<count])) { continuation.yield(.key(key)) }
        }
    }

    /// Decodes a chunk of input bytes into keys.
    static func decode(_ bytes: [UInt8]) -> [TerminalKey] { TerminalKeyDecoder.decode(bytes) }
}

/// Decodes terminal input bytes into keys: arrow and back-tab escape sequences, control keys, UTF-8 text.
public enum TerminalKeyDecoder {
    /// The keys in a chunk of input.
    public static func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 27:
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                    switch bytes[index + 2] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    case UInt8(ascii: "Z"): keys.append(.backTab)
                    default: break
                    }
                    index += 3
                    continue
                }
                keys.append(.escape)
            case 9: keys.append(.tab)
            case 10, 13: keys.append(.enter)
            case 32: keys.append(.space)
            case 3: keys.append(.controlC)
            case 18: keys.append(.refresh)
            case 20: keys.append(.reveal)
            case 8, 127: keys.append(.backspace)
            case 0..<32: break
            default:
                var end = index + 1
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                if let text = String(validating: bytes[index..<end], as: UTF8.self) {
                    keys += text.map { .character($0) }
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }
}
