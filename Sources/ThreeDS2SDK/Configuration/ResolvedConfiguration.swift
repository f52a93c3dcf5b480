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

    let id: String
    let encryptionKey: EncryptionKey
    let keyID: String?
    let roots: [Certificate]
    let displayName: String?
    let deviceDataEncryption: ContentEncryption

    init(_ server: DirectoryServer, now: Date = Date()) throws(ThreeDS2Error) {
        id = server.id
        keyID = server.keyID
        displayName = server.displayName
        deviceDataEncryption = server.deviceDataEncryption
        do {
            encryptionKey = try Self.parseKey(server.encryptionKey, serverID: server.id, now: now)
        } catch {
            throw error.concerning("ds:\(server.id).encryptionKey")
        }
        let roots: [Certificate]
        do {
            roots = try PEMBundle.certificates(
                server.rootCertificates, what: "directory server \(server.id) root certificates")
        } catch {
            throw error.concerning("ds:\(server.id).rootCertificates")
        }
        guard !roots.isEmpty else {
            throw ThreeDS2Error.invalidInput(
                "directory server \(server.id) has no root certificate for ACS signed content"
            )
            .concerning("ds:\(server.id).rootCertificates")
        }
        self.roots = roots
    }

    private static func parseKey(_ text: String, serverID: String, now: Date) throws(ThreeDS2Error) -> EncryptionKey {
        let what = "directory server \(serverID) encryption key"
        let publicKey: Certificate.PublicKey
        var certificate: Certificate?
        do {
            if text.contains("-----BEGIN") {
                let document = try PEMDocument(pemString: text)
                switch document.discriminator {
                case "CERTIFICATE":
                    certificate = try Certificate(pemDocument: document)
                    publicKey = certificate!.publicKey
                case "PUBLIC KEY": publicKey = try Certificate.PublicKey(pemDocument: document)
                default:
                    throw ThreeDS2Error.invalidInput(
                        "\(what) is a PEM \(document.discriminator), expected a CERTIFICATE or PUBLIC KEY")
                }
            } else {
                let der = try Base64.standardDecode(text.filter { !$0.isWhitespace }, what: what)
                if let parsed = try? Certificate(derEncoded: der) {
                    certificate = parsed
                    publicKey = parsed.publicKey
                } else {
                    publicKey = try Certificate.PublicKey(derEncoded: der)
                }
            }
        } catch let error as ThreeDS2Error {
            throw error
        } catch {
            throw .invalidInput(
                "\(what) is not a readable certificate or public key (RSA needs at least 2048 bits, EC must be P-256)",
                underlying: error)
        }
        if let certificate { try checkUsable(certificate, what: what, now: now) }
        if let ec = P256.Signing.PublicKey(publicKey) {
            do {
                return .p256(try P256.KeyAgreement.PublicKey(rawRepresentation: ec.rawRepresentation))
            } catch {
                throw .invalidInput("\(what) is not a valid P-256 key", underlying: error)
            }
        }
        // swift-certificates refuses RSA keys under 2048 bits when parsing, so any RSA key here is large enough.
        if let rsa = _RSA.Signing.PublicKey(publicKey) {
            return .rsa(subjectPublicKeyInfoDER: Array(rsa.derRepresentation))
        }
        throw .invalidInput("\(what) is neither RSA nor P-256")
    }

    /// An encryption certificate must be within its validity dates, and when it states a key usage, allow key
    /// encipherment (RSA) or key agreement (EC): device data encrypted to a key the DS no longer accepts is lost.
    private static func checkUsable(_ certificate: Certificate, what: String, now: Date) throws(ThreeDS2Error) {
        let subject = CertificateName.readable(certificate.subject)
        guard certificate.notValidBefore <= now else {
            throw .invalidInput("\(what) (\(subject)) is not valid before \(certificate.notValidBefore)")
        }
        guard now <= certificate.notValidAfter else {
            throw .invalidInput("\(what) (\(subject)) expired on \(certificate.notValidAfter)")
        }
        guard let usage = try? certificate.extensions.keyUsage else { return }
        let isEC = P256.Signing.PublicKey(certificate.publicKey) != nil
        guard isEC ? usage.keyAgreement : usage.keyEncipherment else {
            throw .invalidInput(
                "\(what) (\(subject)) does not allow \(isEC ? "key agreement" : "key encipherment") in its key usage")
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
            else { throw .invalidInput("\(what): a PEM block is not terminated") }
            let block = String(remaining[begin.lowerBound..<close.upperBound])
            do {
                certificates.append(try Certificate(pemEncoded: block))
            } catch {
                throw .invalidInput(
                    "\(what): PEM block \(certificates.count + 1) is not a certificate", underlying: error)
            }
            remaining = remaining[close.upperBound...]
        }
        if certificates.isEmpty, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .invalidInput("\(what) holds no PEM certificate")
        }
        return certificates
    }
}

/// The configuration after validation at initialize.
struct ResolvedConfiguration: Sendable {
    let sdkReferenceNumber: String
    let appIdentifier: String
    let appVersion: String
    let directoryServers: [String: ResolvedDirectoryServer]
    let restrictedParameters: Set<String>
    let allowsPlainHTTPLoopback: Bool
    let opensOOBApps: Bool
    let dataDirectory: String?
    let minimumOSVersion: String?
    let expectedExecutableSHA256: String?

    init(_ parameters: ConfigParameters) throws(ThreeDS2Error) {
        guard let reference = parameters.sdkReferenceNumber, !reference.isEmpty else {
            throw .invalidInput("configuration parameter sdk.sdkReferenceNumber is required")
        }
        guard PeerText.fits(reference, max: 32) else {
            throw .invalidInput(
                "sdk.sdkReferenceNumber is \(PeerText.length(reference)) characters; at most 32 are allowed")
        }
        sdkReferenceNumber = reference
        appIdentifier = parameters.appIdentifier ?? ProcessInfo.processInfo.processName
        appVersion = parameters.appVersion ?? "0"
        var servers: [String: ResolvedDirectoryServer] = [:]
        for id in parameters.directoryServerIDs {
            guard let server = parameters.directoryServer(id: id) else { continue }
            servers[id] = try ResolvedDirectoryServer(server)
        }
        directoryServers = servers
        restrictedParameters = parameters.restrictedParameters
        if let flag = parameters[.allowPlainHTTPLoopback], flag != "true", flag != "false" {
            throw .invalidInput("sdk.allowPlainHTTPLoopback must be true or false, found \"\(flag)\"")
        }
        allowsPlainHTTPLoopback = parameters.allowsPlainHTTPLoopback
        opensOOBApps = parameters.opensOOBApps
        dataDirectory = parameters.dataDirectory
        minimumOSVersion = parameters[.minimumOSVersion]
        if let hash = parameters[.expectedExecutableSHA256],
            hash.count != 64 || !hash.allSatisfy({ $0.isHexDigit })
        {
            throw .invalidInput("sdk.expectedExecutableSHA256 must be 64 hexadecimal characters")
        }
        expectedExecutableSHA256 = parameters[.expectedExecutableSHA256]?.lowercased()
        if let level = parameters[.logLevel], LogLevelName(rawValue: level) == nil {
            throw .invalidInput(
                "sdk.logLevel \"\(level)\" is not one of trace, debug, info, notice, warning, error, critical")
        }
    }
}

enum LogLevelName: String {
    case trace, debug, info, notice, warning, error, critical
}
