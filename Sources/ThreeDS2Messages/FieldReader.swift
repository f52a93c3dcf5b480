public import ThreeDS2JOSE

/// The recorder a CRes is checked against (``ViolationRecorder``).
typealias CResRecorder = ViolationRecorder<ProtocolViolation>

/// Typed, bounded access to CRes fields: a present field of the wrong type or length is 203. A field found invalid
/// is recorded and read as absent.
struct FieldReader {
    let object: JSONObject
    let recorder: CResRecorder

    func string(_ name: String) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else {
            try recorder.invalid(.fieldNotString, name, "is a \(value.typeName), expected a string", seen: value)
            return nil
        }
        return text
    }

    func text(_ name: String, max: Int, reportedAs field: String? = nil) throws(ProtocolViolation) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard case .string(let text) = value else {
            try recorder.invalid(
                .fieldNotString, field ?? name, "is a \(value.typeName), expected a string", seen: value)
            return nil
        }
        guard !text.isEmpty else { return nil }
        guard PeerText.fits(text, max: max) else {
            try recorder.invalid(
                .textTooLong, field ?? name, "has more than \(max) characters", seen: value,
                requirement: "at most \(max) characters")
            return nil
        }
        return try isDisplayable(text, field: field ?? name) ? text : nil
    }

    /// A display field with a control or bidirectional control character is invalid (``PeerText``).
    ///
    /// - Returns: `false` when the text carries one (recorded).
    func isDisplayable(_ text: String, field: String) throws(ProtocolViolation) -> Bool {
        guard let scalar = PeerText.forbiddenScalar(in: text) else { return true }
        try recorder.invalid(
            .textControlCharacter, field,
            "carries the control character U+\(String(scalar.value, radix: 16, uppercase: true)), "
                + "which a display field may not", seen: .string(text))
        return false
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
        try extensionText(key, field: field, max: max, in: object, recorder: .stoppingAtFirst())
    }

    /// ``extensionText(_:field:max:in:)`` recording into `recorder`: the CRes validator's own, so an audit reports an
    /// extension's violations with the message's.
    static func extensionText(
        _ key: String, field: String, max: Int, in object: JSONObject, recorder: CResRecorder
    ) throws(ProtocolViolation) -> String? {
        try FieldReader(object: object, recorder: recorder).text(key, max: max, reportedAs: field)
    }
}
