/// A security warning produced by the SDK's checks (EMVCo SW01–SW05).
public struct Warning: Sendable, Hashable, CustomStringConvertible {
    /// How serious a warning is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Low.
        case low = "LOW"
        /// Medium.
        case medium = "MEDIUM"
        /// High.
        case high = "HIGH"

        private var rank: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .high: 2
            }
        }

        /// Orders low < medium < high.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The identifier, for example `SW01`; it is what device data carries in `SW`.
    public let id: String
    /// A readable description.
    public let message: String
    /// The severity.
    public let severity: Severity

    /// Creates a warning.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - message: The description.
    ///   - severity: The severity.
    public init(id: String, message: String, severity: Severity) {
        self.id = id
        self.message = message
        self.severity = severity
    }

    /// `ID (SEVERITY): message`.
    public var description: String { "\(id) (\(severity.rawValue)): \(message)" }
}
