public import Foundation
import ThreeDS2JOSE

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
/// optional; `keyID` is optional per certificate. An optional `intermediateCertificates` array (same form as
/// `rootCertificates`) lists CA certificates between the encryption certificates and their root, for the chain
/// diagnostics show. A certificate is given inline (`pem`: PEM text, or base64 DER) or
/// as a `file` beside the bundle: a relative path with no `..` component. Unknown members are refused, so a typo
/// does not silently drop a certificate.
public struct TrustBundle: Sendable, Hashable {
    /// The file a bundle folder holds.
    public static let fileName = "trust-bundle.json"
    /// The value of the bundle's `format` member.
    public static let format = "threeds2-trust-bundle/1"
    /// The largest bundle or certificate file read, in bytes.
    public static let maxFileBytes = 1 << 20

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
        let bytes = try Self.read(file, what: "trust bundle")
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
        var servers: [DirectoryServer] = []
        var seen: Set<String> = []
        for (index, entry) in entries.enumerated() {
            let at = "\(source): directoryServers[\(index)]"
            guard let entry = entry.objectValue else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(at) is not an object")
            }
            try Self.allow(
                entry,
                [
                    "id", "name", "deviceDataEncryption", "encryptionCertificates", "rootCertificates",
                    "intermediateCertificates",
                ], at: at)
            guard let id = entry["id"]?.stringValue, DirectoryServerID(id).isWellFormed else {
                throw ThreeDS2Error(
                    .malformedTrustBundle, "\(at): \"id\" must be a directory server ID of ten hexadecimal characters")
            }
            let named = "\(source): directory server \(id)"
            guard seen.insert(id).inserted else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(named) is listed twice")
            }
            var name: String?
            if let value = entry["name"] {
                guard let text = value.stringValue, !text.isEmpty else {
                    throw ThreeDS2Error(.malformedTrustBundle, "\(named): \"name\" must be a non-empty string")
                }
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
            let keys = try Self.certificates(
                entry["encryptionCertificates"], keyIDs: true, at: named, base: baseDirectory)
            let roots = try Self.certificates(entry["rootCertificates"], keyIDs: false, at: named, base: baseDirectory)
            let intermediates =
                entry["intermediateCertificates"] == nil
                ? []
                : try Self.certificates(
                    entry["intermediateCertificates"], keyIDs: false, at: named, base: baseDirectory,
                    member: "intermediateCertificates")
            guard !keys.isEmpty else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(named) has no encryption certificate")
            }
            guard !roots.isEmpty else {
                throw ThreeDS2Error(.malformedTrustBundle, "\(named) has no root certificate for ACS signed content")
            }
            servers.append(
                DirectoryServer(
                    id: id, encryptionKeys: keys, rootCertificates: roots.map(\.key).joined(separator: "\n"),
                    displayName: name, deviceDataEncryption: encryption,
                    intermediateCertificates: intermediates.map(\.key).joined(separator: "\n")))
        }
        directoryServers = servers
    }

    private static func certificates(
        _ value: JSONValue?, keyIDs: Bool, at: String, base: URL?, member: String? = nil
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
                text = try readReferenced(path, base: base, at: here)
            default:
                throw ThreeDS2Error(.malformedTrustBundle, "\(here) needs exactly one of \"pem\" or \"file\"")
            }
            result.append(DirectoryServer.EncryptionKey(key: text, keyID: keyID))
        }
        return result
    }

    private static func readReferenced(_ path: String, base: URL?, at: String) throws(ThreeDS2Error) -> String {
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
        let bytes = try read(base.appendingPathComponent(path), what: "\(at): file")
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw ThreeDS2Error(.malformedPEM, "\(at): file \(path) is not UTF-8 text")
        }
        return text
    }

    private static func read(_ url: URL, what: String) throws(ThreeDS2Error) -> [UInt8] {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .invalidInput("\(what) \(url.path) cannot be read", underlying: error)
        }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: maxFileBytes + 1)
        } catch {
            throw .invalidInput("\(what) \(url.path) cannot be read", underlying: error)
        }
        let bytes = Array(data ?? Data())
        guard bytes.count <= maxFileBytes else {
            throw .invalidInput("\(what) \(url.path) is larger than \(maxFileBytes) bytes")
        }
        return bytes
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
