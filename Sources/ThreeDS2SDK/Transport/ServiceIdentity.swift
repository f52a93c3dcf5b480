import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server-identity check of RFC 9525 for a TLS server certificate, done by the SDK itself so every transport
/// applies the same rule whatever its TLS library does.
///
/// - A host written as an IP literal (`127.0.0.1`, `[::1]`) matches only an `iPAddress` subject alternative name
///   with the same address bytes.
/// - Any other host is a DNS name and matches only a `dNSName` subject alternative name: compared case-insensitively
///   in ASCII, a trailing dot ignored, with a wildcard only as the whole left-most label, standing for exactly one
///   label. An `iPAddress` name never matches a DNS host, whatever address the name resolved to (swift-nio-ssl
///   matches it against the connected address, which lets a certificate for an IP address stand in for any name
///   that resolves there).
/// - The subject's common name is never consulted (RFC 9525 §6.3), so a certificate without subject alternative
///   names matches nothing.
public enum ServiceIdentity {
    /// Whether a certificate is valid for a host.
    ///
    /// - Parameters:
    ///   - certificateDER: The server's leaf certificate, DER.
    ///   - host: The host of the URL (an IPv6 literal may keep its brackets).
    /// - Returns: `true` when a subject alternative name of the right type matches.
    public static func matches(certificateDER: [UInt8], host: String) -> Bool {
        guard let certificate = try? Certificate(derEncoded: certificateDER),
            let names = try? certificate.extensions.subjectAlternativeNames
        else { return false }
        return matches(names: Array(names), host: host)
    }

    static func matches(names: [GeneralName], host: String) -> Bool {
        if let address = ipAddressBytes(host) {
            return names.contains { name in
                guard case .ipAddress(let octets) = name else { return false }
                return Array(octets.bytes) == address
            }
        }
        guard let reference = normalised(host), !reference.isEmpty else { return false }
        return names.contains { name in
            guard case .dnsName(let presented) = name, let presented = normalised(presented) else { return false }
            return dnsMatches(presented: presented, reference: reference)
        }
    }

    /// The address bytes when `host` is an IPv4 or IPv6 literal.
    static func ipAddressBytes(_ host: String) -> [UInt8]? {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Lower-case ASCII without a trailing dot; `nil` for anything but printable ASCII (an internationalised name
    /// must arrive as A-labels).
    private static func normalised(_ name: String) -> [UInt8]? {
        var bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        return bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    private static func dnsMatches(presented: [UInt8], reference: [UInt8]) -> Bool {
        let presentedLabels = presented.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let referenceLabels = reference.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard presentedLabels.count == referenceLabels.count,
            !referenceLabels.contains(where: \.isEmpty), !presentedLabels.contains(where: \.isEmpty)
        else { return false }
        for (index, (label, wanted)) in zip(presentedLabels, referenceLabels).enumerated() {
            if index == 0, Array(label) == [UInt8(ascii: "*")] {
                // A wildcard stands for one whole label, and never for the last two (a public suffix guess).
                guard presentedLabels.count >= 3 else { return false }
                continue
            }
            if label.contains(UInt8(ascii: "*")) { return false }
            guard Array(label) == Array(wanted) else { return false }
        }
        return true
    }
}
