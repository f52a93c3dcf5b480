import Crypto
import Foundation
import SwiftASN1
import ThreeDS2JOSE
import ThreeDS2Messages
import X509
import _CryptoExtras

/// A directory server whose key and roots have been parsed and checked.
struct ResolvedDirectoryServer: Sendable {
    enum EncryptionKey: Sendable {
        case rsa(subjectPublicKeyInfoDER: [UInt8])
        case p256(P256.KeyAgreement.PublicKey)
    }

    let id: DirectoryServerID
    let encryptionKey: EncryptionKey
    let keyID: String?
    let roots: [Certificate]
    let displayName: String?
    let logo: SchemeLogo?
    let deviceDataEncryption: ContentEncryption

    /// When the certificate in use ends within 30 days, the warning saying so.
    let expiryWarning: Warning?

    /// The key chosen as ``DirectoryServer/evaluate(at:)`` decides; refused when there is none.
    init(_ server: DirectoryServer, now: Date = Date()) throws(ThreeDS2Error) {
        let report = server.evaluate(at: now)
        if let failure = report.failure { throw failure }
        guard let chosen = report.chosen, let key = chosen.parsed else {
            throw ThreeDS2Error.invalidInput("directory server \(server.id) has no usable encryption key")
                .concerning(.directoryServer(server.id, .encryptionKey))
        }
        id = server.id
        encryptionKey = key
        keyID = chosen.keyID
        roots = report.parsedRoots
        displayName = report.name
        logo = server.logo
        deviceDataEncryption = server.deviceDataEncryption
        expiryWarning = report.warning
    }

    /// The device data (`sdkEncData`) encrypted to this directory server: RSA-OAEP-256 or ECDH-ES (PartyVInfo the
    /// directory server's ID) with its content encryption and key ID. The Default-SDK's transaction and the Split-SDK
    /// Server encrypt through this one function.
    func encryptDeviceData(_ json: String) throws(ThreeDS2Error) -> String {
        let recipient: JWERecipient
        switch encryptionKey {
        case .rsa(let der): recipient = .rsaOAEP256(publicKeyDER: der)
        case .p256(let key): recipient = .ecdhES(key, derivation: .emvco(partyVInfo: id.rawValue))
        }
        do {
            return try JWE.encrypt(Array(json.utf8), to: recipient, encryption: deviceDataEncryption, keyID: keyID)
        } catch {
            throw .runtime("device data could not be encrypted to directory server \(id)", underlying: error)
        }
    }
}

/// Reading one or more PEM certificates from one text.
enum PEMBundle {
    static func certificates(_ text: String, what: String) throws(ThreeDS2Error) -> [Certificate] {
        var certificates: [Certificate] = []
        var remaining = Substring(text)
        while let begin = remaining.range(of: "-----BEGIN") {
            guard let endMarker = remaining.range(of: "-----END", range: begin.upperBound..<remaining.endIndex),
                let close = remaining.range(of: "-----", range: endMarker.upperBound..<remaining.endIndex)
            else { throw ThreeDS2Error(.malformedPEM, "\(what): a PEM block is not terminated") }
            let block = String(remaining[begin.lowerBound..<close.upperBound])
            do {
                certificates.append(try Certificate(pemEncoded: block))
            } catch {
                throw ThreeDS2Error(
                    .malformedPEM,
                    "\(what): PEM block \(certificates.count + 1) is not a certificate", underlying: error)
            }
            remaining = remaining[close.upperBound...]
        }
        if certificates.isEmpty, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ThreeDS2Error(.malformedPEM, "\(what) holds no PEM certificate")
        }
        return certificates
    }
}

/// The configuration after validation at initialize.
struct ResolvedConfiguration: Sendable {
    let sdkReferenceNumber: String
    let appIdentifier: String
    let appVersion: String
    let directoryServers: [DirectoryServerID: ResolvedDirectoryServer]
    /// The warnings about directory-server certificates ending soon, by directory server ID.
    var directoryServerWarnings: [Warning] {
        directoryServers.keys.sorted().compactMap { directoryServers[$0]?.expiryWarning }
    }
    let restrictedParameters: Set<DeviceParameterID>
    let enabledParameters: Set<DeviceParameterID>
    let allowsPlainHTTPLoopback: Bool
    let opensOOBApps: Bool
    let dataDirectory: String?
    let minimumOSVersion: OperatingSystemVersion?
    let expectedExecutableSHA256: String?
    /// The app's own texts (``ConfigParameters/textsGroup``), checked.
    let texts: [SDKStrings.Key: String]

    init(_ parameters: ConfigParameters, now: Date = Date()) throws(ThreeDS2Error) {
        guard let reference = parameters.sdkReferenceNumber, !reference.isEmpty else {
            throw ThreeDS2Error.invalidInput("configuration parameter sdk.sdkReferenceNumber is required").concerning(
                .sdk(.sdkReferenceNumber))
        }
        guard PeerText.fits(reference, max: 32) else {
            throw ThreeDS2Error.invalidInput(
                "sdk.sdkReferenceNumber is \(PeerText.length(reference)) characters; at most 32 are allowed"
            ).concerning(.sdk(.sdkReferenceNumber))
        }
        sdkReferenceNumber = reference
        appIdentifier = parameters.appIdentifier ?? ProcessInfo.processInfo.processName
        appVersion = parameters.appVersion ?? "0"
        var servers: [DirectoryServerID: ResolvedDirectoryServer] = [:]
        for id in parameters.directoryServerIDs {
            guard let server = parameters.directoryServer(id: id) else { continue }
            servers[id] = try ResolvedDirectoryServer(server, now: now)
        }
        directoryServers = servers
        restrictedParameters = try Self.parameterIDs(parameters.restrictedParameters, "restrictedParameters")
        enabledParameters = try Self.parameterIDs(parameters.enabledParameters, "enabledParameters")
        if let both = restrictedParameters.intersection(enabledParameters).sorted().first {
            throw .invalidInput(
                "device parameter \(both) is both in sdk.restrictedParameters and sdk.enabledParameters")
        }
        if let flag = parameters[.allowPlainHTTPLoopback], flag != "true", flag != "false" {
            throw ThreeDS2Error.invalidInput("sdk.allowPlainHTTPLoopback must be true or false, found \"\(flag)\"")
                .concerning(.sdk(.allowPlainHTTPLoopback))
        }
        allowsPlainHTTPLoopback = parameters.allowsPlainHTTPLoopback
        opensOOBApps = parameters.opensOOBApps
        dataDirectory = parameters.dataDirectory
        if let text = parameters[.minimumOSVersion] {
            guard let version = OperatingSystemVersion(parsing: text),
                text.trimmingCharacters(in: .whitespaces).allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
            else {
                throw ThreeDS2Error.invalidInput(
                    "sdk.minimumOSVersion \"\(text)\" is not a version such as 16, 16.4 or 16.4.1"
                ).concerning(.sdk(.minimumOSVersion))
            }
            minimumOSVersion = version
        } else {
            minimumOSVersion = nil
        }
        if let hash = parameters[.expectedExecutableSHA256],
            hash.count != 64 || !hash.allSatisfy({ $0.isHexDigit })
        {
            throw ThreeDS2Error.invalidInput("sdk.expectedExecutableSHA256 must be 64 hexadecimal characters")
                .concerning(.sdk(.expectedExecutableSHA256))
        }
        expectedExecutableSHA256 = parameters[.expectedExecutableSHA256]?.lowercased()
        if let level = parameters[.logLevel], LogLevelName(rawValue: level) == nil {
            throw ThreeDS2Error.invalidInput(
                "sdk.logLevel \"\(level)\" is not one of trace, debug, info, notice, warning, error, critical"
            ).concerning(.sdk(.logLevel))
        }
        texts = try Self.texts(parameters.textEntries)
    }

    /// The app's texts by key; a name that is no key, or a text whose placeholders differ from the English text's,
    /// is refused, named.
    static func texts(_ entries: [String: String]) throws(ThreeDS2Error) -> [SDKStrings.Key: String] {
        var texts: [SDKStrings.Key: String] = [:]
        for name in entries.keys.sorted() {
            let text = entries[name] ?? ""
            guard let key = SDKStrings.Key(rawValue: name) else {
                throw .invalidInput(
                    "\(ConfigParameters.textsGroup).\(name) is not one of the SDK's texts (SDKStrings.Key)")
            }
            if let problem = SDKStrings.placeholderProblem(in: text, for: key) {
                throw .invalidInput("\(ConfigParameters.textsGroup).\(problem)")
            }
            texts[key] = text
        }
        return texts
    }
}

extension ResolvedConfiguration {
    /// The registered parameter IDs of a configured list; an unknown ID is refused, named, with the known ones.
    static func parameterIDs(_ texts: Set<String>, _ name: String) throws(ThreeDS2Error) -> Set<DeviceParameterID> {
        var ids: Set<DeviceParameterID> = []
        for text in texts.sorted() {
            guard let id = DeviceParameterID(text) else {
                throw .invalidInput(
                    "sdk.\(name) names \"\(text)\", which is not a device parameter ID; known IDs are C001–C018 and"
                        + " I001–I015")
            }
            ids.insert(id)
        }
        return ids
    }
}

enum LogLevelName: String {
    case trace, debug, info, notice, warning, error, critical
}
