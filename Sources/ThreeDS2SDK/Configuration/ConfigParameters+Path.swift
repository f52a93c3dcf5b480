extension ConfigParameters {
    /// A field of a directory server's group (``DirectoryServer``'s members as the configuration stores them).
    public enum DirectoryServerField: String, Sendable, Hashable, CaseIterable {
        /// The encryption keys (``DirectoryServer/encryptionKeys``).
        case encryptionKey
        /// Their key IDs.
        case keyID
        /// The roots for ACS signed content (``DirectoryServer/rootCertificates``).
        case rootCertificates
        /// The intermediate certificates (``DirectoryServer/intermediateCertificates``).
        case intermediateCertificates
        /// The name shown while processing (``DirectoryServer/displayName``).
        case displayName
        /// The image name of the scheme's logo shown while processing (``DirectoryServer/logo``).
        case logo
        /// The logo's text alternative (``SchemeLogo/accessibilityLabel``).
        case logoLabel
        /// The device-data content encryption (``DirectoryServer/deviceDataEncryption``).
        case deviceDataEncryption
        /// The opt-out of the chain rule (``DirectoryServer/allowsUnchainedEncryptionCertificates``).
        case allowsUnchainedEncryptionCertificates
    }

    /// Where a value sits in a configuration: one of the SDK's own parameters, or a field of one directory server.
    /// ``ThreeDS2Error/parameter`` names the one at fault, so a caller maps it to its own option or file by matching,
    /// never by reading text.
    ///
    /// A closed enum: the SDK writes every path and callers switch over them.
    public enum Path: Sendable, Hashable, CustomStringConvertible {
        /// A parameter of the ``ConfigParameters/sdkGroup``.
        case sdk(SDKParameter)
        /// A field of a directory server's group.
        case directoryServer(DirectoryServerID, DirectoryServerField)

        /// The parameter's group, as ``ConfigParameters/getParamValue(group:name:)`` takes it (`ds:A000000004`).
        public var group: String {
            switch self {
            case .sdk: ConfigParameters.sdkGroup
            case .directoryServer(let id, _): ConfigParameters.directoryServerGroup(id)
            }
        }

        /// The parameter's name within its group.
        public var name: String {
            switch self {
            case .sdk(let parameter): parameter.rawValue
            case .directoryServer(_, let field): field.rawValue
            }
        }

        /// The directory server the path concerns, when it concerns one.
        public var directoryServerID: DirectoryServerID? {
            if case .directoryServer(let id, _) = self { return id }
            return nil
        }

        /// `group.name`, for example `ds:A000000004.encryptionKey`.
        public var description: String { "\(group).\(name)" }
    }

    /// The group that holds a directory server's fields (`ds:` and its ID).
    ///
    /// - Parameter id: The directory server ID.
    /// - Returns: The group's name.
    public static func directoryServerGroup(_ id: DirectoryServerID) -> String {
        directoryServerGroupPrefix + id.rawValue
    }

    static let directoryServerGroupPrefix = "ds:"
}
