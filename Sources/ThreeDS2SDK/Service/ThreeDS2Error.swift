/// An error from the SDK API, in the four kinds the EMVCo SDK specification defines.
///
/// The message says what was wrong in words an integrator can act on; `underlying` carries the cause when there
/// is one (a ``ThreeDS2JOSE/JOSEError``, a file-system error, …). Two errors are equal when their kinds are.
public struct ThreeDS2Error: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public enum Kind: String, Sendable, Hashable {
        /// An argument or configuration value is invalid (EMVCo `InvalidInputException`).
        case invalidInput
        /// `initialize` was called on an initialised service (EMVCo `SDKAlreadyInitializedException`).
        case alreadyInitialized
        /// The service was used before `initialize` or after `cleanup` (EMVCo `SDKNotInitializedException`).
        case notInitialized
        /// An internal failure outside the caller's control (EMVCo `SDKRuntimeException`).
        case runtime
    }

    /// The kind of error.
    public let kind: Kind
    /// What was wrong.
    public let message: String
    /// The cause, when there is one.
    public let underlying: (any Error & Sendable)?
    /// The configuration parameter at fault, as `group.name` (for example `ds:A000000004.encryptionKey`), when an
    /// invalid-input error concerns one: callers map it to their own option or file without reading the message.
    public let parameter: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of error.
    ///   - message: What was wrong.
    ///   - underlying: The cause, if any.
    ///   - parameter: The configuration parameter at fault, if any.
    public init(
        _ kind: Kind, _ message: String, underlying: (any Error & Sendable)? = nil, parameter: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
        self.parameter = parameter
    }

    /// The same error, naming the configuration parameter at fault.
    func concerning(_ parameter: String) -> ThreeDS2Error {
        ThreeDS2Error(kind, message, underlying: underlying, parameter: parameter)
    }

    /// `kind: message (cause)`.
    public var description: String {
        if let underlying { return "\(kind.rawValue): \(message) (\(underlying))" }
        return "\(kind.rawValue): \(message)"
    }

    static func invalidInput(_ message: String, underlying: (any Error & Sendable)? = nil) -> ThreeDS2Error {
        ThreeDS2Error(.invalidInput, message, underlying: underlying)
    }

    static func runtime(_ message: String, underlying: (any Error & Sendable)? = nil) -> ThreeDS2Error {
        ThreeDS2Error(.runtime, message, underlying: underlying)
    }
}
