/// What differs between message versions on the app channel.
public struct ProtocolVersion: Sendable, Hashable, Comparable {
    /// The version string, for example `2.2.0`.
    public let rawValue: String
    private let parts: [Int]

    /// Parses a version string of the form `major.minor.patch`.
    ///
    /// - Parameter rawValue: The version.
    public init?(_ rawValue: String) {
        let parts = rawValue.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3, rawValue.split(separator: ".").count == 3 else { return nil }
        self.rawValue = rawValue
        self.parts = parts
    }

    /// Orders by number.
    public static func < (lhs: ProtocolVersion, rhs: ProtocolVersion) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts)
    }

    /// From 2.2.0: `challengeNoEntry`, `whitelistingDataEntry`, `threeDSRequestorAppURL`.
    public var isAtLeast2_2: Bool { parts.lexicographicallyPrecedes([2, 2, 0]) == false }
    /// From 2.3.1: UI types 06 and 07, `trustListDataEntry`, `oobContinue` "01", `infoContinueIndicator`.
    public var isAtLeast2_3: Bool { parts.lexicographicallyPrecedes([2, 3, 0]) == false }
}
