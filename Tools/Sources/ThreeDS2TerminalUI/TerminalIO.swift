import Foundation
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2SDK

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
    /// Where keys are read: standard input, or the controlling terminal when standard input held something else.
    let input: Int32

    init(input: Int32 = STDIN_FILENO) {
        self.input = input
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Switches the terminal to raw input on the alternate screen with the cursor hidden, and starts reading keys and
    /// resize signals.
    func start() {
        var settings = termios()
        if tcgetattr(input, &settings) == 0 {
            original.withLock { $0 = settings }
            var raw = settings
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 1
                bytes[Int(VTIME)] = 0
            }
            tcsetattr(input, TCSANOW, &raw)
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
        if var settings = original.withLock({ $0 }) { tcsetattr(input, TCSANOW, &settings) }
        Self.write("\u{1B}[?25h\u{1B}[?1049l")
    }

    /// The window size; when it cannot be read (no terminal), 80 columns or a narrower `COLUMNS` (20 at least), as
    /// for the rest of what the CLI prints, and 24 rows.
    static var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard screen >= 0, ioctl(screen, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else {
            let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.map {
                min(80, max(20, $0))
            }
            return (columns ?? 80, 24)
        }
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
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, 64) }
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
                // Decoding replaces an ill-formed sequence with U+FFFD: the bytes are valid exactly when the text's
                // UTF-8 equals them.
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                if text.utf8.elementsEqual(bytes[index..<end]) {
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

    private static let actions = Registry((0, [:]))
    /// What takes Ctrl-C (SIGINT) instead of ending the process: a line-mode question, which answers it as a cancel.
    private static let interceptors = Registry((0, [:]))

    /// Dispatch sources are thread-safe objects; they are kept only so they stay alive.
    private struct Sources: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
    }

    private static let installed: Sources = Sources(
        sources: signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if number == SIGINT {
                    let takers = interceptors.withLock { Array($0.all.values) }
                    if !takers.isEmpty {
                        for taker in takers { taker() }
                        return
                    }
                }
                for action in actions.withLock({ Array($0.all.values) }) { action() }
                // Dispatch keeps the signal blocked on its threads, so it cannot simply be raised again.
                exit(128 + number)
            }
            source.resume()
            return source
        })

    /// Registers an action; returns what ``unregister(_:)`` takes.
    static func register(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        add(action, to: actions)
    }

    /// Removes an action.
    static func unregister(_ registration: UInt64) { remove(registration, from: actions) }

    /// Lets `action` take Ctrl-C (SIGINT) instead of the process ending, until ``release(_:)``; returns what that
    /// takes.
    static func intercept(_ action: @escaping @Sendable () -> Void) -> UInt64 {
        add(action, to: interceptors)
    }

    /// Ends an ``intercept(_:)``.
    static func release(_ registration: UInt64) { remove(registration, from: interceptors) }

    private typealias Registry = Locked<(next: UInt64, all: [UInt64: @Sendable () -> Void])>

    /// Adds `action` to a registry once the signal sources are installed; returns its key.
    private static func add(_ action: @escaping @Sendable () -> Void, to registry: Registry) -> UInt64 {
        _ = installed
        return registry.withLock { state in
            defer { state.next += 1 }
            state.all[state.next] = action
            return state.next
        }
    }

    private static func remove(_ registration: UInt64, from registry: Registry) {
        _ = registry.withLock { $0.all.removeValue(forKey: registration) }
    }
}

/// Keeps keys typed while the processing indicator shows from appearing on the terminal, and from being read as the
/// first screen's input: echo is off until ``end()``, which also discards what was typed. The terminal is put back
/// if the process is killed meanwhile.
final class QuietInput: Sendable {
    private let original: termios?
    private let registration: UInt64?

    private let input: Int32

    /// Turns echo off when the input is a terminal; does nothing otherwise.
    init(input: Int32 = STDIN_FILENO) {
        self.input = input
        var settings = termios()
        guard isatty(input) == 1, tcgetattr(input, &settings) == 0 else {
            original = nil
            registration = nil
            return
        }
        original = settings
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(input, TCSANOW, &quiet)
        let saved = settings
        registration = TerminalRestore.register {
            var restored = saved
            tcsetattr(input, TCSANOW, &restored)
        }
    }

    /// Discards what was typed and turns echo back on.
    func end() {
        guard var settings = original else { return }
        tcflush(input, TCIFLUSH)
        tcsetattr(input, TCSANOW, &settings)
        if let registration { TerminalRestore.unregister(registration) }
    }
}

/// One typed line as line mode reads it: what was typed, the end of the input, or Ctrl-C.
enum PromptInput: Equatable {
    case line(String)
    case end
    case interrupted

    /// The most bytes a line holds; the rest of a longer line is dropped.
    static let maxBytes = 4096

    /// Reads one line from `input` without stdio buffering (so nothing after it is taken from a pipe), polling every
    /// 100 ms so that Ctrl-C, delivered as SIGINT while the terminal is in line mode, ends the question.
    static func typed(from input: Int32) -> PromptInput {
        let interrupted = Locked(false)
        let registration = TerminalRestore.intercept { interrupted.withLock { $0 = true } }
        defer { TerminalRestore.release(registration) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            if interrupted.withLock({ $0 }) { return .interrupted }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(input, &byte, 1)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { return bytes.isEmpty ? .end : .line(String(decoding: bytes, as: UTF8.self)) }
            if byte == 10 { break }
            if bytes.count < maxBytes { bytes.append(byte) }
        }
        if bytes.last == 13 { bytes.removeLast() }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether a typed line is Esc: line mode cannot see a key before Enter, so a line holding a lone Esc (not the
    /// start of an arrow or other key's sequence) cancels, whatever else it holds.
    static func holdsEscape(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        for index in bytes.indices where bytes[index] == 27 {
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if next != UInt8(ascii: "[") && next != UInt8(ascii: "O") { return true }
        }
        return false
    }

    /// A typed line with any escape sequences (arrow keys pressed in line mode) removed.
    static func withoutEscapeSequences(_ line: String) -> String {
        let keys = TerminalKeyDecoder.decode(Array(line.utf8))
        return String(
            keys.compactMap { key -> Character? in
                switch key {
                case .character(let character): character
                case .space: " "
                case .tab: "\t"
                default: nil
                }
            })
    }
}
