/// An EMV 3-D Secure message version the SDK supports.
public enum MessageVersion: String, Sendable, Hashable, CaseIterable, Comparable {
    /// 2.1.0.
    case v2_1_0 = "2.1.0"
    /// 2.2.0.
    case v2_2_0 = "2.2.0"
    /// 2.3.1.
    case v2_3_1 = "2.3.1"

    /// The highest supported version, used when the app does not ask for one.
    public static let highest: MessageVersion = .v2_3_1

    /// Orders by version number.
    public static func < (lhs: MessageVersion, rhs: MessageVersion) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Resolves the version an app asked for.
    ///
    /// - Parameter requested: The requested version string, or `nil` / empty for the highest.
    /// - Returns: The version.
    /// - Throws: ``ThreeDS2Error`` of kind `invalidInput` listing the supported versions.
    public static func resolve(_ requested: String?) throws(ThreeDS2Error) -> MessageVersion {
        guard let requested, !requested.isEmpty else { return highest }
        guard let version = MessageVersion(rawValue: requested) else {
            let supported = allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidInput("message version \"\(requested)\" is not supported; supported: \(supported)")
        }
        return version
    }
}
