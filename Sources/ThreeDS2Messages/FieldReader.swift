import ThreeDS2JOSE

/// Typed, bounded access to CRes fields: a present field of the wrong type or length is 203.
struct FieldReader {
    let object: JSONObject

    func string(_ name: String) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else { throw .invalid(name, "is a \(value.typeName), expected a string") }
        return text
    }

    func text(_ name: String, max: Int, reportedAs field: String? = nil) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else {
            throw .invalid(field ?? name, "is a \(value.typeName), expected a string")
        }
        guard !text.isEmpty else { return nil }
        guard PeerText.fits(text, max: max) else {
            throw .invalid(field ?? name, "has more than \(max) characters")
        }
        try Self.checkDisplayable(text, field: field ?? name)
        return text
    }

    /// A display field with a control or bidirectional control character is invalid (``PeerText``).
    static func checkDisplayable(_ text: String, field: String) throws(ProtocolViolation) {
        if let scalar = PeerText.forbiddenScalar(in: text) {
            throw .invalid(
                field,
                "carries the control character U+\(String(scalar.value, radix: 16, uppercase: true)), "
                    + "which a display field may not")
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
