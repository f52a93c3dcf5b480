import ThreeDS2JOSE

extension TrustBundle {
    /// The bundle as the JSON ``init(json:baseDirectory:source:)`` reads, so a tool that makes a bundle never writes
    /// the format by hand.
    ///
    /// A certificate whose text is the contents of one of `files` is written as a `file` reference to that name
    /// (write those files beside the bundle); any other inline, as `pem`. A directory server's roots (and its
    /// intermediates) are one entry each way: the text as the entry holds it. The name is written when
    /// ``DirectoryServer/displayName`` is set, the content encryption always, the chain-rule opt-out when set.
    /// Reading the result back (with the files beside it) gives this bundle again.
    ///
    /// - Parameter files: The files written beside the bundle, by name.
    /// - Returns: The bundle's JSON text, ending with a line break.
    public func json(referencing files: [String: String] = [:]) -> String {
        var names: [String: String] = [:]
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) where names[contents] == nil {
            names[contents] = name
        }
        func certificate(_ text: String, keyID: String?) -> JSONValue {
            var entry: JSONObject = [:]
            if let keyID { entry["keyID"] = .string(keyID) }
            if let name = names[text] {
                entry["file"] = .string(name)
            } else {
                entry["pem"] = .string(text)
            }
            return .object(entry)
        }
        let servers: [JSONValue] = directoryServers.map { server in
            var entry: JSONObject = ["id": .string(server.id.rawValue)]
            if let name = server.displayName { entry["name"] = .string(name) }
            entry["deviceDataEncryption"] = .string(server.deviceDataEncryption.rawValue)
            entry["encryptionCertificates"] = .array(
                server.encryptionKeys.map { certificate($0.key, keyID: $0.keyID) })
            entry["rootCertificates"] = .array([certificate(server.rootCertificates, keyID: nil)])
            if !server.intermediateCertificates.isEmpty {
                entry["intermediateCertificates"] = .array([certificate(server.intermediateCertificates, keyID: nil)])
            }
            if server.allowsUnchainedEncryptionCertificates {
                entry["allowUnchainedEncryptionCertificates"] = .bool(true)
            }
            return .object(entry)
        }
        let bundle: JSONObject = ["format": .string(Self.format), "directoryServers": .array(servers)]
        return bundle.serialized + "\n"
    }
}
