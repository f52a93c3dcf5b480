public import ThreeDS2JOSE

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

extension ChallengeResponseValidator {
    /// A display string a message extension carries (Bridging's `oobAppLabel` and `oobAppURL`, and any extension
    /// read later), held to exactly the rule of the core CRes display fields: a string, at most `max` characters
    /// counted as Unicode scalars (``PeerText/length(_:)``), without a control or bidirectional control character
    /// (``PeerText/forbiddenScalar(in:)``). An empty string reads as absent.
    ///
    /// - Parameters:
    ///   - key: The member's name in `object`.
    ///   - field: The name an Erro message gives the data element (for example
    ///     `messageExtension.Bridging.challengeData.oobAppLabel`).
    ///   - max: The field's length in characters.
    ///   - object: The extension's object that holds the member.
    /// - Returns: The text, or `nil` when absent, `null` or empty.
    /// - Throws: ``ProtocolViolation`` (invalid data element, Erro 203) when the member breaks the rule.
    public static func extensionText(_ key: String, field: String, max: Int, in object: JSONObject)
        throws(ProtocolViolation) -> String?
    {
        try FieldReader(object: object).text(key, max: max, reportedAs: field)
    }
}
