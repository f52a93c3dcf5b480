public import ThreeDS2JOSE

/// An error from the SDK API, in the package's one error shape (`CodedError`).
///
/// The first four codes are the kinds the EMVCo SDK specification defines (its `InvalidInputException`,
/// `SDKAlreadyInitializedException`, `SDKNotInitializedException` and `SDKRuntimeException`); the `malformed…`
/// codes say which file format an input broke, and are invalid input in the specification's terms
/// (``Code-swift.struct/isInvalidInput``). The message says what was wrong in words an integrator can act on;
/// `underlying` carries the cause when there is one (a `JOSEError`, a file-system error, …).
///
/// Two errors are equal when their codes are: match on ``code``, never on the message.
public struct ThreeDS2Error: CodedError, Sendable {
    /// The kind of error. New codes may be added; do not rely on the list being complete.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case invalidInput, alreadyInitialized, notInitialized, runtime
            case malformedJSON, malformedPEM, malformedTrustBundle
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// An argument or configuration value is invalid (EMVCo `InvalidInputException`).
        public static let invalidInput = Code(.invalidInput)
        /// `initialize` was called on an initialised service (EMVCo `SDKAlreadyInitializedException`).
        public static let alreadyInitialized = Code(.alreadyInitialized)
        /// The service was used before `initialize` or after `cleanup` (EMVCo `SDKNotInitializedException`).
        public static let notInitialized = Code(.notInitialized)
        /// An internal failure outside the caller's control (EMVCo `SDKRuntimeException`).
        public static let runtime = Code(.runtime)
        /// A JSON document given to the SDK (a trust bundle, a UI customization) is not JSON.
        public static let malformedJSON = Code(.malformedJSON)
        /// A PEM text (a certificate, a public key, a bundle of roots) is not well-formed or holds no certificate.
        public static let malformedPEM = Code(.malformedPEM)
        /// A trust bundle is JSON but breaks the bundle's format (a missing or mistyped member, a bad reference).
        public static let malformedTrustBundle = Code(.malformedTrustBundle)

        /// Whether the code is invalid input in EMVCo's terms (`InvalidInputException`): ``invalidInput`` and
        /// every `malformed…` code.
        public var isInvalidInput: Bool {
            switch name {
            case .invalidInput, .malformedJSON, .malformedPEM, .malformedTrustBundle: true
            case .alreadyInitialized, .notInitialized, .runtime: false
            }
        }
    }

    /// What kind of error it is.
    public let code: Code
    /// What was wrong.
    public let message: String
    /// The cause, when there is one.
    public let underlying: (any Error)?
    /// Where the error was raised.
    public let location: ErrorLocation
    /// The configuration parameter at fault, as `group.name` (for example `ds:A000000004.encryptionKey`), when an
    /// invalid-input error concerns one: callers map it to their own option or file without reading the message.
    public let parameter: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of error.
    ///   - message: What was wrong.
    ///   - underlying: The cause, if any.
    ///   - parameter: The configuration parameter at fault, if any.
    ///   - file: The file that raises the error (the caller's, by default).
    ///   - line: The line that raises the error (the caller's, by default).
    public init(
        _ code: Code, _ message: String, underlying: (any Error)? = nil, parameter: String? = nil,
        file: String = #fileID, line: UInt = #line
    ) {
        self.init(
            code, message, underlying: underlying, parameter: parameter, at: ErrorLocation(file: file, line: line))
    }

    private init(
        _ code: Code, _ message: String, underlying: (any Error)?, parameter: String?, at location: ErrorLocation
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.parameter = parameter
        self.location = location
    }

    /// The same error, naming the configuration parameter at fault (and keeping where it was raised).
    func concerning(_ parameter: String) -> ThreeDS2Error {
        ThreeDS2Error(code, message, underlying: underlying, parameter: parameter, at: location)
    }

    static func invalidInput(
        _ message: String, underlying: (any Error)? = nil, file: String = #fileID, line: UInt = #line
    ) -> ThreeDS2Error {
        ThreeDS2Error(.invalidInput, message, underlying: underlying, file: file, line: line)
    }

    static func runtime(
        _ message: String, underlying: (any Error)? = nil, file: String = #fileID, line: UInt = #line
    ) -> ThreeDS2Error {
        ThreeDS2Error(.runtime, message, underlying: underlying, file: file, line: line)
    }
}
