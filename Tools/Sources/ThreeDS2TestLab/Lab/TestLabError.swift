public import ThreeDS2JOSE

/// A TestLab failure, in the package's one error shape (``ThreeDS2JOSE/CodedError``): a code to branch on and a
/// message to show. Two errors are equal when their codes are.
public struct TestLabError: DetailedCodedError, Sendable {
    /// The kind of failure. New codes may be added; do not rely on the list being complete.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case startFailed, fileSystem, invalidRequest, malformedAnswers, failed
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// A lab server could not start (a port in use, a listener that failed).
        public static let startFailed = Code(.startFailed)
        /// The lab's PKI directory cannot be made, locked or written.
        public static let fileSystem = Code(.fileSystem)
        /// A request to the lab breaks what the lab's 3DS Server or DS accepts.
        public static let invalidRequest = Code(.invalidRequest)
        /// A scripted answers file is not JSON, or an answer in it breaks the answers format.
        public static let malformedAnswers = Code(.malformedAnswers)
        /// Anything else the lab or a test around it could not do.
        public static let failed = Code(.failed)
    }

    /// The code, message, cause and place.
    public let details: ErrorDetails<Code>

    /// Creates the error from its details (``DetailedCodedError/init(_:_:underlying:file:line:)`` creates one raised
    /// where it is called).
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.details = details }
}
