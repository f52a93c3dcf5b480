public import ThreeDS2Messages

extension MessageVersion {
    /// Resolves the version an app asked for.
    ///
    /// - Parameter requested: The requested version text, or `nil` / empty for the highest supported.
    /// - Returns: The version.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` listing the supported versions.
    public static func resolve(_ requested: String?) throws(ThreeDS2Error) -> MessageVersion {
        guard let requested, !requested.isEmpty else { return highest }
        guard let version = MessageVersion(requested), version.isSupported else {
            let list = supported.map(\.rawValue).joined(separator: ", ")
            throw .invalidInput("message version \"\(requested)\" is not supported; supported: \(list)")
        }
        return version
    }
}
