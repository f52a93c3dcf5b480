import Foundation
import ThreeDS2SDK

/// What the CLI can tell about `--ds-id` and `--ds-cert` before the AReq goes out, so that a slip is named as such
/// rather than as the directory server's failure to decrypt ("authentication tag does not match"): an ID that is no
/// directory server ID, a key of the wrong type for a directory server whose key type is known (the TestLab's), and
/// an ID or key a trust bundle beside the certificate (a TestLab PKI folder) does not list.
enum DirectoryServerChoice {
    /// The key type each directory server the SDK's registry knows the key type of uses: the TestLab's two.
    static let knownKeyTypes: [DirectoryServerID: String] = [.testRSA: "RSA", .testEC: "EC P-256"]

    /// Why `--ds-id` cannot name a directory server; `nil` when it can.
    static func idProblem(_ id: DirectoryServerID) -> String? {
        guard !id.isWellFormed else { return nil }
        return "--ds-id must be a directory server ID, the card scheme's RID of ten hexadecimal digits (A000000003 "
            + "Visa, A000000004 Mastercard; the TestLab's F055545342 RSA, F155545342 EC), got \"\(id.rawValue)\""
    }

    /// Why the directory server `server`, read from `--ds-cert FILE`, is not the one `--ds-id` names; `nil` when
    /// nothing says so.
    ///
    /// - Parameters:
    ///   - server: The directory server as configured.
    ///   - certificatePath: The `--ds-cert` file.
    static func keyProblem(_ server: DirectoryServer, certificatePath: String) -> String? {
        let id = server.id
        let type = server.evaluate().keys.first?.keyType
        if let expected = knownKeyTypes[id], let type, type != expected {
            let fitting = knownKeyTypes.first { $0.value == type }.map { " or --ds-id \($0.key.rawValue)" } ?? ""
            return "--ds-cert \(certificatePath) holds an \(type) key, but directory server \(id) "
                + "(\(server.resolvedDisplayName ?? "the TestLab's")) uses \(expected): give its \(expected) "
                + "certificate (the TestLab's ds-encryption-\(expected == "RSA" ? "rsa" : "ec").pem)\(fitting)"
        }
        return bundleProblem(server, certificatePath: certificatePath)
    }

    /// What a trust bundle in the certificate's folder (a TestLab `--pki-dir`) says when the certificate is one of its
    /// directory servers' keys: whose it is, when that is not the `--ds-id` given. A certificate the bundle does not
    /// list (one of the person's own, put beside it) is left to the SDK's checks.
    private static func bundleProblem(_ server: DirectoryServer, certificatePath: String) -> String? {
        let folder = URL(fileURLWithPath: certificatePath).deletingLastPathComponent()
        let bundlePath = folder.appendingPathComponent(TrustBundle.fileName).path
        guard FileManager.default.fileExists(atPath: bundlePath),
            let bundle = try? TrustBundle(contentsOf: URL(fileURLWithPath: bundlePath))
        else { return nil }
        func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        let given = squeezed(server.encryptionKey)
        let owners = bundle.directoryServers.filter { entry in
            entry.encryptionKeys.contains { squeezed($0.key) == given }
        }
        guard let owner = owners.first, !owners.contains(where: { $0.id == server.id }) else { return nil }
        return "--ds-cert \(certificatePath) is the encryption certificate of directory server \(owner.id) in "
            + "\(bundlePath), not of --ds-id \(server.id): give --ds-id \(owner.id), or the certificate of "
            + "directory server \(server.id)"
    }
}
