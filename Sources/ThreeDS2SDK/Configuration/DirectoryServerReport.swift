import Crypto
public import Foundation
import SwiftASN1
import ThreeDS2JOSE
import X509
import _CryptoExtras

/// What one encryption key of a directory server is, and whether the SDK can use it on a given day.
public struct EncryptionKeyReport: Sendable {
    /// Whether the key can be used.
    public enum Status: String, Sendable, Hashable {
        /// Within its validity dates with a fitting key usage (a bare public key has no dates and is always valid).
        case valid
        /// Its validity ended before the day asked about.
        case expired
        /// Its validity starts after the day asked about.
        case notYetValid
        /// Its key usage allows neither key encipherment (RSA) nor key agreement (EC), it is a CA certificate, or its
        /// extended key usage allows only purposes that exclude encryption (TLS server or client, OCSP signing, time
        /// stamping).
        case wrongKeyUsage
        /// Within its dates and fit for encryption, but it does not chain to any of the directory server's roots:
        /// not used unless the directory server opts out (``DirectoryServer/allowsUnchainedEncryptionCertificates``).
        case untrusted
        /// Not a readable RSA (2048 bits or more) or P-256 certificate or public key, or a certificate whose key
        /// usage, basic constraints or extended key usage extension is malformed.
        case unreadable
    }

    /// The key's position in the directory server's list, from 1.
    public let position: Int
    /// The key ID the directory server knows it by, if any.
    public let keyID: String?
    /// The certificate's subject, or `nil` for a bare public key.
    public let subject: String?
    /// The certificate's issuer, or `nil` for a bare public key.
    public let issuer: String?
    /// `RSA` or `EC P-256`, or `nil` when unreadable.
    public let keyType: String?
    /// The key size in bits, or `nil` when unreadable.
    public let keySize: Int?
    /// The start of validity, or `nil` for a bare public key.
    public let notValidBefore: Date?
    /// The end of validity, or `nil` for a bare public key.
    public let notValidAfter: Date?
    /// The key usages the certificate states, or `nil` when it states none (or is a bare key).
    public let keyUsage: [String]?
    /// The subjects from this certificate's issuer (through the directory server's intermediates, if any) up to one
    /// of its roots, when it chains to one.
    public let chain: [String]
    /// Whether the certificate chains to a root of the directory server (signature checked at every step).
    public let chainsToRoot: Bool
    /// Whether the key can be used on the day asked about.
    public let status: Status
    /// Why it cannot be used, or `nil` when it can.
    public let problem: String?

    let parsed: ResolvedDirectoryServer.EncryptionKey?
}

/// What a directory server's keys are on a given day, and which one the SDK uses (see
/// ``DirectoryServer/evaluate(at:)``).
public struct DirectoryServerReport: Sendable {
    /// How long before its end of validity a certificate in use raises ``Warning/ID-swift.struct/directoryServerCertificateExpiring``.
    public static let expiryWarningPeriod: TimeInterval = 30 * 86400

    /// The directory server ID.
    public let id: DirectoryServerID
    /// The name shown while processing (the configured one, else the registered scheme's), if any.
    public let name: String?
    /// The day asked about.
    public let date: Date
    /// Every encryption key, in the order configured.
    public let keys: [EncryptionKeyReport]
    /// The subjects of the CA roots for ACS signed content.
    public let roots: [String]
    /// The position (from 1) of the key the SDK uses, or `nil` when none is usable.
    public let chosenPosition: Int?
    /// The warning when the key in use ends within ``expiryWarningPeriod``.
    public let warning: Warning?
    /// Why the directory server cannot be used (no usable key, no or unreadable roots), or `nil`.
    public let failure: ThreeDS2Error?

    /// The key the SDK uses, if any.
    public var chosen: EncryptionKeyReport? { chosenPosition.map { keys[$0 - 1] } }

    /// `ID (Name)`, or the ID alone.
    public var label: String { name.map { "\(id.rawValue) (\($0))" } ?? id.rawValue }

    let parsedRoots: [Certificate]
}

extension DirectoryServer {
    /// Reads every encryption key and root and decides which key the SDK would use on `date`: among the certificates
    /// within their validity dates whose key usage fits and that chain to the directory server's roots, the one whose
    /// validity started last; when none does, a bare public key. A certificate that does not chain is
    /// ``EncryptionKeyReport/Status-swift.enum/untrusted`` and not used unless
    /// ``allowsUnchainedEncryptionCertificates`` is set, and then only after every certificate that chains (among
    /// the rest, the newest; a bare public key counts as valid from the distant past).
    ///
    /// - Parameter date: The day to ask about.
    /// - Returns: The report; its ``DirectoryServerReport/failure`` says when the directory server is unusable.
    public func evaluate(at date: Date = Date()) -> DirectoryServerReport {
        let what = "directory server \(id) encryption key"
        let chainCertificates = readChainCertificates()
        let (roots, intermediates) = (chainCertificates.roots, chainCertificates.intermediates)
        var failure = chainCertificates.failure
        let keys = encryptionKeys.enumerated().map { index, entry in
            Self.report(
                entry, position: index + 1, what: encryptionKeys.count == 1 ? what : "\(what) \(index + 1)",
                roots: roots, intermediates: intermediates, date: date, directoryServer: id)
        }
        let usable = keys.filter {
            $0.status == .valid || ($0.status == .untrusted && allowsUnchainedEncryptionCertificates)
        }
        // Chaining certificates first, then (bare keys, opted-out unchained certificates) by start of validity.
        let chosen = usable.max {
            ($0.chainsToRoot ? 1 : 0, $0.notValidBefore ?? .distantPast)
                < ($1.chainsToRoot ? 1 : 0, $1.notValidBefore ?? .distantPast)
        }
        let name = resolvedDisplayName
        let label = name.map { "\(id) (\($0))" } ?? id.rawValue
        let warning = chosen.flatMap { Self.expiryWarning(for: $0, among: keys, at: date, label: label) }
        if failure == nil, chosen == nil {
            let reasons = keys.compactMap(\.problem)
            let message =
                keys.count == 1 && !reasons.isEmpty
                ? reasons[0]
                : "directory server \(label) has no encryption key usable on \(DateText.day(date)): "
                    + (reasons.isEmpty ? "none is configured" : reasons.joined(separator: "; "))
            failure = ThreeDS2Error.invalidInput(message).concerning(.directoryServer(id, .encryptionKey))
        }
        return DirectoryServerReport(
            id: id, name: name, date: date, keys: keys,
            roots: roots.map { CertificateName.readable($0.subject) }, chosenPosition: chosen?.position,
            warning: warning, failure: failure, parsedRoots: roots)
    }

    /// The roots and intermediates, and the first failure reading them (or no root at all).
    private func readChainCertificates() -> (
        roots: [Certificate], intermediates: [Certificate], failure: ThreeDS2Error?
    ) {
        let roots: [Certificate]
        var failure: ThreeDS2Error?
        do {
            roots = try PEMBundle.certificates(rootCertificates, what: "directory server \(id) root certificates")
        } catch {
            roots = []
            failure = error.concerning(.directoryServer(id, .rootCertificates))
        }
        var intermediates: [Certificate] = []
        do {
            intermediates = try PEMBundle.certificates(
                intermediateCertificates, what: "directory server \(id) intermediate certificates")
        } catch {
            failure = failure ?? error.concerning(.directoryServer(id, .intermediateCertificates))
        }
        if failure == nil, roots.isEmpty {
            failure = ThreeDS2Error.invalidInput(
                "directory server \(id) has no root certificate for ACS signed content"
            ).concerning(.directoryServer(id, .rootCertificates))
        }
        return (roots, intermediates, failure)
    }

    /// DSCERT01 when the chosen certificate ends within ``DirectoryServerReport/expiryWarningPeriod``, naming its
    /// successor when one is configured.
    private static func expiryWarning(
        for chosen: EncryptionKeyReport, among keys: [EncryptionKeyReport], at date: Date, label: String
    ) -> Warning? {
        guard let end = chosen.notValidAfter, end.timeIntervalSince(date) < DirectoryServerReport.expiryWarningPeriod
        else { return nil }
        let days = DateText.days(from: date, to: end)
        let successor = keys.filter {
            $0.status == .notYetValid && ($0.notValidBefore ?? .distantFuture) <= end
        }.compactMap(\.notValidBefore).min()
        let next =
            successor.map { "; a successor becomes valid on \(DateText.day($0))" }
            ?? "; no successor is configured: update the trust bundle before then"
        return Warning(
            id: Warning.ID.directoryServerCertificateExpiring,
            message:
                "the encryption certificate of directory server \(label) (\(chosen.subject ?? "key \(chosen.position)")) "
                + "expires on \(DateText.day(end)), in \(days) day\(days == 1 ? "" : "s")\(next)",
            severity: .medium)
    }

    private static func report(
        _ entry: EncryptionKey, position: Int, what: String, roots: [Certificate], intermediates: [Certificate],
        date: Date, directoryServer: DirectoryServerID
    ) -> EncryptionKeyReport {
        func unreadable(_ problem: String) -> EncryptionKeyReport {
            EncryptionKeyReport(
                position: position, keyID: entry.keyID, subject: nil, issuer: nil, keyType: nil, keySize: nil,
                notValidBefore: nil, notValidAfter: nil, keyUsage: nil, chain: [], chainsToRoot: false,
                status: .unreadable, problem: problem, parsed: nil)
        }
        let publicKey: Certificate.PublicKey
        var certificate: Certificate?
        do {
            (publicKey, certificate) = try readKey(entry.key, what: what)
        } catch {
            return unreadable(error.message)
        }
        guard let read = Self.parsed(publicKey) else { return unreadable("\(what) is neither RSA nor P-256") }
        let (parsed, keyType, keySize) = (read.key, read.type, read.size)
        guard let certificate else {
            return EncryptionKeyReport(
                position: position, keyID: entry.keyID, subject: nil, issuer: nil, keyType: keyType, keySize: keySize,
                notValidBefore: nil, notValidAfter: nil, keyUsage: nil, chain: [], chainsToRoot: false, status: .valid,
                problem: nil, parsed: parsed)
        }
        let subject = CertificateName.readable(certificate.subject)
        // A key usage, basic constraints or extended key usage that cannot be read is not "not stated".
        let usage: KeyUsage?
        let purposeProblem: String?
        do {
            (usage, purposeProblem) = try Self.purposes(of: certificate)
        } catch {
            return unreadable(
                "\(what) (\(subject)) has a malformed key usage, basic constraints or extended key usage extension")
        }
        let chain = Self.chain(from: certificate, roots: roots, intermediates: intermediates)
        let (status, problem) = Self.status(
            of: certificate, named: "\(what) (\(subject))", isEC: keyType != "RSA", usage: usage,
            purposeProblem: purposeProblem, chained: chain != nil || roots.isEmpty, date: date,
            directoryServer: directoryServer)
        return EncryptionKeyReport(
            position: position, keyID: entry.keyID, subject: subject,
            issuer: CertificateName.readable(certificate.issuer), keyType: keyType, keySize: keySize,
            notValidBefore: certificate.notValidBefore, notValidAfter: certificate.notValidAfter,
            keyUsage: usage.map(Self.names), chain: chain ?? [], chainsToRoot: chain != nil, status: status,
            problem: problem, parsed: parsed)
    }

    /// The key's type and size, and its form for the SDK: P-256 or RSA, else `nil`.
    private static func parsed(_ publicKey: Certificate.PublicKey) -> (
        key: ResolvedDirectoryServer.EncryptionKey, type: String, size: Int
    )? {
        if let ec = P256.Signing.PublicKey(publicKey),
            let agreement = try? P256.KeyAgreement.PublicKey(rawRepresentation: ec.rawRepresentation)
        {
            return (.p256(agreement), "EC P-256", 256)
        }
        // swift-certificates refuses RSA keys under 2048 bits when parsing, so any RSA key here is large enough.
        guard let rsa = _RSA.Signing.PublicKey(publicKey) else { return nil }
        return (.rsa(subjectPublicKeyInfoDER: Array(rsa.derRepresentation)), "RSA", rsa.keySizeInBits)
    }

    /// The certificate's key usage, and why its other extensions say it is not an encryption certificate.
    private static func purposes(of certificate: Certificate) throws -> (usage: KeyUsage?, problem: String?) {
        let usage = try certificate.extensions.keyUsage
        if case .isCertificateAuthority? = try certificate.extensions.basicConstraints {
            return (usage, "is a CA certificate, not an encryption certificate")
        }
        if let extended = try certificate.extensions.extendedKeyUsage {
            let purposes = Array(extended)
            if !purposes.contains(.any), purposes.allSatisfy({ Self.otherPurposes.contains($0) }) {
                return (usage, "has an extended key usage that allows only \(purposes), not encryption")
            }
        }
        return (usage, nil)
    }

    /// An encryption certificate's status on `date`, and the problem that gives it, the first of: its dates, its key
    /// usage, its other purposes, its chain.
    private static func status(
        of certificate: Certificate, named what: String, isEC: Bool, usage: KeyUsage?, purposeProblem: String?,
        chained: Bool, date: Date, directoryServer: DirectoryServerID
    ) -> (EncryptionKeyReport.Status, String?) {
        if date < certificate.notValidBefore {
            return (.notYetValid, "\(what) is not valid before \(DateText.instant(certificate.notValidBefore))")
        }
        if date > certificate.notValidAfter {
            return (.expired, "\(what) expired on \(DateText.instant(certificate.notValidAfter))")
        }
        if let usage, !(isEC ? usage.keyAgreement : usage.keyEncipherment) {
            // Device data encrypted to a key the DS may not use that way is lost.
            return (
                .wrongKeyUsage, "\(what) does not allow \(isEC ? "key agreement" : "key encipherment") in its key usage"
            )
        }
        if let purposeProblem { return (.wrongKeyUsage, "\(what) \(purposeProblem)") }
        if !chained {
            return (
                .untrusted,
                "\(what) does not chain to a root of directory server \(directoryServer): untrusted, "
                    + "not used unless the directory server allows unchained encryption certificates"
            )
        }
        return (.valid, nil)
    }

    /// The issuer subjects up to a root, every signature checked, or `nil`: a root issued the key directly, or
    /// through at most four of the directory server's intermediates.
    private static func chain(from certificate: Certificate, roots: [Certificate], intermediates: [Certificate])
        -> [String]?
    {
        func issuer(of child: Certificate, among candidates: [Certificate]) -> Certificate? {
            candidates.first {
                $0.subject == child.issuer && $0.publicKey.isValidSignature(child.signature, for: child)
            }
        }
        var current = certificate
        var path: [String] = []
        for _ in 0...4 {
            if let root = issuer(of: current, among: roots) {
                return path + [CertificateName.readable(root.subject)]
            }
            guard let next = issuer(of: current, among: intermediates), next != current else { return nil }
            path.append(CertificateName.readable(next.subject))
            current = next
        }
        return nil
    }

    /// Extended key usages that positively mean something other than encryption (as ``ThreeDS2JOSE/SignerPolicy``
    /// refuses them for signing).
    private static let otherPurposes: [ExtendedKeyUsage.Usage] = [
        .serverAuth, .clientAuth, .ocspSigning, .timeStamping,
    ]

    private static func names(_ usage: KeyUsage) -> [String] {
        var names: [String] = []
        if usage.digitalSignature { names.append("digitalSignature") }
        if usage.nonRepudiation { names.append("nonRepudiation") }
        if usage.keyEncipherment { names.append("keyEncipherment") }
        if usage.dataEncipherment { names.append("dataEncipherment") }
        if usage.keyAgreement { names.append("keyAgreement") }
        if usage.keyCertSign { names.append("keyCertSign") }
        if usage.cRLSign { names.append("cRLSign") }
        return names
    }

    private static func readKey(_ text: String, what: String) throws(ThreeDS2Error) -> (
        Certificate.PublicKey, Certificate?
    ) {
        do {
            if text.contains("-----BEGIN") {
                let document = try PEMDocument(pemString: text)
                switch document.discriminator {
                case "CERTIFICATE":
                    let certificate = try Certificate(pemDocument: document)
                    return (certificate.publicKey, certificate)
                case "PUBLIC KEY": return (try Certificate.PublicKey(pemDocument: document), nil)
                default:
                    throw ThreeDS2Error.invalidInput(
                        "\(what) is a PEM \(document.discriminator), expected a CERTIFICATE or PUBLIC KEY")
                }
            }
            let der = try Base64.standardDecode(text.filter { !$0.isWhitespace }, what: what)
            if let parsed = try? Certificate(derEncoded: der) { return (parsed.publicKey, parsed) }
            return (try Certificate.PublicKey(derEncoded: der), nil)
        } catch let error as ThreeDS2Error {
            throw error
        } catch {
            throw .invalidInput(
                "\(what) is not a readable certificate or public key (RSA needs at least 2048 bits, EC must be P-256)",
                underlying: error)
        }
    }
}

/// Dates in diagnostics: UTC, ISO 8601.
enum DateText {
    static func day(_ date: Date) -> String {
        String(instant(date).prefix(10))
    }

    /// The calendar days (UTC) from `start`'s day to `end`'s, as the dates ``day(_:)`` prints them: a certificate that
    /// ends on the 7th is "in 10 days" on the 27th before, whatever the hours (whole 24-hour periods would say 9).
    static func days(from start: Date, to end: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.dateComponents([.day], from: calendar.startOfDay(for: start), to: calendar.startOfDay(for: end))
            .day ?? 0
    }

    static func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
