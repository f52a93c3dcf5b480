/// What differs between message versions on the app channel.
public struct ProtocolVersion: Sendable, Hashable, Comparable {
    /// The version string, for example `2.2.0`.
    public let rawValue: String
    private let major: Int
    private let minor: Int
    private let patch: Int

    /// Parses a version string of the form `major.minor.patch` (decimal digits only, each at most four).
    ///
    /// - Parameter rawValue: The version.
    public init?(_ rawValue: String) {
        var numbers = (0, 0, 0)
        var index = 0
        var digits = 0
        for byte in rawValue.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, index < 2 else { return nil }
                index += 1
                digits = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 4 else { return nil }
            let value = Int(byte - UInt8(ascii: "0"))
            switch index {
            case 0: numbers.0 = numbers.0 * 10 + value
            case 1: numbers.1 = numbers.1 * 10 + value
            default: numbers.2 = numbers.2 * 10 + value
            }
            digits += 1
        }
        guard index == 2, digits > 0 else { return nil }
        self.rawValue = rawValue
        (major, minor, patch) = numbers
    }

    /// Orders by number.
    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// From 2.2.0: `challengeNoEntry`, `whitelistingDataEntry`, `threeDSRequestorAppURL`.
    public var isAtLeast2_2: Bool { (major, minor, patch) >= (2, 2, 0) }
    /// From 2.3.1: UI types 06 and 07, `trustListDataEntry`, `oobContinue` "01", `infoContinueIndicator`.
    public var isAtLeast2_3: Bool { (major, minor, patch) >= (2, 3, 0) }
}
