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

    /// The identifier of a warning: the EMVCo security warnings `SW01`–`SW05`, and the SDK's own
    /// ``directoryServerCertificateExpiring``.
    ///
    /// A struct over the text, not an enum, so new warnings can be added without breaking callers. `description` is
    /// the text, which device data carries in `SW`.
    public struct ID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The identifier's text (`SW01`, …).
        public let rawValue: String

        /// An identifier from its text.
        ///
        /// - Parameter rawValue: The text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text.
        public var description: String { rawValue }

        /// `SW01`: the device is rooted or jailbroken (a privileged environment).
        public static let jailbroken = ID(rawValue: "SW01")
        /// `SW02`: the integrity of the SDK has been tampered with.
        public static let tampered = ID(rawValue: "SW02")
        /// `SW03`: an emulator or a virtual machine is being used.
        public static let emulator = ID(rawValue: "SW03")
        /// `SW04`: a debugger is attached.
        public static let debuggerAttached = ID(rawValue: "SW04")
        /// `SW05`: the OS or its version is not supported.
        public static let unsupportedOS = ID(rawValue: "SW05")
        /// `UI01`: a UI customization sets text on a background with contrast below 4.5:1.
        public static let lowContrast = ID(rawValue: "UI01")
        /// `DSCERT01`: the encryption certificate a directory server uses ends within 30 days.
        public static let directoryServerCertificateExpiring = ID(rawValue: "DSCERT01")
    }

    /// The identifier, for example ``ID-swift.struct/jailbroken`` (`SW01`); device data carries its text in `SW`.
    public let id: ID
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
    public init(id: ID, message: String, severity: Severity) {
        self.id = id
        self.message = message
        self.severity = severity
    }

    /// The warning in the cardholder's language, a whole sentence without technical detail: for the EMVCo security
    /// warnings SW01–SW05 the text of ``SDKStrings`` (``SDKStrings/Key/warningJailbroken`` and the four after it),
    /// for the SDK's other warnings, which are meant for the app's developers, ``message``.
    ///
    /// ``message`` stays in English with the checks' findings (paths, library names), for logs and support.
    ///
    /// - Parameter strings: The texts, for example ``Transaction/presentationSettings``' `strings` or
    ///   `SDKStrings(locale:)` for the locale the app gave `initialize`.
    /// - Returns: The sentence.
    public func localizedMessage(_ strings: SDKStrings) -> String {
        let keys: [ID: SDKStrings.Key] = [
            .jailbroken: .warningJailbroken, .tampered: .warningTampered, .emulator: .warningEmulator,
            .debuggerAttached: .warningDebugger, .unsupportedOS: .warningUnsupportedOS,
        ]
        return keys[id].map { strings[$0] } ?? message
    }

    /// `ID (SEVERITY): message`.
    public var description: String { "\(id) (\(severity.rawValue)): \(message)" }
}
