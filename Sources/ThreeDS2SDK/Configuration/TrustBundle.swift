public import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory-server certificates as data the app updates: per directory server, one or more encryption
/// certificates with their key IDs (so a rotation overlaps) and one or more CA roots.
///
/// A bundle is one JSON file (``fileName`` when a folder is given) in this layout:
///
/// ```json
/// {"format": "threeds2-trust-bundle/1",
///  "directoryServers": [
///    {"id": "A000000004",
///     "name": "Mastercard",
///     "deviceDataEncryption": "A128CBC-HS256",
///     "encryptionCertificates": [
///       {"keyID": "mc-2025", "file": "mastercard-encryption-2025.pem"},
///       {"keyID": "mc-2026", "pem": "-----BEGIN CERTIFICATE-----\n…"}],
///     "rootCertificates": [{"file": "mastercard-root.pem"}]}]}
/// ```
///
/// `name` (the registered scheme's name when absent) and `deviceDataEncryption` (A128CBC-HS256 when absent) are
/// optional; `keyID` is optional per certificate. `name` and `keyID` are display text: a control character or a
/// bidirectional embedding, override or isolate is refused (right-to-left letters and the marks LRM and RLM are
/// fine). Directory-server IDs are compared without regard to case, so `a000000004` and `A000000004` are one server
/// listed twice. `allowUnchainedEncryptionCertificates` (`true` or `false`, default `false`) is the explicit
/// per-directory-server opt-out of ``DirectoryServer/allowsUnchainedEncryptionCertificates``. An optional `intermediateCertificates` array (same form as
/// `rootCertificates`) lists CA certificates between the encryption certificates and their root, for the chain
/// diagnostics show. A certificate is given inline (`pem`: PEM text, or base64 DER) or
/// as a `file` beside the bundle: a relative path with no `..` component that resolves, symbolic links followed,
/// inside the bundle's folder, to a regular file (a FIFO or device is refused without blocking). Unknown members are
/// refused, so a typo does not silently drop a certificate.
///
/// **Bounds.** The bundle file and each referenced file are at most ``maxFileBytes``; each path is read once however
/// often it is referenced; all certificate text the bundle uses (inline or by reference, counted at every use) plus
/// the bundle itself is at most ``maxTotalBytes``; a directory server lists at most
/// ``maxCertificatesPerDirectoryServer`` certificates (encryption, root and intermediate together, each PEM block
/// counted); a bundle lists at most ``maxDirectoryServers`` directory servers.
public struct TrustBundle: Sendable, Hashable {
    /// The file a bundle folder holds.
    public static let fileName = "trust-bundle.json"
    /// The value of the bundle's `format` member.
    public static let format = "threeds2-trust-bundle/1"
    /// The largest bundle or certificate file read, in bytes.
    public static let maxFileBytes = 1 << 20
    /// The most bytes a bundle may make the SDK process: the bundle file plus the certificate text of every
    /// reference, counted at each use (4 MiB).
    public static let maxTotalBytes = 4 << 20
    /// The most certificates one directory server may list (encryption, root and intermediate together).
    public static let maxCertificatesPerDirectoryServer = 16
    /// The most directory servers one bundle may list.
    public static let maxDirectoryServers = 64

    /// The directory servers, in the bundle's order.
    public var directoryServers: [DirectoryServer]

    /// Creates a bundle from entries.
    ///
    /// - Parameter directoryServers: The directory servers.
    public init(directoryServers: [DirectoryServer]) {
        self.directoryServers = directoryServers
    }

    /// Reads a bundle file, or the ``fileName`` in a folder.
    ///
    /// - Parameter url: The bundle file or a folder holding one.
    /// - Throws: ``ThreeDS2Error``: `invalidInput` when the file cannot be read, `malformedJSON` or
    ///   `malformedTrustBundle` naming the file and what is wrong.
    public init(contentsOf url: URL) throws(ThreeDS2Error) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .invalidInput("trust bundle \(url.path) does not exist")
        }
        let file = isDirectory.boolValue ? url.appendingPathComponent(Self.fileName) : url
        let bytes = try BoundedFile.read(file.path, maxBytes: Self.maxFileBytes, what: "trust bundle")
        try self.init(json: bytes, baseDirectory: file.deletingLastPathComponent(), source: file.path)
    }

    /// Parses a bundle's JSON.
    ///
    /// - Parameters:
    ///   - json: The bundle's UTF-8 JSON.
    ///   - baseDirectory: Where `file` references are read from; `nil` refuses them.
    ///   - source: How errors name the bundle.
    /// - Throws: ``ThreeDS2Error``: `malformedJSON`, `malformedTrustBundle` or `malformedPEM`, or `invalidInput`
    ///   when a referenced file cannot be read.
    public init(json: [UInt8], baseDirectory: URL?, source: String = "trust bundle") throws(ThreeDS2Error) {
        let reader = ReferenceReader(base: baseDirectory, spent: json.count)
        let root: JSONValue
        do {
            root = try JSONParser(limits: .init(maxBytes: Self.maxFileBytes, maxDepth: 8)).parse(json)
        } catch {
            throw ThreeDS2Error(.malformedJSON, "\(source) is not valid JSON: \(error.message)", underlying: error)
        }
        guard let object = root.objectValue else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(source) is not a JSON object")
        }
        try Self.allow(object, ["format", "directoryServers"], at: source)
        guard object["format"]?.stringValue == Self.format else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(source): \"format\" must be \"\(Self.format)\"")
        }
        guard let entries = object["directoryServers"]?.arrayValue, !entries.isEmpty else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(source): \"directoryServers\" must be a non-empty array")
        }
        guard entries.count <= Self.maxDirectoryServers else {
            throw ThreeDS2Error(
                .malformedTrustBundle,
                "\(source) lists \(entries.count) directory servers; at most \(Self.maxDirectoryServers) are read")
        }
        var seen: Set<String> = []
        var servers: [DirectoryServer] = []
        for (index, entry) in entries.enumerated() {
            servers.append(
                try Self.directoryServer(
                    entry, at: "\(source): directoryServers[\(index)]", source: source, reader: reader, seen: &seen))
        }
        directoryServers = servers
    }

    /// One entry of `directoryServers`: its ID (not listed before), its settings and its certificates.
    private static func directoryServer(
        _ value: JSONValue, at: String, source: String, reader: ReferenceReader, seen: inout Set<String>
    ) throws(ThreeDS2Error) -> DirectoryServer {
        guard let entry = value.objectValue else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(at) is not an object")
        }
        try Self.allow(
            entry,
            [
                "id", "name", "deviceDataEncryption", "encryptionCertificates", "rootCertificates",
                "intermediateCertificates", "allowUnchainedEncryptionCertificates",
            ], at: at)
        guard let id = entry["id"]?.stringValue, DirectoryServerID(id).isWellFormed else {
            throw ThreeDS2Error(
                .malformedTrustBundle, "\(at): \"id\" must be a directory server ID of ten hexadecimal characters")
        }
        let named = "\(source): directory server \(id)"
        guard seen.insert(id.uppercased()).inserted else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(named) is listed twice")
        }
        let settings = try Self.settings(entry, named: named)
        var count = 0
        let keys = try Self.certificates(
            entry["encryptionCertificates"], keyIDs: true, at: named, reader: reader, count: &count)
        let roots = try Self.certificates(
            entry["rootCertificates"], keyIDs: false, at: named, reader: reader, count: &count)
        let intermediates =
            entry["intermediateCertificates"] == nil
            ? []
            : try Self.certificates(
                entry["intermediateCertificates"], keyIDs: false, at: named, reader: reader, count: &count,
                member: "intermediateCertificates")
        guard !keys.isEmpty else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(named) has no encryption certificate")
        }
        guard !roots.isEmpty else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(named) has no root certificate for ACS signed content")
        }
        return DirectoryServer(
            id: DirectoryServerID(id), encryptionKeys: keys, rootCertificates: roots.map(\.key).joined(separator: "\n"),
            displayName: settings.name, deviceDataEncryption: settings.encryption,
            intermediateCertificates: intermediates.map(\.key).joined(separator: "\n"),
            allowsUnchainedEncryptionCertificates: settings.allowsUnchained)
    }

    /// An entry's optional settings: its display name, the device data's encryption and whether encryption
    /// certificates that do not chain to its roots are allowed.
    private static func settings(_ entry: JSONObject, named: String) throws(ThreeDS2Error) -> (
        name: String?, encryption: ContentEncryption, allowsUnchained: Bool
    ) {
        var name: String?
        if let value = entry["name"] {
            guard let text = value.stringValue, !text.isEmpty else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(named): \"name\" must be a non-empty string")
            }
            try Self.displayable(text, "\(named): \"name\"")
            name = text
        }
        var encryption = ContentEncryption.a128cbcHS256
        if let value = entry["deviceDataEncryption"] {
            guard let text = value.stringValue, let parsed = ContentEncryption(rawValue: text) else {
                throw ThreeDS2Error(
                    .malformedTrustBundle, "\(named): \"deviceDataEncryption\" must be A128CBC-HS256 or A128GCM")
            }
            encryption = parsed
        }
        var allowsUnchained = false
        if let value = entry["allowUnchainedEncryptionCertificates"] {
            guard case .bool(let flag) = value else {
                throw ThreeDS2Error(
                    .malformedTrustBundle, "\(named): \"allowUnchainedEncryptionCertificates\" must be true or false")
            }
            allowsUnchained = flag
        }
        return (name, encryption, allowsUnchained)
    }

    private static func certificates(
        _ value: JSONValue?, keyIDs: Bool, at: String, reader: ReferenceReader, count: inout Int,
        member: String? = nil
    ) throws(ThreeDS2Error) -> [DirectoryServer.EncryptionKey] {
        let member = member ?? (keyIDs ? "encryptionCertificates" : "rootCertificates")
        guard let list = value?.arrayValue else {
            throw ThreeDS2Error(.malformedTrustBundle, "\(at): \"\(member)\" must be an array")
        }
        var result: [DirectoryServer.EncryptionKey] = []
        for (index, item) in list.enumerated() {
            let here = "\(at): \(member)[\(index)]"
            guard let item = item.objectValue else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(here) is not an object")
            }
            try allow(item, keyIDs ? ["keyID", "pem", "file"] : ["pem", "file"], at: here)
            var keyID: String?
            if let value = item["keyID"] {
                guard let text = value.stringValue, !text.isEmpty else {
                    throw ThreeDS2Error(.malformedTrustBundle, "\(here): \"keyID\" must be a non-empty string")
                }
                try displayable(text, "\(here): \"keyID\"")
                keyID = text
            }
            let text: String
            switch (item["pem"], item["file"]) {
            case (let pem?, nil):
                guard let pem = pem.stringValue, !pem.isEmpty else {
                    throw ThreeDS2Error(.malformedTrustBundle, "\(here): \"pem\" must be a non-empty string")
                }
                text = pem
            case (nil, let file?):
                guard let path = file.stringValue else {
                    throw ThreeDS2Error(.malformedTrustBundle, "\(here): \"file\" must be a string")
                }
                text = try reader.text(path, at: here)
            default:
                throw ThreeDS2Error(.malformedTrustBundle, "\(here) needs exactly one of \"pem\" or \"file\"")
            }
            try reader.spend(text.utf8.count, at: here)
            count += max(1, text.components(separatedBy: "-----BEGIN ").count - 1)
            guard count <= maxCertificatesPerDirectoryServer else {
                throw ThreeDS2Error(
                    .malformedTrustBundle,
                    "\(at) lists more than \(maxCertificatesPerDirectoryServer) certificates (encryption, root and "
                        + "intermediate together)")
            }
            result.append(DirectoryServer.EncryptionKey(key: text, keyID: keyID))
        }
        return result
    }

    /// App-supplied display text (a directory server's name, a key ID): no control character, no bidirectional
    /// embedding, override or isolate.
    private static func displayable(_ text: String, _ what: String) throws(ThreeDS2Error) {
        if let scalar = PeerText.forbiddenScalar(in: text)
            ?? text.unicodeScalars.first(where: { $0 == "\n" || $0 == "\r" })
        {
            throw ThreeDS2Error(
                .malformedTrustBundle,
                "\(what) carries the control character U+\(String(scalar.value, radix: 16, uppercase: true)), "
                    + "which display text may not")
        }
    }

    /// Reads `file` references: each path once, inside the bundle's folder, regular files only, within the
    /// bundle's total budget.
    private final class ReferenceReader {
        let base: URL?
        var spent: Int
        var cache: [String: String] = [:]

        init(base: URL?, spent: Int) {
            self.base = base
            self.spent = spent
        }

        func spend(_ bytes: Int, at: String) throws(ThreeDS2Error) {
            spent += bytes
            guard spent <= TrustBundle.maxTotalBytes else {
                throw ThreeDS2Error(
                    .malformedTrustBundle,
                    "\(at): the bundle uses more than \(TrustBundle.maxTotalBytes) bytes of certificate text in all "
                        + "(each reference counts)")
            }
        }

        func text(_ path: String, at: String) throws(ThreeDS2Error) -> String {
            guard let base else {
                throw ThreeDS2Error(
                    .malformedTrustBundle, "\(at): \"file\" references need the bundle to be read from a file")
            }
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.isEmpty, !path.hasPrefix("/"), !components.contains(".."), !components.contains("") else {
                throw ThreeDS2Error(
                    .malformedTrustBundle,
                    "\(at): \"file\" must be a relative path inside the bundle's folder, got \"\(path)\"")
            }
            let joined = base.appendingPathComponent(path).path
            guard let folder = Self.realPath(base.path), let resolved = Self.realPath(joined) else {
                throw .invalidInput("\(at): file \(joined) cannot be read: \(String(cString: strerror(errno)))")
            }
            guard resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
                throw ThreeDS2Error(
                    .malformedTrustBundle,
                    "\(at): file \(path) resolves to \(resolved), outside the bundle's folder \(folder)")
            }
            if let known = cache[resolved] { return known }
            let bytes = try BoundedFile.read(resolved, maxBytes: TrustBundle.maxFileBytes, what: "\(at): file")
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                throw ThreeDS2Error(.malformedPEM, "\(at): file \(path) is not UTF-8 text")
            }
            cache[resolved] = text
            return text
        }

        private static func realPath(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }

    private static func allow(_ object: JSONObject, _ names: Set<String>, at: String) throws(ThreeDS2Error) {
        if let unknown = object.names.first(where: { !names.contains($0) }) {
            throw ThreeDS2Error(
                .malformedTrustBundle,
                "\(at): unknown member \"\(unknown)\" (allowed: \(names.sorted().joined(separator: ", ")))")
        }
    }

    /// Evaluates every directory server on a day (see ``DirectoryServer/evaluate(at:)``).
    ///
    /// - Parameter date: The day.
    /// - Returns: One report per directory server, in the bundle's order.
    public func evaluate(at date: Date = Date()) -> [DirectoryServerReport] {
        directoryServers.map { $0.evaluate(at: date) }
    }
}

extension ConfigParameters {
    /// Adds every directory server of a trust bundle.
    ///
    /// - Parameter bundle: The bundle.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` when a directory server is already configured.
    public mutating func addDirectoryServers(from bundle: TrustBundle) throws(ThreeDS2Error) {
        for server in bundle.directoryServers { try addDirectoryServer(server) }
    }
}
