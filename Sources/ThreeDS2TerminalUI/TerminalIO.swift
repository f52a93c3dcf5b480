import Foundation
import ThreeDS2JOSE
import ThreeDS2SDK

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
    private let running = Locked(true)
    private let original = Locked<termios?>(nil)
    private let restoreRegistration = Locked<UInt64?>(nil)

    init() {
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Switches the terminal to raw input on the alternate screen with the cursor hidden, and starts reading keys and
    /// resize signals.
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
        // Killed while the full screen is up (kill, a closed terminal, Ctrl-C from another process): put the
        // terminal back first, then end with the signal's status.
        restoreRegistration.withLock { $0 = TerminalRestore.register { [self] in restore() } }
        Self.write("\u{1B}[?1049h\u{1B}[?25l")
        let thread = Thread { [self] in readLoop() }
        thread.start()
    }

    /// Restores the terminal (settings, main screen, cursor) and stops reading.
    func stop() {
        running.withLock { $0 = false }
        restore()
        if let registration = restoreRegistration.withLock({ $0 }) { TerminalRestore.unregister(registration) }
        continuation.finish()
    }

    /// Puts the terminal back as it was: the settings, the main screen, the cursor.
    private func restore() {
        if var settings = original.withLock({ $0 }) { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// The window size, or 80×24 when it cannot be read.
    static var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard screen >= 0, ioctl(screen, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Where screens are drawn: standard output when it is a terminal; otherwise the controlling terminal
    /// (`/dev/tty`), so that redirecting the output (`--json > result.json`) keeps escape codes out of the file and
    /// the screens on the terminal; -1 when there is no terminal at all.
    static let screen: Int32 = {
        if isatty(STDOUT_FILENO) == 1 { return STDOUT_FILENO }
        let descriptor = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        guard isatty(descriptor) == 1 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }()

    static func write(_ text: String) {
        guard screen >= 0 else { return }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                systemWrite(screen, $0.baseAddress! + offset, $0.count - offset)
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
                // A lone Esc cancels; a whole escape sequence is read and only the keys we use mean anything, so
                // Delete, Home, End, F1… (and Alt with a key) never cancel and never type into a field.
                guard index + 1 < bytes.count else {
                    keys.append(.escape)
                    break
                }
                let (key, length) = Self.sequence(bytes, at: index)
                if let key { keys.append(key) }
                index += length
                continue
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
                if let text = String(utf8Validating: bytes[index..<end]) {
                    keys += text.map { .character($0) }
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }

    /// The key an escape sequence starting at `start` stands for (`nil` for keys without a use here) and the
    /// sequence's length: CSI (`Esc [` parameters, intermediates, a final byte), SS3 (`Esc O` and one byte), or Esc
    /// with one other character (Alt and a key).
    static func sequence(_ bytes: [UInt8], at start: Int) -> (TerminalKey?, Int) {
        let introducer = bytes[start + 1]
        func arrow(_ final: UInt8) -> TerminalKey? {
            switch final {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            default: nil
            }
        }
        switch introducer {
        case UInt8(ascii: "["):
            var end = start + 2
            while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.count, (0x40...0x7E).contains(bytes[end]) else { return (nil, end - start) }
            let final = bytes[end]
            let hasParameters = end > start + 2
            let key: TerminalKey? =
                hasParameters ? nil : final == UInt8(ascii: "Z") ? .backTab : arrow(final)
            return (key, end + 1 - start)
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.count else { return (nil, 2) }
            return (arrow(bytes[start + 2]), 3)
        case 27:
            // Esc pressed twice: one cancel.
            return (.escape, 1)
        default:
            // Alt and a key: ignored (a UTF-8 character's continuation bytes are skipped as well).
            var end = start + 2
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return (nil, end - start)
        }
    }
}

/// What puts the terminal back when the process is killed (SIGTERM, SIGHUP, SIGINT): the handlers are installed
/// once per process, on first use (a cancelled dispatch signal source cannot be replaced on Linux); each registered
/// action runs, then the process exits with the status a shell reports for the signal (128 + its number), as it would
/// have by default.
enum TerminalRestore {
    /// The signals handled.
    static let signals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    private static let actions = Locked<(next: UInt64, all: [UInt64: @Sendable () -> Void])>((0, [:]))

    /// Dispatch sources are thread-safe objects; they are kept only so they stay alive.
    private struct Sources: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
    }

    private static let installed: Sources = Sources(
        sources: signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                for action in actions.withLock({ Array($0.all.values) }) { action() }
                // Dispatch keeps the signal blocked on its threads, so it cannot simply be raised again.
                exit(128 + number)
            }
            source.resume()
            return source
        })

    /// Registers an action; returns what ``unregister(_:)`` takes.
    static func register(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        _ = installed
        return actions.withLock { state in
            defer { state.next += 1 }
            state.all[state.next] = action
            return state.next
        }
    }

    /// Removes an action.
    static func unregister(_ registration: UInt64) {
        _ = actions.withLock { $0.all.removeValue(forKey: registration) }
    }
}

/// Keeps keys typed while the processing indicator shows from appearing on the terminal, and from being read as the
/// first screen's input: echo is off until ``end()``, which also discards what was typed. The terminal is put back
/// if the process is killed meanwhile.
final class QuietInput: Sendable {
    private let original: termios?
    private let registration: UInt64?

    /// Turns echo off when standard input is a terminal; does nothing otherwise.
    init() {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else {
            original = nil
            registration = nil
            return
        }
        original = settings
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        let saved = settings
        registration = TerminalRestore.register {
            var restored = saved
            tcsetattr(STDIN_FILENO, TCSANOW, &restored)
        }
    }

    /// Discards what was typed and turns echo back on.
    func end() {
        guard var settings = original else { return }
        tcflush(STDIN_FILENO, TCIFLUSH)
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        if let registration { TerminalRestore.unregister(registration) }
    }
}
