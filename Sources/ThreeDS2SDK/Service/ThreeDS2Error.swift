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
public struct ThreeDS2Error: DetailedCodedError, Sendable {
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

    /// The code, message, cause and place: the package's shared error storage.
    public let details: ErrorDetails<Code>
    /// The configuration parameter at fault (for example `.directoryServer("A000000004", .encryptionKey)`), when an
    /// invalid-input error concerns one: callers map it to their own option or file by matching, without reading the
    /// message.
    public let parameter: ConfigParameters.Path?

    /// Creates the error from its details, concerning no parameter.
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.init(details: details, parameter: nil) }

    /// Creates the error from its details and the parameter at fault.
    ///
    /// - Parameters:
    ///   - details: The code, message, cause and place.
    ///   - parameter: The configuration parameter at fault, if any.
    public init(details: ErrorDetails<Code>, parameter: ConfigParameters.Path?) {
        self.details = details
        self.parameter = parameter
    }

    /// Creates an error raised here.
    ///
    /// - Parameters:
    ///   - code: The kind of error.
    ///   - message: What was wrong.
    ///   - underlying: The cause, if any.
    ///   - parameter: The configuration parameter at fault, if any.
    ///   - file: The file that raises the error (the caller's, by default).
    ///   - line: The line that raises the error (the caller's, by default).
    public init(
        _ code: Code, _ message: String, underlying: (any Error)? = nil, parameter: ConfigParameters.Path? = nil,
        file: String = #fileID, line: UInt = #line
    ) {
        self.init(
            details: ErrorDetails(
                code: code, message: message, underlying: underlying, location: ErrorLocation(file: file, line: line)),
            parameter: parameter)
    }

    /// The same error, naming the configuration parameter at fault (and keeping where it was raised).
    func concerning(_ parameter: ConfigParameters.Path) -> ThreeDS2Error {
        ThreeDS2Error(details: details, parameter: parameter)
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
