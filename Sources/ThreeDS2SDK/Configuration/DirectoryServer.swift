public import ThreeDS2JOSE

/// A directory server the app works with: its ID, the key device data is encrypted to, and the CA roots that
/// ACS signed content must chain to.
public struct DirectoryServer: Sendable, Hashable {
    /// The directory server ID (the payment system's RID, for example `A000000004`).
    public var id: String
    /// The encryption key: a PEM certificate or PEM public key, or the base64 of a DER certificate or
    /// SubjectPublicKeyInfo. RSA keys get RSA-OAEP-256, P-256 keys ECDH-ES.
    public var encryptionKey: String
    /// The key ID sent as the device-data JWE `kid`, when the directory server wants one.
    public var keyID: String?
    /// One or more PEM root certificates for ACS signed content.
    public var rootCertificates: String
    /// The name shown on the processing screen.
    public var displayName: String?
    /// The content encryption of device data; A128CBC-HS256 unless the directory server asks for A128GCM.
    public var deviceDataEncryption: ContentEncryption

    /// Creates a directory server entry.
    ///
    /// - Parameters:
    ///   - id: The directory server ID.
    ///   - encryptionKey: The encryption certificate or public key (PEM, or base64 DER).
    ///   - keyID: The `kid` for device data, if any.
    ///   - rootCertificates: One or more PEM CA roots.
    ///   - displayName: The name shown while processing.
    ///   - deviceDataEncryption: The device-data `enc`.
    public init(
        id: String, encryptionKey: String, keyID: String? = nil, rootCertificates: String, displayName: String? = nil,
        deviceDataEncryption: ContentEncryption = .a128cbcHS256
    ) {
        self.id = id
        self.encryptionKey = encryptionKey
        self.keyID = keyID
        self.rootCertificates = rootCertificates
        self.displayName = displayName
        self.deviceDataEncryption = deviceDataEncryption
    }
}

extension ConfigParameters {
    private static let directoryServerGroupPrefix = "ds:"

    private enum DirectoryServerField: String {
        case encryptionKey, keyID, rootCertificates, displayName, deviceDataEncryption
    }

    /// Adds a directory server.
    ///
    /// - Parameter server: The directory server.
    /// - Throws: ``ThreeDS2Error`` of kind `invalidInput` for an empty ID or one already configured.
    public mutating func addDirectoryServer(_ server: DirectoryServer) throws(ThreeDS2Error) {
        guard !server.id.isEmpty else { throw .invalidInput("a directory server ID must not be empty") }
        let group = Self.directoryServerGroupPrefix + server.id
        guard value(group, DirectoryServerField.encryptionKey.rawValue) == nil else {
            throw .invalidInput("directory server \(server.id) is already configured")
        }
        set(group, DirectoryServerField.encryptionKey.rawValue, server.encryptionKey)
        set(group, DirectoryServerField.keyID.rawValue, server.keyID)
        set(group, DirectoryServerField.rootCertificates.rawValue, server.rootCertificates)
        set(group, DirectoryServerField.displayName.rawValue, server.displayName)
        set(group, DirectoryServerField.deviceDataEncryption.rawValue, server.deviceDataEncryption.rawValue)
    }

    /// The configured directory server IDs, sorted.
    public var directoryServerIDs: [String] {
        groupNames.filter { $0.hasPrefix(Self.directoryServerGroupPrefix) }.map {
            String($0.dropFirst(Self.directoryServerGroupPrefix.count))
        }
    }

    /// The directory server with this ID, as configured (unvalidated).
    ///
    /// - Parameter id: The directory server ID.
    /// - Returns: The entry, or `nil` when it is not configured or lacks a key.
    public func directoryServer(id: String) -> DirectoryServer? {
        let group = Self.directoryServerGroupPrefix + id
        guard let key = value(group, DirectoryServerField.encryptionKey.rawValue) else { return nil }
        return DirectoryServer(
            id: id, encryptionKey: key, keyID: value(group, DirectoryServerField.keyID.rawValue),
            rootCertificates: value(group, DirectoryServerField.rootCertificates.rawValue) ?? "",
            displayName: value(group, DirectoryServerField.displayName.rawValue),
            deviceDataEncryption: value(group, DirectoryServerField.deviceDataEncryption.rawValue).flatMap(
                ContentEncryption.init(rawValue:)) ?? .a128cbcHS256)
    }
}
