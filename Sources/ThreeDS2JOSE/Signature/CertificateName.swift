import SwiftASN1
public import X509

/// Certificate names as people read them, whatever string type each attribute uses.
public enum CertificateName {
    /// `CN=…, OU=…, O=…, C=…` with every attribute value as text. swift-certificates keeps some string types (a
    /// PrintableString with `_`, for example, as production card-scheme certificates have) as raw ASN.1, which its
    /// own description prints as a byte list; here they are decoded to text.
    /// - Parameter name: The distinguished name.
    /// - Returns: The name as text.
    public static func readable(_ name: DistinguishedName) -> String {
        var parts: [String] = []
        for relativeName in name {
            for attribute in relativeName {
                let label: String
                switch attribute.type {
                case .RDNAttributeType.commonName: label = "CN"
                case .RDNAttributeType.organizationalUnitName: label = "OU"
                case .RDNAttributeType.organizationName: label = "O"
                case .RDNAttributeType.countryName: label = "C"
                case .RDNAttributeType.localityName: label = "L"
                case .RDNAttributeType.stateOrProvinceName: label = "ST"
                default: label = "\(attribute.type)"
                }
                parts.append("\(label)=\(visible(text(attribute.value)))")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// A name is whatever the certificate's maker wrote: control and bidirectional control characters are shown as
    /// `\u{…}` escapes, never passed on to a terminal or a log.
    static func visible(_ text: String) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func text(_ value: RelativeDistinguishedName.Attribute.Value) -> String {
        if let string = String(value) { return string }
        // A string type swift-certificates does not map: read the DER's content octets as UTF-8.
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(ASN1Any(value))) != nil,
            let node = try? DER.parse(serializer.serializedBytes), case .primitive(let bytes) = node.content
        else { return "\(value)" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
