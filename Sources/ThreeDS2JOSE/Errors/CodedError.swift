/// The one shape of every public error in this package: a code to branch on, a message to read, the error that
/// caused it, and the place in the source that raised it.
///
/// Each conforming type keeps its codes in a `Code` struct over a private enum, so adding a code is not a
/// source-breaking change (no caller can switch over the codes exhaustively). Callers and tests match on ``code``.
///
/// **Show ``message`` to people; write `description` to logs.** The message says what was wrong in words, without
/// the source location; the description adds the code, the underlying error (which may quote a peer's or a
/// backend's text as it came) and the file and line that raised the error, for the developer reading a log.
///
/// Equality and hashing consider the ``code`` only: two errors raised in different places, with different messages
/// or causes, are equal when their codes are. So a test can write the error it expects directly, and a caller can
/// compare against one.
public protocol CodedError: Error, Hashable, CustomStringConvertible {
    /// The type of the error's code.
    associatedtype Code: Hashable, Sendable, CustomStringConvertible

    /// What kind of error it is: what callers branch on.
    var code: Code { get }
    /// What was wrong, in words a developer can act on and an app may show: never the source location, never the
    /// underlying error's own description.
    var message: String { get }
    /// The error that caused this one, when there is one.
    var underlying: (any Error)? { get }
    /// Where in the source the error was raised.
    var location: ErrorLocation { get }
}

/// A place in the source: the `#fileID` and `#line` where an error was raised.
public struct ErrorLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public let file: String
    /// The line.
    public let line: UInt

    /// Creates a location; the defaults are the caller's place.
    ///
    /// - Parameters:
    ///   - file: The file, as `#fileID`.
    ///   - line: The line.
    public init(file: String = #fileID, line: UInt = #line) {
        self.file = file
        self.line = line
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }
}

extension CodedError {
    /// Equality on the code only (see ``CodedError``).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with equality.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: message (cause: underlying) at file:line`: for logs, not for people (show ``message``).
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (cause: \(underlying))" }
        return text + " at \(location)"
    }
}

/// What a coded error carries, stored together: its code, message, cause and place.
public struct ErrorDetails<Code: Hashable & Sendable & CustomStringConvertible>: Sendable {
    /// What kind of error it is.
    public let code: Code
    /// What was wrong, in words.
    public let message: String
    /// The error that caused this one, when there is one.
    public let underlying: (any Error)?
    /// Where the error was raised.
    public let location: ErrorLocation

    /// Creates the details.
    ///
    /// - Parameters:
    ///   - code: What kind of error it is.
    ///   - message: What was wrong.
    ///   - underlying: The cause, if any.
    ///   - location: Where it was raised.
    public init(code: Code, message: String, underlying: (any Error)?, location: ErrorLocation) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.location = location
    }
}

/// A coded error on the shared storage: it stores its ``ErrorDetails`` and gets the members and the initializer from
/// here, written once. Every public error of the package is one (``JOSEError``, the SDK's, the transport's, the
/// challenge's, the HTML form's, the TestLab's); a type with a field of its own (the SDK error's configuration
/// parameter, the form error's subject) stores it beside the details.
public protocol DetailedCodedError: CodedError {
    /// The code, message, cause and place.
    var details: ErrorDetails<Code> { get }

    /// Creates the error from its details.
    ///
    /// - Parameter details: The code, message, cause and place.
    init(details: ErrorDetails<Code>)
}

extension DetailedCodedError {
    /// What kind of error it is: what callers branch on.
    public var code: Code { details.code }
    /// What was wrong, in words a developer can act on.
    public var message: String { details.message }
    /// The error that caused this one, when there is one.
    public var underlying: (any Error)? { details.underlying }
    /// Where the error was raised.
    public var location: ErrorLocation { details.location }

    /// Creates an error raised here.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What was wrong.
    ///   - underlying: The cause, if any.
    ///   - file: The file that raises the error (the caller's, by default).
    ///   - line: The line that raises the error (the caller's, by default).
    public init(
        _ code: Code, _ message: String, underlying: (any Error)? = nil, file: String = #fileID, line: UInt = #line
    ) {
        self.init(
            details: ErrorDetails(
                code: code, message: message, underlying: underlying, location: ErrorLocation(file: file, line: line)))
    }
}
