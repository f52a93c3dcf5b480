public import ThreeDS2JOSE
import ThreeDS2Messages

/// A directory server the app works with: its ID, the keys device data may be encrypted to, and the CA roots that
/// ACS signed content must chain to.
///
/// A directory server may list several encryption keys so that a certificate rotation overlaps: at initialize the
/// SDK uses the newest certificate valid that day that chains to the directory server's roots
/// (``DirectoryServer/evaluate(at:)``). A certificate that does not chain to them is reported as untrusted and not
/// used, unless ``allowsUnchainedEncryptionCertificates`` is set for this directory server.
public struct DirectoryServer: Sendable, Hashable {
    /// One encryption key of a directory server, with the key ID the directory server knows it by.
    public struct EncryptionKey: Sendable, Hashable {
        /// A PEM certificate or PEM public key, or the base64 of a DER certificate or SubjectPublicKeyInfo.
        public var key: String
        /// The key ID sent as the device-data JWE `kid`, when the directory server wants one.
        public var keyID: String?

        /// Creates a key entry.
        ///
        /// - Parameters:
        ///   - key: The certificate or public key.
        ///   - keyID: The `kid`, if any.
        public init(key: String, keyID: String? = nil) {
            self.key = key
            self.keyID = keyID
        }
    }

    /// The directory server ID (the payment system's RID, for example `A000000004`).
    public var id: DirectoryServerID
    /// The encryption keys, at least one; certificates carry validity dates, of which the SDK uses the newest valid.
    public var encryptionKeys: [EncryptionKey]
    /// One or more PEM root certificates for ACS signed content.
    public var rootCertificates: String
    /// PEM CA certificates between an encryption certificate and its root, if the scheme issues through any. They
    /// serve the chain shown by diagnostics (``EncryptionKeyReport/chain``) only; ACS signed content brings its own.
    public var intermediateCertificates: String = ""
    /// The name shown on the processing screen; the registered scheme's name (``CardScheme``) when `nil`.
    public var displayName: String?
    /// The scheme's logo the processing indicator may show (``ProcessingScheme/logo``); `nil` unless the app sets it.
    public var logo: SchemeLogo?
    /// The content encryption of device data; A128CBC-HS256 unless the directory server asks for A128GCM.
    public var deviceDataEncryption: ContentEncryption
    /// The explicit opt-out of the chain rule, for this directory server only: when `true`, an encryption certificate
    /// that does not chain to ``rootCertificates`` may still be used (after every one that does), as earlier versions
    /// allowed.
    /// Leave it `false` unless the directory server issues its encryption certificates from a CA it does not give
    /// as a root; device data encrypted to a certificate nobody vouches for may be read by whoever made it.
    public var allowsUnchainedEncryptionCertificates = false

    /// The first encryption key: a PEM certificate or PEM public key, or the base64 of a DER certificate or
    /// SubjectPublicKeyInfo. RSA keys get RSA-OAEP-256, P-256 keys ECDH-ES.
    public var encryptionKey: String {
        get { encryptionKeys.first?.key ?? "" }
        set {
            if encryptionKeys.isEmpty {
                encryptionKeys = [EncryptionKey(key: newValue)]
            } else {
                encryptionKeys[0].key = newValue
            }
        }
    }

    /// The key ID of the first encryption key.
    public var keyID: String? {
        get { encryptionKeys.first?.keyID }
        set {
            if encryptionKeys.isEmpty {
                encryptionKeys = [EncryptionKey(key: "", keyID: newValue)]
            } else {
                encryptionKeys[0].keyID = newValue
            }
        }
    }

    /// The name to show: ``displayName``, else the registered scheme's name, else `nil`.
    public var resolvedDisplayName: String? { displayName ?? CardScheme.registered(id)?.name }

    /// Creates a directory server entry with one encryption key.
    ///
    /// - Parameters:
    ///   - id: The directory server ID.
    ///   - encryptionKey: The encryption certificate or public key (PEM, or base64 DER).
    ///   - keyID: The `kid` for device data, if any.
    ///   - rootCertificates: One or more PEM CA roots.
    ///   - displayName: The name shown while processing.
    ///   - deviceDataEncryption: The device-data `enc`.
    public init(
        id: DirectoryServerID, encryptionKey: String, keyID: String? = nil, rootCertificates: String,
        displayName: String? = nil,
        deviceDataEncryption: ContentEncryption = .a128cbcHS256
    ) {
        self.init(
            id: id, encryptionKeys: [EncryptionKey(key: encryptionKey, keyID: keyID)],
            rootCertificates: rootCertificates, displayName: displayName, deviceDataEncryption: deviceDataEncryption)
    }

    /// Creates a directory server entry with several encryption keys (a rotation).
    ///
    /// - Parameters:
    ///   - id: The directory server ID.
    ///   - encryptionKeys: The encryption certificates or public keys with their key IDs.
    ///   - rootCertificates: One or more PEM CA roots.
    ///   - displayName: The name shown while processing; the registered scheme's name when `nil`.
    ///   - deviceDataEncryption: The device-data `enc`.
    ///   - intermediateCertificates: PEM CA certificates between the encryption certificates and the roots, if any.
    ///   - allowsUnchainedEncryptionCertificates: The per-directory-server opt-out of the chain rule
    ///     (``allowsUnchainedEncryptionCertificates``); `false` unless the app states it.
    public init(
        id: DirectoryServerID, encryptionKeys: [EncryptionKey], rootCertificates: String, displayName: String? = nil,
        deviceDataEncryption: ContentEncryption = .a128cbcHS256, intermediateCertificates: String = "",
        allowsUnchainedEncryptionCertificates: Bool = false
    ) {
        self.allowsUnchainedEncryptionCertificates = allowsUnchainedEncryptionCertificates
        self.id = id
        self.encryptionKeys = encryptionKeys
        self.rootCertificates = rootCertificates
        self.intermediateCertificates = intermediateCertificates
        self.displayName = displayName
        self.deviceDataEncryption = deviceDataEncryption
    }

    /// Creates an entry for a registered card scheme: the ID and name come from the registry.
    ///
    /// - Parameters:
    ///   - scheme: The scheme.
    ///   - encryptionKeys: The encryption certificates with their key IDs.
    ///   - rootCertificates: One or more PEM CA roots.
    ///   - deviceDataEncryption: The device-data `enc`.
    public init(
        scheme: CardScheme, encryptionKeys: [EncryptionKey], rootCertificates: String,
        deviceDataEncryption: ContentEncryption = .a128cbcHS256
    ) {
        self.init(
            id: scheme.id, encryptionKeys: encryptionKeys, rootCertificates: rootCertificates,
            displayName: scheme.name, deviceDataEncryption: deviceDataEncryption)
    }
}

extension ConfigParameters {
    /// Adds a directory server.
    ///
    /// - Parameter server: The directory server.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty ID or one already configured.
    public mutating func addDirectoryServer(_ server: DirectoryServer) throws(ThreeDS2Error) {
        guard !server.id.rawValue.isEmpty else { throw .invalidInput("a directory server ID must not be empty") }
        guard !directoryServerIDs.contains(where: { $0.rawValue.uppercased() == server.id.rawValue.uppercased() })
        else {
            throw .invalidInput("directory server \(server.id) is already configured")
        }
        // App-supplied display text refuses what a terminal or a layout engine would act on.
        let texts: [(String?, String)] =
            [(server.displayName, "name"), (server.id.rawValue, "ID")]
            + server.encryptionKeys.map { ($0.keyID, "key ID") }
        for (text, what) in texts {
            if let text, let scalar = text.unicodeScalars.first(where: PeerText.isControlOrBidi) {
                throw .invalidInput(
                    "directory server \(PeerText.escapedForTerminal(server.id.rawValue)) \(what) carries the control character "
                        + "U+\(String(scalar.value, radix: 16, uppercase: true)), which display text may not")
            }
        }
        let group = Self.directoryServerGroup(server.id)
        guard value(group, DirectoryServerField.encryptionKey.rawValue) == nil else {
            throw .invalidInput("directory server \(server.id) is already configured")
        }
        guard !server.encryptionKeys.isEmpty else {
            throw .invalidInput("directory server \(server.id) has no encryption key")
        }
        for (index, entry) in server.encryptionKeys.enumerated() {
            let suffix = index == 0 ? "" : ".\(index + 1)"
            set(group, DirectoryServerField.encryptionKey.rawValue + suffix, entry.key)
            set(group, DirectoryServerField.keyID.rawValue + suffix, entry.keyID)
        }
        set(group, DirectoryServerField.rootCertificates.rawValue, server.rootCertificates)
        set(
            group, DirectoryServerField.intermediateCertificates.rawValue,
            server.intermediateCertificates.isEmpty ? nil : server.intermediateCertificates)
        set(group, DirectoryServerField.displayName.rawValue, server.displayName)
        set(group, DirectoryServerField.logo.rawValue, server.logo?.imageName)
        set(group, DirectoryServerField.logoLabel.rawValue, server.logo?.accessibilityLabel)
        set(group, DirectoryServerField.deviceDataEncryption.rawValue, server.deviceDataEncryption.rawValue)
        set(
            group, DirectoryServerField.allowsUnchainedEncryptionCertificates.rawValue,
            server.allowsUnchainedEncryptionCertificates ? "true" : nil)
    }

    /// The configured directory server IDs, sorted.
    public var directoryServerIDs: [DirectoryServerID] {
        groupNames.filter { $0.hasPrefix(Self.directoryServerGroupPrefix) }.map {
            DirectoryServerID(String($0.dropFirst(Self.directoryServerGroupPrefix.count)))
        }
    }

    /// The directory server with this ID, as configured (unvalidated).
    ///
    /// - Parameter id: The directory server ID.
    /// - Returns: The entry, or `nil` when it is not configured or lacks a key.
    public func directoryServer(id: DirectoryServerID) -> DirectoryServer? {
        let group = Self.directoryServerGroup(id)
        guard let key = value(group, DirectoryServerField.encryptionKey.rawValue) else { return nil }
        var keys = [DirectoryServer.EncryptionKey(key: key, keyID: value(group, DirectoryServerField.keyID.rawValue))]
        while let next = value(group, DirectoryServerField.encryptionKey.rawValue + ".\(keys.count + 1)") {
            keys.append(
                .init(key: next, keyID: value(group, DirectoryServerField.keyID.rawValue + ".\(keys.count + 1)")))
        }
        var server = DirectoryServer(
            id: id, encryptionKeys: keys,
            rootCertificates: value(group, DirectoryServerField.rootCertificates.rawValue) ?? "",
            displayName: value(group, DirectoryServerField.displayName.rawValue),
            deviceDataEncryption: value(group, DirectoryServerField.deviceDataEncryption.rawValue).flatMap(
                ContentEncryption.init(rawValue:)) ?? .a128cbcHS256,
            intermediateCertificates: value(group, DirectoryServerField.intermediateCertificates.rawValue) ?? "",
            allowsUnchainedEncryptionCertificates:
                value(group, DirectoryServerField.allowsUnchainedEncryptionCertificates.rawValue) == "true")
        server.logo = value(group, DirectoryServerField.logo.rawValue).map {
            SchemeLogo(imageName: $0, accessibilityLabel: value(group, DirectoryServerField.logoLabel.rawValue))
        }
        return server
    }
}
